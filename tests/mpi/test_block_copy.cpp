// The block copy an iterative solve multiplies by (solver.block-products), on 1, 2 and 3 ranks:
// its product is the AIJ matrix's, before and after the matrix's values change; a matrix that is
// not made of full blocks on every rank is multiplied itself; the matrix's diagonal is read from
// its copy (fineBlockProducts) and follows its values; a matrix known to be symmetric is copied
// as its upper triangle (solver.symmetric-blocks; on several ranks each rank's diagonal part,
// behind a MatShell, and only with the read-ahead); the linear solver's KSP multiplies
// by the copy and preconditions with the matrix; a corotational run gives the same trajectory
// with the copy as without it; GAMG's levels between the finest and the coarsest multiply
// through copies of their own (multiplyLevelsInBlocks) as their AIJ operators do; and GAMG set
// up again after the copy was remade takes its finest residual with the new copy.
#include <gtest/gtest.h>
#include <petscmat.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "cantilever_solve.hpp"
#include "eis/app/simulation.hpp"
#include "eis/linalg/block_copy.hpp"
#include "eis/linalg/level_block_products.hpp"
#include "eis/linalg/linear_solver.hpp"
#include "mpi_support.hpp"

namespace {

using eis_test::disagreement;

constexpr PetscInt kBs = 3;
constexpr PetscInt kNodesPerRank = 2;

enum class Chain { Nonsymmetric, Holed, SymmetricPositive };

// A chain of nodes, kBs unknowns each, every node coupled with its neighbours by a full
// kBs x kBs block of values that differ entry by entry. Holed: one entry of the first rank's
// first off-diagonal block left out, so that its rows are not made of full blocks there.
// SymmetricPositive: symmetric and strictly diagonally dominant, for CG.
Mat chainMatrix(Chain kind) {
  int rank, size;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  const PetscInt nodes = kNodesPerRank * size;
  Mat A;
  MatCreateAIJ(PETSC_COMM_WORLD, kBs * kNodesPerRank, kBs * kNodesPerRank, PETSC_DETERMINE,
               PETSC_DETERMINE, 3 * kBs, nullptr, 2 * kBs, nullptr, &A);
  MatSetBlockSize(A, kBs);
  for (PetscInt node = rank * kNodesPerRank; node < (rank + 1) * kNodesPerRank; ++node)
    for (PetscInt other = std::max<PetscInt>(0, node - 1); other <= std::min(nodes - 1, node + 1);
         ++other)
      for (PetscInt r = 0; r < kBs; ++r)
        for (PetscInt c = 0; c < kBs; ++c) {
          const PetscInt row = kBs * node + r, col = kBs * other + c;
          if (kind == Chain::Holed && rank == 0 && node == 0 && other == 1 && r == 0 && c == 2)
            continue;
          const double value =
              kind == Chain::SymmetricPositive
                  ? 0.1 * std::sin(1.0 + 7.0 * std::min(row, col) + 3.0 * std::max(row, col))
                  : std::sin(1.0 + 7.0 * row + 3.0 * col);
          MatSetValue(A, row, col, value + (row == col ? 4 : 0), INSERT_VALUES);
        }
  MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY);
  MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY);
  return A;
}

// A vector of A's columns with no two entries alike.
Vec distinctEntries(Mat A) {
  Vec x;
  MatCreateVecs(A, &x, nullptr);
  PetscInt start, end;
  VecGetOwnershipRange(x, &start, &end);
  for (PetscInt i = start; i < end; ++i) VecSetValue(x, i, std::cos(0.5 + i), INSERT_VALUES);
  VecAssemblyBegin(x);
  VecAssemblyEnd(x);
  return x;
}

// |B x - A x|_inf / |A x|_inf for one x with no two entries alike.
double productGap(Mat A, Mat B) {
  Vec x = distinctEntries(A), a, b;
  MatCreateVecs(A, nullptr, &a);
  VecDuplicate(a, &b);
  MatMult(A, x, a);
  MatMult(B, x, b);
  const double gap = eis_test::relativeGap(a, b);
  VecDestroy(&x);
  VecDestroy(&a);
  VecDestroy(&b);
  return gap;
}

using eis_test::Operation;
using eis_test::operationOf;

// PETSc's own operation for a matrix of A's type (AIJ), to tell a redirected matrix.
Operation plainOperation(Mat A, MatOperation operation) {
  Mat plain;
  MatDuplicate(A, MAT_DO_NOT_COPY_VALUES, &plain);
  const Operation function = operationOf(plain, operation);
  MatDestroy(&plain);
  return function;
}

