// A grid topology as the body's mesh (io/sofa_grid_mesh.hpp).
#include "sofa_grid_mesh.hpp"

#include <algorithm>

#include "eis/core/error.hpp"
#include "eis/core/parameters.hpp"
#include "sofa_grid.hpp"
#include "sofa_sparse_grid.hpp"
#include "sofa_subset_topology.hpp"

namespace eis::sofa {

namespace {

// The topology a topological mapping's `input` names: the object linked, or for a link to a
// node ("@../") the node's topology, as SOFA finds a BaseMeshTopology at a node.
const SofaObject* mappingInput(const Reader& reader, const SofaObject& mapping) {
  if (const SofaObject* linked = reader.linked(mapping, "input")) return linked;
  const std::string* link = mapping.field("input");
  if (!link || !isSofaLink(*link)) return nullptr;
  const SofaLinkTarget target =
      reader.scene().resolve(*mapping.node, *link, mapping.where, &mapping);
  return target.node && !target.object ? topologyOf(target.node) : nullptr;
}

// The Hexa2TetraTopologicalMapping that fills `topology` with `grid`'s hexahedra, or nullptr.
// A topology that links its tetrahedra to such a mapping's output and its positions to the
// grid's ("@../volume/Container.tetrahedra", "@../volume/grid.position"), or copies that output
// whole (src="@../volume/Container"), holds the same cells.
const SofaObject* gridCutter(const Reader& reader, const SofaObject& topology,
                             const SofaObject& grid) {
  const SofaObject* cells = reader.linked(topology, "tetrahedra");
  const SofaObject* points = reader.linked(topology, "position");
  if (cells && points != &grid && points != cells) cells = nullptr;
  for (const SofaObject* o : reader.scene().objects()) {
    if (o->type != "Hexa2TetraTopologicalMapping" || mappingInput(reader, *o) != &grid) continue;
    const SofaObject* output = reader.linked(*o, "output");
    if (output == &topology || (cells && output == cells)) return o;
  }
  return nullptr;
}

// A HexahedronSetTopologyContainer that takes a regular grid's hexahedra (src="@grid", or
// hexahedra="@grid.hexahedra") holds them in the grid's order and on its points: a dynamic
// container, which a TopologicalChangeProcessor edits, over the grid's cells.
bool holdsGridHexahedra(const Reader& reader, const SofaObject& topology, const SofaObject& grid) {
  return topology.type == "HexahedronSetTopologyContainer" &&
         reader.linked(topology, "hexahedra") == &grid;
}

// Which of the grid's cells the body's components read: its hexahedra (a
// HexahedronFEMForceField), or their tetrahedra, cut as the first tetrahedral reader cuts them.
struct CellReaders {
  GridCut cut = GridCut::ForceField;
  const SofaObject* cutter = nullptr;      // the Hexa2TetraTopologicalMapping, if one cuts
  const SofaObject* hexahedral = nullptr;  // a component that reads the hexahedra, if one
  bool fem = false;                        // whether a hexahedral FEM force field is one
  const SofaObject* cutFem = nullptr;      // a tetrahedral FEM beside `hexahedral`, if one
};

// Each component that reads cells, on the topology it sees: a TetrahedronSetTopologyContainer
// that a Hexa2TetraTopologicalMapping fills from the grid (the mapping's cut), or the grid
// itself, which TetrahedronFEMForceField cuts on its own. A HexahedronFEMForceField(AndMass)
// reads the grid's hexahedra; so do, on a regular grid (`regular`), DiagonalMass,
// MeshMatrixMass, MeshSpringForceField and RegularGridSpringForceField on the grid (model/mass,
// model/mesh_springs), and on a sparse grid MeshSpringForceField; a sparse grid's masses are
// refused. Two components that need two cuts, or
// both hexahedra and tetrahedra, are refused (one body, one mesh), but for tetrahedral FEM force
// fields beside a mass or springs on the hexahedra: the mesh stays hexahedral and the FEM reads
// it cut (material.hexahedron-cut, model/cut_cells).
CellReaders cellReaders(const Reader& reader, const SofaObject& grid,
                        const std::vector<const SofaObject*>& components, bool regular) {
  CellReaders out;
  const SofaObject* first = nullptr;
  const SofaObject* cutMass = nullptr;  // a mass or springs that read the tetrahedra
  for (const SofaObject* c : components) {
    const SofaObject* topology = topologyOf(c->node);
    // Another RegularGridTopology of as many points along each axis has the same cells, in the
    // same numbering (SOFA's TetrahedronHyperelasticityFEMForceField_invertedTets.scn gives its
    // state a second grid's points as the starting position, and that grid is its node's
    // topology).
    if (regular && topology && topology != &grid && topology->type == "RegularGridTopology" &&
        regularGrid(reader, *topology, true).n == regularGrid(reader, grid, true).n)
      topology = &grid;
    // A MeshTopology or container that links a sparse grid's hexahedra gives the tetrahedral
    // force fields the grid's cells, cut as the grid's (neither is a GridTopology); a hexahedral
    // FEM force field on it would read no stiffness coefficient, and stays refused.
    if (!regular && !readsHexahedra(c->type) && topology && topology != &grid &&
        reader.linked(*topology, "hexahedra") == &grid)
      topology = &grid;
    if (regular && topology && topology != &grid &&
        (readsHexahedra(c->type) || c->type == "DiagonalMass" || c->type == "MeshMatrixMass") &&
        holdsGridHexahedra(reader, *topology, grid))
      topology = &grid;
    const bool onHexahedra = c->type == "MeshSpringForceField" || c->type == "DiagonalMass" ||
                             c->type == "MeshMatrixMass" ||
                             c->type == "RegularGridSpringForceField";
    // On a sparse grid, a MeshSpringForceField's springs are its cubes' (every two vertices of
    // a hexahedron, io/sofa_springs.cpp), unless the grid keeps triangles or quads written in
    // it: they index the surface's points, and SOFA's springs would join the grid's points.
    const bool springs = c->type == "MeshSpringForceField";
    if (springs && !regular && topology == &grid)
      for (const char* field : {"triangles", "quads"})
        if (reader.given(grid, field))
          throw Error(c->where + ": " + c->type + ": " + grid.label() + " keeps its " + field +
                      ", written for its surface, and SOFA's springs would join the grid's "
                      "points of those numbers: not supported");
    if (readsHexahedra(c->type) || ((regular || springs) && onHexahedra && topology == &grid)) {
      if (topology != &grid)
        throw Error(c->where + ": " + c->type + ": its topology (" +
                    (topology ? topology->label() : std::string("none")) + ") is not " +
                    grid.label() + ", whose hexahedra it would read");
      out.hexahedral = c;
      out.fem = out.fem || readsHexahedra(c->type);
      continue;
    }
    if (!onHexahedra && c->type != "TetrahedronFEMForceField" &&
        c->type != "TetrahedralCorotationalFEMForceField" &&
        c->type != "TetrahedronHyperelasticityFEMForceField" &&
        c->type != "StandardTetrahedralFEMForceField")
      continue;
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
    if (first && its != out.cut)
      throw Error(c->where + ": " + c->type + ": reads the grid's cells cut otherwise than " +
                  first->label() + " does; a body of two cuts is not supported");
    if (!first) first = c, out.cut = its, out.cutter = by;
    if (onHexahedra && !cutMass) cutMass = c;
  }
  if (out.hexahedral && first && (cutMass || out.fem)) {
    const SofaObject* tetrahedral = cutMass ? cutMass : first;
    throw Error(tetrahedral->where + ": " + tetrahedral->type +
                ": reads the grid's cells cut into tetrahedra, and " + out.hexahedral->label() +
                " its hexahedra; a body of two meshes is not supported (a tetrahedral FEM force "
                "field beside a mass or springs on the hexahedra is)");
  }
  if (out.hexahedral && first) out.cutFem = first;
  return out;
}

// mesh.nodes, and mesh.hexahedra or mesh.tetrahedra as `readers` want them; for the start-up
// line, who cut the tetrahedra ("" for hexahedra).
std::string writeCells(Reader& reader, const RegularGrid& mesh, const CellReaders& readers) {
  std::string nodes, cells;
  for (const auto& p : mesh.points)
    for (double x : p) nodes += (nodes.empty() ? "" : " ") + parse::text(x);
  reader.key("mesh.nodes", nodes);
  if (readers.hexahedral) {
    for (const auto& h : mesh.hexahedra)
      for (long long v : h) cells += (cells.empty() ? "" : " ") + std::to_string(v);
    reader.key("mesh.hexahedra", cells);
    if (!readers.cutFem) return "";
    std::string slots;
    const auto tetrahedra = cutIntoTetrahedra(mesh, readers.cut);
    for (std::size_t t = 0; t < tetrahedra.size(); ++t)
      for (long long v : tetrahedra[t]) {
        const auto& h = mesh.hexahedra[t / 6];
        slots += (slots.empty() ? "" : " ") +
                 std::to_string(std::find(h.begin(), h.end(), v) - h.begin());
      }
    reader.key("material.hexahedron-cut", slots);
    return "for " + readers.cutFem->label() + " (" +
           (readers.cutter ? "by " + readers.cutter->label()
                           : std::string("as TetrahedronFEMForceField cuts them")) +
           "), whole for " + readers.hexahedral->label();
  }
  for (const auto& t : cutIntoTetrahedra(mesh, readers.cut))
    for (long long v : t) cells += (cells.empty() ? "" : " ") + std::to_string(v);
  reader.key("mesh.tetrahedra", cells);
  return readers.cutter ? "by " + readers.cutter->label()
                        : std::string("as TetrahedronFEMForceField cuts them");
}

template <std::size_t N>
std::string idList(const std::vector<std::array<long long, N>>& cells) {
  std::string ids;
  for (const auto& c : cells)
    for (long long v : c) ids += (ids.empty() ? "" : " ") + std::to_string(v);
  return ids;
}

// A grid of one point along one or two axes: its quads, cut into triangles where a triangle
// force field reads the grid (GridTopology::getTriangles), or its edges. A component that reads
// volume cells is refused, and so is a DiagonalMass or MeshMatrixMass (on the quads) beside a
// reader of the triangles.
void mapFlatGrid(Reader& reader, const SofaObject& grid, const RegularGrid& mesh,
                 const std::vector<const SofaObject*>& components) {
  std::string nodes;
  for (const auto& p : mesh.points)
    for (double x : p) nodes += (nodes.empty() ? "" : " ") + parse::text(x);
  reader.key("mesh.nodes", nodes);
  const SofaObject* triangleReader = nullptr;
  const SofaObject* triangleSprings = nullptr;  // a reader of the triangles that is no FEM
  const SofaObject* cellMass = nullptr;
  for (const SofaObject* c : components) {
    if (topologyOf(c->node) != &grid) continue;
    if (readsHexahedra(c->type) || c->type == "TetrahedronFEMForceField" ||
        c->type == "TetrahedralCorotationalFEMForceField" ||
        c->type == "TetrahedronHyperelasticityFEMForceField" ||
        c->type == "StandardTetrahedralFEMForceField")
      throw Error(c->where + ": " + c->type + ": reads volume cells, and " + grid.label() +
                  " has " + std::to_string(mesh.dimension()) + "D cells");
    // GridTopology's lines come from its triangles (updateEdges), one diagonal a quad: the
    // triangles' edges are MeshSpringForceField's lines.
    if (c->type == "TriangularFEMForceField" || c->type == "TriangleFEMForceField" ||
        c->type == "TriangularBendingSprings" || c->type == "MeshSpringForceField")
      triangleReader = c;
    if (c->type == "TriangularBendingSprings" || c->type == "MeshSpringForceField")
      triangleSprings = c;
    if (c->type == "DiagonalMass" || c->type == "MeshMatrixMass") cellMass = c;
  }
  // SOFA's masses take a 2D grid's quads (its largest cells), whatever the triangles beside them:
  // the body keeps the quads, and a triangle FEM reads them cut (membrane.faces =
  // cut-quadrangles, io/sofa_triangle_fem.cpp); springs on the triangles' edges are refused.
  if (cellMass && triangleSprings && mesh.dimension() == 2)
    throw Error(cellMass->where + ": " + cellMass->type + ": integrates the quads of " +
                grid.label() + ", and " + triangleSprings->label() +
                " reads its triangles; a body of two meshes is not supported (UniformMass is)");
  if (cellMass && mesh.dimension() == 2) triangleReader = nullptr;
  const std::string size = std::to_string(mesh.n[0]) + " x " + std::to_string(mesh.n[1]) + " x " +
                           std::to_string(mesh.n[2]) + " points";
  if (mesh.dimension() == 1) {
    reader.key("mesh.edges", idList(mesh.edges));
    reader.note(grid.label() + ": a line of " + size + " and " + std::to_string(mesh.edges.size()) +
                " edges");
  } else if (triangleReader) {
    const auto triangles = gridTriangles(mesh);
    reader.key("mesh.triangles", idList(triangles));
    reader.note(grid.label() + ": a grid of " + size + ", its " +
                std::to_string(mesh.quads.size()) + " quads cut into " +
                std::to_string(triangles.size()) + " triangles for " + triangleReader->label());
  } else {
    reader.key("mesh.quadrangles", idList(mesh.quads));
    reader.note(grid.label() + ": a grid of " + size + " and " + std::to_string(mesh.quads.size()) +
                " quads");
  }
}

}  // namespace

// A RegularGridTopology as the body's mesh: its points, and its hexahedra as the components that
// read the body's cells want them (io/sofa_grid.hpp), in SOFA's numbering; a grid of one point
// along an axis gives its quads, along two its edges.
void mapGrid(Reader& reader, const SofaObject& grid,
             const std::vector<const SofaObject*>& components, const SofaObject* childHexahedral) {
  const RegularGrid mesh = regularGrid(reader, grid);
  if (mesh.dimension() < 3) {
    if (childHexahedral)
      throw Error(childHexahedral->where + ": " + childHexahedral->type +
                  ": reads the hexahedra of " + grid.label() +
                  ", a grid of one point along an axis, which has none");
    mapFlatGrid(reader, grid, mesh, components);
    return;
  }
  CellReaders readers = cellReaders(reader, grid, components, true);
  if (childHexahedral && !readers.hexahedral) {
    if (readers.cutter)
      throw Error(readers.cutter->where + ": " + readers.cutter->type + ": cuts " + grid.label() +
                  " into tetrahedra, and " + childHexahedral->label() +
                  " reads its hexahedra; a body of two meshes is not supported");
    readers.hexahedral = childHexahedral;
  }
  const std::string cut = writeCells(reader, mesh, readers);
  const std::string hexahedra = std::to_string(mesh.hexahedra.size()) + " hexahedra";
  reader.note(grid.label() + ": a grid of " + std::to_string(mesh.n[0]) + " x " +
              std::to_string(mesh.n[1]) + " x " + std::to_string(mesh.n[2]) + " points" +
              (cut.empty() ? " and " + hexahedra
               : cut.rfind("for ", 0) == 0
                   ? ", its " + hexahedra + ", cut into 6 tetrahedra each " + cut
                   : ", its " + hexahedra + " cut into 6 tetrahedra each " + cut));
}

SparseGrid sceneSparseGrid(Reader& reader, const SofaObject& grid, std::vector<GridLevel>* finer) {
  // SOFA's data field is `filename`, `fileTopology` its alias.
  const char* field = grid.field("fileTopology") ? "fileTopology" : "filename";
  const std::string surface = reader.given(grid, field) ? reader.file(grid, field) : "";
  std::vector<std::string> surfaces;
  if (grid.type == "SparseGridMultipleTopology")
    for (const std::string& name : parse::tokens(reader.text(grid, "fileTopologies").value_or("")))
      surfaces.push_back(reader.file(grid, "fileTopologies", name));
  const auto linkedPoints = linkedSubsetPoints(reader, grid, "position");
  return sparseGrid(reader, grid, surface, surfaces, linkedPoints ? &*linkedPoints : nullptr,
                    finer);
}

// A SparseGridTopology as the body's mesh: the points and hexahedra SOFA keeps of its surface,
// in SOFA's numbering (io/sofa_sparse_grid.hpp), as the components that read the body's cells
// want them. A HexahedronFEMForceField gets the stiffness SOFA gives each cell
// (computeElementStiffness scales it by the grid's getStiffnessCoef: a half for the boundary
// cells when fillWeighted, or with nbVirtualFinerLevels the mean of its finer cells');
// TetrahedronFEMForceField and Hexa2TetraTopologicalMapping cut a topology that is no GridTopology
// as if it had 2 x 1 cells a layer (nx = 2, ny = 1 in their init), and read no coefficient.
void mapSparseGrid(Reader& reader, const SofaObject& grid,
                   const std::vector<const SofaObject*>& components) {
  const CellReaders readers = cellReaders(reader, grid, components, false);
  std::vector<GridLevel> finer;
  const SparseGrid mesh = sceneSparseGrid(reader, grid, &finer);
  // NonUniformHexahedronFEMForceFieldAndMass (and HexahedronCompositeFEMForceFieldAndMass)
  // condenses its stiffness from the finer levels.
  bool condensed = false;
  for (const SofaObject* c : components)
    if (c->type == "NonUniformHexahedronFEMForceFieldAndMass" ||
        c->type == "HexahedronCompositeFEMForceFieldAndMass") {
      mapNonUniformLevels(reader, grid, *c, mesh, finer);
      condensed = reader.real(*c, "nbVirtualFinerLevels", 0) != 0;
    }
  RegularGrid cells;
  cells.n = {3, 2, 2};
  cells.points = mesh.points;
  cells.hexahedra = mesh.hexahedra;
  const std::string cut = writeCells(reader, cells, readers);
  std::string factors, massFactors;
  bool weighted = false, massWeighted = false, halves = true;
  for (double f : mesh.stiffness) {
    factors += (factors.empty() ? "" : " ") + parse::text(f);
    weighted = weighted || f != 1;
    halves = halves && (f == 1 || f == 0.5);
  }
  for (double f : mesh.mass) {
    massFactors += (massFactors.empty() ? "" : " ") + parse::text(f);
    massWeighted = massWeighted || f != 1;
  }
  weighted = weighted && readers.fem;
  // HexahedronFEMForceFieldAndMass scales each cell's element mass, and the mass gravity acts
  // on, by the grid's getMassCoef: the stiffness's coefficients, but a
  // SparseGridMultipleTopology's own from its massCoefs (not without useMass).
  for (const SofaObject* c : components)
    if (massWeighted && readers.fem &&
        (c->type == "HexahedronFEMForceFieldAndMass" ||
         ((c->type == "NonUniformHexahedronFEMForceFieldAndMass" ||
           c->type == "HexahedronCompositeFEMForceFieldAndMass") &&
          reader.boolean(*c, "useMass", true))))
      reader.key("mass.cell-factor", massFactors);
  if (weighted && !condensed) reader.key("material.cell-stiffness-factor", factors);
  const std::string weight = !weighted ? ""
                             : halves  ? ", at half stiffness"
                                       : "; stiffness from the finer levels";
  reader.note(grid.label() + ": a sparse grid of " + std::to_string(mesh.n[0]) + " x " +
              std::to_string(mesh.n[1]) + " x " + std::to_string(mesh.n[2]) + " points; " +
              std::to_string(mesh.points.size()) + " points and " +
              std::to_string(mesh.hexahedra.size()) + " hexahedra kept (" +
              std::to_string(mesh.boundaryCells) + " on the surface" + weight + ")" +
              (cut.empty() ? "" : ", cut into 6 tetrahedra each " + cut));
}

}  // namespace eis::sofa
