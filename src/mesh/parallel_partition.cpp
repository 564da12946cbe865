// The dual graph of cells held in slices: each face (its vertex numbers, sorted: 3 of a
// tetrahedron's, 4 of a hexahedron's) is sent to the rank its smallest vertex hashes to; two cells
// meeting there share it and become neighbours. O(cells log cells) in all, spread over the ranks.
// DMPlex's own graph of a mesh without faces (DMPlexCreateNeighborCSR, which PETSc 3.18's
// DMPlexDistribute uses when the DM is not interpolated) intersects the closures of every pair of
// cells sharing a vertex instead.
#include "parallel_partition.hpp"

#include <petscpartitioner.h>

#include <algorithm>
#include <array>

#include "eis/core/error.hpp"
#include "eis/core/mpi_exchange.hpp"

namespace eis::mesh_detail {

LocalPartition partitionCellsInParallel(MPI_Comm comm, const std::vector<PetscInt>& cells,
                                        CellType type) {
  const int corners = cornersOf(type);
  const int size = commSize(comm);
  const PetscInt myCells = PetscInt(cells.size() / std::size_t(corners));
  std::vector<PetscInt> firstCell(size + 1, 0);
  EIS_CHECK_MPI(MPI_Allgather(&myCells, 1, MPIU_INT, firstCell.data() + 1, 1, MPIU_INT, comm));
  for (int r = 0; r < size; ++r) firstCell[r + 1] += firstCell[r];
  const PetscInt offset = firstCell[commRank(comm)];

  // Each face: its vertices (sorted; -1 after its last), then its cell, to the rank of its
  // smallest vertex.
  std::vector<IndexRow<5>> faces = exchangeRows<5>(comm, [&](auto emit) {
    for (PetscInt c = 0; c < myCells; ++c) {
      std::array<PetscInt, 8> v{};
      std::copy_n(cells.begin() + corners * c, corners, v.begin());
      if (type == CellType::Hexahedron) std::swap(v[1], v[3]);  // back to core/cells.hpp's order
      for (int f = 0; f < facesOf(type).count; ++f) {
        const int count = faceSize(type, f);
        IndexRow<5> face{};
        for (int k = 0; k < count; ++k) face[k] = v[facesOf(type).slots[f][k]];
        std::sort(face.begin(), face.begin() + count);
        for (int k = count; k < 4; ++k) face[k] = -1;
        face[4] = offset + c;
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
      const IndexRow<5>&a = faces[i], &b = faces[i + 1];
      if (!std::equal(a.begin(), a.begin() + 4, b.begin())) continue;
      emit(ownerOf(a[4]), IndexRow<2>{a[4], b[4]});
      emit(ownerOf(b[4]), IndexRow<2>{b[4], a[4]});
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
