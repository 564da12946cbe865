// Springs between rigid frames (model/rigid_group): the spring acts on the centres alone (no
// torque, the same force on a turned frame), its stiffness K (addMBKv with kFactor 1) is the
// central difference of the forces as the frames move along each unknown, and the assembled
// matrix gives addMBKv's products, a fixed frame's rows and columns keeping their diagonal alone.
#include <gtest/gtest.h>
#include <petscmat.h>

#include <cmath>
#include <memory>
#include <vector>

#include "eis/model/rigid_group.hpp"

namespace {

std::unique_ptr<eis::RigidBody> body(std::vector<double> frames, bool fixFirst = false) {
  eis::RigidBodyParameters p;
  p.frames = std::move(frames);
  p.mass.mass = 2;
  p.mass.inertia = {1, 0, 0, 0, 2, 0, 0, 0, 3};
  if (fixFirst) {
    p.fixed.assign(p.frames.size() / 7, {false, false, false, false, false, false});
    p.fixed[0].fill(true);
  }
  return std::make_unique<eis::RigidBody>(PETSC_COMM_SELF, p);
}

// Frames 0 and 1 in a first body, 2 in a second; a spring 1-2 across and 0-1 within.
std::unique_ptr<eis::RigidGroup> group(bool fixFirst = false) {
  std::vector<std::unique_ptr<eis::RigidBody>> members;
  members.push_back(
      body({0.1, 0.2, -0.3, 0.2, -0.1, 0.3, 0.927, 1.2, -0.4, 0.5, 0, 0, 0, 1}, fixFirst));
  members.push_back(body({2.5, 1.1, 0.7, -0.3, 0.5, 0.1, 0.806}));
  std::vector<eis::RigidFrameSpring> springs(2);
  springs[0].frame1 = 1;
  springs[0].frame2 = 2;
  springs[0].law.ks = 20;
  springs[0].law.length = 1.5;
  springs[1].frame1 = 0;
  springs[1].frame2 = 1;
  springs[1].law.ks = 7;
  springs[1].law.length = 2.5;
  return std::make_unique<eis::RigidGroup>(std::move(members), std::move(springs));
}

std::vector<double> values(Vec v) {
  PetscInt n;
  const PetscScalar* a;
  VecGetLocalSize(v, &n);
  VecGetArrayRead(v, &a);
  std::vector<double> out(a, a + n);
  VecRestoreArrayRead(v, &a);
  return out;
}

void setValues(Vec v, const std::vector<double>& from) {
  PetscScalar* a;
  VecGetArray(v, &a);
  for (std::size_t i = 0; i < from.size(); ++i) a[i] = from[i];
  VecRestoreArray(v, &a);
}

// The forces at x moved by h along the velocity-shaped direction e (addToPosition).
std::vector<double> forceMoved(eis::RigidGroup& g, Vec x0, Vec e, double h) {
  Vec x, v, f;
  VecDuplicate(x0, &x);
  VecCopy(x0, x);
  g.addToPosition(x, h, e);
  VecDuplicate(e, &v);
  VecZeroEntries(v);
  VecDuplicate(e, &f);
  g.computeForce(x, v, f);
  std::vector<double> out = values(f);
  VecDestroy(&x);
  VecDestroy(&v);
  VecDestroy(&f);
  return out;
}

TEST(RigidGroup, SpringActsOnCentresAlone) {
  auto g = group();
  Vec x = g->createPositions(), v = g->createVelocities(), f;
  VecDuplicate(v, &f);
  g->computeForce(x, v, f);
  const std::vector<double> force = values(f);
  // The spring 1-2: along the centres' offset, ks (d - L); no gravity, so nothing else.
  const double u[3] = {2.5 - 1.2, 1.1 + 0.4, 0.7 - 0.5};
  const double d = std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(force[12 + k], -20 * (d - 1.5) * u[k] / d, 1e-12);
    EXPECT_EQ(force[15 + k], 0.0) << "no torque on the second body's frame";
    EXPECT_EQ(force[3 + k], 0.0);
    EXPECT_EQ(force[9 + k], 0.0);
  }
  VecDestroy(&x);
  VecDestroy(&v);
  VecDestroy(&f);
}

TEST(RigidGroup, StiffnessIsTheForcesCentralDifference) {
  auto g = group();
  Vec x = g->createPositions(), e = g->createVelocities(), out;
  VecDuplicate(e, &out);
  const std::vector<double> unused = forceMoved(*g, x, e, 0.0);  // sets D at x
  const int n = 18;
  const double h = 1e-6;
  double worst = 0, largest = 0;
  for (int j = 0; j < n; ++j) {
    std::vector<double> unit(n, 0.0);
    unit[std::size_t(j)] = 1;
    setValues(e, unit);
    const std::vector<double> plus = forceMoved(*g, x, e, h), minus = forceMoved(*g, x, e, -h);
    forceMoved(*g, x, e, 0.0);
    VecZeroEntries(out);
    g->addMBKv(out, 0, 0, 1, e);
    const std::vector<double> column = values(out);
    for (int i = 0; i < n; ++i) {
      const double difference = (plus[std::size_t(i)] - minus[std::size_t(i)]) / (2 * h);
      worst = std::max(worst, std::abs(difference - column[std::size_t(i)]));
      largest = std::max(largest, std::abs(column[std::size_t(i)]));
    }
  }
  EXPECT_LT(worst, 1e-6 * largest) << "K against the central differences";
  EXPECT_GT(largest, 1.0) << "the springs are stiff (the check can fail)";
  VecDestroy(&x);
  VecDestroy(&e);
  VecDestroy(&out);
}

TEST(RigidGroup, MatrixGivesTheProductsAndKeepsFixedDiagonals) {
  for (bool fixFirst : {false, true}) {
    auto g = group(fixFirst);
    Vec x = g->createPositions(), v = g->createVelocities(), f, e, product, out;
    VecDuplicate(v, &f);
    g->computeForce(x, v, f);
    VecDuplicate(v, &e);
    VecDuplicate(v, &product);
    VecDuplicate(v, &out);
    std::vector<double> direction(18);
    for (std::size_t i = 0; i < direction.size(); ++i) direction[i] = std::sin(1.0 + double(i));
    setValues(e, direction);
    const double m = 1.1, k = -0.02;
    Mat a = g->systemMatrix(m, 0, k);
    MatMult(a, e, product);
    g->projectResponse(e);
    VecZeroEntries(out);
    g->addMBKv(out, m, 0, k, e);
    g->projectResponse(out);
    std::vector<double> byMatrix = values(product), byProduct = values(out);
    if (fixFirst)
      for (int i = 0; i < 6; ++i) {
        // A fixed frame's row: its diagonal alone, the mass and the springs' own blocks.
        PetscInt count;
        const PetscInt* columns;
        const PetscScalar* entries;
        MatGetRow(a, i, &count, &columns, &entries);
        for (PetscInt c = 0; c < count; ++c)
          if (columns[c] != i)
            EXPECT_EQ(entries[c], 0.0) << "row " << i << " column " << columns[c];
        MatRestoreRow(a, i, &count, &columns, &entries);
        byMatrix[std::size_t(i)] = byProduct[std::size_t(i)] = 0;
      }
    for (std::size_t i = 0; i < byMatrix.size(); ++i)
      EXPECT_NEAR(byMatrix[i], byProduct[i], 1e-13)
          << "unknown " << i << (fixFirst ? " (fixed)" : "");
    for (Vec* w : {&x, &v, &f, &e, &product, &out}) VecDestroy(w);
  }
}

}  // namespace
