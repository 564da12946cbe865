// SOFA's ConicalForceField (obstacle.cone): each branch's force against hand values and an
// independent construction of the nearest point of the cone's side, SOFA's tangent against
// central differences of the force along the directions where it is the derivative, and on
// 1, 2 and 3 ranks each node's force and K dx (matrix-free and assembled) against SOFA's
// formulas, any rank count agreeing with one.
#include <gtest/gtest.h>

#include <cmath>

#include "eis/app/simulation.hpp"
#include "eis/model/conical_force_field.hpp"
#include "eis/model/mechanical_system.hpp"
#include "mpi_support.hpp"

namespace {

using Model = eis_test::BoxModel;
using eis::Vec3;

Vec3 forceAt(const eis::Cone& cone, const Vec3& p, const Vec3& v = {0, 0, 0}) {
  Vec3 f{0, 0, 0}, u{0, 0, 0};
  eis::coneContact(cone, p, v, f, u);
  return f;
}

// The apex at 0, the axis z of height 2, 45 degrees, k = 100, c_d = 5.
const eis::Cone kUnit{{0, 0, 0}, {0, 0, 2}, 45, 100, 5};

TEST(ConicalForceField, EachBranchByHand) {
  Vec3 f{}, u{};
  // Inside: no contact.
  EXPECT_FALSE(eis::coneContact(kUnit, {0.2, 0, 1}, {1, 1, 1}, f, u));
  // Beyond the base sphere: d = 1, pulled back along -p, the damping c_d d v.
  ASSERT_TRUE(eis::coneContact(kUnit, {0, 0, 3}, {1, 2, 3}, f, u));
  EXPECT_NEAR(f[0], 5, 1e-12);
  EXPECT_NEAR(f[1], 10, 1e-12);
  EXPECT_NEAR(f[2], -100 + 15, 1e-12);
  EXPECT_NEAR(u[2], 1, 1e-15);
  // Beside the side: (1, 0, 0.5) to its nearest point (0.75, 0, 0.75) of the 45-degree line,
  // f = k (p' - p) - c_d (u . v) u, u = (-1, 0, 1) / sqrt 2.
  ASSERT_TRUE(eis::coneContact(kUnit, {1, 0, 0.5}, {2, 7, 0}, f, u));
  const double s = std::sqrt(0.5);
  EXPECT_NEAR(f[0], -25 - 5 * (-2 * s) * -s, 1e-12);
  EXPECT_NEAR(f[1], 0, 1e-12);
  EXPECT_NEAR(f[2], 25 - 5 * (-2 * s) * s, 1e-12);
  EXPECT_NEAR(u[0], -s, 1e-15);
  EXPECT_NEAR(u[2], s, 1e-15);
  // Above the apex (p . axis < 0): f = -k p.
  ASSERT_TRUE(eis::coneContact(kUnit, {0.3, 0, -0.4}, {0, 0, 0}, f, u));
  EXPECT_NEAR(f[0], -30, 1e-12);
  EXPECT_NEAR(f[2], 40, 1e-12);
}

// Beside a cone of any axis: the nearest point of the line at the cone's angle in the plane of
// the axis n and p, e = cos(a) n + sin(a) w (w the unit part of p across n), p' = (e . p) e.
TEST(ConicalForceField, SideAgreesWithTheNearestPointOfTheLine) {
  const eis::Cone cone{{0.5, -1, 2}, {0.3, 1.2, -0.4}, 25, 70, 0};
  const Vec3 p{0.4, 0.2, 0.5};
  const double h = std::sqrt(0.09 + 1.44 + 0.16);
  const Vec3 n{0.3 / h, 1.2 / h, -0.4 / h};
  const double pn = p[0] * n[0] + p[1] * n[1] + p[2] * n[2];
  ASSERT_GT(pn, 0);
  Vec3 w{p[0] - pn * n[0], p[1] - pn * n[1], p[2] - pn * n[2]};
  const double wl = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  ASSERT_GT(std::atan2(wl, pn) * 180 / M_PI, 25);
  const double a = 25 * M_PI / 180;
  Vec3 e{};
  for (int i = 0; i < 3; ++i) e[i] = std::cos(a) * n[i] + std::sin(a) * w[i] / wl;
  const double ep = e[0] * p[0] + e[1] * p[1] + e[2] * p[2];
  const Vec3 f = forceAt(cone, p);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(f[i], 70 * (ep * e[i] - p[i]), 1e-12) << i;
}

// SOFA's tangent -k u u^T is the derivative of the force beyond the base along p, above the apex
// along p, and beside the side along the plane of the axis and p (u and the cone's line): there
// it matches central differences.
TEST(ConicalForceField, TangentMatchesDifferencesWhereItIsTheDerivative) {
  const eis::Cone cone{{0, 0, 0}, {0, 0, 2}, 45, 100, 0};
  struct Case {
    Vec3 p, direction;
  };
  const double s = std::sqrt(0.5);
  const Case cases[] = {{{0, 0.6, 2.5}, {0, 0.6 / 2.5709920264, 2.5 / 2.5709920264}},
                        {{1, 0, 0.5}, {-s, 0, s}},
                        {{1, 0, 0.5}, {s, 0, s}},
                        {{0.3, 0, -0.4}, {0.6, 0, -0.8}}};
  for (const Case& c : cases) {
    Vec3 f{}, u{};
    ASSERT_TRUE(eis::coneContact(cone, c.p, {0, 0, 0}, f, u));
    const double eps = 1e-6;
    Vec3 plus{}, minus{};
    for (int i = 0; i < 3; ++i) {
      plus[i] = c.p[i] + eps * c.direction[i];
      minus[i] = c.p[i] - eps * c.direction[i];
    }
    const Vec3 fp = forceAt(cone, plus), fm = forceAt(cone, minus);
    const double ud = u[0] * c.direction[0] + u[1] * c.direction[1] + u[2] * c.direction[2];
    for (int i = 0; i < 3; ++i)
      EXPECT_NEAR((fp[i] - fm[i]) / (2 * eps), -100 * u[i] * ud, 1e-5)
          << c.p[0] << " " << c.p[1] << " " << c.p[2] << " row " << i;
  }
}

// A cone across a box: nodes above its apex, beside its side and beyond its base.
const char* kBoxCone = "1 0.5 0.2 0 0 0.7 35 400 3";

TEST(ConicalForceField, ForceAndTangentOnEveryRankAreSofas) {
  const eis::Cone cone = eis::parseCone("obstacle.cone", kBoxCone);
  eis_test::SceneFields scene;
  scene.boxSize = {2, 1, 1};
  scene.boxCells = {4, 2, 2};
  scene.gravity = {0, 0, 0};
  scene.material = eis::MaterialModel::None;
  scene.extra = {{"obstacle.cone", kBoxCone}};
  Model model(scene);
  const Vec3 t{0.01, 0.02, -0.01};
  const auto moved = [&](const Vec3& p) { return Vec3{p[0] + t[0], p[1] + t[1], p[2] + t[2]}; };
  const auto velocity = [](const Vec3& p) {
    return Vec3{0.3 + p[0], -0.2 * p[1], 0.1 + p[2] * p[0]};
  };
  const auto direction = [](const Vec3& p) { return Vec3{0.9 - p[1], 0.4 + p[2], -0.7 * p[0]}; };
  Vec x = model.field(moved), v = model.field(velocity), dx = model.field(direction),
      f = model.system->createVector(), product = model.system->createVector(),
      assembled = model.system->createVector();
  model.system->computeForce(x, v, f);
  VecZeroEntries(product);
  model.system->addMBKv(product, 0.0, 0.0, 1.0, dx);
  MatMult(model.system->systemMatrix(0.0, 0.0, 1.0), dx, assembled);
  const PetscScalar *fs, *ps, *as;
  VecGetArrayRead(f, &fs);
  VecGetArrayRead(product, &ps);
  VecGetArrayRead(assembled, &as);
  int touching = 0;
  for (std::size_t n = 0; n < model.mesh->numLocalVertices(); ++n) {
    if (!model.mesh->owned()[n]) continue;
    const auto& rest = model.mesh->restCoords()[n];
    const Vec3 x0 = moved({rest[0], rest[1], rest[2]});
    const Vec3 p{x0[0] - 1, x0[1] - 0.5, x0[2] - 0.2};
    Vec3 want{0, 0, 0}, u{0, 0, 0};
    const bool contact = eis::coneContact(cone, p, velocity({rest[0], rest[1], rest[2]}), want, u);
    touching += contact;
    const Vec3 d = direction({rest[0], rest[1], rest[2]});
    const double ud = contact ? u[0] * d[0] + u[1] * d[1] + u[2] * d[2] : 0;
    const PetscInt row = model.mesh->ownedOffset(PetscInt(n));
    for (int i = 0; i < 3; ++i) {
      EXPECT_NEAR(fs[row + i], want[i], 1e-9) << model.mesh->nodeIds()[n];
      EXPECT_NEAR(ps[row + i], -400 * u[i] * ud, 1e-9) << model.mesh->nodeIds()[n];
      EXPECT_NEAR(as[row + i], -400 * u[i] * ud, 1e-9) << model.mesh->nodeIds()[n];
    }
  }
  VecRestoreArrayRead(f, &fs);
  VecRestoreArrayRead(product, &ps);
  VecRestoreArrayRead(assembled, &as);
  int all = 0;
  MPI_Allreduce(&touching, &all, 1, MPI_INT, MPI_SUM, PETSC_COMM_WORLD);
  EXPECT_GT(all, 0);
  for (Vec* w : {&x, &v, &dx, &f, &product, &assembled}) VecDestroy(w);
}

class ConeRuns : public eis_test::TightSolvesTest {};

// A cantilever held in a cone it partly leaves: any rank count agrees with one.
TEST_F(ConeRuns, AnyRankCountAgreesWithOne) {
  eis_test::SceneFields scene = eis_test::cantilever({4, 1, 1}, {8, 2, 2}, 2e3);
  scene.steps = 10;
  scene.dt = 0.02;
  scene.extra = {{"obstacle.cone", "-1 0.5 0.5 6 0 0 8 2000 1"}};
  EXPECT_LT(eis_test::disagreement(eis_test::serialReference(scene), eis_test::run(scene), scene),
            1e-10);
}

}  // namespace
