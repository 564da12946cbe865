// The distributed mesh on 1, 2 and 3 ranks: every node owned exactly once with its input id and
// exact coordinates, by the rank balancedVertexOwners chose, cells in input order, refinement
// numbering, physical groups.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "cell_lists.hpp"
#include "eis/core/error.hpp"
#include "eis/core/tetra_geometry.hpp"
#include "eis/mesh/box_mesh.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/mesh/gmsh_reader.hpp"
#include "eis/mesh/metis_partition.hpp"
#include "eis/mesh/vertex_owners.hpp"
#include "mpi_support.hpp"

namespace {

using eis_test::root;

eis::SerialMesh onRankZero(const eis::SerialMesh& mesh) {
  return root() ? mesh : eis::SerialMesh{};
}

// Every owned node, gathered on every rank as (id, x, y, z).
std::vector<std::array<double, 4>> ownedNodes(const eis::DistributedMesh& mesh) {
  std::vector<double> mine;
  for (std::size_t v = 0; v < mesh.numLocalVertices(); ++v)
    if (mesh.owned()[v])
      mine.insert(mine.end(), {double(mesh.nodeIds()[v]), mesh.restCoords()[v][0],
                               mesh.restCoords()[v][1], mesh.restCoords()[v][2]});
  const std::vector<double> all = eis_test::allGather(mine, mesh.comm());
  std::vector<std::array<double, 4>> nodes;
  for (std::size_t i = 0; i < all.size(); i += 4)
    nodes.push_back({all[i], all[i + 1], all[i + 2], all[i + 3]});
  std::sort(nodes.begin(), nodes.end());
  return nodes;
}

TEST(Distribution, BoxNodesAreOwnedOnceWithTheirIdsAndCoordinates) {
  const auto box = eis::makeBoxMesh({4, 1, 1}, {8, 2, 3});
  const eis::DistributedMesh mesh(PETSC_COMM_WORLD, onRankZero(box), 3, 0);
  EXPECT_EQ(mesh.numGlobalVertices(), std::int64_t(box.nodes.size()));
  const auto nodes = ownedNodes(mesh);
  ASSERT_EQ(nodes.size(), box.nodes.size());
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    EXPECT_EQ(nodes[n][0], double(n));
    for (int d = 0; d < 3; ++d) EXPECT_EQ(nodes[n][d + 1], box.nodes[n][d]);
  }
  long cells = long(mesh.cells().size()), total = 0;
  MPI_Allreduce(&cells, &total, 1, MPI_LONG, MPI_SUM, PETSC_COMM_WORLD);
  EXPECT_EQ(total, long(box.cells.size()));
}

// Each rank owns the very nodes balancedVertexOwners gives its part (the input's, computed here
// on every rank from the same METIS partition), so their counts are the ones partition-surface
// prints.
TEST(Distribution, RanksOwnTheNodesTheBalancedOwnersGiveThem) {
  const auto box = eis::makeBoxMesh({4, 1, 1}, {12, 3, 3});
  const eis::DistributedMesh mesh(PETSC_COMM_WORLD, onRankZero(box), 3, 0);
  const int size = eis::commSize(PETSC_COMM_WORLD), rank = eis::commRank(PETSC_COMM_WORLD);
  const eis::CompactMesh compact = eis::compactMesh(box);
  const auto owners =
      eis::balancedVertexOwners(compact, eis::partitionCells(compact, size).part, size);
  std::vector<std::int64_t> expected;  // input ids of the nodes this rank's part owns
  for (idx_t n = 0; n < compact.numNodes(); ++n)
    if (owners[n] == rank) expected.push_back(compact.nodeIds[n]);
  std::vector<std::int64_t> mine;
  for (std::size_t v = 0; v < mesh.numLocalVertices(); ++v)
    if (mesh.owned()[v]) mine.push_back(mesh.nodeIds()[v]);
  std::sort(mine.begin(), mine.end());
  EXPECT_EQ(mine, expected);
  std::int64_t total = std::int64_t(mine.size());
  MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_INT64_T, MPI_SUM, PETSC_COMM_WORLD);
  EXPECT_EQ(total, mesh.numGlobalVertices());
  std::int64_t least = std::int64_t(mine.size()), most = least;
  MPI_Allreduce(MPI_IN_PLACE, &least, 1, MPI_INT64_T, MPI_MIN, PETSC_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_INT64_T, MPI_MAX, PETSC_COMM_WORLD);
  EXPECT_EQ(mesh.partition().ownedMin, least);
  EXPECT_EQ(mesh.partition().ownedMax, most);
  // The global section numbers a rank's owned nodes 0..owned-1.
  std::vector<PetscInt> offsets;
  for (std::size_t v = 0; v < mesh.numLocalVertices(); ++v)
    if (mesh.owned()[v]) offsets.push_back(mesh.ownedOffset(PetscInt(v)) / 3);
  std::sort(offsets.begin(), offsets.end());
  for (std::size_t k = 0; k < offsets.size(); ++k) EXPECT_EQ(offsets[k], PetscInt(k));
}

TEST(Distribution, CellsKeepTheInputVertexOrder) {
  const auto box = eis::makeBoxMesh({1, 1, 1}, {2, 2, 2});
  const eis::DistributedMesh mesh(PETSC_COMM_WORLD, onRankZero(box), 1, 0);
  // Rebuild each local cell as input node ids and look it up in the input (same order).
  const auto tets = eis_test::tetrahedraOf(box.cells);
  std::set<std::array<std::int64_t, 4>> input(tets.begin(), tets.end());
  for (const auto& cell : mesh.cells()) {
    std::array<std::int64_t, 4> ids{};
    for (int k = 0; k < 4; ++k) ids[k] = mesh.nodeIds()[cell[k]];
    EXPECT_TRUE(input.count(ids)) << ids[0] << " " << ids[1] << " " << ids[2] << " " << ids[3];
  }
}

