// SOFA's InteractionEllipsoidForceField<Vec3, Rigid3> (interaction.ellipsoid-*) on 1, 2 and 3
// ranks, its frame given here as SOFA's object2 would give it: each node's force and the
// tangent's product against SOFA's formulas written out by hand in the frame's coordinates (its
// own rotation matrix of the quaternion), for two ellipsoids (the one of least N^2 acting) in a
// turned frame, pushing out, and one holding in, placed by the inverse frame (object2_invert);
// the force's centred differences against SOFA's matrix less the terms by which it is not the
// force's derivative; and the assembled matrix refused.
#include <gtest/gtest.h>

#include <cmath>

#include "eis/model/interaction_ellipsoid_force_field.hpp"
#include "eis/model/mechanical_system.hpp"
#include "mpi_support.hpp"

namespace {

using Model = eis_test::BoxModel;
using M3 = std::array<double, 9>;

struct Case {
  std::array<double, 7> pose;  // the frame's x y z qx qy qz qw
  std::vector<std::array<double, 6>> ellipsoids;
  double k, damping;
  bool invert;
};

// R of a unit quaternion (qx qy qz qw), row-major.
M3 rotation(const std::array<double, 4>& q) {
  const double x = q[0], y = q[1], z = q[2], w = q[3];
  return {1 - 2 * (y * y + z * z), 2 * (x * y - z * w),     2 * (x * z + y * w),
          2 * (x * y + z * w),     1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
          2 * (x * z - y * w),     2 * (y * z + x * w),     1 - 2 * (x * x + y * y)};
}

eis::Vec3 times(const M3& a, const eis::Vec3& v, bool transposed = false) {
  eis::Vec3 out{0, 0, 0};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) out[i] += (transposed ? a[3 * j + i] : a[3 * i + j]) * v[j];
  return out;
}

// SOFA's force at x (velocity u), its contact matrix turned to the world (R m R^T) and that
// matrix less what makes it differ from the force's derivative; false out of contact.
bool sofaContact(const Case& c, const eis::Vec3& x, const eis::Vec3& u, eis::Vec3& f, M3& K,
                 M3& derivative) {
  // The frame placing the ellipsoids: the pose, or its inverse (c' = -R^T c, R' = R^T).
  const M3 r = rotation({c.pose[3], c.pose[4], c.pose[5], c.pose[6]});
  M3 R = r;
  eis::Vec3 centre{c.pose[0], c.pose[1], c.pose[2]};
  if (c.invert) {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) R[3 * i + j] = r[3 * j + i];
    const eis::Vec3 t = times(r, centre, true);
    centre = {-t[0], -t[1], -t[2]};
  }
  const eis::Vec3 p = times(R, {x[0] - centre[0], x[1] - centre[1], x[2] - centre[2]}, true);
  const eis::Vec3 ul = times(R, u, true);
  double best = -1;
  eis::Vec3 d{}, ir2{};
  for (const auto& e : c.ellipsoids) {
    double n2 = 0;
    eis::Vec3 de{}, ie{};
    for (int j = 0; j < 3; ++j) {
      de[j] = p[j] - e[j];
      ie[j] = 1 / (e[3 + j] * e[3 + j]);
      n2 += de[j] * de[j] * ie[j];
    }
    if (best < 0 || n2 < best) best = n2, d = de, ir2 = ie;
  }
  if (!((best - 1) * c.k < 0)) return false;
  const double k = std::fabs(c.k), n = std::sqrt(best), v = n - 1;
  const eis::Vec3 g{d[0] * ir2[0], d[1] * ir2[1], d[2] * ir2[2]};
  const double gn = std::sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
  eis::Vec3 fl{};
  for (int i = 0; i < 3; ++i) fl[i] = -k * v / gn * g[i] - c.damping * std::fabs(v) * ul[i];
  f = times(R, fl);
  M3 m{}, exact{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      m[3 * i + j] = g[i] * g[j] * (-k / (n * gn) - k * v / (gn * gn) * ir2[j]) +
                     (i == j ? -k * v / gn * ir2[i] : 0.0);
      // d/dp of -k v g / |g|: SOFA's middle term is -k v g g^T / (|g|^2 r_j^2), the derivative's
      // +k v g g^T / (|g|^3 r_j^2).
      exact[3 * i + j] =
          m[3 * i + j] + g[i] * g[j] * ir2[j] * k * v * (1 / (gn * gn) + 1 / (gn * gn * gn));
    }
  for (const auto& [local, world] : {std::pair{&m, &K}, std::pair{&exact, &derivative}})
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        double s = 0;
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b) s += R[3 * i + a] * (*local)[3 * a + b] * R[3 * j + b];
        (*world)[3 * i + j] = s;
      }
  return true;
}

