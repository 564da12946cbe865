// SOFA's EulerExplicitSolver (ode/euler_explicit_solver) on a body of rigid frames: a
// torque-free frame keeps its angular velocity w and turns by exp(h w / 2) each step (q_n =
// exp(n h w / 2) q_0); a constant force and torque on a free frame follow the symplectic
// recurrence by hand (v += h M^-1 f, then x += h v), and the forward one (x += h v, then v +=
// h M^-1 f) when not symplectic; a partly fixed frame keeps its fixed unknowns still; a mass that
// is not diagonal is solved with its fixed rows projected.
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

// A mass that is not diagonal (SOFA's EulerExplicitSolver then solves M a = P f with the node's
// linear solver, M's fixed rows and columns the identity): three unknowns, f = -K x, unknown 2
// fixed. One step against the solve written out: a_free = M_ff^-1 f_f, a_2 = 0.
class ThreeUnknowns : public eis::MechanicalOperations {
public:
  ThreeUnknowns() { MatCreateSeqAIJ(PETSC_COMM_SELF, 3, 3, 3, nullptr, &matrix_); }
  ~ThreeUnknowns() override { MatDestroy(&matrix_); }
  static constexpr double kMass[3][3] = {{4, 1, 0.5}, {1, 3, 0.25}, {0.5, 0.25, 2}};
  static constexpr double kStiffness[3][3] = {{50, -20, 0}, {-20, 40, -10}, {0, -10, 30}};
  void computeForce(Vec x, Vec, Vec f) override {
    const PetscScalar* xs;
    VecGetArrayRead(x, &xs);
    for (int i = 0; i < 3; ++i) {
      double value = 0;
      for (int j = 0; j < 3; ++j) value -= kStiffness[i][j] * xs[j];
      VecSetValue(f, i, value, INSERT_VALUES);
    }
    VecRestoreArrayRead(x, &xs);
    VecAssemblyBegin(f);
    VecAssemblyEnd(f);
  }
  void addMBKv(Vec, double, double, double, Vec) override { ADD_FAILURE() << "not used"; }
  Mat systemMatrix(double mf, double bf, double kf) override {
    EXPECT_EQ(mf, 1.0);
    EXPECT_EQ(bf, 0.0);
    EXPECT_EQ(kf, 0.0);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        MatSetValue(matrix_, i, j, i == 2 || j == 2 ? double(i == j) : kMass[i][j], INSERT_VALUES);
    MatAssemblyBegin(matrix_, MAT_FINAL_ASSEMBLY);
    MatAssemblyEnd(matrix_, MAT_FINAL_ASSEMBLY);
    return matrix_;
  }
  void projectResponse(Vec v) override { VecSetValue(v, 2, 0.0, INSERT_VALUES); }

private:
  Mat matrix_ = nullptr;
};

TEST(EulerExplicitSolver, SolvesANonDiagonalMassWithTheFixedRowsProjected) {
  ThreeUnknowns system;
  Vec x, v;
  VecCreateSeq(PETSC_COMM_SELF, 3, &x);
  VecDuplicate(x, &v);
  const double x0[3] = {0.1, -0.2, 0.3}, v0[3] = {1, 2, 0}, h = 0.01;
  for (int i = 0; i < 3; ++i) {
    VecSetValue(x, i, x0[i], INSERT_VALUES);
    VecSetValue(v, i, v0[i], INSERT_VALUES);
  }
  eis::LinearSolverOptions options;
  options.direct = true;
  eis::EulerExplicitSolver solver(
      true, v, std::make_unique<eis::LinearSolver>(PETSC_COMM_SELF, PCNONE, nullptr, options));
  solver.step(system, x, v, h);
  // f_free = -K x on unknowns 0 and 1; M_ff a = f_free by Cramer's rule.
  double f[2];
  for (int i = 0; i < 2; ++i) {
    f[i] = 0;
    for (int j = 0; j < 3; ++j) f[i] -= ThreeUnknowns::kStiffness[i][j] * x0[j];
  }
  const auto& M = ThreeUnknowns::kMass;
  const double det = M[0][0] * M[1][1] - M[0][1] * M[1][0];
  const double a[3] = {(f[0] * M[1][1] - M[0][1] * f[1]) / det,
                       (M[0][0] * f[1] - M[1][0] * f[0]) / det, 0};
  const PetscScalar *xs, *vs;
  VecGetArrayRead(x, &xs);
  VecGetArrayRead(v, &vs);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(vs[i], v0[i] + h * a[i], 1e-14) << i;
    EXPECT_NEAR(xs[i], x0[i] + h * (v0[i] + h * a[i]), 1e-14) << i;
  }
  VecRestoreArrayRead(x, &xs);
  VecRestoreArrayRead(v, &vs);
  VecDestroy(&x);
  VecDestroy(&v);
}

}  // namespace
