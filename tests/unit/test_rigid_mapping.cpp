// SOFA's RigidMapping (model/rigid_mapping.hpp): positions, J and J^T of points on a rotated frame
// against the closed form and finite differences of the frame's motion.
#include "eis/model/rigid_mapping.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "eis/model/rigid_body.hpp"

namespace {

using eis::Vec3d;

// Frame 1 of two: centre (1, 2, 3), turned 90 degrees about z (q = (0, 0, sin 45, cos 45)).
std::vector<double> frames() {
  const double s = std::sqrt(0.5);
  return {0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 0, 0, s, s};
}

TEST(RigidMapping, PositionsOfARotatedFrameAndBack) {
  const std::vector<double> f = frames();
  eis::RigidMapping mapping({1, 1, 0}, {{1, 0, 0}, {0, 2, -1}, {1, 1, 1}});
  const std::vector<Vec3d> x = mapping.apply(f.data());
  // 90 degrees about z takes (1, 0, 0) to (0, 1, 0) and (0, 2, -1) to (-2, 0, -1).
  const std::vector<Vec3d> expected{{1, 3, 3}, {-1, 2, 2}, {1, 1, 1}};
  for (std::size_t i = 0; i < x.size(); ++i)
    for (int d = 0; d < 3; ++d) EXPECT_NEAR(x[i][d], expected[i][d], 1e-15) << i << " " << d;
  // globalToLocalCoords: the local coordinates of the world points are the ones given.
  const std::vector<Vec3d> local = eis::RigidMapping::localCoordinates(f, {1, 1, 0}, x);
  EXPECT_NEAR(local[1][1], 2, 1e-15);
  EXPECT_NEAR(local[1][2], -1, 1e-15);
  EXPECT_NEAR(local[0][0], 1, 1e-15);
}

TEST(RigidMapping, JacobianClosedFormAndFiniteDifferences) {
  std::vector<double> f = frames();
  // A general orientation for frame 1: (0.3, -0.5, 0.2, 0.7) normalised.
  const double n = std::sqrt(0.09 + 0.25 + 0.04 + 0.49);
  const std::array<double, 4> q{0.3 / n, -0.5 / n, 0.2 / n, 0.7 / n};
  for (int k = 0; k < 4; ++k) f[10 + k] = q[k];
  eis::RigidMapping mapping({1}, {{0.4, -1.2, 0.9}});
  const Vec3d x0 = mapping.apply(f.data())[0];
  const Vec3d r = eis::rotateByQuaternion(q, {0.4, -1.2, 0.9});
  // Closed form: v_point = v + w x r.
  const std::vector<double> v{0, 0, 0, 0, 0, 0, 0.1, -0.2, 0.3, 0.7, -0.4, 1.1};
  const Vec3d j = mapping.applyJ(0, v.data());
  const Vec3d expected{0.1 + (-0.4 * r[2] - 1.1 * r[1]), -0.2 + (1.1 * r[0] - 0.7 * r[2]),
                       0.3 + (0.7 * r[1] + 0.4 * r[0])};
  for (int d = 0; d < 3; ++d) EXPECT_NEAR(j[d], expected[d], 1e-14);
  // Finite differences: move frame 1 by h v (the centre by h v, the orientation turned by h w as
  // RigidCoord's operator+=), central difference of the point's position.
  const double h = 1e-6;
  std::vector<Vec3d> moved;
  for (double sign : {1.0, -1.0}) {
    std::vector<double> g = f;
    for (int d = 0; d < 3; ++d) g[7 + d] += sign * h * v[6 + d];
    const std::array<double, 4> turned =
        eis::rotateQuaternion(q, {sign * h * v[9], sign * h * v[10], sign * h * v[11]});
    for (int k = 0; k < 4; ++k) g[10 + k] = turned[k];
    eis::RigidMapping m({1}, {{0.4, -1.2, 0.9}});
    moved.push_back(m.apply(g.data())[0]);
  }
  for (int d = 0; d < 3; ++d) EXPECT_NEAR((moved[0][d] - moved[1][d]) / (2 * h), j[d], 1e-8);
  EXPECT_NEAR(x0[0], 1 + r[0], 1e-15);
  // J^T is J's transpose: f . (J v) = (J^T f) . v, and its force and torque are f and r x f.
  const Vec3d force{0.5, -2, 1.5};
  std::vector<double> jt(12, 0.0);
  mapping.applyJT(0, force, jt.data());
  double left = 0, right = 0;
  for (int d = 0; d < 3; ++d) left += force[d] * j[d];
  for (int k = 0; k < 12; ++k) right += jt[k] * v[k];
  EXPECT_NEAR(left, right, 1e-13);
  for (int k = 0; k < 6; ++k) EXPECT_EQ(jt[k], 0);
  EXPECT_NEAR(jt[9], r[1] * force[2] - r[2] * force[1], 1e-15);
  // The mass block is J^T m J: column c is J^T m J e_c.
  double block[36] = {};
  mapping.addMass(0, 2.5, block);
  for (int c = 0; c < 6; ++c) {
    std::vector<double> e(12, 0.0), column(12, 0.0);
    e[6 + std::size_t(c)] = 1;
    Vec3d je = mapping.applyJ(0, e.data());
    for (double& x : je) x *= 2.5;
    mapping.applyJT(0, je, column.data());
    for (int row = 0; row < 6; ++row)
      EXPECT_NEAR(block[6 * row + c], column[6 + std::size_t(row)], 1e-14) << row << " " << c;
  }
  // The stiffness block is factor J^T k J for a 3 x 3 k: column c is J^T (factor k J e_c).
  const std::array<double, 9> k{-3, 1, 0, 1, -2, 0.5, 0, 0.5, -4};
  double stiff[36] = {};
  mapping.addStiffness(0, k, 0.7, stiff);
  for (int c = 0; c < 6; ++c) {
    std::vector<double> e(12, 0.0), column(12, 0.0);
    e[6 + std::size_t(c)] = 1;
    const Vec3d je = mapping.applyJ(0, e.data());
    Vec3d kje{};
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) kje[a] += 0.7 * k[std::size_t(3 * a + b)] * je[b];
    mapping.applyJT(0, kje, column.data());
    for (int row = 0; row < 6; ++row)
      EXPECT_NEAR(stiff[6 * row + c], column[6 + std::size_t(row)], 1e-14) << row << " " << c;
  }
}

}  // namespace
