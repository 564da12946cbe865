// The bodies of a scene partitioned together (mesh/metis_partition.hpp): every cell of every
// body gets a rank, the ranks share the union of the cells evenly, a body METIS keeps whole is
// not cut, and one body alone is partitioned as partitionCells partitions it.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "eis/core/error.hpp"
#include "eis/mesh/box_mesh.hpp"
#include "eis/mesh/metis_partition.hpp"

namespace {

using eis::CellType;

eis::CompactMesh box(std::array<int, 3> cells, CellType type) {
  return eis::compactMesh(eis::makeBoxMesh({1, 1, 1}, cells, type));
}

TEST(PartitionTogether, EveryCellGetsARankAndTheRanksShareTheUnion) {
  const std::vector<eis::CompactMesh> meshes = {box({8, 4, 4}, CellType::Tetrahedron),
                                                box({1, 1, 1}, CellType::Hexahedron),
                                                box({4, 4, 4}, CellType::Hexahedron)};
  std::int64_t edgeCut = -1;
  const auto parts = eis::partitionTogether(meshes, 4, edgeCut);
  ASSERT_EQ(parts.size(), meshes.size());
  std::vector<int> load(4, 0);
  int cells = 0;
  for (std::size_t b = 0; b < meshes.size(); ++b) {
    ASSERT_EQ(parts[b].size(), std::size_t(meshes[b].numCells()));
    for (int p : parts[b]) {
      ASSERT_GE(p, 0);
      ASSERT_LT(p, 4);
      ++load[p];
    }
    cells += meshes[b].numCells();
  }
  // METIS's default imbalance is 3 %: the union is shared, not each body.
  for (int l : load) EXPECT_LE(l, 1.03 * cells / 4 + 1) << l;
  EXPECT_GT(edgeCut, 0);
}

TEST(PartitionTogether, ASmallBodyIsNotCutOverEveryRank) {
  // Alone, the small body's 8 cells would be cut over all 4 ranks.
  const std::vector<eis::CompactMesh> meshes = {box({12, 6, 6}, CellType::Hexahedron),
                                                box({2, 2, 2}, CellType::Hexahedron)};
  const std::vector<idx_t> alone = eis::partitionCells(meshes[1], 4).part;
  ASSERT_EQ(std::set<idx_t>(alone.begin(), alone.end()).size(), 4u);
  std::int64_t edgeCut = 0;
  const auto parts = eis::partitionTogether(meshes, 4, edgeCut);
  const std::set<int> ranks(parts[1].begin(), parts[1].end());
  EXPECT_LT(ranks.size(), 4u);
}

TEST(PartitionTogether, OneBodyIsPartitionedAsAlone) {
  const eis::CompactMesh mesh = box({6, 3, 3}, CellType::Tetrahedron);
  std::int64_t edgeCut = 0;
  const auto parts = eis::partitionTogether({mesh}, 3, edgeCut);
  const eis::CellPartition alone = eis::partitionCells(mesh, 3);
  EXPECT_EQ(std::vector<idx_t>(parts[0].begin(), parts[0].end()), alone.part);
  EXPECT_EQ(edgeCut, alone.edgeCut);
}

// Fewer cells than ranks in all: METIS cannot cut them; they lie whole on rank 0, the other ranks
// holding none (SOFA's examples have one-cell bodies, run on 2 ranks).
TEST(PartitionTogether, FewerCellsThanRanksInAllLieOnRankZero) {
  const std::vector<eis::CompactMesh> meshes = {box({1, 1, 1}, CellType::Hexahedron),
                                                box({1, 1, 1}, CellType::Hexahedron)};
  std::int64_t edgeCut = -1;
  const auto parts = eis::partitionTogether(meshes, 3, edgeCut);
  EXPECT_EQ(parts, (std::vector<std::vector<int>>{{0}, {0}}));
  EXPECT_EQ(edgeCut, 0);
  const eis::CellPartition alone = eis::partitionCells(meshes[0], 2);
  EXPECT_EQ(alone.part, std::vector<idx_t>{0});
  EXPECT_EQ(alone.edgeCut, 0);
}

}  // namespace
