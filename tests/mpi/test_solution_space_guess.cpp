// The starting point from the span of the last solutions (solver.initial-guess = span), on 1, 2
// and 3 ranks: exact for a right-hand side in the new matrix's image of their span after the
// matrix changes, symmetric (Galerkin) or not (least squares), with dependent solutions dropped;
// the products by an unchanged matrix reused, those by a changed one made again; and through
// LinearSolver, a solve that needs no iteration.
#include <gtest/gtest.h>
#include <petscksp.h>

#include <cmath>
#include <vector>

#include "eis/linalg/linear_solver.hpp"
#include "eis/linalg/solution_space_guess.hpp"
#include "mpi_support.hpp"

namespace {

constexpr PetscInt kRows = 90;

// A tridiagonal matrix: diagonal d(i), below -lower, above -upper; symmetric when they match.
// Diagonally dominant: nonsingular, and positive definite when symmetric.
Mat tridiagonal(double (*d)(PetscInt), double lower, double upper) {
  Mat A;
  MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, kRows, kRows, 3, nullptr, 2, nullptr,
               &A);
  PetscInt begin, end;
  MatGetOwnershipRange(A, &begin, &end);
  for (PetscInt row = begin; row < end; ++row) {
    MatSetValue(A, row, row, d(row), INSERT_VALUES);
    if (row > 0) MatSetValue(A, row, row - 1, -lower, INSERT_VALUES);
    if (row < kRows - 1) MatSetValue(A, row, row + 1, -upper, INSERT_VALUES);
  }
  MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY);
  MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY);
  if (lower == upper) MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE);
  return A;
}

double first(PetscInt) {
  return 2.5;
}
double second(PetscInt row) {
  return 4.0 + std::sin(0.3 * double(row));
}

// Solution number j: a smooth wave of its own frequency plus a ramp, by global index.
Vec solution(Mat A, int j) {
  Vec x;
  MatCreateVecs(A, &x, nullptr);
  PetscInt begin, end;
  VecGetOwnershipRange(x, &begin, &end);
  for (PetscInt row = begin; row < end; ++row)
    VecSetValue(x, row, std::cos(0.05 * (j + 1) * double(row)) + 0.01 * j * double(row),
                INSERT_VALUES);
  VecAssemblyBegin(x);
  VecAssemblyEnd(x);
  return x;
}

// sum_j c_j xs_j, and A applied to it.
Vec combination(const std::vector<Vec>& xs, const std::vector<double>& c) {
  Vec y;
  VecDuplicate(xs[0], &y);
  VecZeroEntries(y);
  std::vector<Vec> columns = xs;
  VecMAXPY(y, PetscInt(columns.size()), c.data(), columns.data());
  return y;
}

// Solutions stored for one matrix, the start computed for another: X c for b = A_new X c.
double startGap(Mat before, Mat after, const std::vector<int>& stored, const std::vector<double>& c,
                int expectedKept) {
  eis::SolutionSpaceGuess guess(8);
  std::vector<Vec> xs;
  for (int j : stored) {
    xs.push_back(solution(before, j));
    guess.store(xs.back());
  }
  Vec exact = combination(xs, c);
  Vec b, x;
  MatCreateVecs(after, &x, &b);
  MatMult(after, exact, b);
  EXPECT_EQ(guess.start(after, b, x), expectedKept);
  const double result = eis_test::relativeGap(exact, x);
  for (Vec* v : {&b, &x}) VecDestroy(v);
  VecDestroy(&exact);
  for (Vec& v : xs) VecDestroy(&v);
  return result;
}

TEST(SolutionSpaceGuess, ExactAfterTheSymmetricMatrixChanges) {
  Mat before = tridiagonal(first, 1.0, 1.0), after = tridiagonal(second, 1.3, 1.3);
  const double g = startGap(before, after, {0, 1, 2, 3}, {1.0, -2.0, 0.5, 3.0}, 4);
  EXPECT_LT(g, 1e-11);
  MatDestroy(&before);
  MatDestroy(&after);
}

// Not known symmetric: the least-squares form, exact all the same.
TEST(SolutionSpaceGuess, ExactForANonsymmetricMatrix) {
  Mat before = tridiagonal(first, 1.0, 1.0), after = tridiagonal(second, 1.5, 0.4);
  const double g = startGap(before, after, {0, 1, 2}, {0.7, 1.0, -1.5}, 3);
  EXPECT_LT(g, 1e-11);
  MatDestroy(&before);
  MatDestroy(&after);
}

// A solution stored twice is dropped, the answer unchanged; stored past the capacity, the
// oldest go (8 kept of 10).
TEST(SolutionSpaceGuess, DependentSolutionsAreDroppedAndTheOldestGo) {
  Mat before = tridiagonal(first, 1.0, 1.0), after = tridiagonal(second, 1.3, 1.3);
  EXPECT_LT(startGap(before, after, {0, 1, 0, 2}, {1.0, 1.0, 1.0, -1.0}, 3), 1e-11);
  EXPECT_LT(startGap(before, after, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9},
                     {0, 0, 0, 0, 0, 0, 0, 0, 1.0, 2.0}, 8),
            1e-11);
  MatDestroy(&before);
  MatDestroy(&after);
}

// A shell that counts its products by the tridiagonal matrix it wraps.
struct CountedProducts {
  Mat inner = nullptr;
  int products = 0;
};

