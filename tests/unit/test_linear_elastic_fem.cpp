// The linear tetrahedron (SOFA's TetrahedronFEMForceField, method "small"): its stiffness is
// symmetric, has the rigid-body motions in its nullspace, is the exact derivative of the force and
// the matrix-free product, and is SOFA's own strain-displacement construction; a patch test on a
// box.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>
#include <vector>

#include "eis/mesh/box_mesh.hpp"
#include "eis/model/linear_elastic_fem.hpp"
#include "one_tetrahedron.hpp"

namespace {

using eis_test::Cells;
using eis_test::OneTet;

constexpr double E = 1234.0, nu = 0.31;

// The same material, E and nu, on each of `cells` cells.
std::vector<eis::LameParameters> uniformLame(std::size_t cells) {
  return std::vector<eis::LameParameters>(cells, eis::lameParameters(E, nu));
}

std::vector<double> stiffness(const OneTet& t) {
  eis::LinearElasticFEM fem(t.cells, t.cellShapes(), t.rest(), uniformLame(t.cells.size()));
  std::vector<double> k(144, 0.0);
  fem.addKToElementMatrices(k.data(), -1.0, {0, 1});  // -df/dx = K
  return k;
}

TEST(LinearElasticElement, NegativelyOrientedTetrahedronKeepsItsAbsoluteVolume) {
  const OneTet t;
  EXPECT_LT(t.shapes[0].signedVolume, 0);
  EXPECT_DOUBLE_EQ(t.shapes[0].volume, -t.shapes[0].signedVolume);
}

TEST(LinearElasticElement, StiffnessIsSymmetric) {
  const auto k = stiffness(OneTet{});
  double largest = 0;
  for (double v : k) largest = std::max(largest, std::fabs(v));
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j) EXPECT_NEAR(k[i * 12 + j], k[j * 12 + i], 1e-13 * largest);
}

TEST(LinearElasticElement, RigidBodyMotionsAreInTheNullspace) {
  const OneTet t;
  const auto k = stiffness(t);
  double largest = 0;
  for (double v : k) largest = std::max(largest, std::fabs(v));
  std::vector<std::vector<double>> modes;
  for (int d = 0; d < 3; ++d) {  // translations
    std::vector<double> m(12, 0.0);
    for (int a = 0; a < 4; ++a) m[3 * a + d] = 1;
    modes.push_back(m);
  }
  for (int axis = 0; axis < 3; ++axis) {  // infinitesimal rotations: omega x p
    std::vector<double> m(12, 0.0);
    eis::Vec3 w{0, 0, 0};
    w[axis] = 1;
    for (int a = 0; a < 4; ++a) {
      const auto& p = t.points[a];
      m[3 * a + 0] = w[1] * p[2] - w[2] * p[1];
      m[3 * a + 1] = w[2] * p[0] - w[0] * p[2];
      m[3 * a + 2] = w[0] * p[1] - w[1] * p[0];
    }
    modes.push_back(m);
  }
  for (const auto& m : modes)
    for (int i = 0; i < 12; ++i) {
      double r = 0;
      for (int j = 0; j < 12; ++j) r += k[i * 12 + j] * m[j];
      EXPECT_NEAR(r, 0.0, 1e-12 * largest);
    }
}

TEST(LinearElasticElement, MatrixEqualsFiniteDifferenceOfForceAndTheMatrixFreeProduct) {
  const OneTet t;
  eis::LinearElasticFEM fem(t.cells, t.cellShapes(), t.rest(), uniformLame(t.cells.size()));
  std::vector<double> dfdx(144, 0.0);
  fem.addKToElementMatrices(dfdx.data(), 1.0, {0, 1});
  std::vector<double> x = t.rest();
  for (int i = 0; i < 12; ++i) x[i] += 0.01 * std::sin(3.0 * i + 1);  // a deformed state
  std::vector<double> f0(12, 0.0);
  fem.addForce(x.data(), nullptr, f0.data());
  const double eps = 1e-6;
  for (int j = 0; j < 12; ++j) {
    std::vector<double> xp = x, xm = x, fp(12, 0.0), fm(12, 0.0), unit(12, 0.0), product(12, 0.0);
    xp[j] += eps;
    xm[j] -= eps;
    fem.addForce(xp.data(), nullptr, fp.data());
    fem.addForce(xm.data(), nullptr, fm.data());
    unit[j] = 1;
    fem.addDForce(unit.data(), product.data(), 1.0);
    for (int i = 0; i < 12; ++i) {
      EXPECT_NEAR((fp[i] - fm[i]) / (2 * eps), dfdx[i * 12 + j], 1e-6 * E);
      EXPECT_NEAR(product[i], dfdx[i * 12 + j], 1e-12 * E);
    }
  }
}

