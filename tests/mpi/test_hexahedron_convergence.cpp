// The convergence order of SOFA's hexahedral element (HexahedronFEMForceField, method small: the
// trilinear brick), on 1, 2 and 3 ranks, by a manufactured solution: on the unit cube held on its
// whole boundary, u* = (0, sin(pi x) sin(pi y) sin(pi z), 0) is the static displacement of the
// body force f = -div sigma(u*) of linear isotropic elasticity,
//   f = pi^2 (-(l + m) cos x cos y sin z, (3 m + l + m) sin x sin y sin z, -(l + m) sin x cos y cos z)
// (arguments pi x, pi y, pi z; l, m the Lame constants). With the load lumped at the nodes
// (M f, M the lumped mass of density 1: each node's share of volume), K u = P M f solved on grids
// of h = 1/4, 1/8 and 1/16 gives nodal errors max |u - u*| that fall by 4 when h halves: the
// observed order is 2 within 0.2. (A cantilever's deflection, the first choice, converges at
// about 1.6 at these sizes: the clamped edges are singular.)
#include <gtest/gtest.h>
#include <petscksp.h>

#include <cmath>

#include "mpi_support.hpp"

namespace {

constexpr double kYoung = 1e5, kPoisson = 0.3;
const double kPi = std::acos(-1.0);

eis::Vec3 exact(const eis::Vec3& p) {
  return {0, std::sin(kPi * p[0]) * std::sin(kPi * p[1]) * std::sin(kPi * p[2]), 0};
}

eis::Vec3 bodyForce(const eis::Vec3& p) {
  const double lambda = kYoung * kPoisson / ((1 + kPoisson) * (1 - 2 * kPoisson));
  const double mu = kYoung / (2 * (1 + kPoisson));
  const double sx = std::sin(kPi * p[0]), sy = std::sin(kPi * p[1]), sz = std::sin(kPi * p[2]);
  const double cx = std::cos(kPi * p[0]), cy = std::cos(kPi * p[1]), cz = std::cos(kPi * p[2]);
  const double p2 = kPi * kPi;
  return {-(lambda + mu) * p2 * cx * cy * sz, (3 * mu + lambda + mu) * p2 * sx * sy * sz,
          -(lambda + mu) * p2 * sx * cy * cz};
}

// The largest nodal error of the static solution on the cube cut into n^3 hexahedra.
double nodalError(int n) {
  eis_test::SceneFields scene = eis_test::cantilever({1, 1, 1}, {n, n, n}, kYoung);
  scene.poissonRatio = kPoisson;
  scene.cellType = eis::CellType::Hexahedron;
  scene.material = eis::MaterialModel::Linear;
  scene.mass = eis::MassType::Lumped;
  scene.density = 1;
  scene.gravity = {0, 0, 0};
  // Every face held: a slab of each.
  const double e = 1e-9;
  scene.fixedBoxes.clear();
  for (int d = 0; d < 3; ++d)
    for (double side : {0.0, 1.0}) {
      eis::Box box{{-e, -e, -e}, {1 + e, 1 + e, 1 + e}};
      box.min[d] = side - e;
      box.max[d] = side + e;
      scene.fixedBoxes.push_back(box);
    }
  eis_test::BoxModel model(scene);
  eis::MechanicalSystem& system = *model.system;
  Vec force = model.field(bodyForce), u_exact = model.field(exact);
  Vec load = system.createVector(), u = system.createVector();
  VecSet(load, 0);
  system.addMBKv(load, 1, 0, 0, force);
  system.projectResponse(load);
  // P (-K) P + (I - P) D: the stiffness of the free unknowns, negated.
  const Mat stiffness = system.systemMatrix(0, 0, -1);
  KSP ksp;
  KSPCreate(PETSC_COMM_WORLD, &ksp);
  KSPSetOperators(ksp, stiffness, stiffness);
  KSPSetType(ksp, KSPCG);
  PC pc;
  KSPGetPC(ksp, &pc);
  PCSetType(pc, PCJACOBI);
  KSPSetTolerances(ksp, 1e-13, 1e-30, PETSC_DEFAULT, 100000);
  KSPSolve(ksp, load, u);
  KSPConvergedReason reason;
  KSPGetConvergedReason(ksp, &reason);
  EXPECT_GT(reason, 0) << "CG did not converge on the grid of " << n << "^3 cells";
  VecAXPY(u, -1, u_exact);
  PetscReal error;
  VecNorm(u, NORM_INFINITY, &error);
  KSPDestroy(&ksp);
  for (Vec* v : {&force, &u_exact, &load, &u}) VecDestroy(v);
  return error;
}

TEST(HexahedronConvergence, ManufacturedStaticSolutionConvergesAtSecondOrder) {
  const double coarse = nodalError(4), middle = nodalError(8), fine = nodalError(16);
  EXPECT_NEAR(std::log2(coarse / middle), 2.0, 0.2) << "errors " << coarse << ", " << middle;
  EXPECT_NEAR(std::log2(middle / fine), 2.0, 0.2) << "errors " << middle << ", " << fine;
}

}  // namespace
