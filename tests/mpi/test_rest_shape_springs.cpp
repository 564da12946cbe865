// springs.rest-shape (SOFA RestShapeSpringsForceField, model/rest_shape_springs.cpp) on 1, 2 and
// 3 ranks: each node with a uniform mass and a spring to its rest position oscillates as SOFA's
// one-degree-of-freedom implicit Euler step does, K equals finite differences of the force, and
// any rank count agrees with one.
#include <gtest/gtest.h>

#include "eis/app/simulation.hpp"
#include "eis/model/mechanical_system.hpp"
#include "mpi_support.hpp"

namespace {

using Model = eis_test::BoxModel;

class RestShapeSprings : public eis_test::TightSolvesTest {};

// Every node has mass m and a spring k, gravity g pulls: the body translates (its elastic forces
// are zero) and each coordinate follows the linearized step of m u'' = -k u + m g,
//   v_{n+1} = v_n + h (m g - k u_n - h k v_n) / (m + h^2 k),  u_{n+1} = u_n + h v_{n+1}
// (for g = 0: v_1 = (v_0 - h k/m u_0) / (1 + h^2 k/m)), whatever the operator and Newton mode.
TEST_F(RestShapeSprings, EachNodeIsTheOneDofImplicitEulerOscillator) {
  const double m = 0.2, k = 150;
  for (auto op : {eis::OperatorMode::Assembled, eis::OperatorMode::MatrixFree})
    for (auto newton : {eis::NewtonMode::Linearized, eis::NewtonMode::Full}) {
      SCOPED_TRACE(int(op) * 10 + int(newton));
      eis_test::SceneFields scene;
      scene.boxSize = {4, 1, 1};
      scene.boxCells = {8, 2, 2};
      scene.youngModulus = 2e3;
      scene.steps = 12;
      scene.dt = 0.02;
      scene.mass = eis::MassType::Uniform;
      scene.gravity = {1, -9.81, 3};
      scene.op = op;
      scene.newton = newton;
      scene.extra = {{"mass.vertex-mass", eis::parse::text(m)},
                     {"springs.rest-shape", "100 all"},
                     {"springs.rest-shape", "50 all"}};  // springs on one node add up
      const eis::NodalTable state = eis_test::run(scene);
      if (!eis_test::root()) continue;
      const double h = scene.dt;
      for (int d = 0; d < 3; ++d) {
        double u = 0, v = 0;
        for (int n = 0; n < scene.steps; ++n) {
          v += h * (m * scene.gravity[d] - k * u - h * k * v) / (m + h * h * k);
          u += h * v;
        }
        for (std::size_t i = 0; i < state.ids.size(); ++i) {
          const auto rest = eis_test::boxRestPosition(scene.boxSize, scene.boxCells, state.ids[i]);
          EXPECT_NEAR(state.values[i * state.width + d], rest[d] + u, 1e-11);
          EXPECT_NEAR(state.values[i * state.width + 3 + d], v, 1e-10);
        }
      }
    }
}

// K through addMBKv and through the assembled matrix against centred differences of the force,
// springs on a sphere of nodes of a cantilever.
TEST(RestShapeSpringsTangent, EqualsFiniteDifferencesOfTheForce) {
  eis_test::SceneFields scene = eis_test::cantilever({4, 1, 1}, {8, 2, 2}, 2e3);
  scene.extra = {{"springs.rest-shape", "800 sphere 3 0.5 0.5 0.8"}};
  Model m(scene);
  EXPECT_LT(m.productTangentGap(1e-6), 1e-7);
  EXPECT_LT(m.matrixTangentGap(1e-6), 1e-7);
}

// Per-node stiffnesses (springs.rest-shape-nodes) add to each other and to springs.rest-shape:
// under a translation t (no elastic force) node i's force is exactly -k_i t.
TEST(RestShapeSpringsPerNode, EachNodeHasItsOwnStiffness) {
  eis_test::SceneFields scene;
  scene.boxSize = {4, 1, 1};
  scene.boxCells = {8, 2, 2};
  scene.gravity = {0, 0, 0};
  scene.extra = {{"springs.rest-shape-nodes", "0 10 80 30 80 5"},
                 {"springs.rest-shape", "7 indices 0"}};
  Model m(scene);
  const eis::Vec3 t{0.02, -0.01, 0.03};
  Vec x = m.field([&](const eis::Vec3& p) {
    return eis::Vec3{p[0] + t[0], p[1] + t[1], p[2] + t[2]};
  });
  Vec zero = m.system->createVector(), f = m.system->createVector();
  VecZeroEntries(zero);
  m.system->computeForce(x, zero, f);
  const PetscScalar* fs;
  VecGetArrayRead(f, &fs);
  for (std::size_t v = 0; v < m.mesh->numLocalVertices(); ++v) {
    if (!m.mesh->owned()[v]) continue;
    const auto id = m.mesh->nodeIds()[v];
    const double k = id == 0 ? 17 : id == 80 ? 35 : 0;
    for (int d = 0; d < 3; ++d)
      EXPECT_NEAR(fs[m.mesh->ownedOffset(PetscInt(v)) + d], -k * t[d], 1e-10) << id;
  }
  VecRestoreArrayRead(f, &fs);
  for (Vec* w : {&x, &zero, &f}) VecDestroy(w);
}

// A cantilever with springs on part of it: any rank count agrees with one.
TEST_F(RestShapeSprings, AnyRankCountAgreesWithOne) {
  eis_test::SceneFields scene = eis_test::cantilever({4, 1, 1}, {8, 2, 2}, 2e3);
  scene.steps = 8;
  scene.extra = {{"springs.rest-shape", "40 box 3 0 0 4 1 1"}};
  EXPECT_LT(eis_test::disagreement(eis_test::serialReference(scene), eis_test::run(scene), scene),
            1e-10);
}

}  // namespace
