// SOFA's PlaneForceField and SphereForceField (obstacle.plane, obstacle.sphere) on 1, 2 and 3
// ranks: the force on each node against its formula by hand, the tangent against finite
// differences of the force (matrix-free and assembled), a body at rest on a floor (its weight
// equals the penalties k times depth summed over the nodes below), and any rank count agreeing
// with one.
#include <gtest/gtest.h>

#include <cmath>

#include "eis/app/simulation.hpp"
#include "eis/model/mechanical_system.hpp"
#include "mpi_support.hpp"

namespace {

using Model = eis_test::BoxModel;

// Each owned node's force at x = X + t with velocity w(X) (no gravity, a translation: the elastic
// force is zero), against `expected(x, v)`.
template <class Expected>
void expectNodalForces(const std::vector<std::pair<std::string, std::string>>& obstacles,
                       const eis::Vec3& t, Expected expected) {
  eis_test::SceneFields scene;
  scene.boxSize = {2, 1, 1};
  scene.boxCells = {4, 2, 2};
  scene.gravity = {0, 0, 0};
  scene.extra = obstacles;
  Model m(scene);
  const auto moved = [&](const eis::Vec3& p) {
    return eis::Vec3{p[0] + t[0], p[1] + t[1], p[2] + t[2]};
  };
  const auto velocity = [](const eis::Vec3& p) {
    return eis::Vec3{0.3 + p[0], -0.2 * p[1], 0.1 + p[2] * p[0]};
  };
  Vec x = m.field(moved), v = m.field(velocity), f = m.system->createVector();
  m.system->computeForce(x, v, f);
  const PetscScalar* fs;
  VecGetArrayRead(f, &fs);
  int touching = 0;
  for (std::size_t n = 0; n < m.mesh->numLocalVertices(); ++n) {
    if (!m.mesh->owned()[n]) continue;
    const auto& rest = m.mesh->restCoords()[n];
    const eis::Vec3 p{rest[0], rest[1], rest[2]};
    const eis::Vec3 want = expected(moved(p), velocity(p));
    touching += want[0] != 0 || want[1] != 0 || want[2] != 0;
    for (int d = 0; d < 3; ++d)
      EXPECT_NEAR(fs[m.mesh->ownedOffset(PetscInt(n)) + d], want[d], 1e-9) << m.mesh->nodeIds()[n];
  }
  VecRestoreArrayRead(f, &fs);
  int all = 0;
  MPI_Allreduce(&touching, &all, 1, MPI_INT, MPI_SUM, PETSC_COMM_WORLD);
  EXPECT_GT(all, 0);  // some nodes are in contact
  for (Vec* w : {&x, &v, &f}) VecDestroy(w);
}

// SOFA's f = -k s n + c s v for s = x.n - d < 0 (n as written: here not of length 1).
TEST(PenaltyObstacles, PlaneForceIsSofasByHand) {
  const eis::Vec3 n{0.2, 1.0, 0.1};
  const double d = 0.45, k = 300, c = 7;
  expectNodalForces({{"obstacle.plane", "0.2 1 0.1 0.45 300 7"}}, {0.01, -0.02, 0.03},
                    [&](const eis::Vec3& x, const eis::Vec3& v) {
                      const double s = x[0] * n[0] + x[1] * n[1] + x[2] * n[2] - d;
                      if (!(s < 0)) return eis::Vec3{0, 0, 0};
                      return eis::Vec3{-k * s * n[0] + c * s * v[0], -k * s * n[1] + c * s * v[1],
                                       -k * s * n[2] + c * s * v[2]};
                    });
  // maxForce caps the force's length (and bilateral pulls the nodes above back too).
  const double cap = 20;
  expectNodalForces({{"obstacle.plane", "0 1 0 0.5 300 0 20 bilateral"}}, {0, 0, 0},
                    [&](const eis::Vec3& x, const eis::Vec3&) {
                      const double s = x[1] - 0.5, f = -300 * s;
                      return eis::Vec3{0, std::fabs(f) > cap ? std::copysign(cap, f) : f, 0};
                    });
}

// SOFA's f = -k s (x - c) / l + c_d s v for l = |x - c| < r, s = l - r.
TEST(PenaltyObstacles, SphereForceIsSofasByHand) {
  const eis::Vec3 centre{1.05, 0.45, 0.55};
  const double r = 0.6, k = 400, c = 3;
  expectNodalForces({{"obstacle.sphere", "1.05 0.45 0.55 0.6 400 3"}}, {0.01, 0.02, -0.01},
                    [&](const eis::Vec3& x, const eis::Vec3& v) {
                      const eis::Vec3 p{x[0] - centre[0], x[1] - centre[1], x[2] - centre[2]};
                      const double l = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
                      if (!(l < r)) return eis::Vec3{0, 0, 0};
                      const double s = l - r;
                      return eis::Vec3{-k * s * p[0] / l + c * s * v[0],
                                       -k * s * p[1] / l + c * s * v[1],
                                       -k * s * p[2] / l + c * s * v[2]};
                    });
}

// K through addMBKv and through the assembled matrix against centred differences of the force
// (v = 0: SOFA's tangent leaves the damping out), on a cantilever pressed into the obstacles
// (each touches free nodes, not only the fixed face, whose rows the projection clears).
TEST(PenaltyObstacles, TangentEqualsFiniteDifferencesOfTheForce) {
  for (const char* obstacle : {"obstacle.plane", "obstacle.sphere"}) {
    SCOPED_TRACE(obstacle);
    eis_test::SceneFields scene = eis_test::cantilever({4, 1, 1}, {8, 2, 2}, 2e3);
    scene.extra = {{"obstacle.plane", "0.3 1 0 0.937 500 5"},
                   {"obstacle.sphere", "3.02 0.51 0.49 0.83 700 2"}};
    if (std::string(obstacle) == "obstacle.plane")
      scene.extra.pop_back();
    else
      scene.extra.erase(scene.extra.begin());
    Model m(scene);
    EXPECT_LT(m.productTangentGap(1e-7), 1e-6);
    EXPECT_LT(m.matrixTangentGap(1e-7), 1e-6);
  }
}

class PenaltyObstacleRuns : public eis_test::TightSolvesTest {};

// A free box under gravity falls onto a floor y = -0.001 and comes to rest on it: then the
// floor's forces carry the weight, k times the depth summed over the nodes below it is M g, and
// the nodes below are the bottom layer's.
TEST_F(PenaltyObstacleRuns, ABodyRestsOnTheFloorWithThePenaltysDepth) {
  eis_test::SceneFields scene;
  scene.boxSize = {1, 0.5, 0.5};
  scene.boxCells = {4, 2, 2};
  scene.mass = eis::MassType::Uniform;
  scene.dt = 0.05;
  scene.steps = 120;
  scene.rayleighMass = 1;
  const double m = 0.01, k = 1000, floor = -0.001, g = 9.81;
  scene.extra = {{"mass.vertex-mass", eis::parse::text(m)},
                 {"obstacle.plane", "0 1 0 " + eis::parse::text(floor) + " 1000 5"}};
  const eis::NodalTable state = eis_test::run(scene);
  if (!eis_test::root()) return;
  double lift = 0, speed = 0;
  std::size_t below = 0;
  for (std::size_t i = 0; i < state.ids.size(); ++i) {
    const double y = state.values[i * state.width + 1];
    const auto rest = eis_test::boxRestPosition(scene.boxSize, scene.boxCells, state.ids[i]);
    if (y < floor) {
      lift += k * (floor - y);
      ++below;
      EXPECT_EQ(rest[1], 0.0) << state.ids[i];
    }
    for (int d = 0; d < 3; ++d)
      speed = std::max(speed, std::fabs(state.values[i * state.width + 3 + d]));
  }
  EXPECT_EQ(below, 5u * 3u);  // the bottom layer's nodes
  EXPECT_NEAR(lift, m * double(state.ids.size()) * g, 1e-8 * m * g * double(state.ids.size()));
  EXPECT_LT(speed, 1e-9);
}

// A cantilever bent onto a plane and a sphere: any rank count agrees with one.
TEST_F(PenaltyObstacleRuns, AnyRankCountAgreesWithOne) {
  eis_test::SceneFields scene = eis_test::cantilever({4, 1, 1}, {8, 2, 2}, 2e3);
  scene.steps = 10;
  scene.dt = 0.02;
  scene.extra = {{"obstacle.plane", "0 1 0 -0.05 3000 10"},
                 {"obstacle.sphere", "3.5 -0.6 0.5 0.5 2000 1"}};
  EXPECT_LT(eis_test::disagreement(eis_test::serialReference(scene), eis_test::run(scene), scene),
            1e-10);
}

}  // namespace