std::string text(const std::vector<double>& values) {
  std::string out;
  for (double a : values) out += (out.empty() ? "" : " ") + eis::parse::text(a);
  return out;
}

// A frame turned 0.5 rad about (0.48, 0.6, 0.64): two ellipsoids about (1, 0.5, 0.5), pushing out.
Case pushingOut() {
  const double s = std::sin(0.25), c = std::cos(0.25);
  return {{1.0, 0.45, 0.5, 0.48 * s, 0.6 * s, 0.64 * s, c},
          {{0.25, 0.0, 0.05, 0.6, 0.3, 0.4}, {-0.45, 0.1, 0.0, 0.3, 0.5, 0.35}},
          400,
          3,
          false};
}

// One ellipsoid holding in (k < 0), placed by the inverse of a frame: centred at (1, 0.5, 0.5).
Case holdingIn() {
  const double s = std::sin(0.35), c = std::cos(0.35);
  const std::array<double, 4> q{0.6 * s, 0, 0.8 * s, c};
  const eis::Vec3 t = times(rotation(q), {1.0, 0.5, 0.5});
  return {
      {-t[0], -t[1], -t[2], q[0], q[1], q[2], q[3]}, {{0, 0, 0, 1.05, 0.6, 0.55}}, -250, 2, true};
}

struct Probe {
  explicit Probe(const Case& c, eis::OperatorMode op = eis::OperatorMode::MatrixFree) : c(c) {
    scene.boxSize = {2, 1, 1};
    scene.boxCells = {4, 2, 2};
    scene.gravity = {0, 0, 0};
    scene.material = eis::MaterialModel::None;
    scene.op = op;
    std::vector<double> all;
    for (const auto& e : c.ellipsoids) all.insert(all.end(), e.begin(), e.end());
    scene.extra = {{"interaction.ellipsoid-frame", "/obstacle 0"},
                   {"interaction.ellipsoids", text(all)},
                   {"interaction.ellipsoid-stiffness", eis::parse::text(c.k)},
                   {"interaction.ellipsoid-damping", eis::parse::text(c.damping)},
                   {"interaction.ellipsoid-invert", c.invert ? "true" : "false"}};
    model = std::make_unique<Model>(scene);
    for (const auto& field : model->system->forceFields())
      if (auto* e = dynamic_cast<eis::InteractionEllipsoidForceField*>(field.get()))
        e->linkFrame([pose = c.pose] { return pose; }), ++linked;
  }
  Case c;
  eis_test::SceneFields scene;
  std::unique_ptr<Model> model;
  int linked = 0;
};

const eis::Vec3 kShift{0.01, 0.02, -0.01};
eis::Vec3 moved(const eis::Vec3& p) {
  return {p[0] + kShift[0], p[1] + kShift[1], p[2] + kShift[2]};
}
eis::Vec3 velocity(const eis::Vec3& p) {
  return {0.3 + p[0], -0.2 * p[1], 0.1 + p[2] * p[0]};
}
eis::Vec3 direction(const eis::Vec3& p) {
  return {0.9 - p[1], 0.4 + p[2], -0.7 * p[0]};
}

