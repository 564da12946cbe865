// Lagrangian constraints under SOFA's free-motion step (ode/free_motion_step.cpp,
// model/fixed_lagrangian_constraint.cpp, linalg/block_gauss_seidel.cpp) on 1, 2 and 3 ranks:
// multipliers computed by hand, a hanging body's reaction equal to its weight, and the same
// answer on any rank count.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <map>

#include "eis/app/simulation.hpp"
#include "eis/model/mechanical_system.hpp"
#include "eis/ode/free_motion_step.hpp"
#include "eis/ode/time_integrator_component.hpp"
#include "mpi_support.hpp"

namespace {

class LagrangianConstraints : public eis_test::TightSolvesTest {};

// A body of uniform mass held by Lagrangian constraints, the free motion solved directly.
eis_test::SceneFields heldBody(const std::string& selection, double tolerance) {
  eis_test::SceneFields scene;
  scene.boxSize = {1, 0.2, 0.2};
  scene.boxCells = {4, 1, 1};
  scene.youngModulus = 1e4;
  scene.mass = eis::MassType::Uniform;
  scene.gravity = {0, 0, -9.81};
  scene.rayleighMass = 0.1;
  scene.rayleighStiffness = 0.1;
  scene.extra = {{"mass.total-mass", "2"},
                 {"solver.linear", "direct"},
                 {"lagrange.solver", "block-gauss-seidel"},
                 {"lagrange.correction", "linear-solver"},
                 {"lagrange.tolerance", eis::parse::text(tolerance)},
                 {"lagrange.max-iterations", "10000"},
                 {"lagrange.fixed", selection}};
  return scene;
}

struct HeldRun {
  explicit HeldRun(const eis_test::SceneFields& fields)
      : scene(fields.toScene()), simulation(scene, PETSC_COMM_WORLD, nullptr) {
    eis::MechanicalSystem& system = simulation.system();
    integrator = eis::makeTimeIntegrator(
        eis::readTimeIntegratorParameters(scene),
        eis::linearSolverOf(eis::readLinearSolverParameters(scene), system.constantMatrix()),
        PETSC_COMM_WORLD, simulation.positions(), nullptr);
    step = dynamic_cast<eis::FreeMotionStep*>(integrator.get());
  }
  eis::StepReport advance(double h) {
    return step->step(simulation.system(), simulation.positions(), simulation.velocities(), h);
  }
  eis::Scene scene;
  eis::Simulation simulation;
  std::unique_ptr<eis::TimeIntegrator> integrator;
  eis::FreeMotionStep* step = nullptr;
};

// Every node held, from rest: the free motion moves each node by h^2 A^-1 M g, W = h A^-1, so
// the multipliers are -h m g exactly (an impulse: the force times h), and the correction puts
// every node back at rest with zero velocity.
TEST_F(LagrangianConstraints, HeldNodesTakeTheirWeightTimesTheStep) {
  HeldRun run(heldBody("all", 1e-14));
  ASSERT_NE(run.step, nullptr);
  const double h = 0.01, nodes = 5 * 2 * 2, m = 2 / nodes;
  const eis::StepReport report = run.advance(h);
  EXPECT_EQ(report.constraintRows, 3 * nodes);
  EXPECT_GT(report.constraintIterations, 1);
  const std::vector<double>& f = run.step->forces();
  ASSERT_EQ(f.size(), std::size_t(3 * nodes));
  for (std::size_t i = 0; i < f.size(); ++i)
    EXPECT_NEAR(f[i], i % 3 == 2 ? h * m * 9.81 : 0.0, 1e-10) << "row " << i;
  const eis::NodalTable state = run.simulation.gatherState();
  if (!eis_test::root()) return;
  for (std::size_t i = 0; i < state.ids.size(); ++i) {
    const auto rest = eis_test::boxRestPosition({1, 0.2, 0.2}, {4, 1, 1}, state.ids[i]);
    for (int d = 0; d < 3; ++d) {
      EXPECT_NEAR(state.values[i * state.width + d], rest[d], 1e-12);
      EXPECT_NEAR(state.values[i * state.width + 3 + d], 0.0, 1e-10);
    }
  }
}

// A beam hanging from its x = 0 face: the held nodes stay at rest to the Gauss-Seidel's
// tolerance at every step, and once the motion has died out the multipliers add up to the
// weight times the step.
TEST_F(LagrangianConstraints, HangingBodyIsHeldByItsWeight) {
  // Its first bending mode, sqrt(EI / (rho A L^4)) 1.875^2 = 29 rad/s, critically damped by
  // rayleigh-mass 2 x 29: every mode decays at least as e^(-29 t).
  eis_test::SceneFields fields = heldBody("box -0.01 -1 -1 0.01 1 1", 1e-13);
  fields.youngModulus = 1e6;
  fields.rayleighMass = 57;
  HeldRun run(fields);
  const double h = 0.01;
  for (int s = 0; s < 200; ++s) {
    const eis::StepReport report = run.advance(h);
    ASSERT_EQ(report.constraintRows, 12);
    const eis::NodalTable state = run.simulation.gatherState();
    if (eis_test::root() && (s < 3 || s % 100 == 0))
      for (std::size_t i = 0; i < state.ids.size(); ++i) {
        const auto rest = eis_test::boxRestPosition({1, 0.2, 0.2}, {4, 1, 1}, state.ids[i]);
        if (rest[0] != 0) continue;
        for (int d = 0; d < 3; ++d)
          EXPECT_NEAR(state.values[i * state.width + d], rest[d], 1e-10) << "step " << s;
      }
  }
  double sum[3] = {0, 0, 0};
  const std::vector<double>& f = run.step->forces();
  for (std::size_t i = 0; i < f.size(); ++i) sum[i % 3] += f[i];
  EXPECT_NEAR(sum[2], h * 2 * 9.81, 1e-6 * h * 2 * 9.81);
  EXPECT_NEAR(sum[0], 0.0, 1e-9);
  EXPECT_NEAR(sum[1], 0.0, 1e-9);
}

// The same hanging beam through the whole run on every rank and on rank 0 alone: with the
// direct solve (W's columns solved together) and with CG (one by one).
TEST_F(LagrangianConstraints, SameAnswerOnAnyRankCount) {
  for (const char* linear : {"direct", "iterative"}) {
    SCOPED_TRACE(linear);
    eis_test::SceneFields fields = heldBody("box -0.01 -1 -1 0.01 1 1", 1e-12);
    fields.boxCells = {6, 2, 2};
    fields.steps = 20;
    for (auto& [key, value] : fields.extra)
      if (key == "solver.linear") value = linear;
    const eis::NodalTable world = eis_test::run(fields);
    const eis::NodalTable alone = eis_test::serialReference(fields);
    EXPECT_LT(eis_test::disagreement(world, alone, fields), 1e-9);
  }
}

// "to points X Y Z ..": the rest positions of the nodes `keep` accepts, by increasing id, each
// moved by `shift`.
std::string restPoints(bool (*keep)(const std::array<double, 3>&), std::array<double, 3> shift) {
  std::string points = "points";
  for (std::int64_t id = 0; id < 5 * 2 * 2; ++id) {
    const auto p = eis_test::boxRestPosition({1, 0.2, 0.2}, {4, 1, 1}, id);
    if (keep(p))
      for (int d = 0; d < 3; ++d) points += " " + eis::parse::text(p[d] + shift[d]);
  }
  return points;
}

eis_test::SceneFields bilateralBody(const std::string& value, double tolerance) {
  eis_test::SceneFields fields = heldBody("all", tolerance);
  for (auto& [key, v] : fields.extra)
    if (key == "lagrange.fixed") {
      key = "lagrange.bilateral";
      v = value;
    }
  return fields;
}

// Every node held to its rest position by a bilateral constraint to fixed points: the rows are
// -1 on each node (SOFA's object1 side), so the multipliers are those of the fixed constraint
// with the opposite sign, -h m g exactly, and the body stays at rest.
TEST_F(LagrangianConstraints, BilateralToPointsTakesTheWeightWithItsSign) {
  HeldRun run(bilateralBody(
      "all to " + restPoints([](const std::array<double, 3>&) { return true; }, {0, 0, 0}), 1e-14));
  const double h = 0.01, nodes = 5 * 2 * 2, m = 2 / nodes;
  const eis::StepReport report = run.advance(h);
  EXPECT_EQ(report.constraintRows, 3 * nodes);
  const std::vector<double>& f = run.step->forces();
  ASSERT_EQ(f.size(), std::size_t(3 * nodes));
  for (std::size_t i = 0; i < f.size(); ++i)
    EXPECT_NEAR(f[i], i % 3 == 2 ? -h * m * 9.81 : 0.0, 1e-10) << "row " << i;
  const eis::NodalTable state = run.simulation.gatherState();
  if (!eis_test::root()) return;
  for (std::size_t i = 0; i < state.ids.size(); ++i) {
    const auto rest = eis_test::boxRestPosition({1, 0.2, 0.2}, {4, 1, 1}, state.ids[i]);
    for (int d = 0; d < 3; ++d) EXPECT_NEAR(state.values[i * state.width + d], rest[d], 1e-12);
  }
}

bool atX0(const std::array<double, 3>& p) {
  return p[0] == 0;
}

// The x = 0 face held to points 0.01 above its rest positions, and the two nodes of the free
// end's y = 0 edge (ids 4 and 14) held to those at y = 0.2 (ids 9 and 19) within the body: after
// every step each held node is at its point and each pair at one place, to the Gauss-Seidel's
// tolerance; once the motion has died out the face's multipliers add up to minus the weight
// times the step (the pairs are internal: their forces cancel in the sum of J^T f).
TEST_F(LagrangianConstraints, BilateralPairsAndPointsHoldTogether) {
  eis_test::SceneFields fields =
      bilateralBody("box -0.01 -1 -1 0.01 1 1 to " + restPoints(atX0, {0, 0, 0.01}), 1e-13);
  fields.extra.push_back({"lagrange.bilateral", "indices 4 14 to indices 9 19"});
  fields.youngModulus = 1e6;
  fields.rayleighMass = 57;
  HeldRun run(fields);
  const double h = 0.01;
  for (int s = 0; s < 200; ++s) {
    const eis::StepReport report = run.advance(h);
    ASSERT_EQ(report.constraintRows, 12 + 6);
    const eis::NodalTable state = run.simulation.gatherState();
    if (!eis_test::root() || !(s < 3 || s % 50 == 0)) continue;
    std::map<std::int64_t, std::array<double, 3>> at;
    for (std::size_t i = 0; i < state.ids.size(); ++i)
      for (int d = 0; d < 3; ++d) at[state.ids[i]][d] = state.values[i * state.width + d];
    for (const auto& [id, x] : at) {
      const auto rest = eis_test::boxRestPosition({1, 0.2, 0.2}, {4, 1, 1}, id);
      if (rest[0] != 0) continue;
      for (int d = 0; d < 3; ++d)
        EXPECT_NEAR(x[d], rest[d] + (d == 2 ? 0.01 : 0.0), 1e-10) << "step " << s << " node " << id;
    }
    for (const auto& [a, b] : {std::pair<int, int>{4, 9}, {14, 19}})
      for (int d = 0; d < 3; ++d) EXPECT_NEAR(at[a][d], at[b][d], 1e-10) << "step " << s;
  }
  double sum[3] = {0, 0, 0};
  const std::vector<double>& f = run.step->forces();
  for (std::size_t i = 0; i < 12; ++i) sum[i % 3] += f[i];
  // The motion of the squeezed end dies out to 1e-8 of the weight by then.
  EXPECT_NEAR(sum[2], -h * 2 * 9.81, 1e-6 * h * 2 * 9.81);
  EXPECT_NEAR(sum[0], 0.0, 1e-6 * h * 2 * 9.81);
  EXPECT_NEAR(sum[1], 0.0, 1e-6 * h * 2 * 9.81);
}

// The x = 0 face held to its rest points moving by key frames 0 -> (0, 0, 0.0125) over [0,
// 0.025] (SOFA's LinearMovementProjectiveConstraint on the frame they are mapped from): the step
// from t_s = s h holds them moved by m(t_{s-1}) (m(0) for the first), and no more once t_{s-1}
// reaches the last key time, so after steps 0..5 the face is up by 0, 0, 0.005, 0.01, 0.01,
// 0.01, to the Gauss-Seidel's tolerance.
TEST_F(LagrangianConstraints, BilateralToMovingPointsFollowsTheLastProjection) {
  HeldRun run(bilateralBody("box -0.01 -1 -1 0.01 1 1 to " + restPoints(atX0, {0, 0, 0}) +
                                " moving 0 0 0 0 0.025 0 0 0.0125",
                            1e-13));
  const double h = 0.01, up[] = {0, 0, 0.005, 0.01, 0.01, 0.01};
  for (int s = 0; s < 6; ++s) {
    run.simulation.system().setTime(s * h, h);
    run.advance(h);
    const eis::NodalTable state = run.simulation.gatherState();
    if (!eis_test::root()) continue;
    for (std::size_t i = 0; i < state.ids.size(); ++i) {
      const auto rest = eis_test::boxRestPosition({1, 0.2, 0.2}, {4, 1, 1}, state.ids[i]);
      if (rest[0] != 0) continue;
      for (int d = 0; d < 3; ++d)
        EXPECT_NEAR(state.values[i * state.width + d], rest[d] + (d == 2 ? up[s] : 0.0), 1e-10)
            << "step " << s << " node " << state.ids[i];
    }
  }
}

// SOFA's UncoupledConstraintCorrection on every node: W = h c I, so the Gauss-Seidel's first
// iteration gives f = -(x_free - x_rest) / (h c) = -v_free / c (from rest), which puts every
// node back at rest with zero velocity; v_free is the velocity of the same step without
// constraints.
TEST_F(LagrangianConstraints, UncoupledCorrectionTakesTheFreeVelocityOverTheCompliance) {
  const double h = 0.01, c = 2e-3;
  eis_test::SceneFields fields = heldBody("all", 1e-14);
  for (auto& [key, value] : fields.extra)
    if (key == "lagrange.correction") value = "uncoupled";
  fields.extra.push_back({"lagrange.compliance", eis::parse::text(c)});
  HeldRun run(fields);
  const eis::StepReport report = run.advance(h);
  EXPECT_EQ(report.constraintIterations, 2);  // the second sees no change
  eis_test::SceneFields free = heldBody("all", 1e-14);
  free.extra = {{"mass.total-mass", "2"}, {"solver.linear", "direct"}};
  HeldRun unconstrained(free);
  unconstrained.integrator->step(unconstrained.simulation.system(),
                                 unconstrained.simulation.positions(),
                                 unconstrained.simulation.velocities(), h);
  const eis::NodalTable held = run.simulation.gatherState();
  const eis::NodalTable moved = unconstrained.simulation.gatherState();
  const std::vector<double>& f = run.step->forces();
  if (!eis_test::root()) return;
  ASSERT_EQ(f.size(), 3 * moved.ids.size());
  for (std::size_t i = 0; i < moved.ids.size(); ++i) {
    const auto rest = eis_test::boxRestPosition({1, 0.2, 0.2}, {4, 1, 1}, held.ids[i]);
    for (int d = 0; d < 3; ++d) {
      const double vFree = moved.values[i * moved.width + 3 + d];
      EXPECT_NEAR(f[3 * std::size_t(moved.ids[i]) + d], -vFree / c, 1e-9 * 9.81 * h / c);
      EXPECT_NEAR(held.values[i * held.width + d], rest[d], 1e-15);
      EXPECT_NEAR(held.values[i * held.width + 3 + d], 0.0, 1e-12);
    }
  }
}

// The same scene of bilateral rows through the whole run on every rank and on rank 0 alone.
TEST_F(LagrangianConstraints, BilateralSameAnswerOnAnyRankCount) {
  eis_test::SceneFields fields =
      bilateralBody("box -0.01 -1 -1 0.01 1 1 to " + restPoints(atX0, {0, 0, 0.01}), 1e-12);
  fields.extra.push_back({"lagrange.bilateral", "indices 4 14 to indices 9 19"});
  fields.steps = 20;
  const eis::NodalTable world = eis_test::run(fields);
  const eis::NodalTable alone = eis_test::serialReference(fields);
  EXPECT_LT(eis_test::disagreement(world, alone, fields), 1e-9);
}

}  // namespace
