// SOFA's EllipsoidForceField (obstacle.ellipsoid) on 1, 2 and 3 ranks: each node's force against
// SOFA's formula by hand, the tangent's product against SOFA's contact matrix by hand (matrix-free
// and assembled), and any rank count agreeing with one.
#include <gtest/gtest.h>

#include <cmath>

#include "eis/app/simulation.hpp"
#include "eis/model/mechanical_system.hpp"
#include "mpi_support.hpp"

namespace {

using Model = eis_test::BoxModel;

struct Ellipsoid {
  eis::Vec3 c, r;
  double k, damping;
};

// SOFA's force on a node at x with velocity u, and its contact matrix (row-major), written out
// from EllipsoidForceField.inl's formulas; false when the node is not in contact.
bool sofaContact(const Ellipsoid& e, const eis::Vec3& x, const eis::Vec3& u, eis::Vec3& f,
                 double m[9]) {
  double n2 = 0;
  eis::Vec3 g{};
  for (int j = 0; j < 3; ++j) {
    const double p = x[j] - e.c[j];
    n2 += p * p / (e.r[j] * e.r[j]);
    g[j] = p / (e.r[j] * e.r[j]);
  }
  if (!((n2 - 1) * e.k < 0)) return false;
  const double k = std::fabs(e.k), v = std::sqrt(n2) - 1;
  const double gn = std::sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
  for (int i = 0; i < 3; ++i) f[i] = -k * v / gn * g[i] - e.damping * std::fabs(v) * u[i];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      m[3 * i + j] =
          g[i] * g[j] * (-k / (std::sqrt(n2) * gn) - k * v / (gn * gn) / (e.r[j] * e.r[j])) +
          (i == j ? -k * v / gn / (e.r[i] * e.r[i]) : 0.0);
  return true;
}

std::string keyOf(const Ellipsoid& e) {
  std::string text;
  for (double a : {e.c[0], e.c[1], e.c[2], e.r[0], e.r[1], e.r[2], e.k, e.damping})
    text += (text.empty() ? "" : " ") + eis::parse::text(a);
  return text;
}

// Pushed out of an elongated ellipsoid (k > 0), held inside a large one (k < 0).
const Ellipsoid kOut{{1.05, 0.45, 0.55}, {0.9, 0.35, 0.5}, 400, 3};
const Ellipsoid kIn{{1.0, 0.5, 0.5}, {1.05, 0.6, 0.55}, -250, 2};

// The force at x = X + t with velocity w(X), and K dx, on each owned node of a box with no other
// force, against SOFA's formulas by hand.
TEST(EllipsoidForceField, ForceAndTangentAreSofasByHand) {
  for (const Ellipsoid& e : {kOut, kIn}) {
    SCOPED_TRACE(keyOf(e));
    eis_test::SceneFields scene;
    scene.boxSize = {2, 1, 1};
    scene.boxCells = {4, 2, 2};
    scene.gravity = {0, 0, 0};
    scene.material = eis::MaterialModel::None;
    scene.extra = {{"obstacle.ellipsoid", keyOf(e)}};
    Model model(scene);
    const eis::Vec3 t{0.01, 0.02, -0.01};
    const auto moved = [&](const eis::Vec3& p) {
      return eis::Vec3{p[0] + t[0], p[1] + t[1], p[2] + t[2]};
    };
    const auto velocity = [](const eis::Vec3& p) {
      return eis::Vec3{0.3 + p[0], -0.2 * p[1], 0.1 + p[2] * p[0]};
    };
    const auto direction = [](const eis::Vec3& p) {
      return eis::Vec3{0.9 - p[1], 0.4 + p[2], -0.7 * p[0]};
    };
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
      const eis::Vec3 p{rest[0], rest[1], rest[2]};
      eis::Vec3 want{0, 0, 0};
      double m[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
      touching += sofaContact(e, moved(p), velocity(p), want, m);
      const eis::Vec3 d = direction(p);
      const PetscInt row = model.mesh->ownedOffset(PetscInt(n));
      for (int i = 0; i < 3; ++i) {
        const double kdx = m[3 * i] * d[0] + m[3 * i + 1] * d[1] + m[3 * i + 2] * d[2];
        EXPECT_NEAR(fs[row + i], want[i], 1e-9) << model.mesh->nodeIds()[n];
        EXPECT_NEAR(ps[row + i], kdx, 1e-9) << model.mesh->nodeIds()[n];
        EXPECT_NEAR(as[row + i], kdx, 1e-9) << model.mesh->nodeIds()[n];
      }
    }
    VecRestoreArrayRead(f, &fs);
    VecRestoreArrayRead(product, &ps);
    VecRestoreArrayRead(assembled, &as);
    int all = 0;
    MPI_Allreduce(&touching, &all, 1, MPI_INT, MPI_SUM, PETSC_COMM_WORLD);
    EXPECT_GT(all, 0);
    EXPECT_FALSE(model.system->symmetricMatrix());  // unequal radii: SOFA's matrix is not
    for (Vec* w : {&x, &v, &dx, &f, &product, &assembled}) VecDestroy(w);
  }
}

class EllipsoidRuns : public eis_test::TightSolvesTest {};

// A cantilever bent into an ellipsoid: any rank count agrees with one.
TEST_F(EllipsoidRuns, AnyRankCountAgreesWithOne) {
  eis_test::SceneFields scene = eis_test::cantilever({4, 1, 1}, {8, 2, 2}, 2e3);
  scene.steps = 10;
  scene.dt = 0.02;
  scene.extra = {{"obstacle.ellipsoid", "3.5 -0.6 0.5 0.6 0.5 0.4 2000 1"}};
  EXPECT_LT(eis_test::disagreement(eis_test::serialReference(scene), eis_test::run(scene), scene),
            1e-10);
}

}  // namespace
