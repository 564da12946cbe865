// The diffusion tetrahedron: its matrix is the derivative of the flux, symmetric, annihilates
// constants, and gives the energy; it is the hand-computed P1 Laplacian of the unit corner
// tetrahedron, and SOFA TetrahedronDiffusionFEMForceField's edge sums on an irregular one.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "eis/model/diffusion_fem.hpp"
#include "one_tetrahedron.hpp"

namespace {

using eis_test::Cells;
using eis_test::OneTet;

TEST(DiffusionElement, MatrixIsTheDerivativeOfTheFluxAndAnnihilatesConstants) {
  const OneTet t;
  const double k = 2.5;
  eis::DiffusionFEM fem(t.cells, t.cellShapes(), k);
  std::vector<double> dfdu(16, 0.0);
  fem.addKToElementMatrices(dfdu.data(), 1.0, {0, 1});
  const std::vector<double> u{0.3, -1.2, 0.8, 2.0};
  for (int j = 0; j < 4; ++j) {
    std::vector<double> up = u, f0(4, 0.0), f1(4, 0.0);
    up[j] += 1.0;  // the force is linear in u: a unit difference is exact
    fem.addForce(u.data(), nullptr, f0.data());
    fem.addForce(up.data(), nullptr, f1.data());
    double rowSum = 0;
    for (int i = 0; i < 4; ++i) {
      EXPECT_NEAR(f1[i] - f0[i], dfdu[i * 4 + j], 1e-12);
      EXPECT_NEAR(dfdu[i * 4 + j], dfdu[j * 4 + i], 1e-12);
      rowSum += dfdu[j * 4 + i];
    }
    EXPECT_NEAR(rowSum, 0.0, 1e-12);
  }
  // Energy 1/2 u.L u equals -1/2 u.f(u).
  std::vector<double> f(4, 0.0);
  fem.addForce(u.data(), nullptr, f.data());
  double uf = 0;
  for (int i = 0; i < 4; ++i) uf += u[i] * f[i];
  EXPECT_NEAR(fem.potentialEnergy(u.data()), -0.5 * uf, 1e-12);
}

// K = -D V G G^T on (0,0,0) (1,0,0) (0,1,0) (0,0,1): V = 1/6, grad N = (-1,-1,-1), e_x, e_y, e_z.
TEST(DiffusionElement, IsTheHandComputedLaplacianOfTheCornerTetrahedron) {
  const std::vector<eis::Vec3> points{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const Cells cells{eis::CellType::Tetrahedron, {0, 1, 2, 3}};
  const double d = 2.5;
  eis::DiffusionFEM fem(cells, eis::CellShapes(cells, points), d);
  std::vector<double> k(16, 0.0);
  fem.addKToElementMatrices(k.data(), 1.0, {0, 1});
  const double laplacian[4][4] = {{3, -1, -1, -1}, {-1, 1, 0, 0}, {-1, 0, 1, 0}, {-1, 0, 0, 1}};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_NEAR(k[4 * i + j], -d / 6 * laplacian[i][j], 1e-14);
}

// SOFA assembles per edge: c_kl = D |det| / 6 s_k . s_l, s the shape vectors (cross products of
// the opposite face's edges over det, the signed 6 V), K(k,l) = -c_kl, K(k,k) = sum_l c_kl.
TEST(DiffusionElement, IsSofasEdgeAssembly) {
  const OneTet t;
  const double d = 0.7;
  eis::DiffusionFEM fem(t.cells, t.cellShapes(), d);
  std::vector<double> k(16, 0.0);
  fem.addKToElementMatrices(k.data(), 1.0, {0, 1});
  const auto& p = t.points;
  const auto sub = [](const eis::Vec3& a, const eis::Vec3& b) {
    return eis::Vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  };
  const auto cross = [](const eis::Vec3& a, const eis::Vec3& b) {
    return eis::Vec3{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                     a[0] * b[1] - a[1] * b[0]};
  };
  const auto dot = [](const eis::Vec3& a, const eis::Vec3& b) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  };
  const double det = dot(cross(sub(p[1], p[0]), sub(p[2], p[0])), sub(p[0], p[3]));
  eis::Vec3 s[4];
  for (int j = 0; j < 4; ++j) {
    const eis::Vec3 c =
        cross(sub(p[(j + 2) % 4], p[(j + 1) % 4]), sub(p[(j + 3) % 4], p[(j + 1) % 4]));
    const double sign = j % 2 == 0 ? -1 : 1;
    s[j] = {sign * c[0] / det, sign * c[1] / det, sign * c[2] / det};
  }
  double expected[4][4] = {};
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b) {
      const double c = d * std::abs(det) / 6 * dot(s[a], s[b]);
      expected[a][b] = expected[b][a] = -c;
      expected[a][a] += c;
      expected[b][b] += c;
    }
  for (int i = 0; i < 4; ++i) {
    double rowSum = 0;
    for (int j = 0; j < 4; ++j) {
      EXPECT_NEAR(k[4 * i + j], expected[i][j], 1e-12 * std::abs(expected[i][i]));
      rowSum += k[4 * i + j];
    }
    EXPECT_NEAR(rowSum, 0.0, 1e-12 * std::abs(expected[i][i]));
  }
}

}  // namespace