bool isBlockMatrix(Mat M) {
  PetscBool baij;
  PetscObjectTypeCompareAny(reinterpret_cast<PetscObject>(M), &baij, MATSEQBAIJ, MATMPIBAIJ, "");
  return baij;
}

// PETSc's SBAIJ, or a MatShell over one (one rank, with a read-ahead) or over a BAIJ matrix whose
// diagonal part holds no block left of its diagonal (several ranks).
bool isUpperTriangle(Mat M) {
  PetscBool sbaij, shell;
  PetscObjectTypeCompare(reinterpret_cast<PetscObject>(M), MATSEQSBAIJ, &sbaij);
  PetscObjectTypeCompare(reinterpret_cast<PetscObject>(M), MATSHELL, &shell);
  if (sbaij || !shell) return sbaij;
  Mat copy, diagonal;
  MatShellGetContext(M, &copy);
  PetscObjectTypeCompare(reinterpret_cast<PetscObject>(copy), MATSEQSBAIJ, &sbaij);
  if (sbaij) return true;
  if (!isBlockMatrix(copy)) return false;
  MatMPIBAIJGetSeqBAIJ(copy, &diagonal, nullptr, nullptr);
  PetscInt n;
  const PetscInt *offsets, *columns;
  PetscBool done;
  MatGetRowIJ(diagonal, 0, PETSC_FALSE, PETSC_TRUE, &n, &offsets, &columns, &done);
  bool upper = done;
  for (PetscInt i = 0; i < n; ++i)
    for (PetscInt k = offsets[i]; k < offsets[i + 1]; ++k) upper = upper && columns[k] >= i;
  MatRestoreRowIJ(diagonal, 0, PETSC_FALSE, PETSC_TRUE, &n, &offsets, &columns, &done);
  return upper;
}

// The gap between A's products and B's other ones, which a symmetric A equals: B^T x and
// y + B x, against A x and y + A x.
double otherProductsGap(Mat A, Mat B) {
  Vec x = distinctEntries(A), y, a, b;
  MatCreateVecs(A, nullptr, &a);
  VecDuplicate(a, &b);
  VecDuplicate(a, &y);
  VecSet(y, 0.75);
  MatMult(A, x, a);
  MatMultTranspose(B, x, b);
  double gap = eis_test::relativeGap(a, b);
  MatMultAdd(A, x, y, a);
  MatMultAdd(B, x, y, b);
  gap = std::max(gap, eis_test::relativeGap(a, b));
  for (Vec* v : {&x, &y, &a, &b}) VecDestroy(v);
  return gap;
}

int ranks() {
  int size;
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  return size;
}

TEST(BlockCopy, MultipliesAsTheMatrixBeforeAndAfterItsValuesChange) {
  Mat A = chainMatrix(Chain::Nonsymmetric);
  eis::BlockCopy copy;
  const Mat B = copy.of(A);
  ASSERT_TRUE(isBlockMatrix(B));
  EXPECT_LT(productGap(A, B), 1e-15);
  EXPECT_EQ(copy.of(A), B) << "the same matrix keeps its copy";
  // New values in the same structure, as a re-assembly writes them: the copy follows.
  MatScale(A, -3.0);
  MatShift(A, 0.25);
  ASSERT_EQ(copy.of(A), B);
  EXPECT_LT(productGap(A, B), 1e-15);
  MatDestroy(&A);
}

