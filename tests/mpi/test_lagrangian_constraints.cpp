// Lagrangian constraints under SOFA's free-motion step (ode/free_motion_step.cpp,
// model/fixed_lagrangian_constraint.cpp, linalg/block_gauss_seidel.cpp) on 1, 2 and 3 ranks:
// multipliers computed by hand, a hanging body's reaction equal to its weight, and the same
// answer on any rank count.
#include <gtest/gtest.h>

#include <cmath>

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

}  // namespace
