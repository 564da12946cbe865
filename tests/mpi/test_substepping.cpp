// solver.on-failure on 1, 2 and 3 ranks (src/app/substepping.cpp through whole runs): a soft
// Neo-Hookean beam whose steps fail stops the run with `stop`; with `retry` a failed step is
// redone in 2, 4, ... sub-steps, and the history says how many; a run that never fails is the
// same with either.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "eis/app/simulation.hpp"
#include "eis/core/error.hpp"
#include "mpi_support.hpp"
#include "output_files.hpp"

namespace {

using eis_test::disagreement;

class Substepping : public eis_test::TemporaryFolderTest {};

// A soft Neo-Hookean beam under strong gravity, in two steps of 0.5 s. Its second step's matrix
// is indefinite (GMRES solves it, LinearSolver::solve).
eis_test::SceneFields softBeam() {
  eis_test::SceneFields scene = eis_test::cantilever({10, 1, 1}, {4, 1, 1}, 100);
  scene.material = eis::MaterialModel::NeoHookean;
  scene.gravity = {0, -100, 0};
  scene.dt = 0.5;
  scene.steps = 2;
  return scene;
}

eis::NodalTable runTo(const eis_test::SceneFields& scene) {
  eis::Simulation simulation(scene.toScene(), PETSC_COMM_WORLD, nullptr);
  simulation.run();
  return simulation.gatherState();
}

// The substeps column of a history file, on every rank.
std::vector<int> substepsOf(const std::string& history) {
  std::vector<int> column;
  if (eis_test::root()) {
    const std::vector<std::string> text = eis_test::lines(history);
    const std::vector<std::string> header = eis_test::split(text.at(0));
    const auto at = std::find(header.begin(), header.end(), "substeps");
    EXPECT_NE(at, header.end());
    for (std::size_t row = 1; row < text.size() && at != header.end(); ++row)
      column.push_back(std::stoi(eis_test::split(text[row]).at(std::size_t(at - header.begin()))));
  }
  int size = int(column.size());
  MPI_Bcast(&size, 1, MPI_INT, 0, PETSC_COMM_WORLD);
  column.resize(std::size_t(size));
  MPI_Bcast(column.data(), size, MPI_INT, 0, PETSC_COMM_WORLD);
  return column;
}

// With the linear solves limited to 13 iterations, the full steps fail (DIVERGED_ITS): a
// sub-step's smaller h weighs the mass more and needs fewer (on 1 rank the two steps take 2 and 8
// sub-steps).
TEST_F(Substepping, StopEndsTheRunRetrySplitsTheFailedStepInPowersOfTwo) {
  eis_test::SceneFields scene = softBeam();
  scene.extra = {{"solver.max-iterations", "13"}};
  EXPECT_THROW(runTo(scene), eis::Error);

  scene.extra = {{"solver.max-iterations", "13"},
                 {"solver.on-failure", "retry"},
                 {"solver.max-substeps", "1024"}};
  scene.history = file("history.csv");
  EXPECT_NO_THROW(runTo(scene));
  const std::vector<int> substeps = substepsOf(scene.history);
  ASSERT_EQ(substeps.size(), 2u);
  EXPECT_GT(std::max(substeps[0], substeps[1]), 1);
  for (int n : substeps) EXPECT_EQ(n & (n - 1), 0) << n << ": a power of 2";

  // Fewer sub-steps allowed than a step needs: the retries end, and so does the run.
  scene.extra = {{"solver.max-iterations", "13"},
                 {"solver.on-failure", "retry"},
                 {"solver.max-substeps", "2"}};
  EXPECT_THROW(runTo(scene), eis::Error);
}

// A run whose steps all succeed is the same, to the last bit, with retry as with stop (matrix-free:
// an assembled operator on 3 ranks sums ghost contributions in arrival order, so two identical
// runs may differ in the last bits).
TEST_F(Substepping, RetryLeavesARunThatNeverFailsAsItWas) {
  eis_test::SceneFields scene = softBeam();
  scene.steps = 1;
  scene.op = eis::OperatorMode::MatrixFree;
  scene.history = file("history.csv");
  const eis::NodalTable stopped = runTo(scene);
  scene.extra = {{"solver.on-failure", "retry"}};
  const eis::NodalTable retried = runTo(scene);
  EXPECT_EQ(disagreement(stopped, retried, scene), 0.0);
  EXPECT_EQ(substepsOf(scene.history), std::vector<int>{1});
}

}  // namespace