TEST(Distribution, RefinementNumbersNewNodesAfterTheInputSortedByCoordinates) {
  const auto box = eis::makeBoxMesh({2, 1, 1}, {2, 1, 1});
  const eis::DistributedMesh mesh(PETSC_COMM_WORLD, onRankZero(box), 3, 1);
  // Regular refinement of the tetrahedra adds a node at the middle of every edge.
  const auto nodes = ownedNodes(mesh);
  ASSERT_EQ(mesh.numGlobalVertices(), std::int64_t(nodes.size()));
  const std::size_t inputNodes = box.nodes.size();
  for (std::size_t n = 0; n < nodes.size(); ++n) EXPECT_EQ(nodes[n][0], double(n));
  for (std::size_t n = 0; n < inputNodes; ++n)
    for (int d = 0; d < 3; ++d) EXPECT_EQ(nodes[n][d + 1], box.nodes[n][d]);
  for (std::size_t n = inputNodes + 1; n < nodes.size(); ++n)
    EXPECT_TRUE(std::lexicographical_compare(nodes[n - 1].begin() + 1, nodes[n - 1].end(),
                                             nodes[n].begin() + 1, nodes[n].end()));
  double volume = 0;
  for (const auto& c : mesh.cells())
    volume += eis::TetraShape(mesh.restCoords()[c[0]], mesh.restCoords()[c[1]],
                              mesh.restCoords()[c[2]], mesh.restCoords()[c[3]])
                  .volume;
  MPI_Allreduce(MPI_IN_PLACE, &volume, 1, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD);
  EXPECT_NEAR(volume, 2.0, 1e-12);
  long cells = long(mesh.cells().size());
  MPI_Allreduce(MPI_IN_PLACE, &cells, 1, MPI_LONG, MPI_SUM, PETSC_COMM_WORLD);
  EXPECT_EQ(cells, 8 * long(box.cells.size()));
}

// The start-up report describes the refined mesh: the cells per rank are those the ranks hold,
// and the faces between parts are four times METIS's cut of the input.
TEST(Distribution, PartitionReportCountsTheRefinedMesh) {
  const auto box = eis::makeBoxMesh({4, 1, 1}, {6, 2, 2});
  const eis::DistributedMesh coarse(PETSC_COMM_WORLD, onRankZero(box), 3, 0);
  const eis::DistributedMesh refined(PETSC_COMM_WORLD, onRankZero(box), 3, 1);
  long cells[2] = {long(refined.cells().size()), long(refined.cells().size())};
  MPI_Allreduce(MPI_IN_PLACE, &cells[0], 1, MPI_LONG, MPI_MIN, PETSC_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &cells[1], 1, MPI_LONG, MPI_MAX, PETSC_COMM_WORLD);
  EXPECT_EQ(refined.partition().cellsMin, cells[0]);
  EXPECT_EQ(refined.partition().cellsMax, cells[1]);
  EXPECT_EQ(refined.partition().cellsMax, 8 * coarse.partition().cellsMax);
  EXPECT_EQ(refined.partition().edgeCut, 4 * coarse.partition().edgeCut);
}

TEST(Distribution, PhysicalGroupsSelectTheirNodesOnEveryRank) {
  eis::SerialMesh serial;
  if (root()) serial = eis::readGmsh(std::string(EIS_MESH_DIR) + "/beam_v41_binary.msh");
  const eis::DistributedMesh mesh(PETSC_COMM_WORLD, serial, 3, 0);
  const int clamp = mesh.findGroup("clamp");
  long count = 0;
  for (auto v : mesh.groupVertices(clamp)) {
    EXPECT_EQ(mesh.restCoords()[v][0], 0.0);
    count += mesh.owned()[v];
  }
  long expected = 0;
  for (std::size_t v = 0; v < mesh.numLocalVertices(); ++v)
    expected += mesh.owned()[v] && mesh.restCoords()[v][0] == 0.0;
  MPI_Allreduce(MPI_IN_PLACE, &count, 1, MPI_LONG, MPI_SUM, PETSC_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &expected, 1, MPI_LONG, MPI_SUM, PETSC_COMM_WORLD);
  EXPECT_EQ(count, expected);
  EXPECT_GT(count, 0);
  EXPECT_EQ(mesh.findGroup(std::to_string(clamp)), clamp);
  EXPECT_THROW(mesh.findGroup("no-such-group"), eis::Error);
}

// A group name may hold any byte Gmsh allows between its quotes (a tab, a space, a digit first):
// every rank finds each group by its name.
TEST(Distribution, GroupNamesReachEveryRankWhateverTheyHold) {
  eis::SerialMesh serial = eis::makeBoxMesh({1, 1, 1}, {2, 1, 1});
  serial.groupNames = {{"left\tside", 5}, {"a b", 6}, {"12 x", 7}, {"", 8}};
  const eis::DistributedMesh mesh(PETSC_COMM_WORLD, onRankZero(serial), 3, 0);
  EXPECT_EQ(mesh.findGroup("left\tside"), 5);
  EXPECT_EQ(mesh.findGroup("a b"), 6);
  EXPECT_EQ(mesh.findGroup("12 x"), 7);
}

}  // namespace
