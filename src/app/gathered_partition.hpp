#pragma once
// partition-surface's view of the HDF5 path: PTScotch partitions an HDF5 mesh across the ranks
// that read it, so the partition a run will use exists only on that many ranks. This distributes
// the mesh exactly as euler-implicit does (eis::DistributedMesh) and gathers onto rank 0 what
// the tool counts: every cell with its rank and every node with its owner. Private to src/app.
#include <mpi.h>

#include <string>
#include <vector>

#include "eis/mesh/metis_partition.hpp"

namespace eis {

struct GatheredPartition {
  CompactMesh mesh;          // rank 0: all cells, nodes numbered 0.. in input node order
  std::vector<idx_t> part;   // rank 0: the rank holding each cell
  std::vector<idx_t> owner;  // rank 0: the rank owning each node
};

// Collective on `comm`. Reads `path` (a file mesh.convert wrote) as euler-implicit does on
// comm's ranks and gathers its partition onto rank 0; the other ranks get empty vectors.
// Throws eis::Error, on every rank, when the file cannot be read.
GatheredPartition gatherHdf5Partition(MPI_Comm comm, const std::string& path);

}  // namespace eis