PetscErrorCode countedMult(Mat shell, Vec in, Vec out) {
  PetscFunctionBeginUser;
  CountedProducts* counted;
  PetscCall(MatShellGetContext(shell, &counted));
  ++counted->products;
  PetscCall(MatMult(counted->inner, in, out));
  PetscFunctionReturn(0);
}

// The matrix unchanged (the same object, the same values), a start multiplies only the
// solutions stored since the last one: 3 products, then 1 for the solution added, then none.
TEST(SolutionSpaceGuess, AnUnchangedMatrixMultipliesOnlyTheSolutionsStoredSince) {
  CountedProducts counted;
  counted.inner = tridiagonal(first, 1.0, 1.0);
  PetscInt local;
  MatGetLocalSize(counted.inner, &local, nullptr);
  Mat A;
  MatCreateShell(PETSC_COMM_WORLD, local, local, kRows, kRows, &counted, &A);
  MatShellSetOperation(A, MATOP_MULT, reinterpret_cast<void (*)(void)>(countedMult));
  MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE);
  eis::SolutionSpaceGuess guess(8);
  std::vector<Vec> xs;
  for (int j = 0; j < 4; ++j) xs.push_back(solution(counted.inner, j));
  for (int j = 0; j < 3; ++j) guess.store(xs[j]);
  Vec b, x;
  MatCreateVecs(counted.inner, &x, &b);
  VecSet(b, 1.0);
  guess.start(A, b, x);
  EXPECT_EQ(counted.products, 3);
  guess.store(xs[3]);
  guess.start(A, b, x);
  EXPECT_EQ(counted.products, 4);
  Vec exact = combination(xs, {1.0, -0.5, 2.0, 0.25});
  MatMult(counted.inner, exact, b);
  EXPECT_EQ(guess.start(A, b, x), 4);
  EXPECT_EQ(counted.products, 4);
  EXPECT_LT(eis_test::relativeGap(exact, x), 1e-11);
  for (Vec* v : {&b, &x, &exact}) VecDestroy(v);
  for (Vec& v : xs) VecDestroy(&v);
  MatDestroy(&A);
  MatDestroy(&counted.inner);
}

// The same matrix object with new values: the products are made again, so the start stays
// exact for the new values (the old products would give twice the answer here).
TEST(SolutionSpaceGuess, NewValuesInTheSameMatrixAreMultipliedAgain) {
  Mat A = tridiagonal(second, 1.3, 1.3);
  eis::SolutionSpaceGuess guess(8);
  std::vector<Vec> xs;
  for (int j = 0; j < 3; ++j) {
    xs.push_back(solution(A, j));
    guess.store(xs.back());
  }
  Vec exact = combination(xs, {0.5, 1.0, -1.0});
  Vec b, x;
  MatCreateVecs(A, &x, &b);
  MatMult(A, exact, b);
  guess.start(A, b, x);
  EXPECT_LT(eis_test::relativeGap(exact, x), 1e-11);
  MatScale(A, 2.0);
  MatMult(A, exact, b);
  guess.start(A, b, x);
  EXPECT_LT(eis_test::relativeGap(exact, x), 1e-11);
  for (Vec* v : {&b, &x, &exact}) VecDestroy(v);
  for (Vec& v : xs) VecDestroy(&v);
  MatDestroy(&A);
}

// Through the linear solver: solves with one matrix store their solutions; after the matrix
// changes (its values: the same Mat), a right-hand side in its image of their span needs no
// iteration, and the next one (in no such span) converges as before.
TEST(SolutionSpaceGuess, TheSolverNeedsNoIterationAfterTheMatrixChanges) {
  Mat A = tridiagonal(first, 1.0, 1.0);
  eis::LinearSolverOptions options;
  options.start = eis::LinearSolverOptions::Start::Span;
  eis::LinearSolver solver(PETSC_COMM_WORLD, PCJACOBI, nullptr, options);
  std::vector<Vec> xs;
  for (int j = 0; j < 3; ++j) {
    Vec target = solution(A, j);
    Vec b, x;
    MatCreateVecs(A, &x, &b);
    MatMult(A, target, b);
    EXPECT_GT(solver.solve(A, b, x), 0) << "solve " << j;
    xs.push_back(x);
    VecDestroy(&b);
    VecDestroy(&target);
  }
  // The same matrix object, new values (a corotational step's matrix changes so).
  PetscInt begin, end;
  MatGetOwnershipRange(A, &begin, &end);
  for (PetscInt row = begin; row < end; ++row) MatSetValue(A, row, row, second(row), INSERT_VALUES);
  MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY);
  MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY);
  Vec exact = combination(xs, {2.0, -1.0, 0.25});
  Vec b, x;
  MatCreateVecs(A, &x, &b);
  MatMult(A, exact, b);
  EXPECT_EQ(solver.solve(A, b, x), 0);
  EXPECT_LT(eis_test::relativeGap(exact, x), 1e-10);
  Vec other = solution(A, 5);
  MatMult(A, other, b);
  EXPECT_GT(solver.solve(A, b, x), 0);
  EXPECT_LT(eis_test::relativeGap(other, x), 1e-6);
  for (Vec* v : {&b, &x}) VecDestroy(v);
  VecDestroy(&exact);
  VecDestroy(&other);
  for (Vec& v : xs) VecDestroy(&v);
  MatDestroy(&A);
}

}  // namespace
