// SOFA's HexahedronFEMForceField, method "small": the element stiffness against the closed form
// of the trilinear hexahedron, SOFA's constant Jacobian on near-parallelepipeds, rigid
// translations, patch tests with a linear field, and K as the derivative of the force and as
// the matrix-free product.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "eis/core/parameters.hpp"
#include "hexahedra.hpp"
#include "max_norms.hpp"

using testing_norms::largestDifference;
using testing_norms::largestMagnitude;

namespace {

using eis::HexahedronMethod;
using eis_test::force;
using eis_test::HexGrid;
using eis_test::kHexDofs;
using eis_test::Mat3;
using eis_test::stiffness;
using eis_test::Vec3;

constexpr double E = 1234.0, nu = 0.31;

// Vertex a of the unit cube sits at t_a in {0, 1}^3 (SOFA's order).
constexpr int kCorner[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                               {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};

// The integral over the unit cube of dN_a/dx_m dN_b/dx_l, N_a being the product of
// phi_t(x_k) with phi_0 = 1 - x, phi_1 = x: a product of one-dimensional integrals,
// int phi_p phi_q = 1/3 or 1/6, int phi_p' phi_q = phi_p' / 2, int phi_p' phi_q' = phi_p' phi_q'.
double gradientProduct(int a, int b, int m, int l) {
  double value = 1;
  for (int k = 0; k < 3; ++k) {
    const int p = kCorner[a][k], q = kCorner[b][k];
    const double dp = p ? 1 : -1, dq = q ? 1 : -1;
    if (k == m && k == l)
      value *= dp * dq;
    else if (k == m)
      value *= dp / 2;
    else if (k == l)
      value *= dq / 2;
    else
      value *= p == q ? 1.0 / 3 : 1.0 / 6;
  }
  return value;
}

// The exact stiffness of the box h[0] x h[1] x h[2]: block (a, b) is the integral of
// lambda g_a g_b^T + mu g_b g_a^T + mu (g_a . g_b) I, where the integral of dN_a/dx_m dN_b/dx_l
// is the unit cube's times h0 h1 h2 / (h_m h_l). SOFA's 2x2x2 Gauss rule integrates these
// products (degree 2 in each coordinate on a parallelepiped) exactly, so it is also SOFA's K.
std::vector<double> boxStiffness(double youngModulus, double poissonRatio, const Vec3& h) {
  const eis::LameParameters lame = eis::lameParameters(youngModulus, poissonRatio);
  const auto product = [&](int a, int b, int m, int l) {
    return gradientProduct(a, b, m, l) * h[0] * h[1] * h[2] / (h[m] * h[l]);
  };
  std::vector<double> k(kHexDofs * kHexDofs);
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b < 8; ++b)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          double v = lame.lambda * product(a, b, i, j) + lame.mu * product(a, b, j, i);
          if (i == j)
            for (int m = 0; m < 3; ++m) v += lame.mu * product(a, b, m, m);
          k[(3 * a + i) * kHexDofs + 3 * b + j] = v;
        }
  return k;
}

TEST(HexahedronFEM, UnitCubeStiffnessIsTheClosedForm) {
  const HexGrid cube(1, 1, 1, {1, 1, 1});
  for (double poisson : {0.0, nu}) {
    auto field = cube.field(HexahedronMethod::Small, E, poisson);
    const auto k = stiffness(field, 1);
    EXPECT_LT(largestDifference(k, boxStiffness(E, poisson, {1, 1, 1})), 1e-12 * E) << poisson;
  }
  // Two entries by hand, nu = 0 (lambda = 0, mu = E/2): K_00(x, x) = (2 mu + mu + mu) / 9 and
  // K_06(x, y) = mu int dN_6/dx dN_0/dy = mu int yz (-(1 - x)(1 - z)) = -mu / 24.
  auto field = cube.field(HexahedronMethod::Small, E, 0.0);
  const auto k = stiffness(field, 1);
  EXPECT_NEAR(k[0], 2 * E / 9, 1e-12 * E);
  EXPECT_NEAR(k[0 * kHexDofs + 3 * 6 + 1], -E / 48, 1e-12 * E);
}

