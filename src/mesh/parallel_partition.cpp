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

namespace eis::mesh_detail {

namespace {

using Record = std::array<std::int64_t, 4>;  // three vertices, then a cell (global numbers)

// Collective. Sends outgoing[r] to rank r; returns what every rank sent to this one.
std::vector<std::int64_t> sendToRanks(MPI_Comm comm,
                                      const std::vector<std::vector<std::int64_t>>& outgoing) {
  const int size = commSize(comm);
  std::vector<int> sendCounts(size), recvCounts(size), sendOffsets(size + 1, 0),
      recvOffsets(size + 1, 0);
  for (int r = 0; r < size; ++r) sendCounts[r] = int(outgoing[r].size());
  EIS_CHECK_MPI(MPI_Alltoall(sendCounts.data(), 1, MPI_INT, recvCounts.data(), 1, MPI_INT, comm));
  for (int r = 0; r < size; ++r) {
    sendOffsets[r + 1] = sendOffsets[r] + sendCounts[r];
    recvOffsets[r + 1] = recvOffsets[r] + recvCounts[r];
  }
  std::vector<std::int64_t> sent(static_cast<std::size_t>(sendOffsets[size]));
  std::vector<std::int64_t> received(static_cast<std::size_t>(recvOffsets[size]));
  for (int r = 0; r < size; ++r)
    std::copy(outgoing[r].begin(), outgoing[r].end(), sent.begin() + sendOffsets[r]);
  EIS_CHECK_MPI(MPI_Alltoallv(sent.data(), sendCounts.data(), sendOffsets.data(), MPI_INT64_T,
                              received.data(), recvCounts.data(), recvOffsets.data(), MPI_INT64_T,
                              comm));
  return received;
}

}  // namespace

LocalPartition partitionCellsInParallel(MPI_Comm comm, const std::vector<PetscInt>& cells) {
  const int size = commSize(comm);
  const std::int64_t myCells = std::int64_t(cells.size() / 4);
  std::vector<std::int64_t> firstCell(size + 1, 0);
  EIS_CHECK_MPI(
      MPI_Allgather(&myCells, 1, MPI_INT64_T, firstCell.data() + 1, 1, MPI_INT64_T, comm));
  for (int r = 0; r < size; ++r) firstCell[r + 1] += firstCell[r];
  const std::int64_t offset = firstCell[commRank(comm)];

  std::vector<std::vector<std::int64_t>> faces(size);
  for (std::int64_t c = 0; c < myCells; ++c) {
    std::array<std::int64_t, 4> v;
    std::copy_n(cells.begin() + 4 * c, 4, v.begin());
    std::sort(v.begin(), v.end());
    for (int skip = 0; skip < 4; ++skip) {
      Record face{};
      for (int k = 0, j = 0; k < 4; ++k)
        if (k != skip) face[j++] = v[k];
      face[3] = offset + c;
      auto& to = faces[std::size_t(face[0] % size)];
      to.insert(to.end(), face.begin(), face.end());
    }
  }
  const std::vector<std::int64_t> received = sendToRanks(comm, faces);
  faces = {};
  std::vector<Record> records(received.size() / 4);
  for (std::size_t i = 0; i < records.size(); ++i)
    std::copy_n(received.begin() + std::ptrdiff_t(4 * i), 4, records[i].begin());
  std::sort(records.begin(), records.end());
  // Each edge of the dual graph, both ways, to the rank holding its first cell.
  std::vector<std::vector<std::int64_t>> edges(size);
  auto ownerOf = [&](std::int64_t cell) {
    return int(std::upper_bound(firstCell.begin(), firstCell.end(), cell) - firstCell.begin()) - 1;
  };
  for (std::size_t i = 0; i + 1 < records.size(); ++i) {
    const Record &a = records[i], &b = records[i + 1];
    if (a[0] != b[0] || a[1] != b[1] || a[2] != b[2]) continue;
    edges[std::size_t(ownerOf(a[3]))].insert(edges[std::size_t(ownerOf(a[3]))].end(), {a[3], b[3]});
    edges[std::size_t(ownerOf(b[3]))].insert(edges[std::size_t(ownerOf(b[3]))].end(), {b[3], a[3]});
  }
  records = {};
  const std::vector<std::int64_t> mine = sendToRanks(comm, edges);
  edges = {};

  std::vector<PetscInt> start(std::size_t(myCells) + 1, 0), adjacency(mine.size() / 2);
  for (std::size_t i = 0; i < mine.size(); i += 2) ++start[std::size_t(mine[i] - offset) + 1];
  for (std::size_t c = 0; c < std::size_t(myCells); ++c) start[c + 1] += start[c];
  std::vector<PetscInt> fill(start.begin(), start.end() - 1);
  for (std::size_t i = 0; i < mine.size(); i += 2)
    adjacency[std::size_t(fill[std::size_t(mine[i] - offset)]++)] = PetscInt(mine[i + 1]);

  PetscPartitioner partitioner;
  EIS_CHECK(PetscPartitionerCreate(comm, &partitioner));
  EIS_CHECK(PetscPartitionerSetType(partitioner, PETSCPARTITIONERPTSCOTCH));
  PetscSection parts;
  EIS_CHECK(PetscSectionCreate(comm, &parts));
  IS partition;
  EIS_CHECK(PetscPartitionerPartition(partitioner, size, PetscInt(myCells), start.data(),
                                      adjacency.data(), nullptr, nullptr, parts, &partition));
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
