// Lagrangian rows on edge lengths (model/distance_lagrangian_constraint.cpp, SOFA's
// UniformLagrangianConstraint on a DistanceMapping child) on 1, 2 and 3 ranks: each row is the
// gradient of its edge's length, against central finite differences of the violation, and the
// violations are the lengths' gaps.
#include <gtest/gtest.h>

#include <cmath>

#include "eis/app/simulation.hpp"
#include "eis/core/error.hpp"
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

}  // namespace