TEST(HexahedronFEM, BoxStiffnessIsTheClosedForm) {
  // A box that is no cube, in a grid whose vertex numbers are not the cell's order.
  const Vec3 h{0.7, 1.9, 1.3};
  auto field = HexGrid(1, 1, 1, h).field(HexahedronMethod::Small, E, nu);
  EXPECT_LT(largestDifference(stiffness(field, 1), boxStiffness(E, nu, h)), 1e-12 * E);
}

TEST(HexahedronFEM, NearParallelepipedsUseTheEdgeJacobianAsSofaDoes) {
  // Moving vertex 6 by 0.05% of an edge keeps SOFA's parallelepiped test true: the stiffness is
  // then the one of the edges 0->1, 0->3, 0->4, that is the cube's, bit for bit up to rounding.
  // At 1% the Jacobian is evaluated at each Gauss point and K changes.
  const HexGrid cube(1, 1, 1, {1, 1, 1});
  auto cubeField = cube.field(HexahedronMethod::Small, E, nu);
  const auto k = stiffness(cubeField, 1);
  for (double shift : {5e-4, 1e-2}) {
    HexGrid moved = cube;
    moved.points[6][2] += shift;
    auto field = moved.field(HexahedronMethod::Small, E, nu);
    const double change = largestDifference(stiffness(field, 1), k);
    if (shift < 1e-3)
      EXPECT_LT(change, 1e-12 * E);
    else
      EXPECT_GT(change, 1e-4 * E);
  }
}

TEST(HexahedronFEM, SmallGivesNoForceUnderATranslation) {
  const HexGrid hex = eis_test::distortedHexahedron();
  auto field = hex.field(HexahedronMethod::Small, E, nu);
  const Mat3 identity = eis_test::rotation({1, 0, 0}, 0.0);
  EXPECT_LT(largestMagnitude(force(field, hex.rigidlyMoved(identity, {3.0, -2.0, 7.5}))),
            1e-11 * E);
  EXPECT_TRUE(field.isLinear());
}

// u = G p: a linear field, whose strain sym(G) and stress C sym(G) are constant.
const Mat3 kGradient{{{0.02, -0.01, 0.03}, {0.015, -0.04, 0.005}, {-0.02, 0.01, 0.025}}};

std::vector<double> linearlyDeformed(const HexGrid& g, const Mat3& gradient) {
  return g.moved([&](const Vec3& p) {
    const Vec3 u = eis_test::times(gradient, p);
    return Vec3{p[0] + u[0], p[1] + u[1], p[2] + u[2]};
  });
}

TEST(HexahedronFEM, PatchTestOnABoxGivesTheBoundaryTractions) {
  // Two boxes side by side: under a linear field the force on vertex a is
  // -sum over the boundary faces f at a of sigma n_f |f| / 4 (div sigma = 0; a bilinear face
  // gives each of its corners a quarter). The shared face is no boundary.
  const Vec3 h{0.6, 0.9, 0.4};
  const HexGrid patch(2, 1, 1, h);
  auto field = patch.field(HexahedronMethod::Small, E, nu);
  const auto f = force(field, linearlyDeformed(patch, kGradient));

  const eis::LameParameters lame = eis::lameParameters(E, nu);
  const double trace = kGradient[0][0] + kGradient[1][1] + kGradient[2][2];
  Mat3 sigma;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      sigma[i][j] =
          lame.mu * (kGradient[i][j] + kGradient[j][i]) + (i == j ? lame.lambda * trace : 0);
  // SOFA's faces: -x, +x, -y, +y, -z, +z, their outward normals and the axis they span.
  const int faces[6][4] = {{0, 3, 4, 7}, {1, 2, 5, 6}, {0, 1, 4, 5},
                           {2, 3, 6, 7}, {0, 1, 2, 3}, {4, 5, 6, 7}};
  std::vector<double> expected(f.size(), 0.0);
  for (std::size_t c = 0; c < patch.cells.size(); ++c)
    for (int side = 0; side < 6; ++side) {
      const int axis = side / 2;
      const double sign = side % 2 ? 1.0 : -1.0;
      if (axis == 0 && ((c == 0 && sign > 0) || (c == 1 && sign < 0))) continue;  // shared
      const double area = h[0] * h[1] * h[2] / h[axis];
      for (int a : faces[side])
        for (int i = 0; i < 3; ++i)
          expected[3 * patch.cells[c][a] + i] -= sigma[i][axis] * sign * area / 4;
    }
  EXPECT_LT(largestDifference(f, expected), 1e-12 * E);
}

