// linalg/lcp_gauss_seidel: SOFA's LCPConstraintSolver Gauss-Seidels against hand solutions.
#include "eis/linalg/lcp_gauss_seidel.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "eis/core/error.hpp"

namespace {

// Without friction every row is unilateral: W = [2 1; 1 2], dfree = (-1, 1). Row 0 closes with
// f_0 = 1/2; row 1 then sees d = 1 + 1/2 > 0 and stays open.
TEST(LcpGaussSeidel, FrictionlessRowsOpenAndClose) {
  eis::LcpOptions options;
  options.mu = 0;
  options.tolerance = 1e-15;
  std::vector<double> f = {7, 7};  // SOFA's frictionless solve does not start from these
  const eis::GaussSeidelResult r = eis::lcpGaussSeidel({2, 1, 1, 2}, {-1, 1}, f, options);
  EXPECT_TRUE(r.converged);
  EXPECT_EQ(r.iterations, 2);
  EXPECT_DOUBLE_EQ(f[0], 0.5);
  EXPECT_DOUBLE_EQ(f[1], 0);
  options.maxF = 0.5;  // a force of at least maxF is zeroed afterwards
  eis::lcpGaussSeidel({2, 1, 1, 2}, {-1, 1}, f, options);
  EXPECT_DOUBLE_EQ(f[0], 0);
}

// One contact, W = diag(1, 2, 2): d_n = -1 gives f_n = 1; d_t = -4 asks f_t = 2 > mu f_n, which
// the cone scales back to mu f_n = 0.5 (the tangent update is -2 d_t / (W_tt + W_ss) = 2).
TEST(LcpGaussSeidel, ContactSlidesOnTheCone) {
  eis::LcpOptions options;
  options.mu = 0.5;
  options.tolerance = 1e-15;
  std::vector<double> f(3, 0.0);
  const std::vector<double> w = {1, 0, 0, 0, 2, 0, 0, 0, 2};
  eis::lcpGaussSeidel(w, {-1, -4, 0}, f, options);
  EXPECT_DOUBLE_EQ(f[0], 1);
  EXPECT_DOUBLE_EQ(f[1], 0.5);
  EXPECT_DOUBLE_EQ(f[2], 0);
  eis::lcpGaussSeidel(w, {-1, -0.5, 0}, f, options);  // inside the cone: it sticks
  EXPECT_DOUBLE_EQ(f[1], 0.25);
  eis::lcpGaussSeidel(w, {1, -4, 0}, f, options);  // pulled away: the contact opens
  EXPECT_EQ(f, std::vector<double>(3, 0.0));
  EXPECT_THROW(eis::lcpGaussSeidel({1, 0, 0, 1}, {-1, -1}, f, options), eis::Error);
}

}  // namespace