// solver.symmetric-blocks: a matrix known to be symmetric is copied as its upper triangle, whose
// products are the matrix's (on several ranks each rank's diagonal part, through a MatShell);
// once the matrix is no longer known to be symmetric, the copy is the whole matrix. A matrix not
// known to be symmetric keeps the whole matrix whatever its values.
TEST(BlockCopy, ASymmetricMatrixIsCopiedAsItsUpperTriangle) {
  Mat A = chainMatrix(Chain::SymmetricPositive);
  eis::BlockCopy unflagged(eis::BlockCopy::Storage::Upper);
  EXPECT_TRUE(isBlockMatrix(unflagged.of(A))) << "symmetric values, but not known to be";
  // As the system matrix says it: symmetric, and staying so through new values.
  MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE);
  MatSetOption(A, MAT_SYMMETRY_ETERNAL, PETSC_TRUE);
  eis::BlockCopy copy(eis::BlockCopy::Storage::Upper);
  const Mat B = copy.of(A);
  EXPECT_TRUE(isUpperTriangle(B));
  EXPECT_LT(productGap(A, B), 1e-15);
  EXPECT_LT(otherProductsGap(A, B), 1e-15);
  MatScale(A, -3.0);
  MatShift(A, 0.25);
  ASSERT_EQ(copy.of(A), B) << "new values in the same structure keep the copy";
  EXPECT_LT(productGap(A, B), 1e-15);
  EXPECT_LT(otherProductsGap(A, B), 1e-15);
  // Its diagonal, which fineBlockProducts has the matrix read from it.
  Vec expected, diagonal;
  MatCreateVecs(A, &expected, &diagonal);
  MatGetDiagonal(A, expected);
  MatGetDiagonal(B, diagonal);
  EXPECT_EQ(eis_test::relativeGap(expected, diagonal), 0.0);
  VecDestroy(&expected);
  VecDestroy(&diagonal);
  // The same matrix, no longer symmetric: the upper triangle alone would be wrong.
  PetscInt start;
  MatGetOwnershipRange(A, &start, nullptr);
  MatSetValue(A, start, start + 1, 7.0, INSERT_VALUES);
  MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY);
  MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY);
  MatSetOption(A, MAT_SYMMETRIC, PETSC_FALSE);
  const Mat whole = copy.of(A);
  EXPECT_TRUE(isBlockMatrix(whole));
  EXPECT_LT(productGap(A, whole), 1e-15);
  MatDestroy(&A);
}

// On several ranks the triangle's product is the read-ahead's loop alone: with PETSc's loops
// (solver.block-prefetch = 0) the copy is the whole matrix there, and still the triangle on one
// rank, whose SBAIJ storage PETSc multiplies itself.
TEST(BlockCopy, WithoutTheReadAheadSeveralRanksCopyTheWholeSymmetricMatrix) {
  Mat A = chainMatrix(Chain::SymmetricPositive);
  MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE);
  MatSetOption(A, MAT_SYMMETRY_ETERNAL, PETSC_TRUE);
  eis::BlockPrefetch none;
  none.distance = 0;
  eis::BlockCopy copy(eis::BlockCopy::Storage::Upper, nullptr, none);
  const Mat B = copy.of(A);
  EXPECT_EQ(isUpperTriangle(B), ranks() == 1);
  EXPECT_EQ(isBlockMatrix(B), ranks() > 1);
  EXPECT_LT(productGap(A, B), 1e-15);
  MatDestroy(&A);
}

TEST(BlockCopy, AMatrixNotMadeOfFullBlocksOnEveryRankIsMultipliedItself) {
  Mat holed = chainMatrix(Chain::Holed);
  eis::BlockCopy copy;
  EXPECT_EQ(copy.of(holed), holed) << "one entry missing on rank 0 only";
  MatDestroy(&holed);

  Mat scalar;
  MatCreateAIJ(PETSC_COMM_WORLD, 2, 2, PETSC_DETERMINE, PETSC_DETERMINE, 1, nullptr, 0, nullptr,
               &scalar);
  PetscInt row;
  MatGetOwnershipRange(scalar, &row, nullptr);
  MatSetValue(scalar, row, row, 2.0, INSERT_VALUES);
  MatSetValue(scalar, row + 1, row + 1, 3.0, INSERT_VALUES);
  MatAssemblyBegin(scalar, MAT_FINAL_ASSEMBLY);
  MatAssemblyEnd(scalar, MAT_FINAL_ASSEMBLY);
  EXPECT_EQ(copy.of(scalar), scalar) << "block size 1";
  MatDestroy(&scalar);
}