TEST(HexahedronFEM, PatchTestOnDistortedCellsBalancesTheInnerVertex) {
  // 2x2x2 cells with every vertex but the boundary's bilinear faces moved: the inner vertex,
  // shared by the eight cells, gets no force under a linear field. The Gauss rule integrates
  // each cell's grad N exactly (degree 3 per coordinate), so this holds to rounding.
  HexGrid patch(2, 2, 2, {1, 1, 1});
  patch.points[13] = {1.2, 0.85, 1.1};
  auto field = patch.field(HexahedronMethod::Small, E, nu);
  const auto f = force(field, linearlyDeformed(patch, kGradient));
  const double inner = std::max({std::fabs(f[39]), std::fabs(f[40]), std::fabs(f[41])});
  EXPECT_LT(inner, 1e-12 * largestMagnitude(f));
  EXPECT_GT(largestMagnitude(f), 1.0);
}

TEST(HexahedronFEM, SmallStiffnessIsTheDerivativeOfTheForce) {
  const HexGrid hex = eis_test::distortedHexahedron();
  auto field = hex.field(HexahedronMethod::Small, E, nu);
  const auto x = linearlyDeformed(hex, kGradient);
  force(field, x);
  const auto k = stiffness(field, 1);
  EXPECT_LT(largestDifference(k, eis_test::differencedStiffness(field, hex.cells[0], x, 1e-4)),
            1e-8 * largestMagnitude(k));
  for (int r = 0; r < kHexDofs; ++r)
    for (int c = 0; c < r; ++c)
      EXPECT_NEAR(k[r * kHexDofs + c], k[c * kHexDofs + r], 1e-12 * E) << r << " " << c;
}

TEST(HexahedronFEM, EnergyAndStressOfAUniaxialStretch) {
  // u = eps (x, -nu y, -nu z): sigma_xx = E eps and nothing else, so von Mises is E eps, and the
  // energy is 1/2 E eps^2 times the volume.
  const Vec3 h{0.7, 1.9, 1.3};
  const HexGrid box(1, 1, 1, h);
  auto field = box.field(HexahedronMethod::Small, E, nu);
  const double eps = 1e-3;
  const auto x = linearlyDeformed(box, {{{eps, 0, 0}, {0, -nu * eps, 0}, {0, 0, -nu * eps}}});
  const double volume = h[0] * h[1] * h[2];
  EXPECT_NEAR(field.potentialEnergy(x.data()), 0.5 * E * eps * eps * volume, 1e-12 * E);
  const auto vm = field.vonMisesStress(x.data());
  ASSERT_EQ(vm.size(), 1u);
  EXPECT_NEAR(vm[0], E * eps, 1e-10 * E);
}

TEST(HexahedronFEM, MethodsAreNamedAsInSofa) {
  EXPECT_EQ(eis::parse::nameOf(HexahedronMethod::Small, eis::kHexahedronMethods), "small");
  EXPECT_EQ(eis::parse::nameOf(HexahedronMethod::Large, eis::kHexahedronMethods), "large");
  EXPECT_EQ(eis::parse::nameOf(HexahedronMethod::Polar, eis::kHexahedronMethods), "polar");
}

TEST(HexahedronFEM, MassIsSofas) {
  // SOFA's element mass: 8/27 rho V everywhere, V = |0->1| |0->3| |0->4|; lumped, 64/27 rho V a
  // vertex; gravity on rho V / 8 a vertex. On a sheared box V is the edges' product, not the
  // volume.
  const double density = 3.5;
  HexGrid box(1, 1, 1, {0.7, 1.9, 1.3});
  for (double shear : {0.0, 0.5}) {
    std::array<Vec3, 8> rest;
    for (int a = 0; a < 8; ++a) {
      rest[a] = box.points[box.cells[0][a]];
      rest[a][0] += shear * rest[a][2];
    }
    const double volume = 0.7 * 1.9 * std::hypot(1.3, shear * 1.3);
    const eis::HexahedronMass m = eis::sofaHexahedronMass(rest, density);
    for (double entry : m.consistent) EXPECT_NEAR(entry, 8.0 / 27 * density * volume, 1e-14);
    for (double entry : m.lumped) EXPECT_NEAR(entry, 64.0 / 27 * density * volume, 1e-13);
    for (double entry : m.gravity) EXPECT_NEAR(entry, density * volume / 8, 1e-14);
  }
}

}  // namespace