TEST(InteractionEllipsoid, ForceAndTangentAreSofasByHand) {
  for (const Case& c : {pushingOut(), holdingIn()}) {
    SCOPED_TRACE(c.invert ? "holding in, inverse frame" : "pushing out, two ellipsoids");
    Probe probe(c);
    ASSERT_EQ(probe.linked, 1);
    Model& model = *probe.model;
    Vec x = model.field(moved), v = model.field(velocity), dx = model.field(direction),
        f = model.system->createVector(), product = model.system->createVector();
    model.system->computeForce(x, v, f);
    VecZeroEntries(product);
    model.system->addMBKv(product, 0.0, 0.0, 1.0, dx);
    const PetscScalar *fs, *ps;
    VecGetArrayRead(f, &fs);
    VecGetArrayRead(product, &ps);
    int touching = 0;
    for (std::size_t n = 0; n < model.mesh->numLocalVertices(); ++n) {
      if (!model.mesh->owned()[n]) continue;
      const auto& rest = model.mesh->restCoords()[n];
      const eis::Vec3 p{rest[0], rest[1], rest[2]};
      eis::Vec3 want{0, 0, 0};
      M3 K{}, derivative{};
      touching += sofaContact(c, moved(p), velocity(p), want, K, derivative);
      const eis::Vec3 kdx = times(K, direction(p));
      const PetscInt row = model.mesh->ownedOffset(PetscInt(n));
      for (int i = 0; i < 3; ++i) {
        EXPECT_NEAR(fs[row + i], want[i], 1e-9) << model.mesh->nodeIds()[n];
        EXPECT_NEAR(ps[row + i], kdx[i], 1e-9) << model.mesh->nodeIds()[n];
      }
    }
    VecRestoreArrayRead(f, &fs);
    VecRestoreArrayRead(product, &ps);
    int all = 0, nodes = int(model.mesh->numGlobalVertices());
    MPI_Allreduce(&touching, &all, 1, MPI_INT, MPI_SUM, PETSC_COMM_WORLD);
    EXPECT_GT(all, 3);
    EXPECT_LT(all, nodes);
    EXPECT_FALSE(model.system->symmetricMatrix());
    for (Vec* w : {&x, &v, &dx, &f, &product}) VecDestroy(w);
  }
}

// At rest (no damping force's change), the force's centred differences along dx are SOFA's
// matrix less its two non-derivative terms, node by node.
TEST(InteractionEllipsoid, ForceDifferencesAreItsDerivative) {
  for (const Case& c : {pushingOut(), holdingIn()}) {
    SCOPED_TRACE(c.invert ? "holding in" : "pushing out");
    Probe probe(c);
    Model& model = *probe.model;
    Vec x = model.field(moved), v = model.system->createVector(), dx = model.field(direction),
        fd = model.system->createVector(), work = model.system->createVector();
    VecZeroEntries(v);
    model.forceDifference(x, v, x, dx, 1e-6, fd, work);
    const PetscScalar* fs;
    VecGetArrayRead(fd, &fs);
    double worst = 0;
    for (std::size_t n = 0; n < model.mesh->numLocalVertices(); ++n) {
      if (!model.mesh->owned()[n]) continue;
      const auto& rest = model.mesh->restCoords()[n];
      const eis::Vec3 p{rest[0], rest[1], rest[2]};
      eis::Vec3 f{};
      M3 K{}, derivative{};
      sofaContact(c, moved(p), {0, 0, 0}, f, K, derivative);
      const eis::Vec3 want = times(derivative, direction(p));
      const PetscInt row = model.mesh->ownedOffset(PetscInt(n));
      for (int i = 0; i < 3; ++i) worst = std::max(worst, std::fabs(fs[row + i] - want[i]));
    }
    VecRestoreArrayRead(fd, &fs);
    MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD);
    EXPECT_LT(worst, 1e-5);
    for (Vec* w : {&x, &v, &dx, &fd, &work}) VecDestroy(w);
  }
}

// SOFA gives the field no stiffness matrix: an assembled one is refused, naming why.
TEST(InteractionEllipsoid, AssembledMatrixIsRefused) {
  Probe probe(pushingOut(), eis::OperatorMode::Assembled);
  Vec x = probe.model->field(moved), v = probe.model->system->createVector(),
      f = probe.model->system->createVector();
  VecZeroEntries(v);
  probe.model->system->computeForce(x, v, f);
  try {
    probe.model->system->systemMatrix(1.0, 0.0, -1.0);
    ADD_FAILURE() << "no error";
  } catch (const eis::Error& e) {
    EXPECT_NE(std::string(e.what()).find("no stiffness matrix"), std::string::npos) << e.what();
  }
  for (Vec* w : {&x, &v, &f}) VecDestroy(w);
}

}  // namespace
