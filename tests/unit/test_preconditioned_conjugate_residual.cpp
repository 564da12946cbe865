// linalg/preconditioned_conjugate_residual: SOFA's PreconditionedConjugateResidual constraint
// solver against hand solutions of small problems W f + dfree = 0.
#include "eis/linalg/preconditioned_conjugate_residual.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "eis/core/error.hpp"

namespace {

// W = [2 1; 1 3], dfree = (1, -2): f = -W^-1 dfree = -(1/5) [3 -1; -1 2] (1, -2) = (-1, 1).
// Conjugate residuals on a 2 x 2 symmetric positive definite system end in 2 iterations, the
// most SOFA runs (min(maxIterations, m)).
TEST(PreconditionedConjugateResidual, SolvesATwoByTwoSystemInTwoIterations) {
  std::vector<double> f = {5, 5};  // SOFA starts from zero whatever it is given
  const eis::GaussSeidelResult r =
      eis::preconditionedConjugateResidual({2, 1, 1, 3}, {1, 1}, {1, -2}, f, {});
  EXPECT_EQ(r.iterations, 2);
  EXPECT_NEAR(f[0], -1, 1e-13);
  EXPECT_NEAR(f[1], 1, 1e-13);
}

// A diagonal W: the preconditioned matrix is the identity, the first iteration is exact, and
// the next finds W p = 0 and stops (SOFA would divide 0 by 0 there).
TEST(PreconditionedConjugateResidual, StopsOnAnExactSolution) {
  std::vector<double> f;
  const eis::GaussSeidelResult r =
      eis::preconditionedConjugateResidual({4, 0, 0, 0.25}, {1, 1}, {2, -1}, f, {});
  EXPECT_TRUE(r.converged);
  EXPECT_EQ(r.iterations, 1);
  EXPECT_DOUBLE_EQ(f[0], -0.5);
  EXPECT_DOUBLE_EQ(f[1], 4);
}

// SOFA's error after an iteration i: per group of n rows sqrt(n r_i^2), r the preconditioned
// residual, read at the iteration's index. One iteration by hand on a 3 x 3 problem, one group.
TEST(PreconditionedConjugateResidual, ErrorIsSofasResidualEntryAtTheIterationIndex) {
  const std::vector<double> w = {4, 1, 0.5, 1, 3, 0.25, 0.5, 0.25, 2}, dfree = {1, -2, 0.5};
  double s[3], mw[9], r[3], wr[3];
  for (int j = 0; j < 3; ++j) s[j] = 1 / std::sqrt(w[4 * j]);
  for (int j = 0; j < 3; ++j)
    for (int k = 0; k < 3; ++k) mw[3 * j + k] = w[3 * j + k] * s[j] * s[k];
  for (int j = 0; j < 3; ++j) r[j] = -dfree[j] * s[j];
  double rwr = 0, wpwp = 0;
  for (int j = 0; j < 3; ++j) {
    wr[j] = mw[3 * j] * r[0] + mw[3 * j + 1] * r[1] + mw[3 * j + 2] * r[2];
    rwr += r[j] * wr[j];
    wpwp += wr[j] * wr[j];
  }
  const double alpha = rwr / wpwp, r0 = r[0] - alpha * wr[0];
  eis::GaussSeidelOptions options;
  options.maxIterations = 1;
  std::vector<double> f;
  const eis::GaussSeidelResult result =
      eis::preconditionedConjugateResidual(w, {3}, dfree, f, options);
  EXPECT_EQ(result.iterations, 1);
  EXPECT_FALSE(result.converged);  // never on the first iteration
  EXPECT_NEAR(result.error, std::sqrt(3 * r0 * r0), 1e-15);
  for (int j = 0; j < 3; ++j) EXPECT_NEAR(f[j], alpha * r[j] * s[j], 1e-15);
}

TEST(PreconditionedConjugateResidual, RefusesANonPositiveDiagonal) {
  std::vector<double> f;
  EXPECT_THROW(eis::preconditionedConjugateResidual({1, 0, 0, 0}, {1, 1}, {1, 1}, f, {}),
               eis::Error);
}

}  // namespace