// The diagonal of the matrix a solve multiplies through its copy (fineBlockProducts) is read
// from the copy, and is the matrix's own before and after its values change: a copy left with
// old values would give the Jacobi smoothers a stale diagonal. A matrix with no copy keeps
// PETSc's own.
TEST(FineBlockProducts, TheDiagonalComesFromTheCopyAndFollowsTheMatrixsValues) {
  Mat A = chainMatrix(Chain::Nonsymmetric);
  Vec expected, diagonal;
  MatCreateVecs(A, &expected, &diagonal);
  MatGetDiagonal(A, expected);
  const Mat B = eis::fineBlockProducts(A, eis::BlockPrefetch{}, eis::BlockCopy::Storage::Whole);
  ASSERT_TRUE(isBlockMatrix(B));
  EXPECT_EQ(eis::fineBlockProducts(A, eis::BlockPrefetch{}, eis::BlockCopy::Storage::Whole), B)
      << "the same matrix keeps its copy";
  EXPECT_NE(operationOf(A, MATOP_GET_DIAGONAL), plainOperation(A, MATOP_GET_DIAGONAL));
  MatGetDiagonal(A, diagonal);
  EXPECT_EQ(eis_test::relativeGap(expected, diagonal), 0.0);
  // New values, as a re-assembly writes them, before anything else asks for the copy.
  MatScale(A, -3.0);
  MatShift(A, 0.25);
  VecScale(expected, -3.0);
  VecShift(expected, 0.25);
  MatGetDiagonal(A, diagonal);
  EXPECT_EQ(eis_test::relativeGap(expected, diagonal), 0.0);
  EXPECT_LT(productGap(
                A, eis::fineBlockProducts(A, eis::BlockPrefetch{}, eis::BlockCopy::Storage::Whole)),
            1e-15);
  VecDestroy(&expected);
  VecDestroy(&diagonal);
  MatDestroy(&A);

  Mat holed = chainMatrix(Chain::Holed);
  EXPECT_EQ(eis::fineBlockProducts(holed, eis::BlockPrefetch{}, eis::BlockCopy::Storage::Whole),
            holed);
  EXPECT_EQ(operationOf(holed, MATOP_GET_DIAGONAL), plainOperation(holed, MATOP_GET_DIAGONAL));
  MatDestroy(&holed);
}

// The linear solver hands the copy to its KSP as the operator and keeps A as the
// preconditioner's matrix; with solver.block-products = false, and for a direct solve, the KSP
// multiplies by A. All three give the same answer.
TEST(BlockCopy, TheIterativeSolveMultipliesByTheCopyAndKeepsTheMatrixForThePreconditioner) {
  Mat A = chainMatrix(Chain::SymmetricPositive);
  Vec b;
  MatCreateVecs(A, nullptr, &b);
  VecSet(b, 1.0);
  struct Case {
    const char* name;
    bool blockProducts, direct, copyExpected;
  };
  MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE);
  MatSetOption(A, MAT_SYMMETRY_ETERNAL, PETSC_TRUE);
  const Case cases[] = {{"direct", true, true, false},
                        {"iterative", true, false, true},
                        {"iterative, solver.symmetric-blocks = false", true, false, true},
                        {"iterative, solver.block-products = false", false, false, false}};
  std::vector<Vec> answers;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    eis::LinearSolverOptions options;
    options.blockProducts = c.blockProducts;
    options.symmetricBlocks = std::string(c.name).find("symmetric-blocks") == std::string::npos;
    options.direct = c.direct;
    options.rtol = 1e-12;
    eis::LinearSolver solver(PETSC_COMM_WORLD, PCJACOBI, nullptr, options);
    answers.emplace_back();
    VecDuplicate(b, &answers.back());
    solver.solve(A, b, answers.back());
    Mat amat, pmat;
    KSPGetOperators(solver.ksp(), &amat, &pmat);
    EXPECT_EQ(pmat, A);
    // The upper triangle, unless solver.symmetric-blocks = false.
    const bool upper = c.copyExpected && options.symmetricBlocks;
    EXPECT_EQ(isUpperTriangle(amat), upper);
    EXPECT_EQ(isBlockMatrix(amat), c.copyExpected && !upper);
    if (!c.copyExpected) EXPECT_EQ(amat, A);
    EXPECT_LT(eis_test::relativeGap(answers.front(), answers.back()), 1e-10);
  }
  for (Vec& x : answers) VecDestroy(&x);
  VecDestroy(&b);
  MatDestroy(&A);
}

// A soft corotational cantilever re-assembled at every step, CG + GAMG at rtol 1e-10: the copy
// changes only the rounding of the products, so the states agree to the solver's tolerance.
TEST(BlockCopy, ACorotationalRunFollowsTheSameTrajectoryWithTheCopyAsWithout) {
  eis_test::SceneFields scene = eis_test::cantilever({4, 1, 1}, {8, 2, 2}, 2e3);
  scene.material = eis::MaterialModel::Corotational;
  scene.steps = 6;
  scene.pcLag = 0;
  scene.extra = {{"solver.rtol", "1e-10"}};
  auto run = [&](const char* blockProducts) {
    eis_test::SceneFields variant = scene;
    variant.extra.emplace_back("solver.block-products", blockProducts);
    const eis::Scene read = variant.toScene();
    // The key reaches the solver's options (the test above follows them into the KSP).
    EXPECT_EQ(
        eis::linearSolverOf(eis::readLinearSolverParameters(read), false).options.blockProducts,
        std::string(blockProducts) == "true");
    eis::Simulation simulation(read, PETSC_COMM_WORLD, nullptr);
    simulation.run();
    return simulation.gatherState();
  };
  const eis::NodalTable withCopy = run("true"), without = run("false");
  EXPECT_LT(disagreement(without, withCopy, scene), 1e-8);
}

