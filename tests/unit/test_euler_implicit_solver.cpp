// One degree of freedom, m x'' = -k x - c x' (K = -k, B = -c), advanced by the library's
// EulerImplicitSolver: the one-step amplification matrix [x; v] -> [x'; v'] must equal its
// closed form for every option SOFA has, and the integration factors must be SOFA's.
#include <gtest/gtest.h>
#include <petscksp.h>

#include <cmath>
#include <complex>

#include "eis/linalg/linear_solver.hpp"
#include "eis/ode/euler_implicit_solver.hpp"

namespace {

class Oscillator : public eis::MechanicalOperations {
public:
  Oscillator(double m, double k, double c) : m_(m), k_(k), c_(c) {
    MatCreateSeqDense(PETSC_COMM_SELF, 1, 1, nullptr, &matrix_);
  }
  ~Oscillator() override { MatDestroy(&matrix_); }

  void computeForce(Vec x, Vec v, Vec f) override {
    const PetscScalar *xs, *vs;
    VecGetArrayRead(x, &xs);
    VecGetArrayRead(v, &vs);
    VecSetValue(f, 0, -k_ * xs[0] - c_ * vs[0], INSERT_VALUES);
    VecRestoreArrayRead(x, &xs);
    VecRestoreArrayRead(v, &vs);
    VecAssemblyBegin(f);
    VecAssemblyEnd(f);
  }
  void addMBKv(Vec out, double mf, double bf, double kf, Vec v) override {
    const PetscScalar* vs;
    VecGetArrayRead(v, &vs);
    const double value = (mf * m_ - bf * c_ - kf * k_) * vs[0];
    VecRestoreArrayRead(v, &vs);
    VecSetValue(out, 0, value, ADD_VALUES);
    VecAssemblyBegin(out);
    VecAssemblyEnd(out);
  }
  Mat systemMatrix(double mf, double bf, double kf) override {
    MatSetValue(matrix_, 0, 0, mf * m_ - bf * c_ - kf * k_, INSERT_VALUES);
    MatAssemblyBegin(matrix_, MAT_FINAL_ASSEMBLY);
    MatAssemblyEnd(matrix_, MAT_FINAL_ASSEMBLY);
    return matrix_;
  }
  void projectResponse(Vec) override {}

private:
  double m_, k_, c_;
  Mat matrix_ = nullptr;
};

using Matrix2 = std::array<std::array<double, 2>, 2>;

// Columns: the step applied to (x, v) = (1, 0) and (0, 1).
Matrix2 amplification(const eis::EulerImplicitOptions& options, double m, double k, double c,
                      double h) {
  Oscillator system(m, k, c);
  Vec x, v;
  VecCreateSeq(PETSC_COMM_SELF, 1, &x);
  VecDuplicate(x, &v);
  eis::EulerImplicitSolver solver(
      options, x, std::make_unique<eis::LinearSolver>(PETSC_COMM_SELF, PCJACOBI, nullptr));
  Matrix2 g{};
  for (int column = 0; column < 2; ++column) {
    VecSet(x, column == 0 ? 1.0 : 0.0);
    VecSet(v, column == 1 ? 1.0 : 0.0);
    solver.step(system, x, v, h);
    PetscScalar xv, vv;
    PetscInt zero = 0;
    VecGetValues(x, 1, &zero, &xv);
    VecGetValues(v, 1, &zero, &vv);
    g[0][column] = xv;
    g[1][column] = vv;
  }
  VecDestroy(&x);
  VecDestroy(&v);
  return g;
}

// SOFA's step for one dof, written out by hand:
//   D  = (1 + tr h rM) m + tr h c + tr h (tr h + rK) k
//   v' = e (v + h (-k x - c v - (tr h + rK) k v - rM m v) / D),  x' = x + h v' / e,
// with e = exp(-h vdamping) applied after the position update (the true trapezoidal rule moves x
// by h/2 (v + v') instead); first order:
//   v' = (-k x - c v) / (m + tr h k),  x' = x + h v'.
Matrix2 closedForm(const eis::EulerImplicitOptions& o, double m, double k, double c, double h) {
  const double tr = o.scheme == eis::TimeScheme::Euler ? 1.0 : 0.5, e = std::exp(-h * o.vdamping);
  if (o.firstOrder) {
    const double d = m + tr * h * k;
    return {{{1 - h * k / d, -h * c / d}, {-k / d, -c / d}}};
  }
  const double d =
      (1 + tr * h * o.rayleighMass) * m + tr * h * c + tr * h * (tr * h + o.rayleighStiffness) * k;
  const double dvdx = -h * k / d;
  const double dvdv = -h * (c + (tr * h + o.rayleighStiffness) * k + o.rayleighMass * m) / d;
  if (o.scheme == eis::TimeScheme::Trapezoidal)  // x' = x + h/2 (v + v')
    return {{{1 + h / 2 * dvdx, h / 2 * (2 + dvdv)}, {e * dvdx, e * (1 + dvdv)}}};
  return {{{1 + h * dvdx, h * (1 + dvdv)}, {e * dvdx, e * (1 + dvdv)}}};
}

void expectEqual(const Matrix2& a, const Matrix2& b) {
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) EXPECT_NEAR(a[i][j], b[i][j], 1e-12) << "entry " << i << "," << j;
}

