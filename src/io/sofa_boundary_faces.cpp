// Tetra2TriangleTopologicalMapping.cpp (init): the output container is cleared and given the
// input's points; with noInitialTriangles it stays empty; else every triangle of the input
// around which exactly one tetrahedron lies is added, in the input's triangle order, as
// (t0 t1 t2), or (t0 t2 t1) with flipNormals (default false). The order and vertex order of the
// input's triangles are TetrahedronSetTopologyContainer::createTriangleSetArray's
// (mesh/boundary_faces). noNewTriangles acts on topological changes alone.
// Hexa2QuadTopologicalMapping.cpp (init): the same with the quadrangles of one hexahedron,
// (q3 q2 q1 q0) with flipNormals.
#include "sofa_boundary_faces.hpp"

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
      return quadFacesOf(r, *quads, field);
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

std::string quadFacesOf(const Reader& r, const SofaObject& o, const std::string& field) {
  // `o` a container itself (a Quad2TriangleTopologicalMapping's input), or a field reading one.
  const SofaObject* topology = o.type.find("TopologyContainer") != std::string::npos ? &o
                               : o.field("topology") ? named(r, o, "topology")
                                                     : topologyOf(o.node);
  if (topology)
    for (const SofaObject& m : topology->node->objects) {
      if (m.type != "Hexa2QuadTopologicalMapping" || named(r, m, "output") != topology) continue;
      const SofaObject* input = named(r, m, "input");
      if (!input || input->type != "HexahedronSetTopologyContainer")
        r.reject(m, "input",
                 "expected the body's HexahedronSetTopologyContainer (a grid's quadrangles are "
                 "not supported)");
      return r.boolean(m, "flipNormals", false) ? "boundary-flipped" : "boundary";
    }
  r.reject(o, field,
           "supported on the quadrangles a Hexa2QuadTopologicalMapping makes of the body's "
           "hexahedra only");
}

}  // namespace eis::sofa
