// RigidMapping's geometric stiffness (model/rigid_mapping.hpp, model/rigid_body.hpp): the exact
// block against central differences of J(q)^T f with the points' forces held, for turned frames;
// the stabilized block in closed form and as the negative part of the symmetrized one; and a body's
// assembled matrix against central differences of its whole force (its points' weight, forces and
// plane, or a strained FEM cube between two frames) and against its matrix-free product.
#include <gtest/gtest.h>
#include <petscmat.h>

#include <algorithm>
#include <cmath>

#include "eis/model/rigid_body.hpp"
#include "eis/model/rigid_mapping.hpp"

namespace {

using eis::RigidGeometricStiffness;
using eis::Vec3d;

std::array<double, 4> unit(std::array<double, 4> q) {
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (double& x : q) x /= n;
  return q;
}

// Two turned and moved frames; three points on frame 1, two on frame 0.
struct TurnedFrames {
  std::vector<double> frames;
  std::vector<int> frameOf{1, 0, 1, 1, 0};
  std::vector<Vec3d> local{
      {0.4, -1.2, 0.9}, {1, 0.5, -0.3}, {-0.7, 0.2, 0.6}, {0.1, 1.1, 0.2}, {-0.5, -0.4, 1.3}};
  std::vector<Vec3d> forces{
      {0.5, -2, 1.5}, {-1, 0.3, 0.8}, {2, 1, -0.5}, {0.2, -0.7, -1.1}, {0.9, 0.4, 0.3}};
};

TurnedFrames setup() {
  TurnedFrames s;
  const std::array<double, 4> q0 = unit({0.1, 0.2, -0.3, 0.9}), q1 = unit({0.3, -0.5, 0.2, 0.7});
  s.frames = {1, 2, 3, q0[0], q0[1], q0[2], q0[3], -1, 0.5, 2, q1[0], q1[1], q1[2], q1[3]};
  return s;
}

// The frames moved by eps along unknown k (6 a frame), as RigidCoord's operator+= moves them.
std::vector<double> moved(std::vector<double> frames, std::size_t k, double eps) {
  double* c = &frames[7 * (k / 6)];
  const std::size_t d = k % 6;
  if (d < 3) {
    c[d] += eps;
  } else {
    std::array<double, 3> w{0, 0, 0};
    w[d - 3] = eps;
    const std::array<double, 4> t = eis::rotateQuaternion({c[3], c[4], c[5], c[6]}, w);
    std::copy(t.begin(), t.end(), c + 3);
  }
  return frames;
}

TEST(RigidGeometricStiffness, ExactBlockIsTheDerivativeOfTheCarriedForce) {
  const TurnedFrames s = setup();
  eis::RigidMapping at(s.frameOf, s.local);
  at.apply(s.frames.data());
  const auto blocks = at.geometricStiffness(s.forces, 2, RigidGeometricStiffness::Exact);
  // J(q)^T f with f held: the frames' forces and torques.
  const auto carried = [&](const std::vector<double>& frames) {
    eis::RigidMapping m(s.frameOf, s.local);
    m.apply(frames.data());
    std::vector<double> out(12, 0.0);
    for (std::size_t i = 0; i < s.forces.size(); ++i) m.applyJT(i, s.forces[i], out.data());
    return out;
  };
  const double eps = 1e-6;
  double largest = 0;
  for (const auto& b : blocks)
    for (double v : b) largest = std::max(largest, std::abs(v));
  ASSERT_GT(largest, 1);
  bool unsymmetric = false;
  for (std::size_t k = 0; k < 12; ++k) {
    const std::vector<double> plus = carried(moved(s.frames, k, eps));
    const std::vector<double> minus = carried(moved(s.frames, k, -eps));
    for (std::size_t row = 0; row < 12; ++row) {
      const double fd = (plus[row] - minus[row]) / (2 * eps);
      // Only a frame's torque changes, and only with its own turn.
      const bool angular = row % 6 >= 3 && k % 6 >= 3 && row / 6 == k / 6;
      const double expected = angular ? blocks[row / 6][3 * (row % 6 - 3) + k % 6 - 3] : 0.0;
      EXPECT_NEAR(fd, expected, 1e-8 * largest) << row << " " << k;
    }
  }
  for (const auto& b : blocks) unsymmetric = unsymmetric || std::abs(b[1] - b[3]) > 1e-3 * largest;
  EXPECT_TRUE(unsymmetric);
  const auto none = at.geometricStiffness(s.forces, 2, RigidGeometricStiffness::None);
  for (double v : none[1]) EXPECT_EQ(v, 0.0);
}

TEST(RigidGeometricStiffness, StabilizedBlockInClosedForm) {
  // r = e1, f = e2: [f]x [r]x = r f^T = e1 e2^T; symmetrized (e1 e2^T + e2 e1^T) / 2, of
  // eigenvalues +1/2 and -1/2 along (e1 + e2) and (e1 - e2) / sqrt 2: its negative part is
  // -(e1 - e2)(e1 - e2)^T / 4.
  eis::RigidMapping one({0}, {{1, 0, 0}});
  const std::vector<double> frame{0, 0, 0, 0, 0, 0, 1};
  one.apply(frame.data());
  const auto b = one.geometricStiffness({{0, 1, 0}}, 1, RigidGeometricStiffness::Stabilized)[0];
  const std::array<double, 9> expected{-0.25, 0.25, 0, 0.25, -0.25, 0, 0, 0, 0};
  for (std::size_t e = 0; e < 9; ++e) EXPECT_NEAR(b[e], expected[e], 1e-15) << e;
  // f = 2 r: r f^T - (f . r) I = diag(0, -2, -2), negative semi-definite already: kept bit for
  // bit, as SOFA leaves a block with no positive eigenvalue.
  const auto kept = one.geometricStiffness({{2, 0, 0}}, 1, RigidGeometricStiffness::Stabilized)[0];
  const std::array<double, 9> diagonal{0, 0, 0, 0, -2, 0, 0, 0, -2};
  for (std::size_t e = 0; e < 9; ++e) EXPECT_EQ(kept[e], diagonal[e]) << e;
}

// S = P + Q, P the stabilized block, Q = S - P: P symmetric negative semi-definite, Q positive
// semi-definite and P Q = 0 make P the negative part of S.
TEST(RigidGeometricStiffness, StabilizedBlockIsTheNegativePartOfTheSymmetrized) {
  const TurnedFrames s = setup();
  eis::RigidMapping at(s.frameOf, s.local);
  at.apply(s.frames.data());
  const auto exact = at.geometricStiffness(s.forces, 2, RigidGeometricStiffness::Exact);
  const auto stable = at.geometricStiffness(s.forces, 2, RigidGeometricStiffness::Stabilized);
  for (std::size_t frame = 0; frame < 2; ++frame) {
    const auto& g = exact[frame];
    const auto& p = stable[frame];
    std::array<double, 9> q;
    double scale = 0;
    for (std::size_t a = 0; a < 3; ++a)
      for (std::size_t c = 0; c < 3; ++c) {
        q[3 * a + c] = 0.5 * (g[3 * a + c] + g[3 * c + a]) - p[3 * a + c];
        scale = std::max(scale, std::abs(g[3 * a + c]));
        EXPECT_NEAR(p[3 * a + c], p[3 * c + a], 1e-14 * scale);
      }
    double qNorm = 0;
    for (std::size_t a = 0; a < 3; ++a)
      for (std::size_t c = 0; c < 3; ++c) {
        double pq = 0;
        for (std::size_t k = 0; k < 3; ++k) pq += p[3 * a + k] * q[3 * k + c];
        EXPECT_NEAR(pq, 0, 1e-12 * scale * scale) << frame;
        qNorm += q[3 * a + c] * q[3 * a + c];
      }
    EXPECT_GT(qNorm, 1e-6 * scale * scale) << frame;  // the symmetrized block is indefinite here
    // Semi-definiteness along many directions.
    for (int t = 0; t < 50; ++t) {
      const double u[3] = {std::sin(1.3 * t), std::cos(0.7 * t + 1), std::sin(2.9 * t + 0.4)};
      double up = 0, uq = 0;
      for (std::size_t a = 0; a < 3; ++a)
        for (std::size_t c = 0; c < 3; ++c) {
          up += u[a] * p[3 * a + c] * u[c];
          uq += u[a] * q[3 * a + c] * u[c];
        }
      EXPECT_LE(up, 1e-13 * scale);
      EXPECT_GE(uq, -1e-13 * scale);
    }
  }
}

// A body whose mapped points carry a mass under gravity, constant forces and a bilateral plane
// (no damping): its force is J^T f(x(q)), whose exact derivative is J^T K J plus the exact
// geometric stiffness.
eis::RigidBodyParameters bodyOf(RigidGeometricStiffness mode) {
  const TurnedFrames s = setup();
  eis::RigidBodyParameters p;
  p.frames = s.frames;
  p.mass.mass = 0.5;
  p.gravity = {0.5, -9.81, 1};
  p.mapped.frameOf = s.frameOf;
  p.mapped.local = s.local;
  p.mapped.forces = s.forces;
  p.mapped.mass = 0.3;
  eis::Plane plane;
  plane.normal = {0.6, 0.8, 0};
  plane.d = 1;
  plane.stiffness = 4;
  plane.damping = 0;
  plane.bilateral = true;
  p.mapped.planes = {plane};
  p.mapped.geometric = mode;
  return p;
}

std::vector<double> forceAt(eis::RigidBody& body, const std::vector<double>& frames) {
  Vec x = body.createPositions(), v = body.createVelocities(), f;
  VecDuplicate(v, &f);
  PetscScalar* values;
  VecGetArray(x, &values);
  std::copy(frames.begin(), frames.end(), values);
  VecRestoreArray(x, &values);
  body.computeForce(x, v, f);
  std::vector<double> out(12);
  const PetscScalar* fs;
  VecGetArrayRead(f, &fs);
  std::copy(fs, fs + 12, out.begin());
  VecRestoreArrayRead(f, &fs);
  for (Vec* u : {&x, &v, &f}) VecDestroy(u);
  return out;
}

std::vector<double> denseOf(Mat m) {
  std::vector<double> dense(144);
  PetscInt rows[12];
  for (PetscInt i = 0; i < 12; ++i) rows[i] = i;
  MatGetValues(m, 12, rows, 12, rows, dense.data());
  return dense;
}

TEST(RigidGeometricStiffness, BodyStiffnessIsTheDerivativeOfItsForce) {
  const TurnedFrames s = setup();
  double worst[3] = {0, 0, 0};
  for (const auto mode : {RigidGeometricStiffness::None, RigidGeometricStiffness::Exact,
                          RigidGeometricStiffness::Stabilized}) {
    eis::RigidBody body(PETSC_COMM_SELF, bodyOf(mode));
    forceAt(body, s.frames);
    const std::vector<double> k = denseOf(body.systemMatrix(0, 0, 1));
    PetscBool symmetric = PETSC_FALSE, known = PETSC_FALSE;
    MatIsSymmetricKnown(body.systemMatrix(0, 0, 1), &known, &symmetric);
    EXPECT_EQ(known && symmetric, mode != RigidGeometricStiffness::Exact);
    const double eps = 1e-6;
    for (std::size_t c = 0; c < 12; ++c) {
      const std::vector<double> plus = forceAt(body, moved(s.frames, c, eps));
      const std::vector<double> minus = forceAt(body, moved(s.frames, c, -eps));
      for (std::size_t row = 0; row < 12; ++row)
        worst[int(mode)] = std::max(
            worst[int(mode)], std::abs((plus[row] - minus[row]) / (2 * eps) - k[12 * row + c]));
    }
  }
  EXPECT_LT(worst[int(RigidGeometricStiffness::Exact)], 1e-7);
  // Without it, or stabilized, the matrix misses part of the derivative.
  EXPECT_GT(worst[int(RigidGeometricStiffness::None)], 0.1);
  EXPECT_GT(worst[int(RigidGeometricStiffness::Stabilized)], 0.1);
}

// Two frames carrying the ends of a unit cube under a linear (small) hexahedral FEM with a mass:
// away from the rest frames the cube is strained, and the points' total force, which the exact
// block takes, holds its elastic force and weight.
TEST(RigidGeometricStiffness, WithCellsTheStiffnessIsTheDerivativeOfTheForce) {
  eis::RigidBodyParameters p;
  const std::array<double, 4> q0 = unit({0.1, 0.2, -0.3, 0.9}), q1 = unit({-0.2, 0.1, 0.3, 0.8});
  p.frames = {0, 0, 0, q0[0], q0[1], q0[2], q0[3], 0.1, 0.2, 1, q1[0], q1[1], q1[2], q1[3]};
  p.mass.mass = 0;
  p.gravity = {0.5, -9.81, 1};
  const double corners[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  for (int k = 0; k < 2; ++k)
    for (const auto& c : corners) {
      p.mapped.frameOf.push_back(k);
      p.mapped.local.push_back({c[0] - 0.5, c[1] - 0.5, 0});
    }
  p.mapped.forces.assign(8, {0, 0, 0});
  p.mapped.forces[5] = {3, -1, 2};
  p.mapped.cells.corners = {0, 1, 2, 3, 4, 5, 6, 7};
  p.mapped.cells.youngModulus = 1000;
  p.mapped.cells.poissonRatio = 0.3;
  p.mapped.cells.method = eis::MappedFemMethod::Small;
  p.mapped.cells.density = 2;
  p.mapped.geometric = RigidGeometricStiffness::Exact;
  eis::RigidBody body(PETSC_COMM_SELF, p);
  // Frame 1 turned by 0.2 about (1, 1, 0) and moved: the cube is sheared and twisted.
  std::vector<double> frames = moved(moved(moved(p.frames, 9, 0.2), 10, 0.2), 6, 0.05);
  const std::vector<double> force = forceAt(body, frames);
  const std::vector<double> k = denseOf(body.systemMatrix(0, 0, 1));
  double largest = 0, worst = 0, torque = 0;
  for (double v : k) largest = std::max(largest, std::abs(v));
  for (std::size_t d = 9; d < 12; ++d) torque = std::max(torque, std::abs(force[d]));
  EXPECT_GT(torque, 10.0);  // the strained cube twists the frame back
  const double eps = 1e-6;
  for (std::size_t c = 0; c < 12; ++c) {
    const std::vector<double> plus = forceAt(body, moved(frames, c, eps));
    const std::vector<double> minus = forceAt(body, moved(frames, c, -eps));
    for (std::size_t row = 0; row < 12; ++row)
      worst = std::max(worst, std::abs((plus[row] - minus[row]) / (2 * eps) - k[12 * row + c]));
  }
  EXPECT_LT(worst, 1e-8 * largest) << largest;
}

TEST(RigidGeometricStiffness, AssembledMatrixIsTheMatrixFreeProduct) {
  const TurnedFrames s = setup();
  for (const auto mode : {RigidGeometricStiffness::Exact, RigidGeometricStiffness::Stabilized}) {
    eis::RigidBody body(PETSC_COMM_SELF, bodyOf(mode));
    forceAt(body, s.frames);
    const double m = 1.7, k = -0.03;
    const std::vector<double> a = denseOf(body.systemMatrix(m, 0, k));
    Vec e = body.createVelocities(), out;
    VecDuplicate(e, &out);
    for (PetscInt c = 0; c < 12; ++c) {
      VecZeroEntries(e);
      VecSetValue(e, c, 1.0, INSERT_VALUES);
      VecAssemblyBegin(e);
      VecAssemblyEnd(e);
      VecZeroEntries(out);
      body.addMBKv(out, m, 0, k, e);
      const PetscScalar* column;
      VecGetArrayRead(out, &column);
      for (std::size_t row = 0; row < 12; ++row)
        EXPECT_NEAR(a[12 * row + std::size_t(c)], column[row], 1e-13) << row << " " << c;
      VecRestoreArrayRead(out, &column);
    }
    VecDestroy(&e);
    VecDestroy(&out);
  }
}

}  // namespace
