// The block copy an iterative solve multiplies by (solver.block-products), on 1, 2 and 3 ranks:
// its product is the AIJ matrix's, before and after the matrix's values change; a matrix that is
// not made of full blocks on every rank is multiplied itself; the linear solver's KSP multiplies
// by the copy and preconditions with the matrix; a corotational run gives the same trajectory
// with the copy as without it; and GAMG's levels between the finest and the coarsest multiply
// through copies of their own (multiplyLevelsInBlocks) as their AIJ operators do.
#include <gtest/gtest.h>
#include <petscmat.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

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

// |B x - A x|_inf / |A x|_inf for one x with no two entries alike.
double productGap(Mat A, Mat B) {
  Vec x, a, b;
  MatCreateVecs(A, &x, &a);
  VecDuplicate(a, &b);
  PetscInt start, end;
  VecGetOwnershipRange(x, &start, &end);
  for (PetscInt i = start; i < end; ++i) VecSetValue(x, i, std::cos(0.5 + i), INSERT_VALUES);
  VecAssemblyBegin(x);
  VecAssemblyEnd(x);
  MatMult(A, x, a);
  MatMult(B, x, b);
  const double gap = eis_test::relativeGap(a, b);
  VecDestroy(&x);
  VecDestroy(&a);
  VecDestroy(&b);
  return gap;
}

bool isBlockMatrix(Mat M) {
  PetscBool baij;
  PetscObjectTypeCompareAny(reinterpret_cast<PetscObject>(M), &baij, MATSEQBAIJ, MATMPIBAIJ, "");
  return baij;
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
  const Case cases[] = {{"direct", true, true, false},
                        {"iterative", true, false, true},
                        {"iterative, solver.block-products = false", false, false, false}};
  std::vector<Vec> answers;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    eis::LinearSolverOptions options;
    options.blockProducts = c.blockProducts;
    options.direct = c.direct;
    options.rtol = 1e-12;
    eis::LinearSolver solver(PETSC_COMM_WORLD, PCJACOBI, nullptr, options);
    answers.emplace_back();
    VecDuplicate(b, &answers.back());
    solver.solve(A, b, answers.back());
    Mat amat, pmat;
    KSPGetOperators(solver.ksp(), &amat, &pmat);
    EXPECT_EQ(pmat, A);
    EXPECT_EQ(isBlockMatrix(amat), c.copyExpected);
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
    EXPECT_EQ(eis::linearSolverOf(read, false).options.blockProducts,
              std::string(blockProducts) == "true");
    eis::Simulation simulation(read, PETSC_COMM_WORLD, nullptr);
    simulation.run();
    return simulation.gatherState();
  };
  const eis::NodalTable withCopy = run("true"), without = run("false");
  EXPECT_LT(disagreement(without, withCopy, scene), 1e-8);
}

// The answer of K u = f on a cantilever (16 x 4 x 4 cells, 1,275 unknowns: four GAMG levels)
// by CG + GAMG at rtol 1e-10, and the solver, whose hierarchy stays set up.
struct CantileverSolve {
  explicit CantileverSolve(bool blockProducts)
      : model(eis_test::cantilever({4, 1, 1}, {16, 4, 4}, 2e3)) {
    rest = model.system->createVector();
    model.system->setRestState(rest);
    f = model.field(1.0, 0.5, 0.25);
    model.system->projectResponse(f);
    u = model.system->createVector();
    eis::LinearSolverOptions options;
    options.rtol = 1e-10;
    options.blockProducts = blockProducts;
    solver = std::make_unique<eis::LinearSolver>(PETSC_COMM_WORLD, PCGAMG, rest, options);
    solver->solve(model.system->systemMatrix(0, 0, -1), f, u);
  }
  ~CantileverSolve() {
    solver.reset();
    for (Vec* v : {&rest, &f, &u}) VecDestroy(v);
  }
  // The operators of the levels between the finest and the coarsest.
  std::vector<Mat> middleLevels() const {
    PC pc;
    KSPGetPC(solver->ksp(), &pc);
    PetscInt levels;
    PCMGGetLevels(pc, &levels);
    std::vector<Mat> operators;
    for (PetscInt level = 1; level + 1 < levels; ++level) {
      KSP smoother;
      PCMGGetSmoother(pc, level, &smoother);
      operators.emplace_back();
      KSPGetOperators(smoother, &operators.back(), nullptr);
    }
    return operators;
  }
  eis_test::BoxModel model;
  Vec rest = nullptr, f = nullptr, u = nullptr;
  std::unique_ptr<eis::LinearSolver> solver;
};