using eis_test::CantileverSolve;

// A vector of M's column (or, transposed, row) layout with no two entries alike.
Vec distinctEntries(Mat M, bool transposed) {
  Vec x;
  if (transposed)
    MatCreateVecs(M, nullptr, &x);
  else
    MatCreateVecs(M, &x, nullptr);
  PetscInt start, end;
  VecGetOwnershipRange(x, &start, &end);
  for (PetscInt i = start; i < end; ++i) VecSetValue(x, i, std::cos(0.5 + i), INSERT_VALUES);
  VecAssemblyBegin(x);
  VecAssemblyEnd(x);
  return x;
}

// The largest relative gap between A's four products (M x, M x + y, M^T x, M^T x + y) and those
// of a duplicate of A, which PETSc multiplies as a plain AIJ matrix.
double productsGap(Mat A) {
  Mat plain;
  MatDuplicate(A, MAT_COPY_VALUES, &plain);
  double gap = 0;
  for (bool transposed : {false, true}) {
    Vec x = distinctEntries(A, transposed), y = distinctEntries(A, !transposed), redirected,
        reference;
    VecDuplicate(y, &redirected);
    VecDuplicate(y, &reference);
    if (transposed) {
      MatMultTranspose(A, x, redirected);
      MatMultTranspose(plain, x, reference);
    } else {
      MatMult(A, x, redirected);
      MatMult(plain, x, reference);
    }
    gap = std::max(gap, eis_test::relativeGap(reference, redirected));
    if (transposed) {
      MatMultTransposeAdd(A, x, y, redirected);
      MatMultTransposeAdd(plain, x, y, reference);
    } else {
      MatMultAdd(A, x, y, redirected);
      MatMultAdd(plain, x, y, reference);
    }
    gap = std::max(gap, eis_test::relativeGap(reference, redirected));
    for (Vec* v : {&x, &y, &redirected, &reference}) VecDestroy(v);
  }
  MatDestroy(&plain);
  return gap;
}

// Each middle level of elasticity's hierarchy (blocks of 6: the rigid-body modes) and each
// interpolation (3 x 6 blocks) multiplies through its copy, not PETSc's AIJ product, and as that
// product does in all four forms, before and after its values change (as GAMG reusing its
// interpolation would change them).
TEST(LevelBlockProducts, TheLevelsAndInterpolationsMultiplyThroughCopiesAsTheyDo) {
  const CantileverSolve solve(true);
  const std::vector<Mat> levels = solve.middleLevels(), interpolations = solve.interpolations();
  ASSERT_GE(levels.size(), 1u);
  std::vector<Mat> redirected = levels;
  redirected.insert(redirected.end(), interpolations.begin(), interpolations.end());
  for (Mat A : redirected) {
    PetscInt rowBlock, columnBlock;
    MatGetBlockSizes(A, &rowBlock, &columnBlock);
    EXPECT_EQ(columnBlock, 6);
    EXPECT_NE(operationOf(A, MATOP_MULT), plainOperation(A, MATOP_MULT));
    EXPECT_LT(productsGap(A), 1e-14);
    MatScale(A, -2.0);
    EXPECT_LT(productsGap(A), 1e-14);
  }
  PetscInt finestRows;
  MatGetBlockSizes(interpolations.back(), &finestRows, nullptr);
  EXPECT_EQ(finestRows, 3);
}

// With solver.single-precision-levels the same copies multiply by their values rounded to float:
// every level and interpolation differs from its AIJ product by the rounding (a float's relative
// 6e-8 at most per entry), not more, in all four forms, after its values change too. The
// hierarchy of a second set-up, whose levels keep their AIJ storage to compare with.
TEST(LevelBlockProducts, WithSingleValuesTheLevelsMultiplyToFloatRounding) {
  CantileverSolve solve(true, true);
  solve.setUpAgain();
  std::vector<Mat> redirected = solve.middleLevels();
  const std::vector<Mat> interpolations = solve.interpolations();
  redirected.insert(redirected.end(), interpolations.begin(), interpolations.end());
  for (Mat A : redirected) {
    EXPECT_GT(productsGap(A), 1e-12);
    EXPECT_LT(productsGap(A), 1e-5);
    MatScale(A, -2.0);
    EXPECT_GT(productsGap(A), 1e-12);
    EXPECT_LT(productsGap(A), 1e-5);
  }
}

