// A cloth square pinned at two corners: 3 x 3 nodes, 8 triangles, SOFA's TriangularFEMForceField
// (large), TriangularBendingSprings (with damping), DiagonalMass per area and gravity, ten steps
// of SOFA's EulerImplicitSolver step solved densely here. The reference is the independent numpy
// computation tests/common/triangle_cloth.py (its own strain-displacement matrix, frame and
// assembly), whose printed final positions are the table below.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "eis/model/triangle_mass.hpp"
#include "eis/model/triangular_bending_springs.hpp"
#include "eis/model/triangular_fem.hpp"

namespace {

using eis::Triangle;
using eis::Vec3;

constexpr int N = 3;
constexpr double kSize = 1.0, E = 20.0, nu = 0.3, density = 0.2, ks = 0.5, kd = 0.05;
constexpr double h = 0.04, g = -9.81;
constexpr int steps = 10;

// tests/common/triangle_cloth.py's output.
const double kReference[N * N][3] = {
    {-0.015558535088509875, 0.25934801940271712, -0.81828441438227006},
    {0.48377969326474635, 0.27378337507324274, -0.83342681505015104},
    {0.97931644209895419, 0.30016396422652641, -0.83916575012064243},
    {0.0021900918347189787, 0.6780574297961568, -0.49698874146745686},
    {0.47367300486217329, 0.7692012533927518, -0.67457239191632856},
    {0.96467952950453961, 0.76040729107974381, -0.58416184478262034},
    {0, 1, 0},
    {0.48490728144595702, 1.0937480356507505, -0.2406464047021554},
    {1, 1, 0},
};

// x with a x = b (a dense, n x n, nonsingular): Gaussian elimination with partial pivoting.
std::vector<double> solve(std::vector<double> a, std::vector<double> b) {
  const std::size_t n = b.size();
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t p = k;
    for (std::size_t r = k + 1; r < n; ++r)
      if (std::fabs(a[r * n + k]) > std::fabs(a[p * n + k])) p = r;
    for (std::size_t c = 0; c < n; ++c) std::swap(a[k * n + c], a[p * n + c]);
    std::swap(b[k], b[p]);
    for (std::size_t r = k + 1; r < n; ++r) {
      const double m = a[r * n + k] / a[k * n + k];
      for (std::size_t c = k; c < n; ++c) a[r * n + c] -= m * a[k * n + c];
      b[r] -= m * b[k];
    }
  }
  std::vector<double> x(n);
  for (std::size_t k = n; k-- > 0;) {
    double s = b[k];
    for (std::size_t c = k + 1; c < n; ++c) s -= a[k * n + c] * x[c];
    x[k] = s / a[k * n + k];
  }
  return x;
}

TEST(TriangleCloth, PinnedSquareMatchesTheIndependentComputation) {
  std::vector<Vec3> rest;
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i) rest.push_back({kSize * i / (N - 1), kSize * j / (N - 1), 0});
  std::vector<Triangle> tris;
  for (int j = 0; j < N - 1; ++j)
    for (int i = 0; i < N - 1; ++i) {
      const PetscInt a = j * N + i, b = a + 1, c = a + N + 1, d = a + N;
      tris.push_back({a, b, c});
      tris.push_back({a, c, d});
    }
  const std::size_t n = 3 * N * N;
  std::vector<bool> pinned(n, false);
  for (int node : {N * (N - 1), N * N - 1})
    for (int c = 0; c < 3; ++c) pinned[3 * node + c] = true;

  eis::TriangularFemForceField fem(tris, rest, E, nu, eis::TriangleFemMethod::Large);
  eis::TriangularBendingSprings bending(eis::bendingSprings(tris, rest), ks, kd);
  const auto mass = eis::triangleDiagonalMasses(tris, rest, density);

  std::vector<double> x, v(n, 0.0);
  for (const auto& p : rest) x.insert(x.end(), p.begin(), p.end());
  for (int step = 0; step < steps; ++step) {
    std::vector<double> f(n, 0.0);
    fem.addForce(x.data(), v.data(), f.data());
    bending.addForce(x.data(), v.data(), f.data());
    for (std::size_t node = 0; node < mass.size(); ++node) f[3 * node + 2] += mass[node] * g;
    // A = M - h^2 K, column by column from the matrix-free products; b = h f + h^2 K v.
    std::vector<double> a(n * n, 0.0), kv(n, 0.0);
    fem.addDForce(v.data(), kv.data(), 1.0);
    bending.addDForce(v.data(), kv.data(), 1.0);
    for (std::size_t c = 0; c < n; ++c) {
      std::vector<double> unit(n, 0.0), column(n, 0.0);
      unit[c] = 1.0;
      fem.addDForce(unit.data(), column.data(), -h * h);
      bending.addDForce(unit.data(), column.data(), -h * h);
      for (std::size_t r = 0; r < n; ++r) a[r * n + c] = column[r];
      a[c * n + c] += mass[c / 3];
    }
    std::vector<double> b(n);
    for (std::size_t r = 0; r < n; ++r) b[r] = h * f[r] + h * h * kv[r];
    // The pinned unknowns: dv = 0 (their rows and columns the identity, right side zero).
    for (std::size_t r = 0; r < n; ++r)
      if (pinned[r]) {
        for (std::size_t c = 0; c < n; ++c) a[r * n + c] = a[c * n + r] = 0;
        a[r * n + r] = 1;
        b[r] = 0;
      }
    const auto dv = solve(a, b);
    for (std::size_t r = 0; r < n; ++r) {
      v[r] += dv[r];
      x[r] += h * v[r];
    }
  }
  for (int node = 0; node < N * N; ++node)
    for (int c = 0; c < 3; ++c)
      EXPECT_NEAR(x[3 * node + c], kReference[node][c], 1e-12) << node << " " << c;
  // The cloth sags well away from its free fall and from its rest shape.
  EXPECT_LT(kReference[0][2], -0.5);
}

}  // namespace
