#pragma once
// PTScotch's partition of cells spread over the ranks, from a dual graph (cells sharing a
// triangle) that this rank builds with the others, never whole on one. Private to src/mesh
// (hdf5_mesh_load.cpp).
#include <mpi.h>
#include <petscsystypes.h>

#include <vector>

namespace eis::mesh_detail {

// What PetscPartitionerShellSetPartition takes: the number of this rank's cells going to each
// rank, and this rank's cells (local numbers) listed rank by rank.
struct LocalPartition {
  std::vector<PetscInt> sizes, points;
};

// Collective. `cells` holds 4 global vertex numbers per local cell; the ranks' cells, in rank
// order, are the global cells. Two cells are neighbours when they share three vertices.
LocalPartition partitionCellsInParallel(MPI_Comm comm, const std::vector<PetscInt>& cells);

}  // namespace eis::mesh_detail