// On one rank those float values are the levels' and interpolations' only copy: none keeps a
// BAIJ copy in double beside its float blocks (340 MB at 1e6 unknowns, where no product read it);
// on several ranks each has its BAIJ copy, whose off-diagonal part stays double.
TEST(LevelBlockProducts, WithSingleValuesOneRankKeepsNoBlockCopyInDouble) {
  int size;
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  const CantileverSolve solve(true, true);
  std::vector<Mat> redirected = solve.middleLevels();
  const std::vector<Mat> interpolations = solve.interpolations();
  redirected.insert(redirected.end(), interpolations.begin(), interpolations.end());
  for (Mat A : redirected) {
    PetscObject blockCopy;
    PetscObjectQuery(reinterpret_cast<PetscObject>(A), "eis_level_block_copy", &blockCopy);
    EXPECT_EQ(blockCopy != nullptr, size > 1);
    EXPECT_NE(operationOf(A, MATOP_MULT), plainOperation(A, MATOP_MULT));
  }
}

// On one rank the first set-up frees the AIJ storage of every middle level and interpolation
// (their float blocks become their only copy; 509 MiB at 1e6 unknowns); a second set-up builds
// the hierarchy afresh and keeps it, for the set-ups after it. Several ranks keep theirs.
TEST(LevelBlockProducts, OneRanksFirstSetUpReleasesTheLevelsAijStorage) {
  int size;
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  CantileverSolve solve(true, true);
  const auto stored = [](const CantileverSolve& s) {
    std::vector<Mat> matrices = s.middleLevels();
    const std::vector<Mat> interpolations = s.interpolations();
    matrices.insert(matrices.end(), interpolations.begin(), interpolations.end());
    std::vector<double> nonzeros;
    for (Mat M : matrices) {
      MatInfo info;
      MatGetInfo(M, MAT_GLOBAL_SUM, &info);
      nonzeros.push_back(info.nz_used);
    }
    return nonzeros;
  };
  const std::vector<double> first = stored(solve);
  ASSERT_GE(first.size(), 3u);
  for (double nz : first) EXPECT_EQ(nz == 0.0, size == 1);
  Vec u = nullptr;
  VecDuplicate(solve.u, &u);
  VecCopy(solve.u, u);
  solve.setUpAgain();
  for (double nz : stored(solve)) EXPECT_GT(nz, 0.0);
  VecScale(solve.u, 2.0);
  EXPECT_LT(eis_test::relativeGap(u, solve.u), 1e-9);
  VecDestroy(&u);
}

// After a set-up each level's Chebyshev smoother keeps its eigenvalue bounds but not the vectors
// of the Krylov method that estimated them (releaseEigenvalueEstimates), and the preconditioner
// is the same without them: solved again from zero, the system gives the first answer to the
// last bit.
TEST(EigenvalueEstimates, TheirVectorsGoOnceTheSmoothersAreSetUp) {
  CantileverSolve solve(true, true);
  const PC pc = solve.multigrid();
  PetscInt levels;
  PCMGGetLevels(pc, &levels);
  ASSERT_GE(levels, 3);
  for (PetscInt level = 1; level < levels; ++level) {
    KSP smoother, estimate = nullptr;
    PCMGGetSmoother(pc, level, &smoother);
    KSPChebyshevEstEigGetKSP(smoother, &estimate);
    ASSERT_NE(estimate, nullptr) << "level " << level;
    Vec solution = nullptr, rhs = nullptr;
    KSPGetSolution(estimate, &solution);
    KSPGetRhs(estimate, &rhs);
    EXPECT_EQ(solution, nullptr) << "level " << level;
    EXPECT_EQ(rhs, nullptr) << "level " << level;
  }
  Vec again;
  VecDuplicate(solve.u, &again);
  solve.solver->solve(solve.model.system->systemMatrix(0, 0, -1), solve.f, again);
  EXPECT_EQ(eis_test::relativeGap(solve.u, again), 0.0);
  VecDestroy(&again);
}

