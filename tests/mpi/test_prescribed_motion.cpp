// Prescribed motion (model/prescribed_motion.cpp, the lift in ode/euler_implicit_solver.cpp) on
// 1, 2 and 3 ranks, against exact answers: SOFA's rule (free outside the key times, projected
// at the step's start time) along a trajectory worked out by hand; the hold rule's key frames
// followed to rounding; a constant velocity moves its nodes by n h V; a bar pulled at one end
// settles to uniform strain.
#include <gtest/gtest.h>

#include <cmath>

#include "eis/app/simulation.hpp"
#include "eis/core/error.hpp"
#include "eis/model/mechanical_system.hpp"
#include "eis/model/prescribed_motion.hpp"
#include "mpi_support.hpp"

namespace {

// A 4 x 1 x 1 bar in 8 x 2 x 2 cells (81 nodes 0.5 apart) held at x = 0, no gravity.
eis_test::SceneFields heldBar() {
  eis_test::SceneFields scene = eis_test::cantilever({4, 1, 1}, {8, 2, 2}, 2e3);
  scene.gravity = {0, 0, 0};
  return scene;
}

const char* const kEndFrames = "0 0 0 0  0.03 0.12 -0.06 0.03  0.05 0.3 0 -0.01 : box 4 0 0 4 1 1";

// The displacement kEndFrames prescribes at time t, by hand.
std::array<double, 3> endMove(double t) {
  if (t >= 0.05) return {0.3, 0, -0.01};
  if (t >= 0.03) {
    const double s = (t - 0.03) / 0.02;
    return {0.12 + s * 0.18, -0.06 + s * 0.06, 0.03 - s * 0.04};
  }
  return {0.12 * t / 0.03, -0.06 * t / 0.03, 0.03 * t / 0.03};
}

// After one step from rest with linear elasticity, the free unknowns satisfy the implicit
// equations M v = h f(x, v) to rounding: |P (M v - h f)| <= 1e-11 h |f| (`what` names the case).
void expectImplicitStepSolved(eis::MechanicalSystem& system, Vec x, Vec v, double h, int what) {
  Vec residual = system.createVector(), force = system.createVector();
  system.computeForce(x, v, force);
  VecZeroEntries(residual);
  system.addMBKv(residual, 1.0, 0.0, 0.0, v);
  VecAXPY(residual, -h, force);
  system.projectResponse(residual);
  PetscReal norm, scale;
  VecNorm(residual, NORM_INFINITY, &norm);
  VecNorm(force, NORM_INFINITY, &scale);
  EXPECT_GT(scale, 1.0);
  EXPECT_LT(norm, 1e-11 * h * scale) << what;
  for (Vec* w : {&residual, &force}) VecDestroy(w);
}

TEST(KeyFrames, InterpolateLinearlyAndHoldOutside) {
  std::string selection;
  const eis::KeyFrames frames =
      eis::parseKeyFrames("key", "1 1 2 3  3 3 2 1 : indices 0", selection);
  EXPECT_EQ(frames.at(0), (std::array<double, 3>{1, 2, 3}));
  EXPECT_EQ(frames.at(2), (std::array<double, 3>{2, 2, 2}));
  EXPECT_EQ(frames.at(3), (std::array<double, 3>{3, 2, 1}));
  EXPECT_EQ(frames.at(7), (std::array<double, 3>{3, 2, 1}));
  for (const char* bad : {"0 1 2 3 indices 0", "0 1 2 : all", ": all", "1 0 0 0 1 0 0 0 : all",
                          "-1 0 0 0 : all", "0 0 0 0 : cube"})
    EXPECT_THROW(eis::parseKeyFrames("key", bad, selection), eis::Error) << bad;
}

// SOFA's findKeyTimes: a key time at or before t and one after it; so never with one key time.
TEST(KeyFrames, SofaActsFromTheFirstKeyTimeUntilTheLast) {
  std::string selection;
  const eis::KeyFrames frames =
      eis::parseKeyFrames("key", "1 1 2 3  3 3 2 1 : indices 0", selection);
  for (double t : {0.0, 0.999, 3.0, 4.0}) EXPECT_FALSE(frames.active(t)) << t;
  for (double t : {1.0, 2.0, 2.999}) EXPECT_TRUE(frames.active(t)) << t;
  std::array<double, 3> move, slope;
  frames.sofaAt(2, move, slope);
  EXPECT_EQ(move, (std::array<double, 3>{2, 2, 2}));
  EXPECT_EQ(slope, (std::array<double, 3>{1, 0, -1}));
  EXPECT_FALSE(eis::parseKeyFrames("key", "0 1 2 3 : all", selection).active(0));
}

class PrescribedMotion : public eis_test::TightSolvesTest {};

// The default rule, SOFA's, on the whole bar (no fixed node), which falls under gravity while
// no key frame acts: before the first key time, and from the last one on. While one acts, every
// node sits at rest + m(t) for the step's start time t, with the segment's slope as velocity, so
// the bar translates rigidly and no elastic force arises: the trajectory is worked out here by
// hand, with SOFA's clock (t += h: the tenth step starts at 0.0999.. < 0.1 and is projected).
TEST_F(PrescribedMotion, SofaRuleFreesTheNodesOutsideTheKeyTimes) {
  const double h = 0.01, g = -9.81;
  for (int steps : {2, 3, 5, 9, 10, 11, 13}) {
    SCOPED_TRACE(steps);
    eis_test::SceneFields scene = eis_test::cantilever({4, 1, 1}, {8, 2, 2}, 2e3);
    scene.fixedBoxes.clear();
    scene.gravity = {0, g, 0};
    scene.dt = h;
    scene.steps = steps;
    scene.preconditioner = eis::Preconditioner::Jacobi;
    scene.extra = {{"constraint.linear-movement", "0.03 0 0 0  0.06 0.3 0 0  0.1 0.3 0.2 0 : all"}};
    std::array<double, 3> u{0, 0, 0}, v{0, 0, 0};  // displacement and velocity of every node
    double t = 0;
    for (int n = 0; n < steps; ++n, t += h) {
      if (t >= 0.03 && t < 0.06) {
        u = {0.3 * (t - 0.03) / 0.03, 0, 0};
        v = {0.3 / 0.03, 0, 0};
      } else if (t >= 0.06 && t < 0.1) {
        u = {0.3, 0.2 * (t - 0.06) / 0.04, 0};
        v = {0, 0.2 / 0.04, 0};
      } else {
        v[1] += h * g;
        for (int d = 0; d < 3; ++d) u[d] += h * v[d];
      }
    }
    const eis::NodalTable state = eis_test::run(scene);
    if (!eis_test::root()) continue;
    ASSERT_EQ(state.ids.size(), 81u);
    for (std::size_t i = 0; i < state.ids.size(); ++i) {
      const auto rest = eis_test::boxRestPosition(scene.boxSize, scene.boxCells, state.ids[i]);
      const double* row = &state.values[i * state.width];
      for (int d = 0; d < 3; ++d) {
        EXPECT_NEAR(row[d], rest[d] + u[d], 1e-10);
        EXPECT_NEAR(row[3 + d], v[d], 1e-8);
      }
    }
  }
}

// SOFA's rule inside the key times: the moving nodes are fixed rows of the solve, moving at the
// velocity the projection gave them (the slope, from t = 0 on), and are put back at rest + m(t)
// only after it. Linear elasticity makes the linearized step exact, so after one step the free
// unknowns satisfy M v_1 = h f(x', v_1), x' being x_1 with the moving nodes where the solve
// left them (rest + h slope), not where the projection put them (rest + m(0) = rest).
TEST_F(PrescribedMotion, SofaRuleSolvesWithTheMovingNodesFixedAtTheirSlope) {
  for (auto op : {eis::OperatorMode::Assembled, eis::OperatorMode::MatrixFree}) {
    eis_test::SceneFields scene = heldBar();
    scene.op = op;
    scene.steps = 1;
    scene.extra = {{"constraint.linear-movement", kEndFrames}};
    eis::Simulation simulation(scene.toScene(), PETSC_COMM_WORLD, nullptr);
    simulation.run();
    eis::MechanicalSystem& system = simulation.system();
    const eis::DistributedMesh& mesh = system.mesh();
    Vec x = system.createVector();
    VecCopy(simulation.positions(), x);
    PetscScalar* xs;
    const PetscScalar* vs;
    VecGetArray(x, &xs);
    VecGetArrayRead(simulation.velocities(), &vs);
    const std::array<double, 3> slope{0.12 / 0.03, -0.06 / 0.03, 0.03 / 0.03};
    int pulled = 0;
    for (PetscInt n = 0; n < PetscInt(mesh.restCoords().size()); ++n) {
      if (!mesh.owned()[n] || mesh.restCoords()[n][0] != 4) continue;
      ++pulled;
      for (int d = 0; d < 3; ++d) {
        EXPECT_EQ(xs[mesh.ownedOffset(n) + d], mesh.restCoords()[n][d]);
        EXPECT_NEAR(vs[mesh.ownedOffset(n) + d], slope[d], 1e-13);
        xs[mesh.ownedOffset(n) + d] += scene.dt * vs[mesh.ownedOffset(n) + d];
      }
    }
    VecRestoreArrayRead(simulation.velocities(), &vs);
    VecRestoreArray(x, &xs);
    int total = 0;
    MPI_Allreduce(&pulled, &total, 1, MPI_INT, MPI_SUM, PETSC_COMM_WORLD);
    EXPECT_EQ(total, 9);
    expectImplicitStepSolved(system, x, simulation.velocities(), scene.dt, int(op));
    VecDestroy(&x);
  }
}

// The hold rule: the nodes of the pulled face sit exactly on their key frames after each number of
// steps, inside a segment, across a key time and past the last, whatever the operator and scheme;
// their velocity is the step's displacement over h.
TEST_F(PrescribedMotion, NodesFollowTheKeyFramesExactly) {
  for (auto op : {eis::OperatorMode::Assembled, eis::OperatorMode::MatrixFree})
    for (auto scheme : {eis::TimeScheme::Euler, eis::TimeScheme::Trapezoidal})
      for (bool firstOrder : {false, true})
        for (int steps : {2, 4, 7}) {
          SCOPED_TRACE(std::to_string(int(op)) + std::to_string(int(scheme)) +
                       std::to_string(firstOrder) + " " + std::to_string(steps));
          eis_test::SceneFields scene = heldBar();
          scene.op = op;
          scene.scheme = scheme;
          scene.firstOrder = firstOrder;
          scene.steps = steps;
          scene.extra = {{"constraint.linear-movement", kEndFrames},
                         {"constraint.linear-movement-rule", "hold"}};
          const eis::NodalTable state = eis_test::run(scene);
          if (!eis_test::root()) continue;
          const double h = scene.dt, t = steps * h;
          const auto move = endMove(t), before = endMove(t - h);
          int pulled = 0;
          for (std::size_t i = 0; i < state.ids.size(); ++i) {
            const auto rest =
                eis_test::boxRestPosition(scene.boxSize, scene.boxCells, state.ids[i]);
            if (rest[0] != 4) continue;
            ++pulled;
            const double* row = &state.values[i * state.width];
            for (int d = 0; d < 3; ++d) {
              EXPECT_NEAR(row[d], rest[d] + move[d], 1e-14);
              if (scheme == eis::TimeScheme::Euler || firstOrder)
                EXPECT_NEAR(row[3 + d], (move[d] - before[d]) / h, 1e-11);
            }
          }
          EXPECT_EQ(pulled, 9);
        }
}

// The hold rule: linear elasticity makes the linearized step exact, so after one step from rest
// the free unknowns satisfy M v_1 = h f(x_1, v_1) to rounding; this holds only when the pulled
// nodes' known motion enters the free rows' right-hand side (b - A L), in both operators.
TEST_F(PrescribedMotion, FreeNodesSolveTheImplicitEquationsWithTheMotionKnown) {
  for (auto op : {eis::OperatorMode::Assembled, eis::OperatorMode::MatrixFree}) {
    eis_test::SceneFields scene = heldBar();
    scene.op = op;
    scene.steps = 1;
    scene.extra = {{"constraint.linear-movement", kEndFrames},
                   {"constraint.linear-movement-rule", "hold"}};
    eis::Simulation simulation(scene.toScene(), PETSC_COMM_WORLD, nullptr);
    simulation.run();
    eis::MechanicalSystem& system = simulation.system();
    expectImplicitStepSolved(system, simulation.positions(), simulation.velocities(), scene.dt,
                             int(op));
  }
}

// A constant velocity moves the selected nodes by n h V; the other face stays held.
TEST_F(PrescribedMotion, ConstantVelocityMovesByNhV) {
  eis_test::SceneFields scene = heldBar();
  scene.steps = 5;
  scene.extra = {{"constraint.prescribed-velocity", "0.5 -1 2 box 4 0 0 4 1 1"}};
  const eis::NodalTable state = eis_test::run(scene);
  if (!eis_test::root()) return;
  const std::array<double, 3> velocity{0.5, -1, 2};
  for (std::size_t i = 0; i < state.ids.size(); ++i) {
    const auto rest = eis_test::boxRestPosition(scene.boxSize, scene.boxCells, state.ids[i]);
    const double* row = &state.values[i * state.width];
    for (int d = 0; d < 3; ++d) {
      if (rest[0] == 4) {
        EXPECT_NEAR(row[d], rest[d] + scene.steps * scene.dt * velocity[d], 1e-14);
        EXPECT_NEAR(row[3 + d], velocity[d], 1e-11);
      }
      if (rest[0] == 0) EXPECT_EQ(row[d], rest[d]);
    }
  }
}

// Held at x = 0 and pulled along x by d at x = L (ramped, then held: the hold rule), with Poisson's
// ratio 0 and heavy damping the bar settles to the static linear-elastic answer: uniform strain d /
// L, u_x = d x / L, no lateral motion. The same on any rank count.
TEST_F(PrescribedMotion, APulledBarSettlesToUniformStrain) {
  eis_test::SceneFields scene = heldBar();
  scene.poissonRatio = 0;
  scene.dt = 0.05;
  scene.steps = 400;
  scene.rayleighMass = 5;
  const double d = 0.2, length = 4;
  scene.extra = {{"constraint.linear-movement", "0 0 0 0 1 0.2 0 0 : box 4 0 0 4 1 1"},
                 {"constraint.linear-movement-rule", "hold"}};
  const eis::NodalTable state = eis_test::run(scene);
  if (eis_test::root()) {
    ASSERT_EQ(state.ids.size(), 81u);
    for (std::size_t i = 0; i < state.ids.size(); ++i) {
      const auto rest = eis_test::boxRestPosition(scene.boxSize, scene.boxCells, state.ids[i]);
      const double* row = &state.values[i * state.width];
      EXPECT_NEAR(row[0] - rest[0], d * rest[0] / length, 1e-8);
      EXPECT_NEAR(row[1], rest[1], 1e-8);
      EXPECT_NEAR(row[2], rest[2], 1e-8);
    }
  }
  scene.steps = 30;
  EXPECT_LT(eis_test::disagreement(eis_test::serialReference(scene), eis_test::run(scene), scene),
            1e-10);
}

}  // namespace
