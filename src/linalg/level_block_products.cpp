#include "eis/linalg/level_block_products.hpp"

#include <exception>
#include <memory>

#include "eis/core/error.hpp"
#include "eis/linalg/block_copy.hpp"
#include "eis/linalg/composed_object.hpp"
#include "eis/linalg/prefetching_block_product.hpp"

namespace eis {

namespace {

// The name the copy is composed with on its level's operator.
constexpr const char* kCopyName = "eis_level_block_copy";

// The copy composed with A, or nullptr.
BlockCopy* composedCopy(Mat A) {
  BlockCopy* copy = nullptr;
  EIS_CHECK(queryComposed(reinterpret_cast<PetscObject>(A), kCopyName, &copy));
  return copy;
}

// The block copy of a redirected matrix, its values copied again when the matrix's changed.
PetscErrorCode copyOf(Mat A, Mat* B) {
  PetscFunctionBeginUser;
  try {
    BlockCopy* copy = composedCopy(A);
    *B = copy ? copy->of(A) : A;
  } catch (const std::exception& e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "%s", e.what());
  }
  PetscCheck(*B != A, PETSC_COMM_SELF, PETSC_ERR_PLIB, "a redirected matrix lost its block copy");
  PetscFunctionReturn(0);
}

// One product of a redirected matrix (MatMult and the like, taking `Vecs`), by its copy. PETSc
// calls it through C.
template <auto Product, typename... Vecs>
PetscErrorCode byCopy(Mat A, Vecs... vectors) {
  Mat B = nullptr;
  PetscFunctionBeginUser;
  PetscCall(copyOf(A, &B));
  PetscCall(Product(B, vectors...));
  PetscFunctionReturn(0);
}

// Composes `copy` with A, which then owns it: it lives as long as the matrix it copies.
BlockCopy* compose(Mat A, std::unique_ptr<BlockCopy> copy) {
  return composeOwned(reinterpret_cast<PetscObject>(A), kCopyName, std::move(copy));
}

// Gives a level operator or an interpolation its copy, when it is made of full blocks on every
// rank, and sends its four products there (a multigrid interpolates with MatMultAdd or
// MatMultTransposeAdd and restricts with MatMultTranspose or MatMult, by the matrix's shape).
// With `single` on one rank the copy is only the float blocks, which A's products then read.
void redirect(Mat A, BlockPrefetch prefetch, bool single) {
  if (composedCopy(A) || (single && prefetchSingleBlockProducts(A, prefetch))) return;
  auto copy = std::make_unique<BlockCopy>();
  const Mat blocks = copy->of(A);
  if (blocks == A) return;
  compose(A, std::move(copy));
  prefetchBlockProducts(blocks, prefetch, single);
  setOperation(A, MATOP_MULT, byCopy<MatMult, Vec, Vec>);
  setOperation(A, MATOP_MULT_ADD, byCopy<MatMultAdd, Vec, Vec, Vec>);
  setOperation(A, MATOP_MULT_TRANSPOSE, byCopy<MatMultTranspose, Vec, Vec>);
  setOperation(A, MATOP_MULT_TRANSPOSE_ADD, byCopy<MatMultTransposeAdd, Vec, Vec, Vec>);
}

// The KSP's multigrid preconditioner (PCMG or PCGAMG) and its number of levels, or null (levels
// untouched) for any other preconditioner.
PC multigridOf(KSP ksp, PetscInt& levels) {
  PC pc;
  EIS_CHECK(KSPGetPC(ksp, &pc));
  PetscBool multigrid;
  EIS_CHECK(
      PetscObjectTypeCompareAny(reinterpret_cast<PetscObject>(pc), &multigrid, PCMG, PCGAMG, ""));
  if (!multigrid) return nullptr;
  EIS_CHECK(PCMGGetLevels(pc, &levels));
  return pc;
}

// The finest level's smoother of a multigrid of `levels` levels.
KSP finestSmoother(PC pc, PetscInt levels) {
  KSP smoother;
  EIS_CHECK(PCMGGetSmoother(pc, levels - 1, &smoother));
  return smoother;
}

}  // namespace

Mat fineBlockProducts(Mat A, BlockPrefetch prefetch, BlockCopy::Storage storage) {
  BlockCopy* copy = composedCopy(A);
  if (copy && copy->storage() == storage) return copy->of(A);
  const Mat products =
      compose(A, std::make_unique<BlockCopy>(storage, "Block copy set-up", prefetch))->of(A);
  if (products != A) {
    setOperation(A, MATOP_GET_DIAGONAL, byCopy<MatGetDiagonal, Vec>);
    prefetchBlockProducts(products, prefetch);
  }
  return products;
}

