// The dual graph of tetrahedra held in slices: each face (its three vertex numbers, sorted) is
// sent to the rank its smallest vertex hashes to; two cells meeting there share it and become
// neighbours. O(cells log cells) in all, spread over the ranks. DMPlex's own graph of a mesh
// without faces (DMPlexCreateNeighborCSR, which PETSc 3.18's DMPlexDistribute uses when the DM is
// not interpolated) intersects the closures of every pair of cells sharing a vertex instead.
#include "parallel_partition.hpp"

#include <petscpartitioner.h>

#include <algorithm>
#include <array>

#include "eis/core/error.hpp"
#include "eis/core/mpi_exchange.hpp"

namespace eis::mesh_detail {

LocalPartition partitionCellsInParallel(MPI_Comm comm, const std::vector<PetscInt>& cells) {
  const int size = commSize(comm);
  const PetscInt myCells = PetscInt(cells.size() / 4);
  std::vector<PetscInt> firstCell(size + 1, 0);
  EIS_CHECK_MPI(MPI_Allgather(&myCells, 1, MPIU_INT, firstCell.data() + 1, 1, MPIU_INT, comm));
  for (int r = 0; r < size; ++r) firstCell[r + 1] += firstCell[r];
  const PetscInt offset = firstCell[commRank(comm)];

  // Each face: its three vertices (sorted), then its cell, to the rank of its smallest vertex.
  std::vector<IndexRow<4>> faces = exchangeRows<4>(comm, [&](auto emit) {
    for (PetscInt c = 0; c < myCells; ++c) {
      IndexRow<4> v;
      std::copy_n(cells.begin() + 4 * c, 4, v.begin());
      std::sort(v.begin(), v.end());
      for (int skip = 0; skip < 4; ++skip) {
        IndexRow<4> face{};
        for (int k = 0, j = 0; k < 4; ++k)
          if (k != skip) face[j++] = v[k];
        face[3] = offset + c;
        emit(int(face[0] % size), face);
      }
    }
  });
  std::sort(faces.begin(), faces.end());
  // Each edge of the dual graph, both ways, to the rank holding its first cell.
  auto ownerOf = [&](PetscInt cell) {
    return int(std::upper_bound(firstCell.begin(), firstCell.end(), cell) - firstCell.begin()) - 1;
  };
  const std::vector<IndexRow<2>> mine = exchangeRows<2>(comm, [&](auto emit) {
    for (std::size_t i = 0; i + 1 < faces.size(); ++i) {
      const IndexRow<4>&a = faces[i], &b = faces[i + 1];
      if (a[0] != b[0] || a[1] != b[1] || a[2] != b[2]) continue;
      emit(ownerOf(a[3]), IndexRow<2>{a[3], b[3]});
      emit(ownerOf(b[3]), IndexRow<2>{b[3], a[3]});
    }
  });
  faces = {};

  std::vector<PetscInt> start(std::size_t(myCells) + 1, 0), adjacency(mine.size());
  for (const IndexRow<2>& edge : mine) ++start[std::size_t(edge[0] - offset) + 1];
  for (std::size_t c = 0; c < std::size_t(myCells); ++c) start[c + 1] += start[c];
  std::vector<PetscInt> fill(start.begin(), start.end() - 1);
  for (const IndexRow<2>& edge : mine)
    adjacency[std::size_t(fill[std::size_t(edge[0] - offset)]++)] = edge[1];

  PetscPartitioner partitioner;
  EIS_CHECK(PetscPartitionerCreate(comm, &partitioner));
  EIS_CHECK(PetscPartitionerSetType(partitioner, PETSCPARTITIONERPTSCOTCH));
  PetscSection parts;
  EIS_CHECK(PetscSectionCreate(comm, &parts));
  IS partition;
  EIS_CHECK(PetscPartitionerPartition(partitioner, size, myCells, start.data(), adjacency.data(),
                                      nullptr, nullptr, parts, &partition));
  LocalPartition local;
  local.sizes.resize(std::size_t(size));
  for (int r = 0; r < size; ++r) EIS_CHECK(PetscSectionGetDof(parts, r, &local.sizes[r]));
  PetscInt count;
  const PetscInt* points;
  EIS_CHECK(ISGetLocalSize(partition, &count));
  EIS_CHECK(ISGetIndices(partition, &points));
  local.points.assign(points, points + count);
  EIS_CHECK(ISRestoreIndices(partition, &points));
  EIS_CHECK(ISDestroy(&partition));
  EIS_CHECK(PetscSectionDestroy(&parts));
  EIS_CHECK(PetscPartitionerDestroy(&partitioner));
  return local;
}

}  // namespace eis::mesh_detail
