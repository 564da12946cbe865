// Whole runs of the cantilever beam on 1, 2 and 3 ranks: the same final state as one rank, the
// static solution reached under damping, first-order convergence in h of SOFA's scheme (also with
// its trapezoidal factor), and matrix-free products that agree with the assembled matrix.
#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include "eis/app/simulation.hpp"
#include "eis/linalg/linear_solver.hpp"
#include "eis/model/mechanical_system.hpp"
#include "mpi_support.hpp"

namespace {

using eis_test::disagreement;
using eis_test::run;
using eis_test::serialReference;

eis_test::SceneFields smallBeam() {
  eis_test::SceneFields scene = eis_test::cantilever({4, 1, 1}, {8, 2, 2}, 1e4);
  scene.steps = 10;
  return scene;
}

class Cantilever : public eis_test::TightSolvesTest {};

// How the state at t = T = 0.32 changes as the step halves: the differences between the runs with
// h = H and H/2, H/2 and H/4, H/4 and H/8. For a method of order p each is the error of its
// coarser run times (1 - 2^-p), to leading order, so successive differences fall as the errors
// do, by 2^p, without a run at a much smaller step to measure errors against (with H = 0.02 such
// a run at H/64 was 1024 of 1136 steps). The next order's share of a difference is 1.5 times its
// share of the error, so a first-order method starts from a smaller H.
std::array<double, 3> differencesAsTheStepHalves(eis_test::SceneFields scene, double coarse) {
  const double T = 0.32;
  std::array<double, 3> differences;
  eis::NodalTable previous;
  for (int level = 0; level < 4; ++level) {
    scene.dt = coarse / (1 << level);
    scene.steps = int(std::lround(T / scene.dt));
    eis::NodalTable state = run(scene, PETSC_COMM_WORLD);
    if (level > 0) differences[level - 1] = disagreement(previous, state, scene);
    previous = std::move(state);
  }
  return differences;
}

TEST_F(Cantilever, EveryRankCountGivesTheSerialFinalState) {
  struct Case {
    const char* name;
    eis::MaterialModel model;
    eis::RotationMethod rotation;
    eis::NewtonMode newton;
  };
  const Case cases[] = {{"linear", eis::MaterialModel::Linear, eis::RotationMethod::Large,
                         eis::NewtonMode::Linearized},
                        {"corotational large", eis::MaterialModel::Corotational,
                         eis::RotationMethod::Large, eis::NewtonMode::Linearized},
                        {"corotational polar", eis::MaterialModel::Corotational,
                         eis::RotationMethod::Polar, eis::NewtonMode::Linearized},
                        {"stvk, Newton", eis::MaterialModel::StVenantKirchhoff,
                         eis::RotationMethod::Large, eis::NewtonMode::Full},
                        {"neohookean, Newton", eis::MaterialModel::NeoHookean,
                         eis::RotationMethod::Large, eis::NewtonMode::Full}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    eis_test::SceneFields scene = smallBeam();
    scene.youngModulus = 2e3;  // soft: the nonlinear models see large rotations
    scene.rayleighStiffness = 0.01;
    scene.dampingCoefficient = 0.2;
    scene.forceBoxes = {{{{4, 0, 0}, {4, 1, 1}}, {0.0, 0.0, -3.0}}};  // a twist-free tip load
    scene.mass = eis::MassType::Consistent;
    scene.material = c.model;
    scene.rotation = c.rotation;
    scene.newton = c.newton;
    EXPECT_LT(disagreement(serialReference(scene), run(scene, PETSC_COMM_WORLD), scene), 1e-10);
  }
}

TEST_F(Cantilever, MatrixFreeAgreesWithAssembled) {
  eis_test::SceneFields scene = smallBeam();
  scene.rayleighMass = 0.1;
  const auto assembled = run(scene, PETSC_COMM_WORLD);
  scene.op = eis::OperatorMode::MatrixFree;
  EXPECT_LT(disagreement(assembled, run(scene, PETSC_COMM_WORLD), scene), 1e-9);
}

// What -log_view shows of a matrix-free run: in the "KSP solve" stage every MatMult is one
// product of the shell (the ShellProduct event), so no assembled operator is multiplied there.
TEST_F(Cantilever, MatrixFreeSolvesMultiplyOnlyThroughTheShell) {
  EIS_CHECK(PetscLogDefaultBegin());
  eis_test::SceneFields scene = smallBeam();
  scene.op = eis::OperatorMode::MatrixFree;
  scene.steps = 3;
  run(scene, PETSC_COMM_WORLD);  // registers the stage and the events
  PetscLogStage solveStage;
  PetscLogEvent matMult, shellProduct;
  EIS_CHECK(PetscLogStageGetId("KSP solve", &solveStage));
  EIS_CHECK(PetscLogEventGetId("MatMult", &matMult));
  EIS_CHECK(PetscLogEventGetId("ShellProduct", &shellProduct));
  const auto count = [&](PetscLogEvent event) {
    PetscEventPerfInfo info;
    EIS_CHECK(PetscLogEventGetPerfInfo(solveStage, event, &info));
    return info.count;
  };
  const int multsBefore = count(matMult), productsBefore = count(shellProduct);
  run(scene, PETSC_COMM_WORLD);
  const int mults = count(matMult) - multsBefore, products = count(shellProduct) - productsBefore;
  EXPECT_GT(products, 3);
  EXPECT_EQ(mults, products);
}

// Heavy damping and large steps: implicit Euler settles at the static equilibrium K u = M g.
TEST_F(Cantilever, DampedCantileverSettlesAtTheLinearStaticSolution) {
  EIS_ON_ONE_RANK_ONLY();
  eis_test::SceneFields scene = smallBeam();
  scene.dt = 1.0;
  scene.steps = 60;
  scene.rayleighMass = 5;
  eis::Simulation simulation(scene.toScene(), PETSC_COMM_WORLD, nullptr);
  simulation.run();

  auto& system = simulation.system();
  Vec rest = system.createVector(), zero = system.createVector(), f = system.createVector(),
      u = system.createVector();
  system.setRestState(rest);
  VecZeroEntries(zero);
  system.computeForce(rest, zero, f);  // at rest only gravity acts: f = M g
  system.projectResponse(f);
  eis::LinearSolver linear(PETSC_COMM_WORLD, PCGAMG, rest);
  linear.solve(system.systemMatrix(0, 0, -1), f, u);  // K u = M g (K the stiffness, -df/dx)
  Vec moved = system.createVector();
  VecWAXPY(moved, -1.0, rest, simulation.positions());
  PetscReal largest, difference;
  VecNorm(u, NORM_INFINITY, &largest);
  VecAXPY(moved, -1.0, u);
  VecNorm(moved, NORM_INFINITY, &difference);
  EXPECT_GT(largest, 1e-3);
  EXPECT_LT(difference / largest, 1e-6);
  for (Vec* v : {&rest, &zero, &f, &u, &moved}) VecDestroy(v);
}

// The error at t = T (as the change when h halves) halves with h, for SOFA's implicit Euler and
// for its trapezoidal variant alike (x_{n+1} = x_n + h v_{n+1} keeps both first order).
TEST_F(Cantilever, ErrorFallsAsHToTheFirstPower) {
  EIS_ON_ONE_RANK_ONLY();
  for (bool trapezoidal : {false, true}) {
    eis_test::SceneFields scene = smallBeam();
    scene.youngModulus = 100;  // soft enough for the trapezoidal variant's h w < 2
    scene.scheme = trapezoidal ? eis::TimeScheme::SofaTrapezoidal : eis::TimeScheme::Euler;
    const auto differences = differencesAsTheStepHalves(scene, 0.01);
    for (int level = 1; level < 3; ++level)
      EXPECT_NEAR(differences[level - 1] / differences[level], 2.0, 0.35)
          << (trapezoidal ? "trapezoidal" : "implicit Euler") << " level " << level;
  }
}

// The true trapezoidal rule is second order: halving h quarters the error, linearized on a
// linear beam and with Newton on a St Venant-Kirchhoff one.
TEST_F(Cantilever, TrueTrapezoidalErrorFallsAsHSquared) {
  EIS_ON_ONE_RANK_ONLY();
  for (auto newton : {eis::NewtonMode::Linearized, eis::NewtonMode::Full}) {
    eis_test::SceneFields scene = smallBeam();
    scene.youngModulus = 100;
    scene.scheme = eis::TimeScheme::Trapezoidal;
    scene.newton = newton;
    if (newton == eis::NewtonMode::Full) scene.material = eis::MaterialModel::StVenantKirchhoff;
    const auto differences = differencesAsTheStepHalves(scene, 0.02);
    for (int level = 1; level < 3; ++level)
      EXPECT_NEAR(differences[level - 1] / differences[level], 4.0, 0.7)
          << (newton == eis::NewtonMode::Full ? "Newton, stvk" : "linearized, linear") << " level "
          << level;
  }
}

}  // namespace
