// What a GAMG set-up of the linear solver keeps, on 1, 2 and 3 ranks: the rigid-body modes sit on
// the step matrix only through each set-up, which alone reads them, and every set-up has them
// (KspSettings::attachNearNullSpace and releaseNearNullSpace).
#include <gtest/gtest.h>
#include <petscksp.h>

#include <vector>

#include "cantilever_solve.hpp"
#include "mpi_support.hpp"

namespace {

using eis_test::CantileverSolve;

// The column block size of each interpolation, coarsest first: 6 where the coarse space was
// built from the six rigid-body modes, 3 (the unknowns per node) where GAMG had only the
// translations its block size gives.
std::vector<PetscInt> coarseBlockSizes(const CantileverSolve& solve) {
  std::vector<PetscInt> sizes;
  for (Mat P : solve.interpolations()) {
    PetscInt rows, columns;
    MatGetBlockSizes(P, &rows, &columns);
    sizes.push_back(columns);
  }
  return sizes;
}

bool hasNearNullSpace(Mat A) {
  MatNullSpace attached = nullptr;
  MatGetNearNullSpace(A, &attached);
  return attached != nullptr;
}

// A set-up that builds the interpolation afresh reads the rigid-body modes off the matrix: one
// rank's first set-up again does (its levels' storage was released), and has them, though none
// is on the matrix between the two set-ups. Several ranks keep their interpolation, and the test
// checks there that it stays. (GAMG keeps its own copy of them only where the user's
// -pc_gamg_reuse_interpolation is false from the start.)
TEST(NearNullSpace, IsOnTheMatrixThroughEachSetUpAlone) {
  CantileverSolve solve(true, true);
  const Mat A = solve.model.system->systemMatrix(0, 0, -1);
  EXPECT_FALSE(hasNearNullSpace(A));
  const std::vector<PetscInt> first = coarseBlockSizes(solve);
  ASSERT_GE(first.size(), 2u);
  for (PetscInt size : first) EXPECT_EQ(size, 6);
  const long setUps = solve.solver->preconditionerSetups();
  solve.setUpAgain();
  EXPECT_EQ(solve.solver->preconditionerSetups(), setUps + 1);
  EXPECT_FALSE(hasNearNullSpace(A));
  EXPECT_EQ(coarseBlockSizes(solve), first);
}

}  // namespace
