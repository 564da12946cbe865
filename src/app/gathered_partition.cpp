#include "gathered_partition.hpp"

#include <algorithm>
#include <cstdint>

#include "eis/core/error.hpp"
#include "eis/core/mpi_chunks.hpp"
#include "eis/mesh/distributed_mesh.hpp"

namespace eis {

GatheredPartition gatherHdf5Partition(MPI_Comm comm, const std::string& path) {
  const int rank = commRank(comm);
  std::vector<std::int64_t> cells, owned;  // (rank, node ids) per cell; (rank, id) per node
  CellType type = CellType::Tetrahedron;
  {
    const DistributedMesh distributed(comm, Hdf5MeshInput{path, {}}, 1, 0);
    type = distributed.cellType();
    for (const auto& cell : distributed.cells()) {
      cells.push_back(rank);
      for (PetscInt v : cell) cells.push_back(distributed.nodeIds()[v]);
    }
    for (std::size_t v = 0; v < distributed.numLocalVertices(); ++v)
      if (distributed.owned()[v]) owned.insert(owned.end(), {rank, distributed.nodeIds()[v]});
  }
  cells = gatherInt64s(cells, 0, comm);
  owned = gatherInt64s(owned, 0, comm);
  GatheredPartition gathered;
  if (rank != 0) return gathered;
  // Compact numbers in input node order, as eis::compactMesh gives the Gmsh path's nodes.
  std::vector<std::int64_t>& ids = gathered.mesh.nodeIds;
  for (std::size_t i = 0; i < owned.size(); i += 2) ids.push_back(owned[i + 1]);
  std::sort(ids.begin(), ids.end());
  auto compact = [&](std::int64_t id) {
    return idx_t(std::lower_bound(ids.begin(), ids.end(), id) - ids.begin());
  };
  gathered.owner.assign(ids.size(), 0);
  for (std::size_t i = 0; i < owned.size(); i += 2)
    gathered.owner[compact(owned[i + 1])] = idx_t(owned[i]);
  gathered.mesh.type = type;
  const std::size_t corners = std::size_t(cornersOf(type));
  for (std::size_t i = 0; i < cells.size(); i += 1 + corners) {
    gathered.part.push_back(idx_t(cells[i]));
    for (std::size_t k = 1; k <= corners; ++k) gathered.mesh.cells.push_back(compact(cells[i + k]));
  }
  return gathered;
}

}  // namespace eis
