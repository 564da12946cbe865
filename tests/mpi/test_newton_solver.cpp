// The full Newton loop (solver.newton = full) on 1, 2 and 3 ranks: one iteration on a linear
// problem, SOFA's linearized step as one iteration from v = 0, quadratic convergence on a
// hyperelastic beam, the initial guesses, and energy that implicit Euler never lets grow.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "eis/app/simulation.hpp"
#include "eis/model/mechanical_system.hpp"
#include "eis/ode/newton_solver.hpp"
#include "mpi_support.hpp"

namespace {

eis_test::SceneFields smallBeam(eis::MaterialModel model) {
  eis_test::SceneFields scene = eis_test::cantilever({4, 1, 1}, {8, 2, 2}, 2e3);
  scene.material = model;
  scene.newton = eis::NewtonMode::Full;
  return scene;
}

// A beam and its model, advanced step by step through NewtonSolver.
struct Beam : eis_test::BoxModel {
  explicit Beam(const eis_test::SceneFields& s) : BoxModel(s) {
    x = system->createVector();
    v = system->createVector();
    rest = system->createVector();
    system->setRestState(x);
    system->setRestState(rest);
    VecZeroEntries(v);
  }
  ~Beam() {
    VecDestroy(&x);
    VecDestroy(&v);
    VecDestroy(&rest);
  }
  std::unique_ptr<eis::NewtonSolver> newton(eis::NewtonGuess guess) {
    eis::EulerImplicitOptions options;
    options.rayleighMass = scene.rayleighMass;
    options.rayleighStiffness = scene.rayleighStiffness;
    options.scheme = scene.scheme;
    return std::make_unique<eis::NewtonSolver>(PETSC_COMM_WORLD, options, guess, x, PCGAMG, rest);
  }
  // A smooth vector field of the rest coordinates.
  Vec field(double scale) {
    return BoxModel::field([scale](const eis::Vec3& p) {
      eis::Vec3 w;
      for (int d = 0; d < 3; ++d) w[d] = scale * std::cos(1.7 * p[0] + 2.3 * p[1] + 0.9 * p[2] + d);
      return w;
    });
  }
  double totalEnergy() {
    return system->kineticEnergy(v) + system->potentialEnergy(x) + system->externalPotential(x);
  }
  Vec x = nullptr, v = nullptr, rest = nullptr;
};

// Each test sets the PETSc options it needs; they are cleared when it ends.
class Newton : public ::testing::Test {
protected:
  void set(const char* name, const char* value) { options_.set(name, value); }

private:
  eis_test::ScopedOptions options_;
};

TEST_F(Newton, ConvergesInOneIterationOnALinearProblem) {
  set("-ksp_rtol", "1e-14");
  Beam beam(smallBeam(eis::MaterialModel::Linear));
  auto newton = beam.newton(eis::NewtonGuess::Previous);
  for (int step = 0; step < 3; ++step)
    EXPECT_EQ(newton->step(*beam.system, beam.x, beam.v, 0.01).nonlinearIterations, 1);
}

// Seed 002: for forces affine in v, one Newton iteration from v = 0 with a full step is SOFA's
// linearized step, whatever K does with x: here the corotational model with edge springs,
// re-assembled every step, and a velocity-dependent force (uniform damping, B = -c M).
TEST_F(Newton, OneIterationFromZeroIsTheLinearizedStep) {
  set("-ksp_rtol", "1e-14");
  for (auto model : {eis::MaterialModel::Linear, eis::MaterialModel::Corotational}) {
    eis_test::SceneFields scene = smallBeam(model);
    scene.rayleighMass = 0.3;
    scene.rayleighStiffness = 0.02;
    scene.dampingCoefficient = 0.4;
    if (model == eis::MaterialModel::Corotational) scene.springStiffness = 500;
    scene.steps = 5;
    scene.newton = eis::NewtonMode::Linearized;
    eis::Simulation linearized(scene.toScene(), PETSC_COMM_WORLD, nullptr);
    linearized.run();
    scene.newton = eis::NewtonMode::Full;
    scene.newtonGuess = eis::NewtonGuess::Zero;
    PetscOptionsSetValue(nullptr, "-snes_type", "ksponly");
    eis::Simulation newton(scene.toScene(), PETSC_COMM_WORLD, nullptr);
    newton.run();
    PetscOptionsClearValue(nullptr, "-snes_type");
    Vec difference;
    VecDuplicate(newton.positions(), &difference);
    VecWAXPY(difference, -1.0, linearized.positions(), newton.positions());
    PetscReal gap, moved;
    VecNorm(difference, NORM_INFINITY, &gap);
    Beam reference(scene);
    VecWAXPY(difference, -1.0, reference.rest, linearized.positions());
    VecNorm(difference, NORM_INFINITY, &moved);
    VecDestroy(&difference);
    EXPECT_GT(moved, 1e-4);
    EXPECT_LT(gap / moved, 1e-12) << (model == eis::MaterialModel::Linear ? "linear"
                                                                          : "corotational");
  }
}

// Newton's residual norms on a hyperelastic beam falling under a large step: quadratic at the end.
TEST_F(Newton, ResidualFallsQuadraticallyOnAHyperelasticBeam) {
  set("-ksp_rtol", "1e-14");
  set("-snes_rtol", "1e-13");
  Beam beam(smallBeam(eis::MaterialModel::NeoHookean));
  auto newton = beam.newton(eis::NewtonGuess::Zero);
  PetscReal history[50];
  PetscInt length = 50;
  SNESSetConvergenceHistory(newton->snes(), history, nullptr, length, PETSC_TRUE);
  const auto report = newton->step(*beam.system, beam.x, beam.v, 0.2);
  SNESGetConvergenceHistory(newton->snes(), nullptr, nullptr, &length);
  ASSERT_GE(report.nonlinearIterations, 3);
  // Once in the quadratic basin, r_{k+1} <= C r_k^2: the digits gained double.
  int quadratic = 0;
  for (PetscInt k = 1; k + 1 < length; ++k) {
    const double gained = std::log10(history[k] / history[k + 1]);
    const double before = std::log10(history[k - 1] / history[k]);
    if (history[k + 1] > 1e-12 * history[0] && gained > 1.6 * before) ++quadratic;
  }
  EXPECT_GE(quadratic, 1) << "no iteration doubled the digits gained";
}

// A beam swinging under gravity: starting from v_n, or extrapolating, beats starting from rest.
TEST_F(Newton, PreviousAndExtrapolatedGuessesNeedFewerIterationsThanZero) {
  set("-ksp_rtol", "1e-12");
  int iterations[3] = {0, 0, 0};
  const eis::NewtonGuess guesses[3] = {eis::NewtonGuess::Zero, eis::NewtonGuess::Previous,
                                       eis::NewtonGuess::Extrapolated};
  for (int g = 0; g < 3; ++g) {
    Beam beam(smallBeam(eis::MaterialModel::StVenantKirchhoff));
    auto newton = beam.newton(guesses[g]);
    for (int step = 0; step < 12; ++step)
      iterations[g] += newton->step(*beam.system, beam.x, beam.v, 0.02).nonlinearIterations;
  }
  if (eis_test::root())
    std::printf("Newton iterations over 12 steps: zero %d, previous %d, extrapolated %d\n",
                iterations[0], iterations[1], iterations[2]);
  EXPECT_LT(iterations[1], iterations[0]);
  EXPECT_LT(iterations[2], iterations[0]);
}

// Implicit Euler dissipates: with a converged Newton on linear elasticity, kinetic + elastic +
// gravity energy never grows from one step to the next.
TEST_F(Newton, TotalEnergyNeverIncreasesWithLinearElasticity) {
  set("-ksp_rtol", "1e-13");
  Beam beam(smallBeam(eis::MaterialModel::Linear));
  auto newton = beam.newton(eis::NewtonGuess::Previous);
  double energy = beam.totalEnergy();
  for (int step = 0; step < 40; ++step) {
    newton->step(*beam.system, beam.x, beam.v, 0.01);
    const double next = beam.totalEnergy();
    EXPECT_LE(next, energy + 1e-12 * std::fabs(energy)) << "step " << step + 1;
    energy = next;
  }
}

// Largest angular frequency of the free beam, sqrt(max eig(M^-1 K)), by power iteration.
double largestFrequency(Beam& beam) {
  Mat K, M;
  MatDuplicate(beam.system->systemMatrix(0.0, 0.0, -1.0), MAT_COPY_VALUES, &K);
  MatDuplicate(beam.system->systemMatrix(1.0, 0.0, 0.0), MAT_COPY_VALUES, &M);
  Vec mass = beam.system->createVector(), y = beam.system->createVector();
  Vec z = beam.field(1.0);
  MatGetDiagonal(M, mass);  // lumped: M is diagonal
  double lambda = 0;
  for (int it = 0; it < 300; ++it) {
    beam.system->projectResponse(z);
    MatMult(K, z, y);
    VecPointwiseDivide(y, y, mass);
    PetscReal norm, before;
    VecNorm(y, NORM_2, &norm);
    VecNorm(z, NORM_2, &before);
    lambda = norm / before;
    VecCopy(y, z);
    VecScale(z, 1.0 / norm);  // keep the iterate of unit size
  }
  for (Vec* v : {&mass, &y, &z}) VecDestroy(v);
  MatDestroy(&K);
  MatDestroy(&M);
  return std::sqrt(lambda);
}

// Undamped linear elasticity under gravity: the trapezoidal rule keeps kinetic + elastic +
// gravity energy constant, to solver tolerance, even at h w_max = 50 (implicit Euler would
// damp it, SOFA's trapezoidal variant would blow up).
TEST_F(Newton, TrapezoidalRuleConservesEnergyAtLargeSteps) {
  EIS_ON_ONE_RANK_ONLY();
  set("-ksp_rtol", "1e-14");
  set("-snes_rtol", "1e-12");
  eis_test::SceneFields scene = smallBeam(eis::MaterialModel::Linear);
  scene.boxCells = {16, 4, 4};  // 425 nodes
  scene.scheme = eis::TimeScheme::Trapezoidal;
  Beam beam(scene);
  const double h = 50.0 / largestFrequency(beam);
  auto newton = beam.newton(eis::NewtonGuess::Previous);
  const double start = beam.totalEnergy();
  double drift = 0, kinetic = 0;
  for (int step = 0; step < 200; ++step) {
    newton->step(*beam.system, beam.x, beam.v, h);
    drift = std::max(drift, std::fabs(beam.totalEnergy() - start));
    kinetic = std::max(kinetic, beam.system->kineticEnergy(beam.v));
  }
  EXPECT_GT(kinetic, 0.0);
  EXPECT_LT(drift, 1e-8 * kinetic) << "h = " << h;
}

}  // namespace
