// A grid topology as the body's mesh (io/sofa_grid_mesh.hpp).
#include "sofa_grid_mesh.hpp"

#include "eis/core/error.hpp"
#include "eis/core/parameters.hpp"
#include "sofa_grid.hpp"
#include "sofa_sparse_grid.hpp"

namespace eis::sofa {

namespace {

bool holdsTopology(const std::string& t) {
  const auto endsWith = [&](const std::string& end) {
    return t.size() >= end.size() && t.compare(t.size() - end.size(), end.size(), end) == 0;
  };
  return endsWith("TopologyContainer") || endsWith("GridTopology") || t == "MeshTopology";
}

// The topology a component of `node` works on: its node's (a node keeps one, the last one added:
// a TetrahedronSetTopologyContainer after the grid it is cut from), else the nearest ancestor's.
const SofaObject* topologyOf(const SofaNode* node) {
  for (; node; node = node->parent) {
    const SofaObject* last = nullptr;
    for (const SofaObject& o : node->objects)
      if (holdsTopology(o.type)) last = &o;
    if (last) return last;
  }
  return nullptr;
}

// The Hexa2TetraTopologicalMapping that fills `topology` with `grid`'s hexahedra, or nullptr.
const SofaObject* gridCutter(const Reader& reader, const SofaObject& topology,
                             const SofaObject& grid) {
  for (const SofaObject* o : reader.scene().objects())
    if (o->type == "Hexa2TetraTopologicalMapping" && reader.linked(*o, "input") == &grid &&
        reader.linked(*o, "output") == &topology)
      return o;
  return nullptr;
}

}  // namespace

// A RegularGridTopology as the body's mesh: its points, and its hexahedra cut as SOFA cuts them
// for the components that read the body's cells (io/sofa_grid.hpp), each on the topology it
// sees: a TetrahedronSetTopologyContainer that a Hexa2TetraTopologicalMapping fills from the grid
// (the mapping's cut), or the grid itself, which TetrahedronFEMForceField cuts on its own; the
// springs and the masses that would read the grid's hexahedra are refused, and so are two
// components that need two cuts (one body, one mesh). A HexahedronFEMForceField on the grid
// keeps its hexahedra, in SOFA's numbering: then no component may want them cut.
void mapGrid(Reader& reader, const SofaObject& grid,
             const std::vector<const SofaObject*>& components) {
  const RegularGrid mesh = regularGrid(reader, grid);
  GridCut cut = GridCut::ForceField;
  const SofaObject *cutter = nullptr, *first = nullptr, *hexahedral = nullptr;
  for (const SofaObject* c : components) {
    if (c->type == "HexahedronFEMForceField") {
      if (topologyOf(c->node) != &grid)
        throw Error(c->where + ": " + c->type + ": its topology (" +
                    (topologyOf(c->node) ? topologyOf(c->node)->label() : std::string("none")) +
                    ") is not " + grid.label() + ", whose hexahedra it would read");
      hexahedral = c;
      continue;
    }
    const bool onHexahedra = c->type == "MeshSpringForceField" || c->type == "DiagonalMass" ||
                             c->type == "MeshMatrixMass";
    if (!onHexahedra && c->type != "TetrahedronFEMForceField" &&
        c->type != "TetrahedralCorotationalFEMForceField" &&
        c->type != "TetrahedronHyperelasticityFEMForceField")
      continue;
    const SofaObject* topology = topologyOf(c->node);
    GridCut its = GridCut::ForceField;
    const SofaObject* by = nullptr;
    if (topology == &grid) {
      if (onHexahedra)
        throw Error(
            c->where + ": " + c->type + ": acts on the hexahedra of " + grid.label() +
            " (the topology of its node): not supported yet (a Hexa2TetraTopologicalMapping "
            "into a TetrahedronSetTopologyContainer of its node gives it tetrahedra)");
    } else {
      by = topology ? gridCutter(reader, *topology, grid) : nullptr;
      if (!by)
        throw Error(c->where + ": " + c->type + ": its topology (" +
                    (topology ? topology->label() : std::string("none")) + ") is neither " +
                    grid.label() + " nor its hexahedra cut by a Hexa2TetraTopologicalMapping");
      its = reader.boolean(*by, "swapping", false) ? GridCut::MappingWithSwapping
                                                   : GridCut::MappingWithoutSwapping;
    }
    if (first && its != cut)
      throw Error(c->where + ": " + c->type + ": reads the grid's cells cut otherwise than " +
                  first->label() + " does; a body of two cuts is not supported");
    if (!first) first = c, cut = its, cutter = by;
  }
  if (hexahedral && first)
    throw Error(first->where + ": " + first->type +
                ": reads the grid's cells cut into tetrahedra, "
                "and " +
                hexahedral->label() +
                " its hexahedra; a body of two meshes is not "
                "supported");
  std::string nodes, cells;
  for (const auto& p : mesh.points)
    for (double x : p) nodes += (nodes.empty() ? "" : " ") + parse::text(x);
  reader.key("mesh.nodes", nodes);
  if (hexahedral) {
    for (const auto& h : mesh.hexahedra)
      for (long long v : h) cells += (cells.empty() ? "" : " ") + std::to_string(v);
    reader.key("mesh.hexahedra", cells);
    reader.note(grid.label() + ": a grid of " + std::to_string(mesh.n[0]) + " x " +
                std::to_string(mesh.n[1]) + " x " + std::to_string(mesh.n[2]) + " points and " +
                std::to_string(mesh.hexahedra.size()) + " hexahedra");
    return;
  }
  for (const auto& t : cutIntoTetrahedra(mesh, cut))
    for (long long v : t) cells += (cells.empty() ? "" : " ") + std::to_string(v);
  reader.key("mesh.tetrahedra", cells);
  reader.note(grid.label() + ": a grid of " + std::to_string(mesh.n[0]) + " x " +
              std::to_string(mesh.n[1]) + " x " + std::to_string(mesh.n[2]) + " points, its " +
              std::to_string(mesh.hexahedra.size()) + " hexahedra cut into 6 tetrahedra each" +
              (cutter ? " by " + cutter->label() : " as TetrahedronFEMForceField cuts them"));
}

// A SparseGridTopology as the body's mesh: the points and hexahedra SOFA keeps of its surface,
// in SOFA's numbering (io/sofa_sparse_grid.hpp). Of the components that read a body's cells,
// HexahedronFEMForceField is supported on it, with the stiffness SOFA gives each cell
// (HexahedronFEMForceField::computeElementStiffness scales it by the grid's getStiffnessCoef:
// a half for the boundary cells when fillWeighted); the others are refused.
void mapSparseGrid(Reader& reader, const SofaObject& grid, const std::string& surfacePath,
                   const std::vector<const SofaObject*>& components) {
  const SofaObject* hexahedral = nullptr;
  for (const SofaObject* c : components) {
    if (c->type == "HexahedronFEMForceField") {
      if (topologyOf(c->node) != &grid)
        throw Error(c->where + ": " + c->type + ": its topology (" +
                    (topologyOf(c->node) ? topologyOf(c->node)->label() : std::string("none")) +
                    ") is not " + grid.label() + ", whose hexahedra it would read");
      hexahedral = c;
    } else if (c->type == "MeshSpringForceField" || c->type == "DiagonalMass" ||
               c->type == "MeshMatrixMass" || c->type == "TetrahedronFEMForceField" ||
               c->type == "TetrahedralCorotationalFEMForceField" ||
               c->type == "TetrahedronHyperelasticityFEMForceField") {
      throw Error(c->where + ": " + c->type + ": reads the cells of " + grid.label() +
                  ", a SparseGridTopology: not supported yet (HexahedronFEMForceField is)");
    }
  }
  const SparseGrid mesh = sparseGrid(reader, grid, surfacePath);
  std::string nodes, cells, factors;
  for (const auto& p : mesh.points)
    for (double x : p) nodes += (nodes.empty() ? "" : " ") + parse::text(x);
  for (const auto& h : mesh.hexahedra)
    for (long long v : h) cells += (cells.empty() ? "" : " ") + std::to_string(v);
  reader.key("mesh.nodes", nodes);
  reader.key("mesh.hexahedra", cells);
  bool weighted = false;
  for (double f : mesh.stiffness) {
    factors += (factors.empty() ? "" : " ") + parse::text(f);
    weighted = weighted || f != 1;
  }
  if (hexahedral && weighted) reader.key("material.cell-stiffness-factor", factors);
  reader.note(grid.label() + ": a sparse grid of " + std::to_string(mesh.n[0]) + " x " +
              std::to_string(mesh.n[1]) + " x " + std::to_string(mesh.n[2]) + " points; " +
              std::to_string(mesh.points.size()) + " points and " +
              std::to_string(mesh.hexahedra.size()) + " hexahedra kept (" +
              std::to_string(mesh.boundaryCells) + " on the surface" +
              (hexahedral && weighted ? ", at half stiffness" : "") + ")");
}

}  // namespace eis::sofa