// |A x - (A x by PETSc's AIJ product)|_inf / |A x|_inf: MatMultAdd onto zero is not redirected.
double levelProductGap(Mat A) {
  Vec x, redirected, aij, zero;
  MatCreateVecs(A, &x, &redirected);
  VecDuplicate(redirected, &aij);
  VecDuplicate(redirected, &zero);
  VecZeroEntries(zero);
  PetscInt start, end;
  VecGetOwnershipRange(x, &start, &end);
  for (PetscInt i = start; i < end; ++i) VecSetValue(x, i, std::cos(0.5 + i), INSERT_VALUES);
  VecAssemblyBegin(x);
  VecAssemblyEnd(x);
  MatMult(A, x, redirected);
  MatMultAdd(A, x, zero, aij);
  const double gap = eis_test::relativeGap(aij, redirected);
  for (Vec* v : {&x, &redirected, &aij, &zero}) VecDestroy(v);
  return gap;
}

// Each middle level of elasticity's hierarchy (blocks of 6: the rigid-body modes) multiplies
// through its copy, not PETSc's AIJ product, and as that product does, before and after its
// values change (as GAMG reusing its interpolation would change them).
TEST(LevelBlockProducts, TheMiddleLevelsMultiplyThroughCopiesAsTheirOperatorsDo) {
  const CantileverSolve solve(true);
  const std::vector<Mat> levels = solve.middleLevels();
  ASSERT_GE(levels.size(), 1u);
  Mat plain;
  MatCreateAIJ(PETSC_COMM_WORLD, 1, 1, PETSC_DETERMINE, PETSC_DETERMINE, 1, nullptr, 0, nullptr,
               &plain);
  void (*aijProduct)(void);
  MatGetOperation(plain, MATOP_MULT, &aijProduct);
  for (Mat A : levels) {
    PetscInt bs;
    MatGetBlockSize(A, &bs);
    EXPECT_EQ(bs, 6);
    void (*product)(void);
    MatGetOperation(A, MATOP_MULT, &product);
    EXPECT_NE(product, aijProduct);
    EXPECT_LT(levelProductGap(A), 1e-14);
    MatScale(A, -2.0);
    MatShift(A, 0.5);
    EXPECT_LT(levelProductGap(A), 1e-14);
  }
  MatDestroy(&plain);
}

// With solver.block-products = false no level is redirected, and the answers agree to the
// solver's tolerance.
TEST(LevelBlockProducts, TheAnswerIsTheOneWithoutCopies) {
  const CantileverSolve with(true), without(false);
  Mat plain;
  MatCreateAIJ(PETSC_COMM_WORLD, 1, 1, PETSC_DETERMINE, PETSC_DETERMINE, 1, nullptr, 0, nullptr,
               &plain);
  void (*aijProduct)(void);
  MatGetOperation(plain, MATOP_MULT, &aijProduct);
  for (Mat A : without.middleLevels()) {
    void (*product)(void);
    MatGetOperation(A, MATOP_MULT, &product);
    EXPECT_EQ(product, aijProduct);
  }
  MatDestroy(&plain);
  EXPECT_LT(eis_test::relativeGap(without.u, with.u), 1e-8);
}

}  // namespace