// With solver.block-products = false nothing is redirected, and the answers agree to the
// solver's tolerance.
TEST(LevelBlockProducts, TheAnswerIsTheOneWithoutCopies) {
  const CantileverSolve with(true), without(false);
  std::vector<Mat> plain = without.middleLevels();
  const std::vector<Mat> interpolations = without.interpolations();
  plain.insert(plain.end(), interpolations.begin(), interpolations.end());
  for (Mat A : plain) EXPECT_EQ(operationOf(A, MATOP_MULT), plainOperation(A, MATOP_MULT));
  EXPECT_LT(eis_test::relativeGap(without.u, with.u), 1e-8);
}

// |x.(P y) - y.(P x)| / (|x| |P y|) for the set-up preconditioner P of `ksp` and two vectors with
// no two entries alike: a V-cycle whose residual and smoothers take one matrix is symmetric, as
// CG needs.
double preconditionerAsymmetry(KSP ksp) {
  Mat A;
  KSPGetOperators(ksp, &A, nullptr);
  PC pc;
  KSPGetPC(ksp, &pc);
  Vec x = distinctEntries(A, false), y, px, py;
  VecDuplicate(x, &y);
  VecDuplicate(x, &px);
  VecDuplicate(x, &py);
  PetscInt start, end;
  VecGetOwnershipRange(y, &start, &end);
  for (PetscInt i = start; i < end; ++i) VecSetValue(y, i, std::sin(2.0 + 3.0 * i), INSERT_VALUES);
  VecAssemblyBegin(y);
  VecAssemblyEnd(y);
  PCApply(pc, x, px);
  PCApply(pc, y, py);
  PetscScalar xPy, yPx;
  PetscReal xNorm, pyNorm;
  VecDot(x, py, &xPy);
  VecDot(y, px, &yPx);
  VecNorm(x, NORM_2, &xNorm);
  VecNorm(py, NORM_2, &pyNorm);
  for (Vec* v : {&x, &y, &px, &py}) VecDestroy(v);
  return std::fabs(xPy - yPx) / (xNorm * pyNorm);
}

// The first set-up runs before the step matrix's block copy is made (GAMG's set-up, one rank's
// memory peak, does not hold it): the copy is a later object than every level GAMG made, and the
// finest smoother and residual multiply by the high halves of its values
// (fineSmootherProducts), the V-cycle as symmetric as CG needs.
TEST(FineBlockProducts, TheFirstSetUpRunsBeforeTheCopyIsMadeAndItsFinestSmootherTakesIt) {
  const CantileverSolve solve(true, true);
  Mat products, A;
  KSPGetOperators(solve.solver->ksp(), &products, &A);
  ASSERT_NE(products, A);
  PetscObjectId copyId;
  PetscObjectGetId(reinterpret_cast<PetscObject>(products), &copyId);
  std::vector<Mat> made = solve.middleLevels();
  const std::vector<Mat> interpolations = solve.interpolations();
  made.insert(made.end(), interpolations.begin(), interpolations.end());
  for (Mat M : made) {
    PetscObjectId id;
    PetscObjectGetId(reinterpret_cast<PetscObject>(M), &id);
    EXPECT_LT(id, copyId);
  }
  PetscInt levels;
  PCMGGetLevels(solve.multigrid(), &levels);
  KSP finest;
  PCMGGetSmoother(solve.multigrid(), levels - 1, &finest);
  Mat smootherA, smootherP;
  KSPGetOperators(finest, &smootherA, &smootherP);
  EXPECT_EQ(smootherA, eis::fineSmootherProducts(A));
  EXPECT_NE(smootherA, products);
  EXPECT_EQ(smootherP, A);
  EXPECT_LT(preconditionerAsymmetry(solve.solver->ksp()), 1e-12);
}

// The operator the finest smoother of the solve's multigrid multiplies by.
Mat finestSmootherOperator(const CantileverSolve& solve) {
  PetscInt levels;
  PCMGGetLevels(solve.multigrid(), &levels);
  KSP finest;
  PCMGGetSmoother(solve.multigrid(), levels - 1, &finest);
  Mat A;
  KSPGetOperators(finest, &A, nullptr);
  return A;
}