Mat fineSmootherProducts(Mat A) {
  BlockCopy* copy = composedCopy(A);
  return copy ? copy->highHalvesOf(A) : nullptr;
}

bool multiplyLevelsInBlocks(KSP ksp, BlockPrefetch prefetch, bool single, bool release) {
  PetscInt levels = 0;
  const PC pc = multigridOf(ksp, levels);
  if (!pc) return false;
  // Level 0 is the coarsest, levels - 1 the finest (the KSP's own operator); the interpolation
  // of level l brings level l - 1's correction to it. From the coarsest up, so that the first
  // coarse level's AIJ storage (0.6 of the finest interpolation's at 1e6 unknowns) is released
  // before the finest interpolation's float blocks are made beside its own.
  bool released = false;
  const auto give = [&](Mat A) {
    redirect(A, prefetch, single);
    if (release) released = releaseAijStorage(A) || released;
  };
  for (PetscInt level = 1; level < levels; ++level) {
    Mat interpolation;
    EIS_CHECK(PCMGGetInterpolation(pc, level, &interpolation));
    give(interpolation);
    if (level + 1 < levels) {
      KSP smoother;
      Mat A;
      EIS_CHECK(PCMGGetSmoother(pc, level, &smoother));
      EIS_CHECK(KSPGetOperators(smoother, &A, nullptr));
      give(A);
    }
  }
  return released;
}

void followFinestOperator(KSP ksp) {
  PetscInt levels = 0;
  const PC pc = multigridOf(ksp, levels);
  if (!pc || levels < 2) return;
  Mat A;
  EIS_CHECK(KSPGetOperators(finestSmoother(pc, levels), &A, nullptr));
  EIS_CHECK(PCMGSetResidual(pc, levels - 1, PCMGResidualDefault, A));
}

void handFinestOperator(KSP ksp, Mat products) {
  PetscInt levels = 0;
  const PC pc = multigridOf(ksp, levels);
  if (!pc || levels < 2) return;
  const KSP smoother = finestSmoother(pc, levels);
  Mat P;
  EIS_CHECK(KSPGetOperators(smoother, nullptr, &P));
  EIS_CHECK(KSPSetOperators(smoother, products, P));
  EIS_CHECK(KSPSetUp(smoother));
  followFinestOperator(ksp);
}

void smoothFinestByHighHalves(KSP ksp) {
  PetscInt levels = 0;
  const PC pc = multigridOf(ksp, levels);
  if (!pc || levels < 2) return;
  Mat A, P;
  EIS_CHECK(KSPGetOperators(finestSmoother(pc, levels), &A, &P));
  BlockCopy* copy = composedCopy(P);
  if (!copy) return;
  const Mat highHalves = copy->highHalvesOf(P);
  if (highHalves != A && A == copy->of(P)) handFinestOperator(ksp, highHalves);
}

// The estimate's KSP shares the smoother's preconditioner, which KSPReset would reset with it:
// a placeholder stands in for it while the estimate's vectors go.
void releaseEigenvalueEstimates(KSP ksp) {
  PetscInt levels = 0;
  const PC pc = multigridOf(ksp, levels);
  if (!pc) return;
  for (PetscInt level = 1; level < levels; ++level) {
    KSP smoother, estimate = nullptr;
    PetscBool chebyshev;
    EIS_CHECK(PCMGGetSmoother(pc, level, &smoother));
    EIS_CHECK(
        PetscObjectTypeCompare(reinterpret_cast<PetscObject>(smoother), KSPCHEBYSHEV, &chebyshev));
    if (chebyshev) EIS_CHECK(KSPChebyshevEstEigGetKSP(smoother, &estimate));
    if (!estimate) continue;
    PC shared, placeholder;
    EIS_CHECK(KSPGetPC(estimate, &shared));
    EIS_CHECK(PetscObjectReference(reinterpret_cast<PetscObject>(shared)));
    EIS_CHECK(PCCreate(PetscObjectComm(reinterpret_cast<PetscObject>(estimate)), &placeholder));
    EIS_CHECK(KSPSetPC(estimate, placeholder));
    EIS_CHECK(KSPReset(estimate));
    EIS_CHECK(KSPSetPC(estimate, shared));
    EIS_CHECK(PCDestroy(&placeholder));
    EIS_CHECK(PetscObjectDereference(reinterpret_cast<PetscObject>(shared)));
  }
}

}  // namespace eis
