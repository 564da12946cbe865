// Rigid frames (model/rigid_body) stepped by the library's EulerImplicitSolver on 1, 2 and 3
// ranks: a free fall follows the implicit-Euler recurrence in closed form, a frame spinning
// about a principal axis keeps its angular velocity and turns by exactly h w each step with a
// unit quaternion, momentum is conserved without gravity, Rayleigh mass damping divides the
// velocity by 1 + h rM, fixed and partially fixed unknowns stay put, and every rank, each
// stepping the whole body on PETSC_COMM_SELF as a run does, finds rank 0's answer bit for bit;
// a body, and a group of two that a spring joins, on all ranks (rank 0 holding every unknown)
// step as on one.
#include <gtest/gtest.h>
#include <mpi.h>
#include <petscksp.h>

#include <array>
#include <cmath>
#include <cstring>
#include <vector>

#include "eis/core/error.hpp"
#include "eis/linalg/linear_solver.hpp"
#include "eis/model/rigid_body.hpp"
#include "eis/model/rigid_group.hpp"
#include "eis/ode/euler_implicit_solver.hpp"

namespace {

struct State {
  std::vector<double> x, v;  // every frame, on every rank
};

// The body's state after `steps` steps of h on `comm` (PETSC_COMM_SELF, as a run steps it, or a
// communicator of several ranks, where rank 0 holds every unknown and broadcasts the state).
State run(const eis::RigidBodyParameters& parameters, int steps, double h,
          const eis::EulerImplicitOptions& options = {}, MPI_Comm comm = PETSC_COMM_SELF) {
  eis::RigidBody body(comm, parameters);
  Vec x = body.createPositions(), v = body.createVelocities();
  {
    eis::EulerImplicitSolver solver(options, v,
                                    std::make_unique<eis::LinearSolver>(comm, PCJACOBI, nullptr));
    for (int step = 0; step < steps; ++step) solver.step(body, x, v, h);
  }
  State state;
  state.x.resize(std::size_t(body.frames()) * eis::kRigidCoordSize);
  state.v.resize(std::size_t(body.frames()) * eis::kRigidDerivSize);
  const PetscScalar *xs, *vs;
  VecGetArrayRead(x, &xs);
  VecGetArrayRead(v, &vs);
  PetscInt local;
  VecGetLocalSize(v, &local);
  if (local > 0) {
    std::memcpy(state.x.data(), xs, state.x.size() * sizeof(double));
    std::memcpy(state.v.data(), vs, state.v.size() * sizeof(double));
  }
  VecRestoreArrayRead(x, &xs);
  VecRestoreArrayRead(v, &vs);
  MPI_Bcast(state.x.data(), int(state.x.size()), MPI_DOUBLE, 0, comm);
  MPI_Bcast(state.v.data(), int(state.v.size()), MPI_DOUBLE, 0, comm);
  VecDestroy(&x);
  VecDestroy(&v);
  return state;
}

eis::RigidMass inertiaMass(double mass, std::array<double, 9> inertia) {
  eis::RigidMass m;
  m.mass = mass;
  m.inertia = inertia;
  return m;
}

using Quaternion = std::array<double, 4>;

Quaternion product(const Quaternion& a, const Quaternion& b) {
  return {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
          a[3] * b[1] + a[1] * b[3] + a[2] * b[0] - a[0] * b[2],
          a[3] * b[2] + a[2] * b[3] + a[0] * b[1] - a[1] * b[0],
          a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
}

// v_n = v_0 + n h g and x_n = x_0 + h (v_1 + ... + v_n) = x_0 + n h v_0 + h^2 g n (n + 1) / 2: the
// position moves with the new velocity (explicit Euler would give n (n - 1) / 2).
TEST(RigidBody, FreeFallFollowsTheImplicitEulerRecurrence) {
  eis::RigidBodyParameters p;
  p.frames = {1, 2, 3, 0, 0, 0, 1, -1, 0.5, 0, 0.6, 0, 0, 0.8};
  p.velocities = {1, 0, -2, 0, 0, 0, 0, 3, 0, 0, 0, 0};
  p.mass = inertiaMass(2.5, {1, 0, 0, 0, 2, 0, 0, 0, 3});
  p.gravity = {0, -9.81, 0.5};
  const double h = 0.01;
  const int n = 50;
  const State s = run(p, n, h);
  for (int frame = 0; frame < 2; ++frame)
    for (int d = 0; d < 3; ++d) {
      const double v0 = p.velocities[6 * frame + d], g = p.gravity[d];
      const double x0 = p.frames[7 * frame + d];
      EXPECT_NEAR(s.v[6 * frame + d], v0 + n * h * g, 1e-12) << frame << " " << d;
      EXPECT_NEAR(s.x[7 * frame + d], x0 + n * h * v0 + h * h * g * n * (n + 1) / 2, 1e-12)
          << frame << " " << d;
      EXPECT_EQ(s.v[6 * frame + 3 + d], 0.0);
    }
  // No angular velocity: the orientations are untouched.
  for (int i = 3; i < 7; ++i) {
    EXPECT_EQ(s.x[i], p.frames[i]);
    EXPECT_EQ(s.x[7 + i], p.frames[7 + i]);
  }
}

// Torque free, about a principal axis of the inertia: w stays, and each step turns the frame by
// exp(h w / 2), so after n steps q_n = (sin(n h |w| / 2) axis, cos(n h |w| / 2)) * q_0.
TEST(RigidBody, SpinAboutAPrincipalAxisKeepsItsAngularVelocity) {
  const double s0 = std::sin(0.15), c0 = std::cos(0.15);  // q_0: 0.3 rad about x
  eis::RigidBodyParameters p;
  p.frames = {0, 0, 0, s0, 0, 0, c0};
  p.velocities = {0, 0, 0, 0, 0, 3};
  p.mass = inertiaMass(2, {1, 0, 0, 0, 2, 0, 0, 0, 3});
  const double h = 0.01;
  const int n = 400;
  const State s = run(p, n, h);
  for (int d = 0; d < 6; ++d) EXPECT_EQ(s.v[d], p.velocities[d]);
  const double angle = n * h * 3 / 2;
  const Quaternion expected = product({0, 0, std::sin(angle), std::cos(angle)}, {s0, 0, 0, c0});
  double norm = 0;
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(s.x[3 + i], expected[i], 1e-12) << i;
    norm += s.x[3 + i] * s.x[3 + i];
  }
  EXPECT_NEAR(std::sqrt(norm), 1.0, 1e-14);
  for (int d = 0; d < 3; ++d) EXPECT_EQ(s.x[d], 0.0);
}

// Without gravity nothing acts: the linear momentum sum m v and the angular momentum
// sum (c x m v + m I w) (UniformMass::getMomentum's) of several frames stay.
TEST(RigidBody, MomentumIsConservedWithoutGravity) {
  eis::RigidBodyParameters p;
  p.frames = {0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0, 2, -1, 0.6, 0, 0, 0.8};
  p.velocities = {1, 2, 3, 0.5, -0.2, 0.1, -1, 0, 1, 0, 2, 0, 0.3, 0.3, -2, -1, 0, 4};
  p.mass = inertiaMass(1.5, {2, 0.5, 0, 0.5, 3, 0.25, 0, 0.25, 4});
  const auto momentum = [&](const State& s) {
    std::array<double, 6> total{};
    const double m = p.mass.mass;
    for (int f = 0; f < 3; ++f) {
      const double* c = &s.x[7 * f];
      const double* v = &s.v[6 * f];
      for (int d = 0; d < 3; ++d) total[d] += m * v[d];
      total[3] += m * (c[1] * v[2] - c[2] * v[1]);
      total[4] += m * (c[2] * v[0] - c[0] * v[2]);
      total[5] += m * (c[0] * v[1] - c[1] * v[0]);
      for (int r = 0; r < 3; ++r)
        for (int k = 0; k < 3; ++k) total[3 + r] += m * p.mass.inertia[3 * r + k] * v[3 + k];
    }
    return total;
  };
  const State start{p.frames, p.velocities};
  const State end = run(p, 100, 0.02);
  const auto before = momentum(start), after = momentum(end);
  for (int d = 0; d < 6; ++d) EXPECT_NEAR(after[d], before[d], 1e-12) << d;
  for (int f = 0; f < 3; ++f) {
    double norm = 0;
    for (int i = 3; i < 7; ++i) norm += end.x[7 * f + i] * end.x[7 * f + i];
    EXPECT_NEAR(norm, 1.0, 1e-13) << f;  // a rounding a step, never renormalised
  }
}

// Rayleigh mass damping: ((1 + h rM) M) dv = -h rM M v, so v_{n+1} = v_n / (1 + h rM) on every
// unknown, whatever the inertia matrix (a full one here: the solve couples the angular ones).
TEST(RigidBody, RayleighMassDampingDividesTheVelocity) {
  eis::RigidBodyParameters p;
  p.frames = {0, 0, 0, 0, 0, 0, 1};
  p.velocities = {1, -2, 0.5, 0.3, -0.7, 1.1};
  p.mass = inertiaMass(3, {2, 0.5, 0, 0.5, 3, 0.25, 0, 0.25, 4});
  eis::EulerImplicitOptions options;
  options.rayleighMass = 0.8;
  const double h = 0.05;
  const int n = 20;
  const State s = run(p, n, h, options);
  const double factor = std::pow(1 + h * options.rayleighMass, -n);
  for (int d = 0; d < 6; ++d) EXPECT_NEAR(s.v[d], p.velocities[d] * factor, 1e-9) << d;
}

// A fixed frame keeps its position and orientation to the bit; a partially fixed one (its y
// translation and x rotation, PartialFixedProjectiveConstraint's fixedDirections 0 1 0 1 0 0)
// keeps those still, even against gravity along y and a given x spin, and moves in the others.
TEST(RigidBody, FixedFramesStayPut) {
  eis::RigidBodyParameters p;
  p.frames = {1, 2, 3, 0, 0.6, 0, 0.8, 0, 0, 0, 0, 0, 0, 1};
  p.velocities = {1, 1, 1, 1, 1, 1, 1, 1, 0, 2, 0, 3};
  p.mass = inertiaMass(1, {1, 0, 0, 0, 1, 0, 0, 0, 1});
  p.gravity = {0, -9.81, 0};
  p.fixed = {{true, true, true, true, true, true}, {false, true, false, true, false, false}};
  const State s = run(p, 30, 0.01);
  for (int i = 0; i < 7; ++i) EXPECT_EQ(s.x[i], p.frames[i]) << i;
  for (int d = 0; d < 6; ++d) EXPECT_EQ(s.v[d], 0.0) << d;
  EXPECT_EQ(s.x[7 + 1], 0.0);
  EXPECT_EQ(s.v[6 + 1], 0.0);
  EXPECT_EQ(s.v[6 + 3], 0.0);
  EXPECT_NEAR(s.x[7 + 0], 30 * 0.01, 1e-13);
  EXPECT_EQ(s.v[6 + 5], 3.0);
  // Turned about z alone: (0, 0, sin(30 h 3 / 2), cos(30 h 3 / 2)).
  EXPECT_NEAR(s.x[7 + 5], std::sin(30 * 0.01 * 3 / 2), 1e-13);
  EXPECT_EQ(s.x[7 + 3], 0.0);
}

// Two turned, moving frames under gravity, the second held in x and in its turn about z.
eis::RigidBodyParameters twoTurnedFrames() {
  eis::RigidBodyParameters p;
  p.frames = {1, 2, 3, 0, 0.6, 0, 0.8, -1, 0.5, 0, 0, 0, 0, 1};
  p.velocities = {1, 2, 3, 0.5, -0.2, 0.1, -1, 0, 1, 0, 2, 0.7};
  p.mass = inertiaMass(1.5, {2, 0.5, 0, 0.5, 3, 0.25, 0, 0.25, 4});
  p.gravity = {0, 0, -9.81};
  p.fixed = {{false, false, false, false, false, false}, {true, false, false, false, false, true}};
  return p;
}

// Every rank steps the whole body: each finds rank 0's answer, bit for bit.
TEST(RigidBody, EveryRankFindsTheSameAnswer) {
  const eis::RigidBodyParameters p = twoTurnedFrames();
  eis::EulerImplicitOptions options;
  options.rayleighMass = 0.3;
  const State mine = run(p, 25, 0.02, options);
  State first = mine;
  MPI_Bcast(first.x.data(), int(first.x.size()), MPI_DOUBLE, 0, PETSC_COMM_WORLD);
  MPI_Bcast(first.v.data(), int(first.v.size()), MPI_DOUBLE, 0, PETSC_COMM_WORLD);
  int same = mine.x == first.x && mine.v == first.v, all = 0;
  MPI_Allreduce(&same, &all, 1, MPI_INT, MPI_MIN, PETSC_COMM_WORLD);
  EXPECT_EQ(all, 1);
}

// On a communicator of several ranks rank 0 holds every unknown and the others none: the step
// (its solves' collective calls matched on every rank) gives the same answer as on one rank.
// It hung there once: the MPI launches' timeout fails it if it hangs again.
TEST(RigidBody, RankZeroHoldingEveryUnknownGivesTheOneRankAnswer) {
  const eis::RigidBodyParameters p = twoTurnedFrames();
  eis::EulerImplicitOptions options;
  options.rayleighMass = 0.3;
  const State alone = run(p, 5, 0.02, options);
  const State shared = run(p, 5, 0.02, options, PETSC_COMM_WORLD);
  for (std::size_t i = 0; i < alone.x.size(); ++i) EXPECT_NEAR(shared.x[i], alone.x[i], 1e-12) << i;
  for (std::size_t i = 0; i < alone.v.size(); ++i) EXPECT_NEAR(shared.v[i], alone.v[i], 1e-12) << i;
}

// A group of two bodies that a spring between their centres joins, on `comm`: the state after
// `steps` steps, broadcast from rank 0 (which holds every unknown).
State runGroup(MPI_Comm comm, int steps) {
  std::vector<std::unique_ptr<eis::RigidBody>> members;
  for (int body = 0; body < 2; ++body) {
    eis::RigidBodyParameters p;
    p.frames = body == 0 ? std::vector<double>{0, 0, 0, 0, 0.6, 0, 0.8}
                         : std::vector<double>{1.2, 0.3, 0, 0, 0, 0, 1};
    p.velocities = body == 0 ? std::vector<double>{0, 1, 0, 0.5, 0, 0.2}
                             : std::vector<double>{-1, 0, 0.5, 0, 0, 1};
    p.mass = inertiaMass(1 + body, {2, 0.5, 0, 0.5, 3, 0.25, 0, 0.25, 4});
    p.gravity = {0, -9.81, 0};
    if (body == 0) p.fixed = {{true, true, true, false, false, false}};
    members.push_back(std::make_unique<eis::RigidBody>(comm, p));
  }
  eis::RigidFrameSpring spring;
  spring.frame1 = 0;
  spring.frame2 = 1;
  spring.law.ks = 40;
  spring.law.kd = 0.5;
  spring.law.length = 1;
  eis::RigidGroup group(std::move(members), {spring});
  Vec x = group.createPositions(), v = group.createVelocities();
  {
    eis::EulerImplicitSolver solver({}, v,
                                    std::make_unique<eis::LinearSolver>(comm, PCJACOBI, nullptr));
    for (int step = 0; step < steps; ++step) solver.step(group, x, v, 0.01);
  }
  State state;
  state.x.assign(14, 0.0);
  state.v.assign(12, 0.0);
  PetscInt local;
  VecGetLocalSize(v, &local);
  const PetscScalar *xs, *vs;
  VecGetArrayRead(x, &xs);
  VecGetArrayRead(v, &vs);
  if (local > 0) {
    std::memcpy(state.x.data(), xs, state.x.size() * sizeof(double));
    std::memcpy(state.v.data(), vs, state.v.size() * sizeof(double));
  }
  VecRestoreArrayRead(x, &xs);
  VecRestoreArrayRead(v, &vs);
  MPI_Bcast(state.x.data(), 14, MPI_DOUBLE, 0, comm);
  MPI_Bcast(state.v.data(), 12, MPI_DOUBLE, 0, comm);
  VecDestroy(&x);
  VecDestroy(&v);
  return state;
}

// A RigidGroup on several ranks (rank 0 holding every unknown) steps as on one.
TEST(RigidBody, GroupOnSeveralRanksGivesTheOneRankAnswer) {
  const State alone = runGroup(PETSC_COMM_SELF, 5), shared = runGroup(PETSC_COMM_WORLD, 5);
  for (std::size_t i = 0; i < alone.x.size(); ++i) EXPECT_NEAR(shared.x[i], alone.x[i], 1e-12) << i;
  for (std::size_t i = 0; i < alone.v.size(); ++i) EXPECT_NEAR(shared.v[i], alone.v[i], 1e-12) << i;
  EXPECT_NE(alone.x[7], 1.2);
}

TEST(RigidBody, BadFramesAndMassesAreRefused) {
  eis::RigidBodyParameters p;
  p.frames = {0, 0, 0, 0, 0, 0};
  EXPECT_THROW(eis::RigidBody(PETSC_COMM_SELF, p), eis::Error);
  p.frames = {0, 0, 0, 0, 0, 0, 1};
  p.velocities = {1, 2, 3};
  EXPECT_THROW(eis::RigidBody(PETSC_COMM_SELF, p), eis::Error);
  p.velocities.clear();
  p.mass = inertiaMass(1, {1, 0, 0, 0, -1, 0, 0, 0, 1});
  EXPECT_THROW(eis::RigidBody(PETSC_COMM_SELF, p), eis::Error);
  p.mass = inertiaMass(0, {1, 0, 0, 0, 1, 0, 0, 0, 1});
  EXPECT_THROW(eis::RigidBody(PETSC_COMM_SELF, p), eis::Error);
}

}  // namespace