// SOFA builds K_e = J C J^T / (36 |V|) with J (12x6) made of the cofactors of [1 x y z] at the
// rest shape. Rebuild it that way, from a 4x4 inverse, independently of TetraShape's gradients.
TEST(LinearElasticElement, MatchesSofaStrainDisplacementConstruction) {
  const OneTet t;
  double a[4][8];
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 8; ++c)
      a[r][c] = c < 4 ? (c == 0 ? 1.0 : t.points[r][c - 1]) : (c - 4 == r);
  for (int col = 0; col < 4; ++col) {  // Gauss-Jordan with partial pivoting
    int pivot = col;
    for (int r = col + 1; r < 4; ++r)
      if (std::fabs(a[r][col]) > std::fabs(a[pivot][col])) pivot = r;
    for (int c = 0; c < 8; ++c) std::swap(a[col][c], a[pivot][c]);
    const double d = a[col][col];
    for (int c = 0; c < 8; ++c) a[col][c] /= d;
    for (int r = 0; r < 4; ++r)
      if (r != col) {
        const double m = a[r][col];
        for (int c = 0; c < 8; ++c) a[r][c] -= m * a[col][c];
      }
  }
  // Row d+1 of the inverse, column k: d N_k / d x_d.
  const double sixV = 6 * t.shapes[0].signedVolume;
  double J[12][6] = {};
  for (int k = 0; k < 4; ++k) {
    const double bx = sixV * a[1][4 + k], by = sixV * a[2][4 + k], bz = sixV * a[3][4 + k];
    J[3 * k + 0][0] = bx;
    J[3 * k + 0][3] = by;
    J[3 * k + 0][5] = bz;
    J[3 * k + 1][1] = by;
    J[3 * k + 1][3] = bx;
    J[3 * k + 1][4] = bz;
    J[3 * k + 2][2] = bz;
    J[3 * k + 2][4] = by;
    J[3 * k + 2][5] = bx;
  }
  const double f = E * (1 - nu) / ((1 + nu) * (1 - 2 * nu));
  double C[6][6] = {};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) C[i][j] = f * (i == j ? 1.0 : nu / (1 - nu));
  for (int i = 3; i < 6; ++i) C[i][i] = f * (1 - 2 * nu) / (2 * (1 - nu));
  const auto k = stiffness(t);
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j) {
      double sofa = 0;
      for (int p = 0; p < 6; ++p)
        for (int q = 0; q < 6; ++q) sofa += J[i][p] * C[p][q] * J[j][q];
      sofa /= 36 * t.shapes[0].volume;
      EXPECT_NEAR(k[i * 12 + j], sofa, 1e-10 * E);
    }
}

// Patch test: any linear displacement field u = G p gives the same stress in every element and
// no force on interior nodes.
TEST(LinearElasticElement, PatchTestOnABox) {
  const auto box = eis::makeBoxMesh({1, 1, 1}, {3, 3, 3});
  Cells cells;
  std::vector<double> rest, x;
  for (const auto& t : box.cells)
    cells.push_back({PetscInt(t[0]), PetscInt(t[1]), PetscInt(t[2]), PetscInt(t[3])});
  const eis::CellShapes shapes(cells, box.nodes);
  const double G[3][3] = {{1e-3, 2e-3, -1e-3}, {0.5e-3, -2e-3, 0.3e-3}, {-0.7e-3, 0.1e-3, 1.5e-3}};
  for (const auto& p : box.nodes)
    for (int d = 0; d < 3; ++d) {
      rest.push_back(p[d]);
      x.push_back(p[d] + G[d][0] * p[0] + G[d][1] * p[1] + G[d][2] * p[2]);
    }
  eis::LinearElasticFEM fem(cells, shapes, rest, uniformLame(cells.size()));
  std::vector<double> f(x.size(), 0.0);
  fem.addForce(x.data(), nullptr, f.data());
  for (std::size_t n = 0; n < box.nodes.size(); ++n) {
    const auto& p = box.nodes[n];
    const bool interior = p[0] > 0 && p[0] < 1 && p[1] > 0 && p[1] < 1 && p[2] > 0 && p[2] < 1;
    if (interior)
      for (int d = 0; d < 3; ++d) EXPECT_NEAR(f[3 * n + d], 0.0, 1e-12 * E);
  }
  const auto stress = fem.vonMisesStress(x.data());
  for (double s : stress) EXPECT_NEAR(s, stress[0], 1e-9 * stress[0]);
  EXPECT_GT(stress[0], 0);
}

}  // namespace
