// linalg/block_gauss_seidel's Block resolution (SOFA's BilateralConstraintResolutionNDof: a
// group's block of W factorised, LDL^T with diagonal pivoting, and the group's force change
// solved from it at each visit) against dense solves by Gaussian elimination written here.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>

#include "eis/core/error.hpp"
#include "eis/linalg/block_gauss_seidel.hpp"

namespace {

using Kind = eis::GroupResolution::Kind;

// x = A^-1 b by Gaussian elimination with partial pivoting (A n x n, row-major).
std::vector<double> denseSolve(std::vector<double> a, std::vector<double> b) {
  const std::size_t n = b.size();
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t p = k;
    for (std::size_t i = k + 1; i < n; ++i)
      if (std::abs(a[i * n + k]) > std::abs(a[p * n + k])) p = i;
    for (std::size_t c = 0; c < n; ++c) std::swap(a[k * n + c], a[p * n + c]);
    std::swap(b[k], b[p]);
    for (std::size_t i = k + 1; i < n; ++i) {
      const double factor = a[i * n + k] / a[k * n + k];
      for (std::size_t c = k; c < n; ++c) a[i * n + c] -= factor * a[k * n + c];
      b[i] -= factor * b[k];
    }
  }
  std::vector<double> x(n);
  for (std::size_t i = n; i-- > 0;) {
    double s = b[i];
    for (std::size_t c = i + 1; c < n; ++c) s -= a[i * n + c] * x[c];
    x[i] = s / a[i * n + i];
  }
  return x;
}

// A symmetric positive definite m x m W, its diagonal out of order (so the factorisation
// pivots): B B^T + diag(s) with B's entries sin(i + 2k).
std::vector<double> spd(int m) {
  std::vector<double> w(std::size_t(m * m), 0.0);
  for (int i = 0; i < m; ++i)
    for (int k = 0; k < m; ++k)
      for (int l = 0; l < m; ++l)
        w[std::size_t(i * m + k)] += std::sin(i + 2.0 * l) * std::sin(k + 2.0 * l);
  for (int i = 0; i < m; ++i) w[std::size_t(i * m + i)] += 0.5 + (i * 7 % m);
  return w;
}

double largestGap(const std::vector<double>& a, const std::vector<double>& b) {
  double gap = 0;
  for (std::size_t i = 0; i < a.size(); ++i) gap = std::max(gap, std::abs(a[i] - b[i]));
  return gap;
}

}  // namespace

// One block of 6 rows: its first visit gives f = f0 - W^-1 (dfree + W f0) = -W^-1 dfree, the
// direct solve, from any starting force; a second sweep changes nothing.
TEST(BlockResolution, OneBlockIsTheDirectSolve) {
  const int m = 6;
  const std::vector<double> w = spd(m);
  std::vector<double> dfree(m), minus(m);
  for (int i = 0; i < m; ++i) dfree[std::size_t(i)] = std::cos(3.0 * i);
  for (int i = 0; i < m; ++i) minus[std::size_t(i)] = -dfree[std::size_t(i)];
  const std::vector<double> direct = denseSolve(w, minus);
  eis::GaussSeidelOptions once;
  once.maxIterations = 1;
  std::vector<double> f = {1, -2, 3, 0.5, 0, -1};
  eis::blockGaussSeidel(w, {m}, dfree, f, once, {{Kind::Block, 0}});
  EXPECT_LT(largestGap(f, direct), 1e-12);
  std::vector<double> g(m, 0.0);
  const eis::GaussSeidelResult r = eis::blockGaussSeidel(w, {m}, dfree, g, {}, {{Kind::Block, 0}});
  EXPECT_EQ(r.iterations, 2);
  EXPECT_LT(largestGap(g, direct), 1e-12);
}

// A block of 4 between a row of 1 and a group of 3: the sweeps converge to the direct solve of
// the whole problem; blocks of 1 and 3 give the same answer as the bilateral groups do.
TEST(BlockResolution, BlockAmongGroupsConvergesToTheSolution) {
  const int m = 8;
  const std::vector<double> w = spd(m);
  std::vector<double> dfree(m), minus(m);
  for (int i = 0; i < m; ++i) dfree[std::size_t(i)] = 1.0 / (1 + i) - 0.3;
  for (int i = 0; i < m; ++i) minus[std::size_t(i)] = -dfree[std::size_t(i)];
  const std::vector<double> direct = denseSolve(w, minus);
  eis::GaussSeidelOptions options;
  options.tolerance = 1e-15;
  options.maxIterations = 100000;
  std::vector<double> f(m, 0.0);
  const eis::GaussSeidelResult r =
      eis::blockGaussSeidel(w, {1, 4, 3}, dfree, f, options, {{}, {Kind::Block, 0}, {}});
  EXPECT_TRUE(r.converged);
  EXPECT_LT(largestGap(f, direct), 1e-10);
  std::vector<double> blocks(m, 0.0), bilateral(m, 0.0);
  eis::blockGaussSeidel(w, {1, 4, 3}, dfree, blocks, options,
                        {{Kind::Block, 0}, {Kind::Block, 0}, {Kind::Block, 0}});
  eis::blockGaussSeidel(w, {1, 4, 3}, dfree, bilateral, options, {{}, {Kind::Block, 0}, {}});
  EXPECT_LT(largestGap(blocks, bilateral), 1e-12);
}

// A block whose rows repeat one another has a zero pivot: an error naming its rows.
TEST(BlockResolution, SingularBlockIsAnError) {
  const std::vector<double> w = {2, 1, 1, 0, 1, 2, 2, 0, 1, 2, 2, 0, 0, 0, 0, 1};
  std::vector<double> f(4, 0.0);
  try {
    eis::blockGaussSeidel(w, {1, 3}, {1, 0, 0, 0}, f, {}, {{}, {Kind::Block, 0}});
    FAIL() << "no error";
  } catch (const eis::Error& e) {
    EXPECT_NE(std::string(e.what()).find("constraint rows 1 to 3"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("singular"), std::string::npos);
  }
}
