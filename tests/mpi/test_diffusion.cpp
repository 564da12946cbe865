// Heat-mode decay on a bar with fixed ends, on 1, 2 and 3 ranks: a discrete eigenvector of the
// assembled matrices (L phi = lambda M phi, found here by inverse iteration) decays per step by
// exactly 1/(1 + h lambda) (implicit Euler) or (1 - h lambda/2)/(1 + h lambda/2) (SOFA's
// trapezoidal factor), and the decay converges to exp(-pi^2 k/c t) as h and the mesh shrink.
#include <gtest/gtest.h>
#include <petscksp.h>

#include <cmath>

#include "eis/linalg/linear_solver.hpp"
#include "eis/model/mechanical_system.hpp"
#include "eis/ode/euler_implicit_solver.hpp"
#include "mpi_support.hpp"

namespace {

constexpr double kPi = 3.14159265358979323846;

// A bar of `cells` cells along x with both ends held, first order in time.
eis_test::SceneFields barScene(int cells, eis::MassType massType) {
  eis_test::SceneFields scene;
  scene.physics = eis::Physics::Diffusion;
  scene.firstOrder = true;
  scene.conductivity = 1.0;
  scene.capacity = 1.0;
  scene.mass = massType;
  scene.boxSize = {1.0, 0.1, 0.1};
  scene.boxCells = {cells, 1, 1};
  scene.fixedBoxes = {{{0, 0, 0}, {0, 0.1, 0.1}}, {{1, 0, 0}, {1, 0.1, 0.1}}};
  return scene;
}

// The bar distributed over PETSC_COMM_WORLD, one unknown (u) per node.
struct Bar : eis_test::BoxModel {
  explicit Bar(int cells, eis::MassType massType = eis::MassType::Consistent)
      : BoxModel(barScene(cells, massType), 1) {}
};

struct Mode {
  Vec phi;
  double lambda;
};

// Lowest mode by inverse iteration on L^-1 M, starting from sin(pi x) on the free nodes.
Mode lowestMode(Bar& bar) {
  Mat M, L;
  MatDuplicate(bar.system->systemMatrix(1, 0, 0), MAT_COPY_VALUES, &M);
  MatDuplicate(bar.system->systemMatrix(0, 0, -1), MAT_COPY_VALUES, &L);
  Vec phi = bar.system->createVector(), next = bar.system->createVector(),
      work = bar.system->createVector();
  PetscScalar* values;
  VecGetArray(phi, &values);
  for (std::size_t v = 0; v < bar.mesh->numLocalVertices(); ++v)
    if (bar.mesh->owned()[v])
      values[bar.mesh->ownedOffset(PetscInt(v))] = std::sin(kPi * bar.mesh->restCoords()[v][0]);
  VecRestoreArray(phi, &values);
  bar.system->projectResponse(phi);
  KSP ksp;
  KSPCreate(PETSC_COMM_WORLD, &ksp);
  KSPSetOperators(ksp, L, L);
  KSPSetType(ksp, KSPCG);
  PC pc;
  KSPGetPC(ksp, &pc);
  PCSetType(pc, PCJACOBI);
  KSPSetTolerances(ksp, 1e-15, 1e-300, PETSC_DEFAULT, 10000);
  for (int it = 0; it < 40; ++it) {
    MatMult(M, phi, work);
    KSPSolve(ksp, work, next);
    PetscReal norm;
    VecNorm(next, NORM_2, &norm);
    VecScale(next, 1.0 / norm);
    VecCopy(next, phi);
  }
  PetscScalar lphi, mphi;
  MatMult(L, phi, work);
  VecDot(phi, work, &lphi);
  MatMult(M, phi, work);
  VecDot(phi, work, &mphi);
  KSPDestroy(&ksp);
  MatDestroy(&M);
  MatDestroy(&L);
  VecDestroy(&next);
  VecDestroy(&work);
  return {phi, lphi / mphi};
}

// Runs `steps` steps of size h from u = phi and returns u_n . phi (phi normalized).
double decayed(Bar& bar, const Mode& mode, bool trapezoidal, double h, int steps,
               Vec* result = nullptr) {
  eis::EulerImplicitOptions options;
  options.firstOrder = true;
  options.scheme = trapezoidal ? eis::TimeScheme::SofaTrapezoidal : eis::TimeScheme::Euler;
  auto linear = std::make_unique<eis::LinearSolver>(PETSC_COMM_WORLD, PCJACOBI, nullptr);
  KSPSetTolerances(linear->ksp(), 1e-15, 1e-300, PETSC_DEFAULT, 10000);
  Vec u = bar.system->createVector(), du = bar.system->createVector();
  VecCopy(mode.phi, u);
  VecZeroEntries(du);
  eis::EulerImplicitSolver solver(options, u, std::move(linear));
  for (int s = 0; s < steps; ++s) solver.step(*bar.system, u, du, h);
  PetscScalar projection;
  VecDot(u, mode.phi, &projection);
  if (result) VecCopy(u, *result);
  VecDestroy(&u);
  VecDestroy(&du);
  return projection;
}

TEST(HeatModeDecay, EigenvectorDecaysByTheFactorItsEigenvaluePredicts) {
  for (auto massType : {eis::MassType::Consistent, eis::MassType::Lumped}) {
    Bar bar(12, massType);
    const Mode mode = lowestMode(bar);
    EXPECT_NEAR(mode.lambda, kPi * kPi, 0.1 * kPi * kPi);
    const double h = 0.01;
    for (bool trapezoidal : {false, true}) {
      Vec u = bar.system->createVector();
      decayed(bar, mode, trapezoidal, h, 1, &u);
      const double r = trapezoidal ? (1 - h * mode.lambda / 2) / (1 + h * mode.lambda / 2)
                                   : 1 / (1 + h * mode.lambda);
      VecAXPY(u, -r, mode.phi);  // what is left besides the mode
      PetscReal error;
      VecNorm(u, NORM_INFINITY, &error);
      EXPECT_LT(error, 1e-10) << (trapezoidal ? "trapezoidal" : "implicit Euler");
      VecDestroy(&u);
    }
    VecDestroy(const_cast<Vec*>(&mode.phi));
  }
}

TEST(HeatModeDecay, TimeErrorIsFirstOrderForEulerAndSecondOrderForTrapezoidal) {
  EIS_ON_ONE_RANK_ONLY();
  Bar bar(12);
  const Mode mode = lowestMode(bar);
  const double T = 0.08;
  for (bool trapezoidal : {false, true}) {
    double errors[3];
    for (int level = 0; level < 3; ++level) {
      const int steps = 8 << level;
      errors[level] =
          std::fabs(decayed(bar, mode, trapezoidal, T / steps, steps) - std::exp(-mode.lambda * T));
    }
    const double expected = trapezoidal ? 4.0 : 2.0;
    for (int level = 1; level < 3; ++level)
      EXPECT_NEAR(errors[level - 1] / errors[level], expected, 0.15 * expected)
          << (trapezoidal ? "trapezoidal" : "implicit Euler") << " level " << level;
  }
  VecDestroy(const_cast<Vec*>(&mode.phi));
}

TEST(HeatModeDecay, DiscreteEigenvalueConvergesToPiSquaredAtSecondOrder) {
  EIS_ON_ONE_RANK_ONLY();
  double errors[3];
  for (int level = 0; level < 3; ++level) {
    Bar bar(6 << level);
    const Mode mode = lowestMode(bar);
    errors[level] = mode.lambda - kPi * kPi;
    VecDestroy(const_cast<Vec*>(&mode.phi));
  }
  for (int level = 1; level < 3; ++level) EXPECT_NEAR(errors[level - 1] / errors[level], 4.0, 0.6);
}

}  // namespace
