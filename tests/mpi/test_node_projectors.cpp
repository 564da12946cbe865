// Nodes held on a plane, a line or a point (model/node_projectors.cpp, the projector blocks of
// model/fixed_constraint.cpp and linalg/system_matrix.cpp) on 1, 2 and 3 ranks: the projected
// system's solution, assembled and matrix-free, is the solution of the reduced system Q^T A Q
// solved densely here (Q an orthonormal basis of each node's allowed motion, written by hand);
// nodes falling freely in a tilted plane follow the one-dimensional motion worked out by hand
// and stay on the plane exactly; a nonlinear run agrees on any rank count and with either
// operator, its nodes on their plane, line and point.
#include <gtest/gtest.h>
#include <petscksp.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "eis/core/error.hpp"
#include "mpi_support.hpp"

namespace {

using V3 = std::array<double, 3>;

V3 unit(V3 a) {
  const double n = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  return {a[0] / n, a[1] / n, a[2] / n};
}
double dot(const V3& a, const V3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

// A 2 x 1 x 1 bar held at x = 0: its x = 2 face on a tilted plane, its x = 1 slice on a line,
// its x = 1.5 slice at a point.
const V3 kPlaneOrigin{2, 0, 0}, kPlaneNormal{1, 0.5, 0.2};
const V3 kLineOrigin{1, 0.5, 0.5}, kLineDirection{1, 0.3, -0.2};
const V3 kPoint{1.5, 0.5, 0.5};

eis_test::SceneFields projectedBar(bool projectors, eis::OperatorMode op) {
  eis_test::SceneFields s = eis_test::cantilever({2, 1, 1}, {4, 2, 2}, 2e3);
  s.op = op;
  s.preconditioner = eis::Preconditioner::Jacobi;
  if (projectors)
    s.extra = {{"constraint.plane", "2 0 0 1 0.5 0.2 box 1.99 -1 -1 2.01 2 2"},
               {"constraint.line", "1 0.5 0.5 1 0.3 -0.2 box 0.99 -1 -1 1.01 2 2"},
               {"constraint.point", "1.5 0.5 0.5 box 1.49 -1 -1 1.51 2 2"}};
  return s;
}

// Every rank: the rest x coordinate of each global unknown's node.
std::vector<double> restXOfUnknowns(const eis_test::BoxModel& model, PetscInt size) {
  std::vector<double> x(std::size_t(size), 0.0);
  Vec probe = model.system->createVector();
  PetscInt start;
  VecGetOwnershipRange(probe, &start, nullptr);
  VecDestroy(&probe);
  const auto& mesh = *model.mesh;
  for (PetscInt v = 0; v < PetscInt(mesh.numLocalVertices()); ++v)
    if (mesh.owned()[v])
      for (int d = 0; d < 3; ++d) x[start + mesh.ownedOffset(v) + d] = mesh.restCoords()[v][0];
  MPI_Allreduce(MPI_IN_PLACE, x.data(), int(size), MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD);
  return x;
}

// Every rank: the whole of an assembled matrix, dense, row-major.
std::vector<double> dense(Mat A, PetscInt size) {
  std::vector<double> a(std::size_t(size * size), 0.0);
  PetscInt start, end;
  MatGetOwnershipRange(A, &start, &end);
  for (PetscInt row = start; row < end; ++row) {
    PetscInt n;
    const PetscInt* columns;
    const PetscScalar* values;
    MatGetRow(A, row, &n, &columns, &values);
    for (PetscInt k = 0; k < n; ++k) a[row * size + columns[k]] = values[k];
    MatRestoreRow(A, row, &n, &columns, &values);
  }
  MPI_Allreduce(MPI_IN_PLACE, a.data(), int(a.size()), MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD);
  return a;
}

std::vector<double> gathered(Vec v, PetscInt size) {
  std::vector<double> all(std::size_t(size), 0.0);
  PetscInt start, end;
  VecGetOwnershipRange(v, &start, &end);
  const PetscScalar* values;
  VecGetArrayRead(v, &values);
  for (PetscInt i = start; i < end; ++i) all[i] = values[i - start];
  VecRestoreArrayRead(v, &values);
  MPI_Allreduce(MPI_IN_PLACE, all.data(), int(size), MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD);
  return all;
}

// Gaussian elimination with partial pivoting: a y = b, a n x n.
std::vector<double> solveDense(std::vector<double> a, std::vector<double> b) {
  const std::size_t n = b.size();
  for (std::size_t c = 0; c < n; ++c) {
    std::size_t pivot = c;
    for (std::size_t r = c + 1; r < n; ++r)
      if (std::abs(a[r * n + c]) > std::abs(a[pivot * n + c])) pivot = r;
    for (std::size_t k = 0; k < n; ++k) std::swap(a[c * n + k], a[pivot * n + k]);
    std::swap(b[c], b[pivot]);
    for (std::size_t r = c + 1; r < n; ++r) {
      const double f = a[r * n + c] / a[c * n + c];
      for (std::size_t k = c; k < n; ++k) a[r * n + k] -= f * a[c * n + k];
      b[r] -= f * b[c];
    }
  }
  std::vector<double> y(n);
  for (std::size_t r = n; r-- > 0;) {
    double sum = b[r];
    for (std::size_t k = r + 1; k < n; ++k) sum -= a[r * n + k] * y[k];
    y[r] = sum / a[r * n + r];
  }
  return y;
}

// The columns of Q at one node (3 unknowns from `first`): free, a plane's two tangents, a
// line's direction, none for a point or a fixed node.
std::vector<V3> allowedDirections(double restX) {
  if (restX < 1e-9 || std::abs(restX - 1.5) < 1e-9) return {};
  if (std::abs(restX - 1) < 1e-9) return {unit(kLineDirection)};
  if (std::abs(restX - 2) < 1e-9) {
    const V3 n = unit(kPlaneNormal);
    const V3 t1 = unit({n[1], -n[0], 0});
    const V3 t2{n[1] * t1[2] - n[2] * t1[1], n[2] * t1[0] - n[0] * t1[2],
                n[0] * t1[1] - n[1] * t1[0]};
    return {t1, t2};
  }
  return {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
}

class NodeProjectors : public eis_test::TightSolvesTest {};

// P (M - k K) P w = P b, assembled (P A P + d (I - P)) and matrix-free, against w = Q y with
// (Q^T A Q) y = Q^T b, A the same matrix without the projectors.
TEST_F(NodeProjectors, ProjectedSolveIsTheReducedSystemsSolution) {
  const double k = -1e-2;
  eis_test::BoxModel free(projectedBar(false, eis::OperatorMode::Assembled));
  const Mat A0 = free.system->systemMatrix(1.0, 0.0, k);
  PetscInt size;
  MatGetSize(A0, &size, nullptr);
  const std::vector<double> a = dense(A0, size);
  const std::vector<double> restX = restXOfUnknowns(free, size);
  Vec b0 = free.field(1.0, 0.5, 0.25);
  const std::vector<double> b = gathered(b0, size);
  VecDestroy(&b0);

  std::vector<std::vector<double>> q;  // columns of Q, each of `size` entries
  for (PetscInt first = 0; first < size; first += 3)
    for (const V3& t : allowedDirections(restX[first])) {
      std::vector<double> column(std::size_t(size), 0.0);
      for (int d = 0; d < 3; ++d) column[first + d] = t[d];
      q.push_back(std::move(column));
    }
  const std::size_t m = q.size();
  std::vector<double> reduced(m * m, 0.0), rhs(m, 0.0);
  for (std::size_t i = 0; i < m; ++i) {
    std::vector<double> aqi(std::size_t(size), 0.0);
    for (PetscInt r = 0; r < size; ++r)
      for (PetscInt c = 0; c < size; ++c) aqi[r] += a[r * size + c] * q[i][c];
    for (std::size_t j = 0; j < m; ++j)
      for (PetscInt r = 0; r < size; ++r) reduced[j * m + i] += q[j][r] * aqi[r];
    for (PetscInt r = 0; r < size; ++r) rhs[i] += q[i][r] * b[r];
  }
  const std::vector<double> y = solveDense(reduced, rhs);
  std::vector<double> expected(std::size_t(size), 0.0);
  double largest = 0;
  for (std::size_t i = 0; i < m; ++i)
    for (PetscInt r = 0; r < size; ++r) expected[r] += y[i] * q[i][r];
  for (double e : expected) largest = std::max(largest, std::abs(e));
  ASSERT_GT(largest, 1e-3);

  for (eis::OperatorMode op : {eis::OperatorMode::Assembled, eis::OperatorMode::MatrixFree}) {
    SCOPED_TRACE(op == eis::OperatorMode::Assembled ? "assembled" : "matrix-free");
    eis_test::BoxModel model(projectedBar(true, op));
    Vec rhsVec = model.field(1.0, 0.5, 0.25), w;
    VecDuplicate(rhsVec, &w);
    model.system->projectResponse(rhsVec);
    KSP ksp;
    KSPCreate(PETSC_COMM_WORLD, &ksp);
    const Mat A = model.system->systemMatrix(1.0, 0.0, k);
    KSPSetOperators(ksp, A, A);
    KSPSetType(ksp, KSPCG);
    PC pc;
    KSPGetPC(ksp, &pc);
    PCSetType(pc, PCJACOBI);
    KSPSetTolerances(ksp, 1e-14, 1e-30, PETSC_DEFAULT, 10000);
    KSPSolve(ksp, rhsVec, w);
    KSPConvergedReason reason;
    KSPGetConvergedReason(ksp, &reason);
    EXPECT_GT(reason, 0);
    const std::vector<double> solution = gathered(w, size);
    double gap = 0;
    for (PetscInt r = 0; r < size; ++r) gap = std::max(gap, std::abs(solution[r] - expected[r]));
    EXPECT_LT(gap, 1e-10 * largest);
    KSPDestroy(&ksp);
    VecDestroy(&rhsVec);
    VecDestroy(&w);
  }
}

// No elastic force: every node, under one plane through o of normal n, is put on it at the start
// and then falls along P g alone: v_{n+1} = (v_n + h P g) / (1 + h rM), x_{n+1} = x_n + h v_{n+1}.
TEST_F(NodeProjectors, NodesFallInTheirPlaneAsWorkedOutByHand) {
  const double h = 0.01, rM = 0.3;
  const V3 o{0.2, 0.1, -0.3}, n = unit({0, 1, 1}), g{0.5, -9.81, 0};
  for (eis::OperatorMode op : {eis::OperatorMode::Assembled, eis::OperatorMode::MatrixFree}) {
    for (int steps : {1, 4, 7}) {
      eis_test::SceneFields s = eis_test::cantilever({1, 1, 1}, {2, 2, 2}, 1);
      s.fixedBoxes.clear();
      s.material = eis::MaterialModel::None;
      s.gravity = g;
      s.dt = h;
      s.steps = steps;
      s.rayleighMass = rM;
      s.op = op;
      s.preconditioner = eis::Preconditioner::Jacobi;
      s.extra = {{"constraint.plane", "0.2 0.1 -0.3 0 3 3 all"}};
      const V3 pg{g[0] - n[0] * dot(g, n), g[1] - n[1] * dot(g, n), g[2] - n[2] * dot(g, n)};
      double speed = 0, travel = 0;  // along pg, as multiples of |pg| = 1 units of pg
      for (int k = 0; k < steps; ++k) {
        speed = (speed + h) / (1 + h * rM);
        travel += h * speed;
      }
      const eis::NodalTable state = eis_test::run(s);
      if (!eis_test::root()) continue;
      ASSERT_EQ(state.ids.size(), 27u);
      for (std::size_t i = 0; i < state.ids.size(); ++i) {
        V3 p = eis_test::boxRestPosition(s.boxSize, s.boxCells, state.ids[i]);
        const V3 rel{p[0] - o[0], p[1] - o[1], p[2] - o[2]};
        const double off = dot(rel, n);
        for (int d = 0; d < 3; ++d) p[d] -= n[d] * off;
        const double* row = &state.values[i * state.width];
        const V3 x{row[0], row[1], row[2]};
        for (int d = 0; d < 3; ++d) {
          EXPECT_NEAR(x[d], p[d] + travel * pg[d], 1e-12) << state.ids[i];
          EXPECT_NEAR(row[3 + d], speed * pg[d], 1e-11) << state.ids[i];
        }
        EXPECT_LT(std::abs(dot({x[0] - o[0], x[1] - o[1], x[2] - o[2]}, n)), 1e-14);
      }
    }
  }
}

// A corotational bar under gravity for a few steps: the same on 1 rank as on all, assembled or
// matrix-free; its plane nodes on the plane, line nodes on the line, point nodes at the point.
TEST_F(NodeProjectors, NonlinearRunAgreesOnAnyRankCountAndOperator) {
  eis_test::SceneFields s = projectedBar(true, eis::OperatorMode::Assembled);
  s.boxCells = {8, 2, 2};
  s.material = eis::MaterialModel::Corotational;
  // One node on the line and one at the point: a whole slice put on a line or a point would
  // flatten its cells, where the corotational frame is not defined.
  s.extra[1].second = "1 0.5 0.5 1 0.3 -0.2 sphere 1 0.5 0.5 0.01";
  s.extra[2].second = "1.5 0.5 0.5 sphere 1.5 0.5 0.5 0.01";
  s.steps = 5;
  s.dt = 0.02;
  const eis::NodalTable serial = eis_test::serialReference(s);
  const eis::NodalTable all = eis_test::run(s);
  eis_test::SceneFields shell = s;
  shell.op = eis::OperatorMode::MatrixFree;
  const eis::NodalTable free = eis_test::run(shell);
  EXPECT_LT(eis_test::disagreement(serial, all, s), 1e-9);
  EXPECT_LT(eis_test::disagreement(all, free, s), 1e-9);
  if (!eis_test::root()) return;
  const V3 n = unit(kPlaneNormal), d = unit(kLineDirection);
  int plane = 0, line = 0, point = 0;
  for (std::size_t i = 0; i < all.ids.size(); ++i) {
    const double restX = eis_test::boxRestPosition(s.boxSize, s.boxCells, all.ids[i])[0];
    const double* row = &all.values[i * all.width];
    if (std::abs(restX - 2) < 1e-9) {
      ++plane;
      const V3 rel{row[0] - kPlaneOrigin[0], row[1] - kPlaneOrigin[1], row[2] - kPlaneOrigin[2]};
      EXPECT_LT(std::abs(dot(rel, n)), 1e-14);
      EXPECT_LT(std::abs(dot({row[3], row[4], row[5]}, n)), 1e-12);
    } else if (all.ids[i] == 40) {
      ++line;
      const V3 rel{row[0] - kLineOrigin[0], row[1] - kLineOrigin[1], row[2] - kLineOrigin[2]};
      const double along = dot(rel, d);
      for (int k = 0; k < 3; ++k) EXPECT_NEAR(rel[k], along * d[k], 1e-14);
    } else if (all.ids[i] == 42) {
      ++point;
      for (int k = 0; k < 3; ++k) {
        EXPECT_EQ(row[k], kPoint[k]);
        EXPECT_EQ(row[3 + k], 0.0);
      }
    }
  }
  EXPECT_EQ(plane, 9);
  EXPECT_EQ(line, 1);
  EXPECT_EQ(point, 1);
}

// SOFA's clock: t_n = h + h + .. (n terms), the time projections of step n + 1 are made at.
double clock(int n, double h) {
  double t = 0;
  for (int k = 0; k < n; ++k) t += h;
  return t;
}

// A held node's row (position, velocity) at time t under SOFA's movement from its rest
// coordinate x0 over (t0, t1] to xf: x0 before t0, xf after t1, linear between (to 1e-15), and at
// rest (a projected velocity of exactly 0).
void expectMovedAt(const double* row, int d, double x0, double xf, double t, double t0, double t1) {
  double expected = x0;
  if (t > t0 && t <= t1)
    expected = ((xf - x0) * t + (x0 * t1 - xf * t0)) / (t1 - t0);
  else if (t > t1)
    expected = xf;
  EXPECT_NEAR(row[d], expected, 1e-15);
  EXPECT_EQ(row[3 + d], 0.0);
}

// An oscillator on the bar's free end: after step n its nodes are at m + a sin(w t + phase),
// velocity a w cos(w t + phase), t = t_{n-1} the step's start time; the same on any rank count.
TEST_F(NodeProjectors, OscillatorFollowsItsClosedForm) {
  const double h = 0.02, w = 5, phase = 10;
  const V3 m{2, 0, 0}, a{1, 0.5, -0.25};
  for (int steps : {1, 2, 5}) {
    SCOPED_TRACE(steps);
    eis_test::SceneFields s = projectedBar(false, eis::OperatorMode::Assembled);
    s.dt = h;
    s.steps = steps;
    s.extra = {{"constraint.oscillator", "2 0 0 1 0.5 -0.25 5 10 box 1.99 -1 -1 2.01 2 2"}};
    const eis::NodalTable serial = eis_test::serialReference(s);
    const eis::NodalTable all = eis_test::run(s);
    EXPECT_LT(eis_test::disagreement(serial, all, s), 1e-9);
    if (!eis_test::root()) continue;
    const double t = clock(steps - 1, h);
    int held = 0;
    for (std::size_t i = 0; i < all.ids.size(); ++i) {
      if (std::abs(eis_test::boxRestPosition(s.boxSize, s.boxCells, all.ids[i])[0] - 2) > 1e-9)
        continue;
      ++held;
      const double* row = &all.values[i * all.width];
      for (int d = 0; d < 3; ++d) {
        EXPECT_NEAR(row[d], m[d] + a[d] * std::sin(w * t + phase), 1e-15);
        EXPECT_NEAR(row[3 + d], a[d] * w * std::cos(w * t + phase), 1e-14);
      }
    }
    EXPECT_EQ(held, 9);
  }
}

// An affine movement of the free end: held at x0 until t_0, then SOFA's interpolation from x0 to
// R x0 + T over (t_0, t_1], then R x0 + T; velocity zero; x0 the rest positions.
TEST_F(NodeProjectors, AffineMovementFollowsItsClosedForm) {
  const double h = 0.01, t0 = 0.02, t1 = 0.06;
  const double R[9] = {0.8, -0.6, 0, 0.6, 0.8, 0, 0.1, 0, 1.2};
  const V3 T{0.1, 0, -0.05};
  for (int steps : {1, 3, 4, 6, 7, 9}) {
    SCOPED_TRACE(steps);
    eis_test::SceneFields s = projectedBar(false, eis::OperatorMode::Assembled);
    s.dt = h;
    s.steps = steps;
    s.extra = {{"constraint.affine-movement",
                "0.02 0.06 0.8 -0.6 0 0.6 0.8 0 0.1 0 1.2 0.1 0 -0.05 box 1.99 -1 -1 2.01 2 2"}};
    const eis::NodalTable all = eis_test::run(s);
    if (!eis_test::root()) continue;
    const double t = clock(steps - 1, h);
    int held = 0;
    for (std::size_t i = 0; i < all.ids.size(); ++i) {
      const V3 x0 = eis_test::boxRestPosition(s.boxSize, s.boxCells, all.ids[i]);
      if (std::abs(x0[0] - 2) > 1e-9) continue;
      ++held;
      const double* row = &all.values[i * all.width];
      for (int d = 0; d < 3; ++d) {
        const double xf = R[3 * d] * x0[0] + R[3 * d + 1] * x0[1] + R[3 * d + 2] * x0[2] + T[d];
        expectMovedAt(row, d, x0[d], xf, t, t0, t1);
      }
    }
    EXPECT_EQ(held, 9);
  }
}

// A patch test on the bar's z = 0 face off the fixed end (x in [0.5, 2], y in [0, 1]): held at x0
// until t_0, then SOFA's interpolation from x0 to x0 + d over (t_0, t_1], d the bilinear
// interpolation of the corner movements over that bounding box; velocity zero.
TEST_F(NodeProjectors, PatchTestFollowsItsClosedForm) {
  const double h = 0.01, t0 = 0.02, t1 = 0.06;
  const double M[4][3] = {{-0.2, -0.1, 0}, {0.1, -0.1, 0.05}, {0.1, 0.1, 0}, {-0.1, 0.3, 0}};
  for (int steps : {1, 3, 4, 6, 7, 9}) {
    SCOPED_TRACE(steps);
    eis_test::SceneFields s = projectedBar(false, eis::OperatorMode::Assembled);
    s.dt = h;
    s.steps = steps;
    s.extra = {{"constraint.patch-test",
                "0.02 0.06 -0.2 -0.1 0 0.1 -0.1 0.05 0.1 0.1 0 -0.1 0.3 0 "
                "box 0.4 -1 -0.01 3 2 0.01"}};
    const eis::NodalTable all = eis_test::run(s);
    if (!eis_test::root()) continue;
    const double t = clock(steps - 1, h);
    int held = 0;
    for (std::size_t i = 0; i < all.ids.size(); ++i) {
      const V3 x0 = eis_test::boxRestPosition(s.boxSize, s.boxCells, all.ids[i]);
      if (std::abs(x0[2]) > 1e-9 || x0[0] < 0.4) continue;
      ++held;
      const double a = (x0[0] - 0.5) / 1.5, b = x0[1];
      const double w[4] = {(1 - a) * (1 - b), a * (1 - b), a * b, (1 - a) * b};
      const double* row = &all.values[i * all.width];
      for (int d = 0; d < 3; ++d) {
        const double xf = x0[d] + w[0] * M[0][d] + w[1] * M[1][d] + w[2] * M[2][d] + w[3] * M[3][d];
        expectMovedAt(row, d, x0[d], xf, t, t0, t1);
      }
    }
    EXPECT_EQ(held, 12);
  }
  // Nodes not in one plane z = constant (SOFA's 3D form) are refused on every rank.
  eis_test::SceneFields solid = projectedBar(false, eis::OperatorMode::Assembled);
  solid.extra = {{"constraint.patch-test", "0 1 0 0 0 0 0 0 0 0 0 0 0 0 box 1.99 -1 -1 2.01 2 2"}};
  EXPECT_THROW(eis_test::run(solid), eis::Error);
}

// The same with 8 corner movements on the nodes of x >= 0.5 (not in one plane z = constant) but
// the two inner ones at x = 1 and 1.5, which move freely: SOFA's 3D form, d bilinear in x and y
// from M0 .. M3 on the box's z = 0 face and from M4 .. M7 on its z = 1 face, linear in z between
// (a = (x - 0.5) / 1.5, b = y, g = z). Then on all of them, every unknown held: no solve, the
// nodes still moved.
TEST_F(NodeProjectors, PatchTestInThreeDimensionsFollowsItsClosedForm) {
  const double h = 0.01, t0 = 0.02, t1 = 0.06;
  const double M[8][3] = {{-0.2, -0.1, 0}, {0.1, -0.1, 0.05}, {0.1, 0.1, 0},  {-0.1, 0.3, 0},
                          {0.05, 0, -0.1}, {0.2, 0.1, 0.1},   {-0.1, 0, 0.2}, {0, -0.2, 0.1}};
  std::string numbers = "0.02 0.06";
  for (const auto& m : M)
    for (double c : m) numbers += " " + std::to_string(c);
  for (int run = 0; run < 4; ++run) {
    const int steps = run % 2 ? 9 : 4;
    const bool every = run >= 2;
    SCOPED_TRACE(std::to_string(steps) + (every ? " steps, every node held" : " steps"));
    eis_test::SceneFields s = projectedBar(false, eis::OperatorMode::Assembled);
    s.dt = h;
    s.steps = steps;
    s.extra = {{"constraint.patch-test",
                numbers + (every ? " box 0.4 -1 -1 3 2 2"
                                 : " pair-box 0.4 -1 -1 3 2 2 0.6 0.1 0.1 1.9 0.9 0.9")}};
    const eis::NodalTable all = eis_test::run(s);
    if (!eis_test::root()) continue;
    const double t = clock(steps - 1, h);
    int held = 0;
    for (std::size_t i = 0; i < all.ids.size(); ++i) {
      const V3 x0 = eis_test::boxRestPosition(s.boxSize, s.boxCells, all.ids[i]);
      const bool inner = x0[0] > 0.6 && x0[0] < 1.9 && x0[1] == 0.5 && x0[2] == 0.5;
      if (x0[0] < 0.4 || (inner && !every)) continue;
      ++held;
      const double a = (x0[0] - 0.5) / 1.5, b = x0[1], g = x0[2];
      const double w[4] = {(1 - a) * (1 - b), a * (1 - b), a * b, (1 - a) * b};
      const double* row = &all.values[i * all.width];
      for (int d = 0; d < 3; ++d) {
        double low = 0, high = 0;
        for (int c = 0; c < 4; ++c) {
          low += w[c] * M[c][d];
          high += w[c] * M[4 + c][d];
        }
        const double xf = x0[d] + (1 - g) * low + g * high;
        expectMovedAt(row, d, x0[d], xf, t, t0, t1);
      }
    }
    EXPECT_EQ(held, every ? 36 : 34);
  }
}

// A node fixed in some directions and under a plane, or under a plane and a line that do not
// commute, is refused on every rank.
TEST_F(NodeProjectors, RefusesWhatItCannotProject) {
  eis_test::SceneFields partial = projectedBar(true, eis::OperatorMode::Assembled);
  partial.extra.push_back({"constraint.partial-fixed", "0 1 0 box 1.99 -1 -1 2.01 2 2"});
  EXPECT_THROW(eis_test::BoxModel{partial}, eis::Error);
  eis_test::SceneFields crossing = projectedBar(true, eis::OperatorMode::Assembled);
  crossing.extra.push_back({"constraint.line", "0 0 0 0 1 0 box 1.99 -1 -1 2.01 2 2"});
  EXPECT_THROW(eis_test::BoxModel{crossing}, eis::Error);
}

}  // namespace
