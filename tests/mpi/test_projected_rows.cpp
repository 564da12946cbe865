// The projected rows and columns of the assembled matrix keep their diagonal entries, on 1, 2
// and 3 ranks: A = P (mM + bB + kK) P + (I - P) D, D the matrix's own diagonal. A projected row
// then holds its diagonal entry alone; and a scene in other units (Young's modulus and density
// both 1000 times larger: the same motion, every entry 1000 times larger) has exactly 1000 times
// the matrix, projected rows included, so that CG + GAMG, which scales with it, takes the same
// iterations to the same answer. With the identity on those rows it did not: the coarse levels
// mixed the rows' 1 with entries of another scale.
#include <gtest/gtest.h>
#include <petscksp.h>

#include <cmath>
#include <memory>
#include <utility>
#include <vector>

#include "eis/linalg/linear_solver.hpp"
#include "mpi_support.hpp"

namespace {

constexpr double kStep = 0.01;

// The cantilever's step matrix M + h^2 K (consistent mass) in units scaled by `scale`.
struct ScaledBeam {
  explicit ScaledBeam(double scale, bool fixed = true) : model(scene(scale, fixed)) {
    A = model.system->systemMatrix(1.0, 0.0, -kStep * kStep);
  }
  static eis_test::SceneFields scene(double scale, bool fixed) {
    eis_test::SceneFields s = eis_test::cantilever({4, 1, 1}, {16, 4, 4}, 2e3 * scale);
    s.density = scale;
    s.mass = eis::MassType::Consistent;
    if (!fixed) s.fixedBoxes.clear();
    return s;
  }
  eis_test::BoxModel model;
  Mat A = nullptr;  // the model's
};

// The rows whose off-diagonal entries are all zero, each with its diagonal entry.
std::vector<std::pair<PetscInt, double>> decoupledRows(Mat A) {
  PetscInt start, end;
  MatGetOwnershipRange(A, &start, &end);
  std::vector<std::pair<PetscInt, double>> rows;
  for (PetscInt row = start; row < end; ++row) {
    PetscInt n;
    const PetscInt* columns;
    const PetscScalar* values;
    MatGetRow(A, row, &n, &columns, &values);
    bool decoupled = true;
    double diagonal = 0;
    for (PetscInt k = 0; k < n; ++k) {
      if (columns[k] == row)
        diagonal = values[k];
      else if (values[k] != 0.0)
        decoupled = false;
    }
    MatRestoreRow(A, row, &n, &columns, &values);
    if (decoupled) rows.emplace_back(row, diagonal);
  }
  return rows;
}

// Each projected row (the 3 unknowns of each of the fixed face's 5 x 5 nodes) holds its
// diagonal entry alone, the entry the same matrix has there with no node fixed.
TEST(ProjectedRows, KeepTheirDiagonalEntry) {
  const ScaledBeam fixed(1.0), free(1.0, false);
  const auto rows = decoupledRows(fixed.A);
  int count = int(rows.size());
  MPI_Allreduce(MPI_IN_PLACE, &count, 1, MPI_INT, MPI_SUM, PETSC_COMM_WORLD);
  EXPECT_EQ(count, 3 * 5 * 5);
  for (const auto& [row, diagonal] : rows) {
    PetscScalar expected;
    MatGetValues(free.A, 1, &row, 1, &row, &expected);
    EXPECT_EQ(diagonal, expected) << "row " << row;
  }
}

// Units 1000 times larger: 1000 times the matrix on every row, and the same solve.
TEST(ProjectedRows, OtherUnitsScaleTheMatrixAndLeaveTheSolveAlone) {
  ScaledBeam base(1.0), scaled(1000.0);
  Mat difference;
  MatDuplicate(scaled.A, MAT_COPY_VALUES, &difference);
  MatAXPY(difference, -1000.0, base.A, SAME_NONZERO_PATTERN);
  PetscReal gap, size;
  MatNorm(difference, NORM_INFINITY, &gap);
  MatNorm(scaled.A, NORM_INFINITY, &size);
  EXPECT_LT(gap, 1e-13 * size);
  MatDestroy(&difference);

  Vec rest = base.model.system->createVector();
  base.model.system->setRestState(rest);
  Vec b = base.model.field(1.0, 0.5, 0.25);
  base.model.system->projectResponse(b);
  Vec scaledB, x, scaledX;
  VecDuplicate(b, &scaledB);
  VecDuplicate(b, &x);
  VecDuplicate(b, &scaledX);
  VecCopy(b, scaledB);
  VecScale(scaledB, 1000.0);
  eis::LinearSolverOptions options;
  options.rtol = 1e-10;
  eis::LinearSolver solver(PETSC_COMM_WORLD, PCGAMG, rest, options),
      scaledSolver(PETSC_COMM_WORLD, PCGAMG, rest, options);
  const int iterations = solver.solve(base.A, b, x);
  const int scaledIterations = scaledSolver.solve(scaled.A, scaledB, scaledX);
  EXPECT_EQ(scaledIterations, iterations);
  EXPECT_LT(eis_test::relativeGap(x, scaledX), 1e-9);
  for (Vec* v : {&rest, &b, &scaledB, &x, &scaledX}) VecDestroy(v);
}

}  // namespace
