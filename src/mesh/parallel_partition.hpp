#pragma once
// PTScotch's partition of cells spread over the ranks, from a dual graph (cells sharing a
// face: a triangle of tetrahedra, a quadrangle of hexahedra) that this rank builds with the others,
// never whole on one. Private to src/mesh (hdf5_mesh_load.cpp).
#include <mpi.h>
#include <petscsystypes.h>

#include <vector>

#include "eis/core/cells.hpp"

namespace eis::mesh_detail {

// What PetscPartitionerShellSetPartition takes: the number of this rank's cells going to each
// rank, and this rank's cells (local numbers) listed rank by rank.
struct LocalPartition {
  std::vector<PetscInt> sizes, points;
};

// Collective. `cells` holds cornersOf(type) global vertex numbers per local cell (hexahedra in
// DMPlex's order: core/cells.hpp's with vertices 1 and 3 swapped); the ranks' cells, in rank
// order, are the global cells. Two cells are neighbours when they share a face (kCellFaces).
LocalPartition partitionCellsInParallel(MPI_Comm comm, const std::vector<PetscInt>& cells,
                                        CellType type);

}  // namespace eis::mesh_detail
