// SOFA's TetrahedralTensorMassForceField, written out here from its source as SOFA computes it:
// per edge (k, l) of a tetrahedron a 3x3 DfDx = lambda* s_l s_k^T + mu* s_k s_l^T +
// mu* (s_k . s_l) I (s the shape vectors cross / (6 V), lambda* = lambda |V|, mu* = mu |V|),
// the force f_l += DfDx (u_l - u_k), f_k -= DfDx^T (u_l - u_k) on the displacements u = x - X,
// and buildStiffnessMatrix's four blocks per edge. On one irregular, negatively oriented
// tetrahedron both equal the linear element's (SOFA's TetrahedronFEMForceField small), which
// the importer maps it onto (io/sofa_elastic_fem.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "eis/model/linear_elastic_fem.hpp"
#include "one_tetrahedron.hpp"

namespace {

using eis::Vec3;
using Block = std::array<std::array<double, 3>, 3>;

Vec3 sub(const Vec3& a, const Vec3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const Vec3& a, const Vec3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

const int kEdges[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};

// applyTetrahedronCreation's DfDx of each local edge (k, l), the edge oriented k -> l.
std::array<Block, 6> tensorMassEdges(const std::vector<Vec3>& p, double E, double nu) {
  const double lambda = E * nu / ((1 - 2 * nu) * (1 + nu)), mu = E / (2 * (1 + nu));
  const double volume = dot(cross(sub(p[1], p[0]), sub(p[2], p[0])), sub(p[0], p[3]));
  std::array<Vec3, 4> s;
  for (int j = 0; j < 4; ++j) {
    const Vec3 c = cross(sub(p[(j + 2) % 4], p[(j + 1) % 4]), sub(p[(j + 3) % 4], p[(j + 1) % 4]));
    const double sign = j % 2 == 0 ? 1.0 : -1.0;
    s[j] = {sign * c[0] / volume, sign * c[1] / volume, sign * c[2] / volume};
  }
  const double lambdaStar = lambda * std::fabs(volume) / 6, muStar = mu * std::fabs(volume) / 6;
  std::array<Block, 6> m{};
  for (int j = 0; j < 6; ++j) {
    const int k = kEdges[j][0], l = kEdges[j][1];
    for (int u = 0; u < 3; ++u) {
      for (int v = 0; v < 3; ++v)
        m[j][u][v] = lambdaStar * s[l][u] * s[k][v] + muStar * s[k][u] * s[l][v];
      m[j][u][u] += dot(s[k], s[l]) * muStar;
    }
  }
  return m;
}

TEST(TensorMass, ForceAndStiffnessAreTheLinearElements) {
  const eis_test::OneTet t;
  const double E = 1000, nu = 0.3;  // SOFA's defaults
  const auto edges = tensorMassEdges(t.points, E, nu);
  eis::LinearElasticFEM linear(t.cells, t.cellShapes(), t.rest(), {eis::lameParameters(E, nu)});
  const std::vector<double> u{0.01,  -0.02, 0.03, 0.05, 0.0,  -0.01,
                              -0.03, 0.04,  0.02, 0.0,  0.01, -0.06};
  std::vector<double> x = t.rest();
  for (int i = 0; i < 12; ++i) x[i] += u[i];
  std::vector<double> want(12, 0.0), got(12, 0.0);
  linear.addForce(x.data(), nullptr, want.data());
  std::vector<double> k(144, 0.0), ours(144, 0.0);
  for (int j = 0; j < 6; ++j) {
    const int a = kEdges[j][0], b = kEdges[j][1];
    const Block& m = edges[j];
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) {
        const double dp = u[3 * b + c] - u[3 * a + c];
        got[3 * b + r] += m[r][c] * dp;  // f_l += DfDx dp
        got[3 * a + r] -= m[c][r] * dp;  // f_k -= DfDx^T dp
      }
    // dfdx(a, a) += m^T, (a, b) -= m^T, (b, a) -= m, (b, b) += m; K = -df/dx.
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) {
        k[(3 * a + r) * 12 + 3 * a + c] -= m[c][r];
        k[(3 * a + r) * 12 + 3 * b + c] += m[c][r];
        k[(3 * b + r) * 12 + 3 * a + c] += m[r][c];
        k[(3 * b + r) * 12 + 3 * b + c] -= m[r][c];
      }
  }
  linear.addKToElementMatrices(ours.data(), -1.0, {0, 1});
  double scale = 0;
  for (double w : want) scale = std::max(scale, std::fabs(w));
  for (int i = 0; i < 12; ++i) EXPECT_NEAR(got[i], want[i], 1e-12 * scale) << i;
  double kScale = 0;
  for (double w : ours) kScale = std::max(kScale, std::fabs(w));
  for (int i = 0; i < 144; ++i) EXPECT_NEAR(k[i], ours[i], 1e-12 * kScale) << i;
}

}  // namespace
