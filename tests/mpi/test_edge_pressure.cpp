// SOFA's EdgePressureForceField (load.edge-pressure) on 1, 2 and 3 ranks, on a strip of four
// triangles whose cells are dealt to the ranks in turn: nodes 0 (0 0 0), 1 (1 0 0), 2 (2 0 0)
// on the bottom edge and 3, 4, 5 above them at y = 1. Worked by hand: the follower load
// I = -10, binormal (0 0 2), on the edges 0 -> 1 (L = 1) and 1 -> 2 (L = 2, as SOFA's slip can
// give) has direction (0 0 1) x (1 0 0) = (0 1 0), so F = (0 -10 0) and (0 -20 0): node 0 gets
// (0 -5 0), node 1 (0 -15 0), node 2 (0 -10 0). With node 2 moved to (1 1 0) the second edge's
// direction is (0 0 1) x (0 1 0) = (-1 0 0), F = (20 0 0), applied one step later only.
#include <gtest/gtest.h>

#include "eis/core/error.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/edge_pressure.hpp"
#include "mpi_support.hpp"
#include "spread_springs.hpp"

namespace {

using eis_test::force;

eis::DistributedMesh strip() {
  eis::SerialMesh serial;
  if (eis_test::root()) {
    serial.nodes = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}, {1, 1, 0}, {2, 1, 0}};
    serial.cells = eis::SerialCells(eis::CellType::Triangle, {0, 1, 4, 0, 4, 3, 1, 2, 5, 1, 5, 4});
    serial.cellTags = {0, 0, 0, 0};
  }
  const int size = eis_test::sizeOf(PETSC_COMM_WORLD);
  const std::vector<int> parts{0, 1 % size, 2 % size, 3 % size};
  return eis::DistributedMesh(PETSC_COMM_WORLD, serial, 3, 0, &parts);
}

eis::EdgePressure::Load follower() {
  eis::EdgePressure::Load load;
  load.follower = true;
  load.intensity = -10;
  load.vector = {0, 0, 2};
  load.edges = {{0, 1, 1.0}, {1, 2, 2.0}};
  return load;
}

void expectForces(const std::vector<double>& f, const std::vector<double>& expected) {
  ASSERT_EQ(f.size(), expected.size());
  for (std::size_t i = 0; i < f.size(); ++i)
    EXPECT_NEAR(f[i], expected[i], 1e-13) << "node " << i / 3 << " component " << i % 3;
}

TEST(EdgePressure, GivesHalfOfEachEdgesForceToItsEnds) {
  const eis::DistributedMesh mesh = strip();
  eis::EdgePressure::Load constant;
  constant.vector = {1, 2, 3};
  constant.edges = {{3, 4, 1.0}};
  eis::EdgePressure field(mesh, {follower(), constant});
  const std::vector<double> x{0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 1, 0, 1, 1, 0, 2, 1, 0}, v(18, 0.0);
  expectForces(force(mesh, field, x, v, 6),
               {0, -5, 0, 0, -15, 0, 0, -10, 0, 0.5, 1, 1.5, 0.5, 1, 1.5, 0, 0, 0});
}

TEST(EdgePressure, FollowerDirectionLagsOneStep) {
  const eis::DistributedMesh mesh = strip();
  eis::EdgePressure field(mesh, {follower()});
  const std::vector<double> x0{0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 1, 0, 1, 1, 0, 2, 1, 0}, v(18, 0.0);
  std::vector<double> x1(x0);
  x1[6] = 1, x1[7] = 1;  // node 2 at (1 1 0)
  const std::vector<double> atRest{0, -5, 0, 0, -15, 0, 0, -10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  field.setTime(0, 0.1);
  expectForces(force(mesh, field, x0, v, 6), atRest);
  field.setTime(0.1, 0.1);
  expectForces(force(mesh, field, x1, v, 6), atRest);  // step 1 follows step 0's positions
  expectForces(force(mesh, field, x0, v, 6), atRest);  // and keeps them through the step
  field.setTime(0.2, 0.1);
  expectForces(force(mesh, field, x0, v, 6),
               {0, -5, 0, 10, -5, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
}

TEST(EdgePressure, RefusesANodeTheMeshLacksOnEveryRank) {
  const eis::DistributedMesh mesh = strip();
  eis::EdgePressure::Load load = follower();
  load.edges.push_back({5, 6, 1.0});
  EXPECT_THROW(eis::EdgePressure(mesh, {load}), eis::Error);
}

}  // namespace
