// Lagrangian rows on edge lengths (model/distance_lagrangian_constraint.cpp, SOFA's
// UniformLagrangianConstraint on a DistanceMapping child) on 1, 2 and 3 ranks: each row is the
// gradient of its edge's length, against central finite differences of the violation, and the
// violations are the lengths' gaps; the mapping's geometric stiffness under given child forces
// is the derivative of the forces J^T c carries to the nodes, in the assembled matrix and the
// matrix-free product alike.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "eis/app/simulation.hpp"
#include "eis/core/error.hpp"
#include "eis/io/scene_checks.hpp"
#include "eis/model/distance_geometric_stiffness.hpp"
#include "eis/model/distance_lagrangian_constraint.hpp"
#include "mpi_support.hpp"

namespace {

// The summed violation at x (every rank gets it).
std::vector<double> violation(const eis::LagrangianConstraints& c, Vec x) {
  std::vector<double> out(std::size_t(c.rows()), 0.0);
  c.addLocalViolation(x, out);
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, out.data(), int(out.size()), MPI_DOUBLE, MPI_SUM,
                              PETSC_COMM_WORLD));
  return out;
}

TEST(DistanceConstraint, RowsAreTheLengthsGradients) {
  eis_test::SceneFields fields;
  fields.boxSize = {2, 1, 1};
  fields.boxCells = {2, 1, 1};
  // Pairs of the box's 12 nodes (node i at (i % 3, (i / 3) % 2, i / 6)), across the ranks' parts;
  // the first three one block (SOFA's iterative false), the last edge's rest length given.
  fields.extra = {{"lagrange.solver", "block-gauss-seidel"},
                  {"lagrange.correction", "linear-solver"},
                  {"lagrange.distance", "0 11  2 9  4 5 block"},
                  {"lagrange.distance", "7 3 rest 0.25"}};
  const eis::Scene scene = fields.toScene();
  eis::Simulation simulation(scene, PETSC_COMM_WORLD, nullptr);
  const auto* c = dynamic_cast<const eis::DistanceLagrangianConstraint*>(
      simulation.system().lagrangianConstraints());
  ASSERT_NE(c, nullptr);
  ASSERT_EQ(c->rows(), 4);
  EXPECT_EQ(c->groups(), (std::vector<int>{3, 1}));
  const std::vector<eis::GroupResolution> resolutions = c->resolutions();
  ASSERT_EQ(resolutions.size(), 2u);
  EXPECT_EQ(resolutions[0].kind, eis::GroupResolution::Kind::Block);
  EXPECT_EQ(resolutions[1].kind, eis::GroupResolution::Kind::Bilateral);
  EXPECT_THROW(eis::DistanceLagrangianConstraint::parseEdges("k", "0 1 block 1 2"), eis::Error);
  // A deformed state: node i moved by 0.1 (sin 1.3 j) along its unknown j.
  Vec x;
  EIS_CHECK(VecDuplicate(simulation.positions(), &x));
  EIS_CHECK(VecCopy(simulation.positions(), x));
  PetscInt first, last;
  EIS_CHECK(VecGetOwnershipRange(x, &first, &last));
  for (PetscInt j = first; j < last; ++j)
    EIS_CHECK(VecSetValue(x, j, 0.1 * std::sin(1.3 * double(j)), ADD_VALUES));
  EIS_CHECK(VecAssemblyBegin(x));
  EIS_CHECK(VecAssemblyEnd(x));
  // At rest the gaps are 0, but the given rest length's: |x_3 - x_7| - 0.25 = sqrt(3) - 0.25.
  const std::vector<double> rest = violation(*c, simulation.positions());
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(rest[std::size_t(k)], 0.0, 1e-15);
  EXPECT_NEAR(rest[3], std::sqrt(3.0) - 0.25, 1e-15);
  PetscInt n;
  EIS_CHECK(VecGetSize(x, &n));
  const double eps = 1e-6;
  Vec unit, probe;
  EIS_CHECK(VecDuplicate(x, &unit));
  EIS_CHECK(VecDuplicate(x, &probe));
  int checked = 0;
  for (PetscInt j = 0; j < n; ++j) {
    EIS_CHECK(VecZeroEntries(unit));
    if (j >= first && j < last) EIS_CHECK(VecSetValue(unit, j, 1.0, INSERT_VALUES));
    EIS_CHECK(VecAssemblyBegin(unit));
    EIS_CHECK(VecAssemblyEnd(unit));
    EIS_CHECK(VecWAXPY(probe, eps, unit, x));
    const std::vector<double> plus = violation(*c, probe);
    EIS_CHECK(VecWAXPY(probe, -eps, unit, x));
    const std::vector<double> minus = violation(*c, probe);
    violation(*c, x);  // the rows at x
    std::vector<double> column(4, 0.0);
    c->addLocalProduct(unit, column);
    EIS_CHECK_MPI(
        MPI_Allreduce(MPI_IN_PLACE, column.data(), 4, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD));
    for (std::size_t k = 0; k < 4; ++k) {
      EXPECT_NEAR(column[k], (plus[k] - minus[k]) / (2 * eps), 1e-9)
          << "row " << k << " unknown " << j;
      checked += column[k] != 0;
    }
  }
  EXPECT_EQ(checked, 4 * 6);  // each row: its two nodes' three unknowns
  // J^T lambda is the transpose: e_j . J^T l = (J e_j) . l.
  const std::vector<double> lambda = {0.3, -1.1, 2.0, 0.7};
  EIS_CHECK(VecZeroEntries(probe));
  c->addTransposed(lambda, probe);
  std::vector<double> product(4, 0.0);
  c->addLocalProduct(probe, product);
  EIS_CHECK_MPI(
      MPI_Allreduce(MPI_IN_PLACE, product.data(), 4, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD));
  double left = 0, right = 0;
  EIS_CHECK(VecDot(probe, probe, &left));
  for (std::size_t k = 0; k < 4; ++k) right += lambda[k] * product[k];
  EXPECT_NEAR(left, right, 1e-13);
  EIS_CHECK(VecDestroy(&unit));
  EIS_CHECK(VecDestroy(&probe));
  EIS_CHECK(VecDestroy(&x));
}

