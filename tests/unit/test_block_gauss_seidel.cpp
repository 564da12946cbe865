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

namespace {

using Kind = eis::GroupResolution::Kind;

// W = c I (one contact of a node with compliance c): the friction resolution's cases by hand.
std::vector<double> contactBlock(double c) {
  return {c, 0, 0, 0, c, 0, 0, 0, c};
}

}  // namespace

// A unilateral row: a penetration (dfree < 0) gets f = -dfree / w >= 0; a gap (dfree > 0) gets
// f = 0, not the pull a bilateral row would give.
TEST(BlockGaussSeidel, UnilateralRowPushesButNeverPulls) {
  const std::vector<double> w = {2, 0, 0, 4};
  std::vector<double> f = {0, 3};
  const eis::GaussSeidelResult r = eis::blockGaussSeidel(
      w, {1, 1}, {-1, 2}, f, {}, {{Kind::Unilateral, 0}, {Kind::Unilateral, 0}});
  EXPECT_TRUE(r.converged);
  EXPECT_DOUBLE_EQ(f[0], 0.5);
  EXPECT_DOUBLE_EQ(f[1], 0.0);
}

// Two coupled unilateral rows: the answer satisfies the complementarity f >= 0, d >= 0, f d = 0
// with d = W f + dfree; here the first is active and the second opens.
TEST(BlockGaussSeidel, CoupledUnilateralRowsAreComplementary) {
  const std::vector<double> w = {2, 1, 1, 2};
  const std::vector<double> dfree = {-2, 0.5};
  std::vector<double> f = {0, 0};
  eis::GaussSeidelOptions options;
  options.tolerance = 1e-14;
  const eis::GaussSeidelResult r = eis::blockGaussSeidel(
      w, {1, 1}, dfree, f, options, {{Kind::Unilateral, 0}, {Kind::Unilateral, 0}});
  EXPECT_TRUE(r.converged);
  // Active set {0}: f0 = 2 / 2 = 1, d1 = 1 * 1 + 0.5 = 1.5 > 0, f1 = 0.
  EXPECT_NEAR(f[0], 1.0, 1e-13);
  EXPECT_DOUBLE_EQ(f[1], 0.0);
  for (int i = 0; i < 2; ++i) {
    const double d = dfree[i] + w[2 * i] * f[0] + w[2 * i + 1] * f[1];
    EXPECT_GE(f[i], 0.0);
    EXPECT_GE(d, -1e-13);
    EXPECT_LT(std::abs(f[i] * d), 1e-13);
  }
}

// A contact with friction, W = c I: the normal force f_n = -dn / c; the tangential force that
// stops the slip, -dt / c, when it lies in the cone mu f_n (stick), else scaled onto the cone
// in the slip's direction (slide); a contact that opens gets no force at all.
TEST(BlockGaussSeidel, FrictionSticksInsideTheConeAndSlidesOnIt) {
  const double c = 0.5, mu = 0.4;
  std::vector<double> f(3, 0.0);
  eis::blockGaussSeidel(contactBlock(c), {3}, {-1, 0.1, -0.05}, f, {}, {{Kind::Friction, mu}});
  EXPECT_DOUBLE_EQ(f[0], 2.0);  // f_n = 1 / 0.5; mu f_n = 0.8
  EXPECT_DOUBLE_EQ(f[1], -0.2);
  EXPECT_DOUBLE_EQ(f[2], 0.1);  // |(-0.2, 0.1)| = 0.224 < 0.8: stick
  f.assign(3, 0.0);
  eis::blockGaussSeidel(contactBlock(c), {3}, {-1, 0.6, 0.8}, f, {}, {{Kind::Friction, mu}});
  EXPECT_DOUBLE_EQ(f[0], 2.0);
  // Stick would need (-1.2, -1.6), |.| = 2 > 0.8: on the cone, (-0.48, -0.64).
  EXPECT_NEAR(f[1], -0.48, 1e-15);
  EXPECT_NEAR(f[2], -0.64, 1e-15);
  EXPECT_NEAR(std::hypot(f[1], f[2]), mu * f[0], 1e-15);
  f = {1, 1, 1};
  eis::blockGaussSeidel(contactBlock(c), {3}, {0.3, 0.6, 0.8}, f, {}, {{Kind::Friction, mu}});
  EXPECT_EQ(f, (std::vector<double>{0, 0, 0}));
}

// A friction group must have 3 rows, a unilateral one 1.
TEST(BlockGaussSeidel, ResolutionOfTheWrongSizeIsAnError) {
  std::vector<double> f(3, 0.0);
  EXPECT_THROW(eis::blockGaussSeidel(contactBlock(1), {1, 1, 1}, {0, 0, 0}, f, {},
                                     {{Kind::Friction, 1}, {}, {}}),
               eis::Error);
  EXPECT_THROW(
      eis::blockGaussSeidel(contactBlock(1), {3}, {0, 0, 0}, f, {}, {{Kind::Unilateral, 0}}),
      eis::Error);
}

namespace {

// A W whose rows of 1 are strongly coupled: the plain sweeps are slow on it.
std::vector<double> coupledRows(int m) {
  std::vector<double> w(std::size_t(m * m));
  for (int i = 0; i < m; ++i)
    for (int k = 0; k < m; ++k)
      w[std::size_t(i * m + k)] = (i == k ? 1.1 : 0.0) + 1.0 / (1 + i + k);
  return w;
}

}  // namespace

// NNCGConstraintSolver: its conjugate-direction sweeps (another iteration: another count, 38
// against 20 here, as a transcription of SOFA's loop in numpy gives) reach the Gauss-Seidel's
// solution; the unbuilt Gauss-Seidel erases the forces it is given and so makes the same
// iterations from any start.
TEST(BlockGaussSeidel, ConjugateGradientAndUnbuiltReachTheSameSolution) {
  const int m = 8;
  const std::vector<double> w = coupledRows(m);
  std::vector<double> dfree(m);
  for (int i = 0; i < m; ++i) dfree[std::size_t(i)] = std::sin(i + 1.0);
  const std::vector<int> groups(m, 1);
  eis::GaussSeidelOptions options;
  options.tolerance = 1e-13;
  options.scaleTolerance = false;
  options.maxIterations = 100000;
  std::vector<double> plain(m, 0.0), accelerated(m, 0.0);
  const eis::GaussSeidelResult gs = eis::blockGaussSeidel(w, groups, dfree, plain, options);
  options.method = eis::GaussSeidelOptions::Method::NonsmoothNonlinearConjugateGradient;
  const eis::GaussSeidelResult cg = eis::blockGaussSeidel(w, groups, dfree, accelerated, options);
  EXPECT_TRUE(gs.converged);
  EXPECT_EQ(gs.iterations, 20);
  EXPECT_EQ(cg.iterations, 38);
  EXPECT_LT(residual(w, dfree, plain), 1e-11);
  EXPECT_LT(residual(w, dfree, accelerated), 1e-11);

  options.method = eis::GaussSeidelOptions::Method::GaussSeidel;
  options.zeroStart = true;
  std::vector<double> started = plain;
  const eis::GaussSeidelResult unbuilt = eis::blockGaussSeidel(w, groups, dfree, started, options);
  EXPECT_EQ(unbuilt.iterations, gs.iterations);
  EXPECT_EQ(started, plain);
}
