// What a GAMG set-up of the linear solver keeps, on 1, 2 and 3 ranks: the rigid-body modes sit on
// the step matrix only through each set-up, which alone reads them, and every set-up has them
// (KspSettings::attachNearNullSpace and releaseNearNullSpace); the Chebyshev smoothers estimate
// their eigenvalues by CG where the solver is CG and the model linear, unless the user chose
// otherwise, and the option that says so leaves the database with the set-up
// (CgEigenvalueEstimates).
#include <gtest/gtest.h>
#include <petscksp.h>

#include <string>
#include <vector>

#include "cantilever_solve.hpp"
#include "eis/linalg/ksp_settings.hpp"
#include "mpi_support.hpp"

namespace {

using eis_test::CantileverSolve;

constexpr const char* kEstimateOption = "-mg_levels_esteig_ksp_type";

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

// The estimate's KSP of every level's smoother.
std::vector<std::string> estimateTypes(const CantileverSolve& solve) {
  const PC pc = solve.multigrid();
  PetscInt levels;
  PCMGGetLevels(pc, &levels);
  std::vector<std::string> types;
  for (PetscInt level = 1; level < levels; ++level) {
    KSP smoother, estimate = nullptr;
    PCMGGetSmoother(pc, level, &smoother);
    KSPChebyshevEstEigGetKSP(smoother, &estimate);
    KSPType type = nullptr;
    if (estimate) KSPGetType(estimate, &type);
    types.emplace_back(type ? type : "(none)");
  }
  return types;
}

bool optionGiven(const char* name) {
  PetscBool given = PETSC_FALSE;
  PetscOptionsHasName(nullptr, nullptr, name, &given);
  return given;
}

TEST(CgEigenvalueEstimates, EveryLevelEstimatesByCgAndTheOptionGoes) {
  const CantileverSolve solve(true, true);
  const std::vector<std::string> types = estimateTypes(solve);
  ASSERT_GE(types.size(), 2u);
  for (const std::string& type : types) EXPECT_EQ(type, KSPCG);
  EXPECT_FALSE(optionGiven(kEstimateOption));
}

TEST(CgEigenvalueEstimates, TheUsersChoiceWinsAndStays) {
  const eis_test::ScopedOptions user{{kEstimateOption, "gmres"}};
  const CantileverSolve solve(true, true);
  for (const std::string& type : estimateTypes(solve)) EXPECT_EQ(type, KSPGMRES);
  EXPECT_TRUE(optionGiven(kEstimateOption));
}

// Only a CG preconditioned by GAMG, for a linear model's matrix: a GMRES solves matrices CG
// cannot, and a nonlinear model's matrix may turn indefinite, for which CG's estimate means
// nothing.
TEST(CgEigenvalueEstimates, OnlyForCgWithGamgOnALinearModel) {
  KSP ksp;
  KSPCreate(PETSC_COMM_WORLD, &ksp);
  PC pc;
  KSPGetPC(ksp, &pc);
  PCSetType(pc, PCGAMG);
  KSPSetType(ksp, KSPGMRES);
  {
    const eis::CgEigenvalueEstimates gmres(ksp, true);
    EXPECT_FALSE(optionGiven(kEstimateOption));
  }
  KSPSetType(ksp, KSPCG);
  PCSetType(pc, PCJACOBI);
  {
    const eis::CgEigenvalueEstimates jacobi(ksp, true);
    EXPECT_FALSE(optionGiven(kEstimateOption));
  }
  PCSetType(pc, PCGAMG);
  {
    const eis::CgEigenvalueEstimates nonlinear(ksp, false);
    EXPECT_FALSE(optionGiven(kEstimateOption));
  }
  {
    const eis::CgEigenvalueEstimates gamg(ksp, true);
    EXPECT_TRUE(optionGiven(kEstimateOption));
  }
  EXPECT_FALSE(optionGiven(kEstimateOption));
  KSPDestroy(&ksp);
}

}  // namespace
