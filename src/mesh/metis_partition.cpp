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

CellPartition partitionCells(const CompactMesh& mesh, int parts) {
  idx_t ne = mesh.numCells(), nn = mesh.numNodes();
  CellPartition result;
  result.part.assign(ne, 0);
  if (parts == 1) return result;
  if (ne < parts)
    throw Error("the mesh has " + std::to_string(ne) + " " + pluralNameOf(mesh.type) +
                ", fewer than the " + std::to_string(parts) + " ranks");
  // METIS takes non-const arrays: it gets its own copy of the cells.
  std::vector<idx_t> eptr(ne + 1), eind(mesh.cells), nodePart(nn, 0);
  const idx_t corners = cornersOf(mesh.type);
  for (idx_t e = 0; e <= ne; ++e) eptr[e] = corners * e;
  // Neighbours share a face: three nodes of a tetrahedron, four of a hexahedron.
  idx_t ncommon = mesh.type == CellType::Hexahedron ? 4 : 3, nparts = parts, objval = 0;
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

}  // namespace eis
