#include "eis/mesh/metis_partition.hpp"

#include <limits>
#include <string>

#include "eis/core/error.hpp"

namespace eis {

CompactMesh compactMesh(const SerialMesh& serial) {
  // METIS here takes 32-bit indices, and the cell pointer array holds corners() per cell.
  if (serial.cells.flat().size() > std::size_t(std::numeric_limits<idx_t>::max()))
    throw Error("the mesh has " + std::to_string(serial.cells.size()) + " " +
                pluralNameOf(serial.cells.type()) +
                ", more than METIS's 32-bit indices can number");
  std::vector<idx_t> compactId(serial.nodes.size(), -1);
  for (auto n : serial.cells.flat()) compactId[n] = 0;
  CompactMesh mesh;
  mesh.type = serial.cells.type();
  for (std::size_t n = 0; n < serial.nodes.size(); ++n) {
    if (compactId[n] < 0) {
      mesh.unusedNodeIds.push_back(std::int64_t(n));
      continue;
    }
    compactId[n] = idx_t(mesh.nodeIds.size());
    mesh.nodeIds.push_back(std::int64_t(n));
  }
  mesh.cells.reserve(serial.cells.flat().size());
  for (auto n : serial.cells.flat()) mesh.cells.push_back(compactId[n]);
  return mesh;
}

namespace {

// METIS_PartMeshDual on cells given as METIS takes them (eptr, eind: its own copies, which it
// may change); neighbours share `ncommon` nodes.
CellPartition metisParts(std::vector<idx_t> eptr, std::vector<idx_t> eind, idx_t nn, idx_t ncommon,
                         int parts) {
  idx_t ne = idx_t(eptr.size()) - 1, nparts = parts, objval = 0;
  CellPartition result;
  result.part.assign(ne, 0);
  std::vector<idx_t> nodePart(nn, 0);
  idx_t options[METIS_NOPTIONS];
  if (METIS_SetDefaultOptions(options) != METIS_OK) throw Error("METIS_SetDefaultOptions failed");
  options[METIS_OPTION_SEED] = 1;
  const int status =
      METIS_PartMeshDual(&ne, &nn, eptr.data(), eind.data(), nullptr, nullptr, &ncommon, &nparts,
                         nullptr, options, &objval, result.part.data(), nodePart.data());
  if (status != METIS_OK)
    throw Error("METIS_PartMeshDual failed for " + std::to_string(parts) + " parts (status " +
                std::to_string(status) + ")");
  result.edgeCut = objval;
  return result;
}

// Neighbours share a face: three nodes of a tetrahedron, four of a hexahedron, an edge's two of a
// triangle or a quadrangle, a vertex of an edge.
idx_t faceNodes(CellType type) {
  return factsOf(type).sharedNodes;
}

}  // namespace

CellPartition partitionCells(const CompactMesh& mesh, int parts) {
  const idx_t ne = mesh.numCells();
  if (parts == 1 || ne < parts) return {std::vector<idx_t>(std::size_t(ne), 0), 0};
  // Points share nothing, so there is no graph to cut: contiguous blocks, as even as they go.
  if (mesh.type == CellType::Point) {
    CellPartition blocks{std::vector<idx_t>(std::size_t(ne)), 0};
    for (idx_t e = 0; e < ne; ++e)
      blocks.part[std::size_t(e)] = idx_t(std::int64_t(e) * parts / ne);
    return blocks;
  }
  std::vector<idx_t> eptr(ne + 1);
  const idx_t corners = cornersOf(mesh.type);
  for (idx_t e = 0; e <= ne; ++e) eptr[e] = corners * e;
  return metisParts(std::move(eptr), mesh.cells, mesh.numNodes(), faceNodes(mesh.type), parts);
}

std::vector<std::vector<int>> partitionTogether(const std::vector<CompactMesh>& meshes, int parts,
                                                std::int64_t& edgeCut) {
  std::vector<idx_t> eptr{0}, eind;
  idx_t nodes = 0, ncommon = 4;
  for (const CompactMesh& mesh : meshes) {
    const idx_t corners = cornersOf(mesh.type);
    for (idx_t c = 0; c < mesh.numCells(); ++c) eptr.push_back(eptr.back() + corners);
    if (eind.size() + mesh.cells.size() > std::size_t(std::numeric_limits<idx_t>::max()))
      throw Error("the bodies' cells together are more than METIS's 32-bit indices can number");
    for (idx_t n : mesh.cells) eind.push_back(nodes + n);
    nodes += mesh.numNodes();
    // Cells of two types never share a face: the smallest count links every face (points
    // share nothing, and METIS wants at least one node in common).
    if (mesh.type != CellType::Point) ncommon = std::min(ncommon, faceNodes(mesh.type));
  }
  const idx_t cells = idx_t(eptr.size()) - 1;
  const CellPartition together =
      parts == 1 || cells < parts
          ? CellPartition{std::vector<idx_t>(std::size_t(cells), 0), 0}
          : metisParts(std::move(eptr), std::move(eind), nodes, ncommon, parts);
  edgeCut = together.edgeCut;
  std::vector<std::vector<int>> each;
  auto next = together.part.begin();
  for (const CompactMesh& mesh : meshes) {
    each.emplace_back(next, next + mesh.numCells());
    next += mesh.numCells();
  }
  return each;
}

}  // namespace eis
