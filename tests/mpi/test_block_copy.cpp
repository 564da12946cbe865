// The block copy an iterative solve multiplies by (solver.block-products), on 1, 2 and 3 ranks:
// its product is the AIJ matrix's, before and after the matrix's values change; a matrix that is
// not made of full blocks on every rank is multiplied itself; and a corotational run gives the
// same trajectory with the copy as without it.
#include <gtest/gtest.h>
#include <petscmat.h>

#include <algorithm>
#include <cmath>

#include "eis/app/simulation.hpp"
#include "eis/linalg/block_copy.hpp"
#include "mpi_support.hpp"

namespace {

using eis_test::disagreement;

constexpr PetscInt kBs = 3;
constexpr PetscInt kNodesPerRank = 2;

// A chain of nodes, kBs unknowns each, every node coupled with its neighbours by a full
// kBs x kBs block of values that differ entry by entry; `holes` leaves out one entry of the
// first rank's first off-diagonal block, so that its rows are not made of full blocks there.
Mat chainMatrix(bool holes = false) {
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
          if (holes && rank == 0 && node == 0 && other == 1 && r == 0 && c == 2) continue;
          MatSetValue(A, row, col, std::sin(1.0 + 7.0 * row + 3.0 * col) + (row == col ? 4 : 0),
                      INSERT_VALUES);
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
  Mat A = chainMatrix();
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
  Mat holed = chainMatrix(true);
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
    eis::Simulation simulation(variant.toScene(), PETSC_COMM_WORLD, nullptr);
    simulation.run();
    return simulation.gatherState();
  };
  const eis::NodalTable withCopy = run("true"), without = run("false");
  if (eis_test::root()) EXPECT_LT(disagreement(without, withCopy, scene), 1e-8);
}

}  // namespace