struct Case {
  const char* name;
  eis::EulerImplicitOptions options;
  double c;
};

TEST(Oscillator, AmplificationMatrixMatchesClosedFormForEveryOption) {
  const double m = 2.0, k = 50.0, h = 0.05;
  eis::EulerImplicitOptions plain, trapezoidal, rayleigh, vdamping, firstOrder, everything,
      trueRule;
  trueRule.scheme = eis::TimeScheme::Trapezoidal;
  trueRule.rayleighMass = 0.2;
  trapezoidal.scheme = eis::TimeScheme::SofaTrapezoidal;
  rayleigh.rayleighMass = 0.3;
  rayleigh.rayleighStiffness = 0.02;
  vdamping.vdamping = 1.7;
  firstOrder.firstOrder = true;
  everything = rayleigh;
  everything.scheme = eis::TimeScheme::SofaTrapezoidal;
  everything.vdamping = 0.4;
  const Case cases[] = {{"implicit Euler", plain, 0.0},    {"damped", plain, 1.5},
                        {"trapezoidal", trapezoidal, 0.0}, {"trapezoidal damped", trapezoidal, 1.5},
                        {"Rayleigh", rayleigh, 0.0},       {"vdamping", vdamping, 0.0},
                        {"first order", firstOrder, 0.0},  {"first order damped", firstOrder, 1.5},
                        {"all together", everything, 1.5}, {"true trapezoidal", trueRule, 1.5}};
  for (const auto& test : cases) {
    SCOPED_TRACE(test.name);
    expectEqual(amplification(test.options, m, k, test.c, h),
                closedForm(test.options, m, k, test.c, h));
  }
}

// Independent of the closed form above: backward Euler on x'' = -w^2 x is
// [x'; v'] = [[1, h], [-h w^2, 1]] / (1 + h^2 w^2), and it damps every mode.
TEST(Oscillator, ImplicitEulerIsTheTextbookBackwardEuler) {
  const double m = 1.0, k = 400.0, h = 0.1, w2 = k / m;
  const auto g = amplification({}, m, k, 0.0, h);
  const double d = 1 + h * h * w2;
  expectEqual(g, {{{1 / d, h / d}, {-h * w2 / d, 1 / d}}});
  const double det = g[0][0] * g[1][1] - g[0][1] * g[1][0];
  EXPECT_LT(std::sqrt(det), 1.0);
}

double spectralRadius(const Matrix2& g) {
  const double tr = g[0][0] + g[1][1], det = g[0][0] * g[1][1] - g[0][1] * g[1][0];
  const std::complex<double> root = std::sqrt(std::complex<double>(tr * tr / 4 - det));
  return std::max(std::abs(tr / 2 + root), std::abs(tr / 2 - root));
}

// SOFA's trapezoidal variant is only conditionally stable: a mode grows once h w > 2.
TEST(Oscillator, SofaTrapezoidalVariantIsStableOnlyBelowHOmegaTwo) {
  eis::EulerImplicitOptions trapezoidal;
  trapezoidal.scheme = eis::TimeScheme::SofaTrapezoidal;
  const double m = 1.0, w = 10.0;
  EXPECT_LE(spectralRadius(amplification(trapezoidal, m, w * w, 0.0, 1.9 / w)), 1.0 + 1e-12);
  EXPECT_GT(spectralRadius(amplification(trapezoidal, m, w * w, 0.0, 2.5 / w)), 1.0 + 1e-3);
  EXPECT_LT(spectralRadius(amplification({}, m, w * w, 0.0, 2.5 / w)), 1.0);
}

// The true trapezoidal rule keeps every undamped mode's amplitude, however large h w is.
TEST(Oscillator, TrueTrapezoidalRuleNeitherGrowsNorDamps) {
  eis::EulerImplicitOptions trueRule;
  trueRule.scheme = eis::TimeScheme::Trapezoidal;
  const double m = 1.0, w = 10.0;
  for (double hw : {0.1, 1.9, 2.5, 50.0, 1000.0})
    EXPECT_NEAR(spectralRadius(amplification(trueRule, m, w * w, 0.0, hw / w)), 1.0, 1e-12) << hw;
}

TEST(IntegrationFactors, AreSofas) {
  using S = eis::EulerImplicitSolver;
  const double dt = 0.04;
  EXPECT_EQ(S::velocityIntegrationFactor(), 1.0);
  EXPECT_EQ(S::positionIntegrationFactor(dt), dt);
  const double expected[3][3] = {{1, dt, 0}, {0, 1, 0}, {0, 0, 0}};
  for (int out = 0; out < 3; ++out)
    for (int in = 0; in < 3; ++in) EXPECT_EQ(S::integrationFactor(in, out, dt), expected[out][in]);
  EXPECT_EQ(S::integrationFactor(3, 0, dt), 0.0);
  EXPECT_EQ(S::solutionIntegrationFactor(0, dt), dt);
  EXPECT_EQ(S::solutionIntegrationFactor(1, dt), 1.0);
  EXPECT_EQ(S::solutionIntegrationFactor(2, dt), 1 / dt);
  EXPECT_EQ(S::solutionIntegrationFactor(3, dt), 0.0);
}

}  // namespace
