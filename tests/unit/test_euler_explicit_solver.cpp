// SOFA's EulerExplicitSolver (ode/euler_explicit_solver) on a body of rigid frames: a
// torque-free frame keeps its angular velocity w and turns by exp(h w / 2) each step (q_n =
// exp(n h w / 2) q_0); a constant force and torque on a free frame follow the symplectic
// recurrence by hand (v += h M^-1 f, then x += h v), and the forward one (x += h v, then v +=
// h M^-1 f) when not symplectic; a partly fixed frame keeps its fixed unknowns still.
#include <gtest/gtest.h>
#include <petscksp.h>

#include <cmath>
#include <memory>
#include <vector>

#include "eis/linalg/linear_solver.hpp"
#include "eis/model/rigid_body.hpp"
#include "eis/ode/euler_explicit_solver.hpp"

namespace {

std::vector<double> values(Vec v) {
  PetscInt n;
  const PetscScalar* a;
  VecGetLocalSize(v, &n);
  VecGetArrayRead(v, &a);
  std::vector<double> out(a, a + n);
  VecRestoreArrayRead(v, &a);
  return out;
}

struct FrameState {
  std::vector<double> x, v;
};

// n steps of h of one frame under the explicit step.
FrameState explicitSteps(const eis::RigidBodyParameters& p, bool symplectic, int n, double h) {
  eis::RigidBody body(PETSC_COMM_SELF, p);
  Vec x = body.createPositions(), v = body.createVelocities();
  eis::EulerExplicitSolver solver(
      symplectic, v, std::make_unique<eis::LinearSolver>(PETSC_COMM_SELF, PCJACOBI, nullptr));
  for (int i = 0; i < n; ++i) solver.step(body, x, v, h);
  FrameState run{values(x), values(v)};
  VecDestroy(&x);
  VecDestroy(&v);
  return run;
}

// q_0 = 0.3 rad about (1, 2, 2) / 3; the unit quaternions' Hamilton product a b.
std::vector<double> product(const std::vector<double>& a, const std::vector<double>& b) {
  return {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
          a[3] * b[1] + a[1] * b[3] + a[2] * b[0] - a[0] * b[2],
          a[3] * b[2] + a[2] * b[3] + a[0] * b[1] - a[1] * b[0],
          a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
}

eis::RigidBodyParameters spinningFrame() {
  eis::RigidBodyParameters p;
  const double s = std::sin(0.15) / 3, c = std::cos(0.15);
  p.frames = {0.5, -1, 2, s, 2 * s, 2 * s, c};
  p.velocities = {0.3, -0.2, 0.1, 0.4, -1.2, 0.7};
  p.mass.mass = 2.5;
  p.mass.inertia = {2, 0, 0, 0, 3, 0, 0, 0, 5};
  return p;
}

TEST(EulerExplicitSolver, TorqueFreeFrameTurnsByItsAngularVelocity) {
  const int n = 25;
  const double h = 0.04;
  for (bool symplectic : {true, false}) {
    SCOPED_TRACE(symplectic ? "symplectic" : "forward");
    const eis::RigidBodyParameters p = spinningFrame();
    const FrameState run = explicitSteps(p, symplectic, n, h);
    const std::vector<double> w{p.velocities[3], p.velocities[4], p.velocities[5]};
    const double norm = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    const double half = n * h * norm / 2;
    const std::vector<double> turn{std::sin(half) * w[0] / norm, std::sin(half) * w[1] / norm,
                                   std::sin(half) * w[2] / norm, std::cos(half)};
    const std::vector<double> q =
        product(turn, {p.frames[3], p.frames[4], p.frames[5], p.frames[6]});
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(run.x[3 + i], q[i], 1e-13) << i;
    for (int d = 0; d < 3; ++d) {
      EXPECT_NEAR(run.x[d], p.frames[d] + n * h * p.velocities[d], 1e-13) << d;
      EXPECT_EQ(run.v[d], p.velocities[d]) << d;
      EXPECT_EQ(run.v[3 + d], p.velocities[3 + d]) << d;
    }
  }
}

// A force F and a torque T on a frame that does not turn (w = 0 at the start, turning as T
// drives it): the linear part by hand, v_{k+1} = v_k + h F / m and x by h v_{k+1} (symplectic)
// or h v_k (forward); the angular velocity w_k = w_0 + k h (m I)^-1 T.
TEST(EulerExplicitSolver, ConstantForceFollowsTheRecurrence) {
  const int n = 30;
  const double h = 0.02;
  for (bool symplectic : {true, false}) {
    SCOPED_TRACE(symplectic ? "symplectic" : "forward");
    eis::RigidBodyParameters p = spinningFrame();
    p.velocities = {0.3, -0.2, 0.1, 0, 0, 0};
    p.forces = {1.5, -4, 2.5, 0.6, -0.9, 1.5};
    p.gravity = {0.5, -9.81, 0};
    const FrameState run = explicitSteps(p, symplectic, n, h);
    for (int d = 0; d < 3; ++d) {
      const double a = p.forces[d] / p.mass.mass + p.gravity[d];
      double x = p.frames[d], v = p.velocities[d];
      for (int k = 0; k < n; ++k) {
        if (symplectic) {
          v += h * a;
          x += h * v;
        } else {
          x += h * v;
          v += h * a;
        }
      }
      EXPECT_NEAR(run.x[d], x, 1e-12) << d;
      EXPECT_NEAR(run.v[d], v, 1e-12) << d;
      const double alpha = p.forces[3 + d] / (p.mass.mass * p.mass.inertia[4 * d]);
      EXPECT_NEAR(run.v[3 + d], n * h * alpha, 1e-12) << d;
    }
  }
}

// PartialFixedProjectiveConstraint's fixed directions: the acceleration is projected, so the
// fixed unknowns keep their (projected, zero) start; the others move as a free frame's.
TEST(EulerExplicitSolver, FixedDirectionsStayStill) {
  eis::RigidBodyParameters p = spinningFrame();
  p.gravity = {0, -9.81, 0};
  p.fixed = {{true, true, false, false, false, true}};
  const FrameState held = explicitSteps(p, true, 10, 0.05);
  p.fixed.clear();
  const FrameState free = explicitSteps(p, true, 10, 0.05);
  EXPECT_EQ(held.x[0], p.frames[0]);
  EXPECT_EQ(held.x[1], p.frames[1]);
  EXPECT_EQ(held.v[0], 0.0);
  EXPECT_EQ(held.v[1], 0.0);
  EXPECT_EQ(held.v[5], 0.0);
  EXPECT_EQ(held.x[2], free.x[2]);
  EXPECT_EQ(held.v[3], free.v[3]);
}

}  // namespace