// The forces J(x)^T c the child's forces c carry to the nodes at x.
void childForcesOnNodes(const eis::LagrangianConstraints& c, Vec x, const std::vector<double>& f,
                        Vec out) {
  violation(c, x);  // the rows at x
  EIS_CHECK(VecZeroEntries(out));
  c.addTransposed(f, out);
}

// A box of 2 x 1 x 1 hexahedra (node i at (i % 3, (i / 3) % 2, i / 6)) with no elastic field and
// two values of edges whose ends share a cell (1 10 shares both), one Exact and one Stabilized.
eis::Scene geometricScene(eis::OperatorMode op, const std::string& distance) {
  eis_test::SceneFields fields;
  fields.boxSize = {2, 1, 1};
  fields.boxCells = {2, 1, 1};
  fields.cellType = eis::CellType::Hexahedron;
  fields.material = eis::MaterialModel::None;
  fields.op = op;
  fields.extra = {{"lagrange.solver", "block-gauss-seidel"},
                  {"lagrange.correction", "linear-solver"},
                  {"lagrange.distance", "0 4  1 10 geometric-stiffness exact"},
                  {"lagrange.distance", distance}};
  return fields.toScene();
}

TEST(DistanceConstraint, GeometricStiffnessIsTheChildForcesDerivative) {
  EXPECT_THROW(eis::DistanceLagrangianConstraint::parseEdges("k", "0 1 geometric-stiffness soft"),
               eis::Error);
  EXPECT_EQ(eis::DistanceLagrangianConstraint::parseEdges("k",
                                                          "0 1 block geometric-stiffness "
                                                          "stabilized")
                .stiffness,
            eis::MappingStiffness::Stabilized);
  // Ends in no common cell: refused on every rank.
  EXPECT_THROW(eis::Simulation(geometricScene(eis::OperatorMode::Assembled,
                                              "0 2 geometric-stiffness stabilized"),
                               PETSC_COMM_WORLD, nullptr),
               eis::Error);
  // A retried step would take the failed try's multipliers: refused.
  eis::Scene retried = geometricScene(eis::OperatorMode::Assembled, "5 11");
  retried.set("solver.on-failure", "retry");
  EXPECT_THROW(eis::checkScene(retried), eis::Error);
  const double h = 0.01;
  // The multipliers f (c = f / h): Stabilized keeps row 3 (c < 0) and drops row 2.
  const std::vector<double> f = {0.3 * h, -1.1 * h, 2.0 * h, -0.7 * h};
  const std::vector<double> kept = {0.3, -1.1, 0.0, -0.7};
  for (eis::OperatorMode op : {eis::OperatorMode::Assembled, eis::OperatorMode::MatrixFree}) {
    eis::Simulation simulation(geometricScene(op, "5 11  2 7 geometric-stiffness stabilized"),
                               PETSC_COMM_WORLD, nullptr);
    eis::MechanicalSystem& system = simulation.system();
    const eis::LagrangianConstraints* c = system.lagrangianConstraints();
    ASSERT_NE(c, nullptr);
    ASSERT_EQ(c->rows(), 4);
    int stiffnessFields = 0;
    for (const auto& field : system.forceFields())
      stiffnessFields +=
          dynamic_cast<const eis::DistanceGeometricStiffness*>(field.get()) != nullptr;
    EXPECT_EQ(stiffnessFields, 1);
    c->setChildForces(f, h);
    // A deformed state; the force evaluation there sets u and L.
    Vec x = system.createVector(), force = system.createVector(), unit = system.createVector(),
        probe = system.createVector(), plus = system.createVector(), minus = system.createVector(),
        product = system.createVector(), matrixProduct = system.createVector();
    EIS_CHECK(VecCopy(simulation.positions(), x));
    PetscInt first, last, n;
    EIS_CHECK(VecGetOwnershipRange(x, &first, &last));
    EIS_CHECK(VecGetSize(x, &n));
    for (PetscInt j = first; j < last; ++j)
      EIS_CHECK(VecSetValue(x, j, 0.1 * std::sin(1.3 * double(j)), ADD_VALUES));
    EIS_CHECK(VecAssemblyBegin(x));
    EIS_CHECK(VecAssemblyEnd(x));
    system.computeForce(x, simulation.velocities(), force);
    const Mat K = system.systemMatrix(0.0, 0.0, 1.0);
    const double eps = 1e-6;
    double largest = 0;
    for (PetscInt j = 0; j < n; ++j) {
      EIS_CHECK(VecZeroEntries(unit));
      if (j >= first && j < last) EIS_CHECK(VecSetValue(unit, j, 1.0, INSERT_VALUES));
      EIS_CHECK(VecAssemblyBegin(unit));
      EIS_CHECK(VecAssemblyEnd(unit));
      EIS_CHECK(VecWAXPY(probe, eps, unit, x));
      childForcesOnNodes(*c, probe, kept, plus);
      EIS_CHECK(VecWAXPY(probe, -eps, unit, x));
      childForcesOnNodes(*c, probe, kept, minus);
      EIS_CHECK(VecAXPY(plus, -1.0, minus));
      EIS_CHECK(VecScale(plus, 1 / (2 * eps)));
      EIS_CHECK(VecZeroEntries(product));
      system.addMBKv(product, 0.0, 0.0, 1.0, unit);
      EIS_CHECK(MatMult(K, unit, matrixProduct));
      PetscReal norm, gap, matrixGap;
      EIS_CHECK(VecNorm(plus, NORM_INFINITY, &norm));
      EIS_CHECK(VecAXPY(product, -1.0, plus));
      EIS_CHECK(VecAXPY(matrixProduct, -1.0, plus));
      EIS_CHECK(VecNorm(product, NORM_INFINITY, &gap));
      EIS_CHECK(VecNorm(matrixProduct, NORM_INFINITY, &matrixGap));
      EXPECT_LT(gap, 1e-8) << "unknown " << j;
      EXPECT_LT(matrixGap, 1e-8) << "unknown " << j;
      largest = std::max(largest, double(norm));
    }
    EXPECT_GT(largest, 0.1);  // the blocks are there
    for (Vec* v : {&x, &force, &unit, &probe, &plus, &minus, &product, &matrixProduct})
      EIS_CHECK(VecDestroy(v));
  }
}

}  // namespace
