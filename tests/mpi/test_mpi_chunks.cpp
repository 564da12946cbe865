// Arrays moved in pieces (core/mpi_chunks.hpp), as the final state of more than 2^31 values is:
// with a piece of 3 elements, every rank's array of a different length arrives whole and in rank
// order, and a broadcast of 10 elements arrives whole, on 1, 2 and 3 ranks.
#include <gtest/gtest.h>

#include <cstdint>
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

}  // namespace
