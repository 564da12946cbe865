// Arrays moved in pieces (core/mpi_chunks.hpp), as the final state of more than 2^31 values is:
// with a piece of 3 elements, every rank's array of a different length arrives whole and in rank
// order, and a broadcast of 10 elements arrives whole, on 1, 2 and 3 ranks. The all-gather of
// chunks of any length: every rank gets every chunk in rank order with its offsets, and a total
// past 2^31 - 1 is refused on every rank.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "eis/core/error.hpp"
#include "eis/core/mpi_chunks.hpp"

namespace {

TEST(MpiChunks, GatherAndBroadcastInSmallPiecesGiveTheWholeArrays) {
  const int rank = eis::commRank(MPI_COMM_WORLD), size = eis::commSize(MPI_COMM_WORLD);
  // Rank r holds 2r + 4 values r * 100 + k: pieces of 3 split every one of them.
  std::vector<double> mine;
  std::vector<std::int64_t> ids;
  for (int k = 0; k < 2 * rank + 4; ++k) {
    mine.push_back(rank * 100 + k + 0.5);
    ids.push_back(rank * 100 + k);
  }
  const std::vector<double> all = eis::gatherDoubles(mine, 0, MPI_COMM_WORLD, 3);
  const std::vector<std::int64_t> allIds = eis::gatherInt64s(ids, 0, MPI_COMM_WORLD, 3);
  if (rank == 0) {
    std::vector<double> expected;
    std::vector<std::int64_t> expectedIds;
    for (int r = 0; r < size; ++r)
      for (int k = 0; k < 2 * r + 4; ++k) {
        expected.push_back(r * 100 + k + 0.5);
        expectedIds.push_back(r * 100 + k);
      }
    EXPECT_EQ(all, expected);
    EXPECT_EQ(allIds, expectedIds);
  } else {
    EXPECT_TRUE(all.empty());
    EXPECT_TRUE(allIds.empty());
  }
  std::vector<double> shared(10, 0.0);
  if (rank == 0)
    for (int k = 0; k < 10; ++k) shared[k] = k * 1.5;
  eis::broadcastInPieces(shared.data(), 10, MPI_DOUBLE, 0, MPI_COMM_WORLD, 3);
  for (int k = 0; k < 10; ++k) EXPECT_EQ(shared[k], k * 1.5);
}

TEST(MpiChunks, AllGatherGivesEveryRankEveryChunkInRankOrder) {
  const int rank = eis::commRank(MPI_COMM_WORLD), size = eis::commSize(MPI_COMM_WORLD);
  // Rank r holds r + 1 ids r * 10 + k, rank 1 none: a chunk may be empty.
  std::vector<std::int64_t> mine;
  for (int k = 0; k < (rank == 1 ? 0 : rank + 1); ++k) mine.push_back(rank * 10 + k);
  std::vector<int> offsets;
  const std::vector<std::int64_t> all =
      eis::allGatherChunks(mine, MPI_INT64_T, MPI_COMM_WORLD, &offsets);
  std::vector<std::int64_t> expected;
  std::vector<int> expectedOffsets{0};
  for (int r = 0; r < size; ++r) {
    for (int k = 0; k < (r == 1 ? 0 : r + 1); ++k) expected.push_back(r * 10 + k);
    expectedOffsets.push_back(int(expected.size()));
  }
  EXPECT_EQ(all, expected);
  EXPECT_EQ(offsets, expectedOffsets);
  // Rows of two doubles into a buffer laid out by the offsets of their count in doubles.
  const std::vector<double> rows{rank + 0.25, rank + 0.75};
  const std::vector<int> rowOffsets = eis::chunkOffsets(2, MPI_COMM_WORLD);
  std::vector<double> gathered(std::size_t(rowOffsets.back()));
  eis::allGatherChunksInto(rows.data(), MPI_DOUBLE, gathered.data(), rowOffsets, MPI_COMM_WORLD);
  for (int r = 0; r < size; ++r) {
    EXPECT_EQ(gathered[std::size_t(2 * r)], r + 0.25);
    EXPECT_EQ(gathered[std::size_t(2 * r + 1)], r + 0.75);
  }
}

TEST(MpiChunks, AllGatherPastWhatAnIntCountsIsRefusedOnEveryRank) {
  // Half of INT_MAX and one more on each rank: one rank fits, two or more pass it.
  const std::int64_t half = std::numeric_limits<int>::max() / 2 + 1;
  if (eis::commSize(MPI_COMM_WORLD) == 1)
    EXPECT_EQ(eis::chunkOffsets(half, MPI_COMM_WORLD).back(), half);
  else
    EXPECT_THROW(eis::chunkOffsets(half, MPI_COMM_WORLD), eis::Error);
}

}  // namespace
