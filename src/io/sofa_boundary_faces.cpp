// Tetra2TriangleTopologicalMapping.cpp (init): the output container is cleared and given the
// input's points; with noInitialTriangles it stays empty; else every triangle of the input
// around which exactly one tetrahedron lies is added, in the input's triangle order, as
// (t0 t1 t2), or (t0 t2 t1) with flipNormals (default false). The order and vertex order of the
// input's triangles are TetrahedronSetTopologyContainer::createTriangleSetArray's
// (mesh/boundary_faces). noNewTriangles acts on topological changes alone.
// Hexa2QuadTopologicalMapping.cpp (init): the same with the quadrangles of one hexahedron,
// (q3 q2 q1 q0) with flipNormals: the input's getQuads() in order, those with one hexahedron
// around them (MeshTopology::getHexahedraAroundQuad, by vertex set).
// Quad2TriangleTopologicalMapping of a QuadSetTopologyContainer that holds the body's own flat
// grid quadrangles: each of the body's quadrangles split, membrane.faces = split-quadrangles.
#include "sofa_boundary_faces.hpp"

#include "sofa_grid.hpp"

namespace eis::sofa {

namespace {

bool volumeContainer(const std::string& type) {
  return type == "TetrahedronSetTopologyContainer" || type == "MeshTopology";
}

// The object a link field names itself (Reader::linked goes on through the object's src, and a
// container's src is its loader).
const SofaObject* named(const Reader& r, const SofaObject& o, const std::string& field) {
  const std::string* link = o.field(field);
  if (!link || !isSofaLink(*link)) return nullptr;
  return r.scene().resolve(*o.node, *link, r.where(o, field), &o).object;
}

bool isRegularGrid(const std::string& type) {
  return type == "RegularGridTopology" || type == "GridTopology";
}

// The topology a field of quadrangles works on (`o` a container itself, as a
// Quad2TriangleTopologicalMapping's input, or a field reading one), and the last
// Hexa2QuadTopologicalMapping that fills it, or nullptr.
const SofaObject* hexa2QuadOf(const Reader& r, const SofaObject& o) {
  const SofaObject* topology = o.type.find("TopologyContainer") != std::string::npos ? &o
                               : o.field("topology") ? named(r, o, "topology")
                                                     : topologyOf(o.node);
  const SofaObject* last = nullptr;
  if (topology)
    for (const SofaObject& m : topology->node->objects)
      if (m.type == "Hexa2QuadTopologicalMapping" && named(r, m, "output") == topology) last = &m;
  return last;
}

// Whether `quads` is a QuadSetTopologyContainer holding the quadrangles of the flat grid the
// body in its node is made of (src="@grid" or quads="@grid.quads": GridTopology::updateQuads'
// order, the body's mesh.quadrangles when a mass integrates them).
bool bodyGridQuads(const Reader& r, const SofaObject& quads) {
  if (quads.type != "QuadSetTopologyContainer" || !r.gave("mesh.quadrangles")) return false;
  const SofaObject* grid = r.linked(quads, "quads");
  if (!grid || !isRegularGrid(grid->type)) return false;
  for (const SofaObject& state : quads.node->objects)
    if (state.type == "MechanicalObject") return r.linked(state, "position") == grid;
  return false;
}

}  // namespace

std::optional<std::string> triangleFacesOf(const Reader& r, const SofaObject& o,
                                           const std::string& field) {
  const SofaObject* topology = o.field("topology") ? named(r, o, "topology") : topologyOf(o.node);
  if (!topology) return "cells";
  for (const SofaObject& m : topology->node->objects) {
    if (m.type.size() < 18 || m.type.compare(m.type.size() - 18, 18, "TopologicalMapping") != 0)
      continue;
    if (named(r, m, "output") != topology) continue;
    if (m.type == "Quad2TriangleTopologicalMapping") {
      // Quad2TriangleTopologicalMapping (init): each quadrangle of its input in order, as
      // (q1 q2 q0), (q3 q0 q2); swapping (default false) alternates the diagonal.
      if (r.boolean(m, "swapping", false))
        r.reject(m, "swapping", "the alternating diagonals are not supported");
      const SofaObject* quads = named(r, m, "input");
      if (!quads) r.reject(m, "input", "expected the quadrangles of a Hexa2QuadTopologicalMapping");
      if (bodyGridQuads(r, *quads)) {
        if (o.type == "TriangularBendingSprings")
          r.reject(o, field,
                   "on the triangles split from a body of quadrangles: not supported (a "
                   "membrane's are)");
        return "split-quadrangles";
      }
      return quadFacesOf(r, *quads, field, o.type == "TriangularBendingSprings");
    }
    if (m.type != "Tetra2TriangleTopologicalMapping")
      r.reject(o, field,
               "the triangles of a " + m.type + " are not supported (a " +
                   "Tetra2TriangleTopologicalMapping's or Quad2TriangleTopologicalMapping's are)");
    const SofaObject* input = named(r, m, "input");
    if (!input || !volumeContainer(input->type))
      r.reject(m, "input", "expected the body's TetrahedronSetTopologyContainer");
    if (r.boolean(m, "noInitialTriangles", false)) return std::nullopt;
    return r.boolean(m, "flipNormals", false) ? "boundary-flipped" : "boundary";
  }
  return "cells";
}

std::string quadFacesOf(const Reader& r, const SofaObject& o, const std::string& field,
                        bool orderFree) {
  const SofaObject* m = hexa2QuadOf(r, o);
  if (!m)
    r.reject(o, field,
             "supported on the quadrangles a Hexa2QuadTopologicalMapping makes of the body's "
             "hexahedra only");
  const SofaObject* input = named(r, *m, "input");
  const bool grid = input && isRegularGrid(input->type);
  if (!input || !(input->type == "HexahedronSetTopologyContainer" || (grid && orderFree)))
    r.reject(*m, "input",
             grid ? "a grid's quadrangles, in GridTopology's order and vertex order, are supported "
                    "for bending springs alone (a membrane's or a pressure's result depends on "
                    "them)"
                  : "expected the body's HexahedronSetTopologyContainer or RegularGridTopology");
  return r.boolean(*m, "flipNormals", false) ? "boundary-flipped" : "boundary";
}

bool filledByHexa2Quad(const Reader& r, const SofaObject& o) {
  return hexa2QuadOf(r, o);
}

std::optional<std::vector<std::array<long long, 4>>> gridBoundaryQuads(const Reader& r,
                                                                       const SofaObject& o) {
  const SofaObject* m = hexa2QuadOf(r, o);
  const SofaObject* input = m ? named(r, *m, "input") : nullptr;
  if (!input || !isRegularGrid(input->type)) return std::nullopt;
  const RegularGrid grid = regularGrid(r, *input);
  if (grid.dimension() != 3)
    r.reject(*m, "input", "a grid of one point along an axis has no hexahedra");
  const bool flip = r.boolean(*m, "flipNormals", false);
  const long long nx = grid.n[0], ny = grid.n[1], nz = grid.n[2];
  const auto point = [&](long long x, long long y, long long z) { return x + nx * (y + ny * z); };
  std::vector<std::array<long long, 4>> quads;
  auto add = [&](bool outer, std::array<long long, 4> q) {
    if (!outer) return;
    if (flip) q = {q[3], q[2], q[1], q[0]};
    quads.push_back(q);
  };
  for (long long z = 0; z < nz; ++z)
    for (long long y = 0; y + 1 < ny; ++y)
      for (long long x = 0; x + 1 < nx; ++x)
        add(z == 0 || z == nz - 1,
            {point(x, y, z), point(x + 1, y, z), point(x + 1, y + 1, z), point(x, y + 1, z)});
  for (long long z = 0; z + 1 < nz; ++z)
    for (long long y = 0; y < ny; ++y)
      for (long long x = 0; x + 1 < nx; ++x)
        add(y == 0 || y == ny - 1,
            {point(x, y, z), point(x + 1, y, z), point(x + 1, y, z + 1), point(x, y, z + 1)});
  for (long long z = 0; z + 1 < nz; ++z)
    for (long long y = 0; y + 1 < ny; ++y)
      for (long long x = 0; x < nx; ++x)
        add(x == 0 || x == nx - 1,
            {point(x, y, z), point(x, y + 1, z), point(x, y + 1, z + 1), point(x, y, z + 1)});
  return quads;
}

}  // namespace eis::sofa