// With solver.truncated-finest-smoother = false the finest smoother multiplies by the copy's
// exact products, at the first set-up and again after.
TEST(FineBlockProducts, UntruncatedTheFinestSmootherTakesTheExactProducts) {
  CantileverSolve solve(true, true, false);
  for (int setUp = 0; setUp < 2; ++setUp) {
    if (setUp == 1) solve.setUpAgain();
    Mat products;
    KSPGetOperators(solve.solver->ksp(), &products, nullptr);
    EXPECT_EQ(finestSmootherOperator(solve), products);
  }
}

// A set-up again, where PETSc gives the finest smoother the KSP's operator (the copy's exact
// products), hands it the high halves once more (smoothFinestByHighHalves), and its residual
// follows: the V-cycle stays symmetric.
TEST(FineBlockProducts, ASetUpAgainSmoothsTheFinestLevelByTheHighHalvesToo) {
  CantileverSolve solve(true, true);
  solve.setUpAgain();
  Mat products, A;
  KSPGetOperators(solve.solver->ksp(), &products, &A);
  const Mat smootherA = finestSmootherOperator(solve);
  EXPECT_EQ(smootherA, eis::fineSmootherProducts(A));
  EXPECT_NE(smootherA, products);
  EXPECT_LT(preconditionerAsymmetry(solve.solver->ksp()), 1e-12);
}

// A step matrix that PETSc stops knowing to be symmetric between two set-ups of GAMG (values
// set and assembled again: unless MAT_SYMMETRY_ETERNAL, PETSc 3.18 forgets it): its
// upper-triangle copy is remade as a whole one, a new operator. GAMG, set up again with its
// interpolation kept, smooths with the new copy, and its finest residual must take it too
// (followFinestOperator): with the first copy, K, left there, the V-cycle was no longer
// symmetric (3e-5 by preconditionerAsymmetry on one rank), and CG stalled on SOFA's
// SubsetTopology_refiningMesh.scn (DIVERGED_ITS). The second solve reaches what a fresh solver
// reaches on the new matrix.
TEST(FollowFinestOperator, ASetUpAfterTheCopyWasRemadeKeepsTheVCycleSymmetric) {
  CantileverSolve first(true);
  Mat A;
  MatDuplicate(first.model.system->systemMatrix(0, 0, -1), MAT_COPY_VALUES, &A);
  MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE);
  MatSetOption(A, MAT_SYMMETRY_ETERNAL, PETSC_FALSE);
  eis::LinearSolverOptions options;
  options.rtol = 1e-10;
  options.preconditioner.lag = 1;
  eis::LinearSolver solver(PETSC_COMM_WORLD, PCGAMG, first.rest, options);
  Vec u, fresh;
  VecDuplicate(first.u, &u);
  VecDuplicate(first.u, &fresh);
  solver.solve(A, first.f, u);
  Mat before;
  KSPGetOperators(solver.ksp(), &before, nullptr);
  PetscObjectReference(reinterpret_cast<PetscObject>(before));
  // New values, set and assembled as steps' assemblies do (PETSc 3.18 forgets the symmetry at
  // the second): K + 2 x 25 diag(K).
  Vec diagonal;
  MatCreateVecs(A, &diagonal, nullptr);
  MatGetDiagonal(A, diagonal);
  PetscInt start, end;
  MatGetOwnershipRange(A, &start, &end);
  for (int assembly = 0; assembly < 2; ++assembly) {
    const PetscScalar* d;
    VecGetArrayRead(diagonal, &d);
    for (PetscInt row = start; row < end; ++row)
      MatSetValue(A, row, row, 25.0 * d[row - start], ADD_VALUES);
    VecRestoreArrayRead(diagonal, &d);
    MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY);
    MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY);
  }
  PetscBool known = PETSC_TRUE, symmetric;
  MatIsSymmetricKnown(A, &known, &symmetric);
  EXPECT_FALSE(known);
  solver.solve(A, first.f, u);
  Mat after;
  KSPGetOperators(solver.ksp(), &after, nullptr);
  // The upper triangle first, a whole copy after.
  EXPECT_TRUE(isUpperTriangle(before));
  EXPECT_NE(after, before);
  eis::LinearSolver freshSolver(PETSC_COMM_WORLD, PCGAMG, first.rest, options);
  freshSolver.solve(A, first.f, fresh);
  EXPECT_LT(eis_test::relativeGap(fresh, u), 1e-8);
  EXPECT_LT(preconditionerAsymmetry(solver.ksp()), 1e-12);
  MatDestroy(&before);
  for (Vec* v : {&u, &fresh, &diagonal}) VecDestroy(v);
  MatDestroy(&A);
}

}  // namespace
