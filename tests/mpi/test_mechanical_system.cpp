// What MechanicalSystem (src/model/mechanical_system.cpp) adds to the force fields, on 1, 2 and
// 3 ranks: velocity damping B = -c M is Rayleigh mass damping by another route, the distributed
// K and B equal centred finite differences of the assembled force for every elastic model, a
// force box shares its total force, and the step's right-hand side f + (m M + k K) v takes one
// pass where every force is affine.
#include <gtest/gtest.h>

#include "eis/app/simulation.hpp"
#include "eis/model/mechanical_system.hpp"
#include "mpi_support.hpp"

#include "eis/model/constant_force.hpp"

namespace {

eis_test::SceneFields smallBeam() {
  eis_test::SceneFields scene = eis_test::cantilever({4, 1, 1}, {8, 2, 2}, 2e3);
  scene.steps = 8;
  return scene;
}

using Model = eis_test::BoxModel;
using eis_test::relativeGap;

class Damping : public eis_test::TightSolvesTest {};

// f = -c M v with B = -c M in the matrix gives SOFA's Rayleigh mass damping rM = c exactly:
// (1 + h c) M on the left, -h c M v on the right.
TEST_F(Damping, UniformDampingIsRayleighMassDamping) {
  for (auto newton : {eis::NewtonMode::Linearized, eis::NewtonMode::Full}) {
    eis_test::SceneFields scene = smallBeam();
    scene.material = eis::MaterialModel::Corotational;
    scene.newton = newton;
    scene.dampingCoefficient = 2.5;
    eis::Simulation damped(scene.toScene(), PETSC_COMM_WORLD, nullptr);
    damped.run();
    scene.dampingCoefficient = 0;
    scene.rayleighMass = 2.5;
    eis::Simulation rayleigh(scene.toScene(), PETSC_COMM_WORLD, nullptr);
    rayleigh.run();
    EXPECT_LT(relativeGap(rayleigh.velocities(), damped.velocities()), 1e-10);
    EXPECT_LT(relativeGap(rayleigh.positions(), damped.positions()), 1e-12);
  }
}

// Directional derivatives of the distributed force against the assembled tangents: K through
// addMBKv and through the system matrix (free rows), and B.
TEST(Tangents, EqualFiniteDifferencesOfTheForceForEveryModel) {
  const eis::MaterialModel models[] = {eis::MaterialModel::Linear,
                                       eis::MaterialModel::StVenantKirchhoff,
                                       eis::MaterialModel::NeoHookean};
  for (auto model : models) {
    SCOPED_TRACE(int(model));
    eis_test::SceneFields scene = smallBeam();
    scene.material = model;
    scene.dampingCoefficient = 0.8;
    Model m(scene);
    Vec x = m.system->createVector(), u = m.field(1.3, 0.7, -0.4), v = m.field(-0.5, 1.1, 0.9),
        dx = m.field(0.9, -1.7, 0.6), fd = m.system->createVector(),
        work = m.system->createVector(), product = m.system->createVector();
    m.system->setRestState(x);
    VecAXPY(x, 1.0, u);  // a deformed state, up to ~30% strain
    // (f(moved + eps dx) - f(moved - eps dx)) / 2 eps, then f at the base point again, which
    // is the linearization point the tangents use.
    auto derivative = [&](Vec moved, double eps) {
      m.forceDifference(x, v, moved, dx, eps, fd, work);
    };
    derivative(x, 1e-6);
    VecZeroEntries(product);
    m.system->addMBKv(product, 0.0, 0.0, 1.0, dx);
    EXPECT_LT(relativeGap(fd, product), 1e-6) << "K";
    // f is linear in v: a large step is exact for B and keeps round-off (f ~ 1e3 B dx) out.
    derivative(v, 1e-2);
    VecZeroEntries(product);
    m.system->addMBKv(product, 0.0, 1.0, 0.0, dx);
    EXPECT_LT(relativeGap(fd, product), 1e-7) << "B";
    // The system matrix has its fixed rows and columns replaced: compare on a projected direction.
    m.system->projectResponse(dx);
    derivative(x, 1e-6);
    MatMult(m.system->systemMatrix(0.0, 0.0, 1.0), dx, product);
    m.system->projectResponse(product);
    m.system->projectResponse(fd);
    EXPECT_LT(relativeGap(fd, product), 1e-6) << "assembled K";
    for (Vec* w : {&x, &u, &v, &dx, &fd, &work, &product}) VecDestroy(w);
  }
}

TEST(ForceBox, SharesItsTotalForceEquallyOverItsNodes) {
  eis_test::SceneFields scene = smallBeam();
  scene.gravity = {0, 0, 0};
  scene.forceBoxes = {{{{4, 0, 0}, {4, 1, 1}}, {0.0, -9.0, 1.8}}};
  Model m(scene);
  const auto* boxes =
      dynamic_cast<const eis::ConstantForces*>(m.system->forceFields().back().get());
  ASSERT_NE(boxes, nullptr);
  EXPECT_EQ(boxes->nodesPerLoad()[0], 9);  // the x = 4 face of a 2 x 2 cross-section
  Vec rest = m.system->createVector(), zero = m.system->createVector(),
      f = m.system->createVector();
  m.system->setRestState(rest);
  VecZeroEntries(zero);
  m.system->computeForce(rest, zero, f);  // at rest only the load acts
  const PetscScalar* fs;
  VecGetArrayRead(f, &fs);
  double total[3] = {0, 0, 0};
  for (std::size_t n = 0; n < m.mesh->numLocalVertices(); ++n) {
    if (!m.mesh->owned()[n]) continue;
    const bool loaded = m.mesh->restCoords()[n][0] == 4.0;
    for (int d = 0; d < 3; ++d) {
      const double value = fs[m.mesh->ownedOffset(PetscInt(n)) + d];
      EXPECT_NEAR(value, loaded ? scene.forceBoxes[0].force[d] / 9 : 0.0, 1e-12);
      total[d] += value;
    }
  }
  VecRestoreArrayRead(f, &fs);
  MPI_Allreduce(MPI_IN_PLACE, total, 3, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD);
  for (int d = 0; d < 3; ++d) EXPECT_NEAR(total[d], scene.forceBoxes[0].force[d], 1e-12);
  for (Vec* w : {&rest, &zero, &f}) VecDestroy(w);
}

// f(x, v) + (m M + k K) v, the implicit step's right-hand side: with every force affine in x
// (linear elasticity and gravity) one pass f(x + k v), equal to computeForce then addMBKv to
// rounding, consistent mass or lumped; a model with another force (corotational) takes the two
// passes themselves, the same bits.
TEST(ForcePlusMKv, IsOnePassWhereEveryForceIsAffineAndTheTwoElsewhere) {
  const struct {
    eis::MaterialModel model;
    bool consistentMass;
    double tolerance;
  } cases[] = {{eis::MaterialModel::Linear, true, 1e-13},
               {eis::MaterialModel::Linear, false, 1e-13},
               {eis::MaterialModel::Corotational, true, 0.0}};
  for (const auto& c : cases) {
    SCOPED_TRACE(int(c.model));
    eis_test::SceneFields scene = smallBeam();
    scene.material = c.model;
    scene.mass = c.consistentMass ? eis::MassType::Consistent : eis::MassType::Lumped;
    Model m(scene);
    Vec x = m.system->createVector(), u = m.field(1.3, 0.7, -0.4), v = m.field(-0.5, 1.1, 0.9),
        once = m.system->createVector(), twice = m.system->createVector();
    m.system->setRestState(x);
    VecAXPY(x, 0.1, u);
    m.system->computeForcePlusMKv(x, v, -0.3, 0.02, once);
    m.system->computeForce(x, v, twice);
    m.system->addMBKv(twice, -0.3, 0.0, 0.02, v);
    if (c.tolerance == 0) {
      PetscBool same;
      VecEqual(once, twice, &same);
      EXPECT_TRUE(same);
    } else {
      const double gap = relativeGap(twice, once);
      EXPECT_LT(gap, c.tolerance);
      EXPECT_GT(gap, 0.0) << "the affine case evaluates the force at another point";
    }
    for (Vec* w : {&x, &u, &v, &once, &twice}) VecDestroy(w);
  }
}

}  // namespace
