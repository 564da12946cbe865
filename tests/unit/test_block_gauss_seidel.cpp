// linalg/block_gauss_seidel: SOFA's block Gauss-Seidel against the exact solutions of small
// constraint problems W f + dfree = 0, written out by hand.
#include "eis/linalg/block_gauss_seidel.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "eis/core/error.hpp"

namespace {

// Residual W f + dfree, its largest entry.
double residual(const std::vector<double>& w, const std::vector<double>& dfree,
                const std::vector<double>& f) {
  const std::size_t m = dfree.size();
  double worst = 0;
  for (std::size_t i = 0; i < m; ++i) {
    double r = dfree[i];
    for (std::size_t k = 0; k < m; ++k) r += w[i * m + k] * f[k];
    worst = std::max(worst, std::abs(r));
  }
  return worst;
}

// One group of 3: its block inverse solves it in the first iteration; the second changes nothing
// and stops (SOFA measures the change a new force causes).
TEST(BlockGaussSeidel, OneGroupIsSolvedByItsBlockInverse) {
  const std::vector<double> w = {4, 1, 0.5, 1, 3, 0.25, 0.5, 0.25, 2};
  const std::vector<double> dfree = {1, -2, 0.5};
  std::vector<double> f(3, 0.0);
  const eis::GaussSeidelResult r = eis::blockGaussSeidel(w, {3}, dfree, f, {});
  EXPECT_TRUE(r.converged);
  EXPECT_EQ(r.iterations, 2);
  EXPECT_LT(r.error, 1e-14);
  // W^-1 dfree by hand (det W = 21.25): f = -W^-1 dfree.
  const double det =
      4 * (3 * 2 - 0.25 * 0.25) - 1 * (1 * 2 - 0.25 * 0.5) + 0.5 * (1 * 0.25 - 3 * 0.5);
  EXPECT_DOUBLE_EQ(det, 21.25);
  const double expected0 =
      -((3 * 2 - 0.0625) * 1 - (1 * 2 - 0.125) * -2 + (0.25 - 1.5) * 0.5) / det;
  EXPECT_NEAR(f[0], expected0, 1e-15);
  EXPECT_LT(residual(w, dfree, f), 1e-15);
}

// Groups of 1 on a diagonal W: f = -dfree / w.
TEST(BlockGaussSeidel, DiagonalRowsOfOne) {
  const std::vector<double> w = {2, 0, 0, 5};
  std::vector<double> f = {7, 7};
  const eis::GaussSeidelResult r = eis::blockGaussSeidel(w, {1, 1}, {1, -3}, f, {});
  EXPECT_TRUE(r.converged);
  EXPECT_DOUBLE_EQ(f[0], -0.5);
  EXPECT_DOUBLE_EQ(f[1], 0.6);
}

// Two coupled groups: the iterations converge to the solution, to the tolerance; from the
// solution itself they stop at once; over-relaxed they reach it too; one iteration is not enough.
TEST(BlockGaussSeidel, CoupledGroupsConvergeToTheSolution) {
  std::vector<double> w(36, 0.0);
  for (int i = 0; i < 6; ++i)
    for (int k = 0; k < 6; ++k) w[i * 6 + k] = (i == k ? 4.0 : 0.0) + 1.0 / (1 + i + k);
  const std::vector<double> dfree = {0.1, -0.2, 0.3, 0.05, 0.0, -0.1};
  eis::GaussSeidelOptions options;
  options.tolerance = 1e-14;
  options.scaleTolerance = false;
  std::vector<double> f(6, 0.0);
  const eis::GaussSeidelResult r = eis::blockGaussSeidel(w, {3, 3}, dfree, f, options);
  EXPECT_TRUE(r.converged);
  EXPECT_GT(r.iterations, 3);
  EXPECT_LT(r.error, 1e-14);
  EXPECT_LT(residual(w, dfree, f), 1e-13);

  std::vector<double> again = f;
  const eis::GaussSeidelResult warm = eis::blockGaussSeidel(w, {3, 3}, dfree, again, options);
  EXPECT_LE(warm.iterations, 2);
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(again[i], f[i], 1e-15);

  options.sor = 1.3;
  std::vector<double> relaxed(6, 0.0);
  EXPECT_TRUE(eis::blockGaussSeidel(w, {3, 3}, dfree, relaxed, options).converged);
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(relaxed[i], f[i], 1e-13);

  options.sor = 1;
  options.maxIterations = 1;
  std::vector<double> once(6, 0.0);
  const eis::GaussSeidelResult cut = eis::blockGaussSeidel(w, {3, 3}, dfree, once, options);
  EXPECT_FALSE(cut.converged);
  EXPECT_EQ(cut.iterations, 1);
  EXPECT_GT(residual(w, dfree, once), 1e-6);
}

// scaleTolerance multiplies the tolerance by the row count: a looser stop.
TEST(BlockGaussSeidel, ScaledToleranceStopsSooner) {
  std::vector<double> w(36, 0.0);
  for (int i = 0; i < 6; ++i)
    for (int k = 0; k < 6; ++k) w[i * 6 + k] = (i == k ? 0.3 : 0.0) + 1.0 / (1 + i + k);
  const std::vector<double> dfree = {1, 1, 1, 1, 1, 1};
  eis::GaussSeidelOptions options;
  options.tolerance = 1e-12;
  std::vector<double> scaled(6, 0.0), plain(6, 0.0);
  const int a = eis::blockGaussSeidel(w, {3, 3}, dfree, scaled, options).iterations;
  options.scaleTolerance = false;
  const int b = eis::blockGaussSeidel(w, {3, 3}, dfree, plain, options).iterations;
  EXPECT_LT(a, b);
}

TEST(BlockGaussSeidel, SingularBlockIsAnError) {
  const std::vector<double> w = {1, 1, 0, 1, 1, 0, 0, 0, 1};
  std::vector<double> f(3, 0.0);
  try {
    eis::blockGaussSeidel(w, {3}, {1, 0, 0}, f, {});
    FAIL() << "no error";
  } catch (const eis::Error& e) {
    EXPECT_NE(std::string(e.what()).find("constraint rows 0 to 2"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("singular"), std::string::npos);
  }
}

}  // namespace
