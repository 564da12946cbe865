#include "eis/linalg/level_block_products.hpp"

#include <exception>
#include <memory>

#include "eis/core/error.hpp"
#include "eis/linalg/block_copy.hpp"

namespace eis {

namespace {

// The name the copy is composed with on its level's operator.
constexpr const char* kCopyName = "eis_level_block_copy";

PetscErrorCode destroyCopy(void* copy) {
  delete static_cast<BlockCopy*>(copy);
  return 0;
}

// A level operator's MatMult: its block copy's, whose values BlockCopy copies again when the
// operator's changed. PETSc calls it through C: an exception becomes an error code here.
PetscErrorCode multiplyThroughCopy(Mat A, Vec x, Vec y) {
  PetscFunctionBeginUser;
  PetscContainer container;
  PetscCall(PetscObjectQuery(reinterpret_cast<PetscObject>(A), kCopyName,
                             reinterpret_cast<PetscObject*>(&container)));
  void* copy;
  PetscCall(PetscContainerGetPointer(container, &copy));
  Mat B = nullptr;
  try {
    B = static_cast<BlockCopy*>(copy)->of(A);
  } catch (const std::exception& e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "%s", e.what());
  }
  PetscCheck(B != A, PETSC_COMM_SELF, PETSC_ERR_PLIB, "a level operator lost its block copy");
  PetscCall(MatMult(B, x, y));
  PetscFunctionReturn(0);
}

// Gives one level operator its copy, when it is made of full blocks on every rank.
void redirect(Mat A) {
  PetscObject known;
  EIS_CHECK(PetscObjectQuery(reinterpret_cast<PetscObject>(A), kCopyName, &known));
  if (known) return;
  auto copy = std::make_unique<BlockCopy>();
  if (copy->of(A) == A) return;
  MPI_Comm comm;
  EIS_CHECK(PetscObjectGetComm(reinterpret_cast<PetscObject>(A), &comm));
  PetscContainer container;
  EIS_CHECK(PetscContainerCreate(comm, &container));
  EIS_CHECK(PetscContainerSetPointer(container, copy.get()));
  EIS_CHECK(PetscContainerSetUserDestroy(container, destroyCopy));
  copy.release();
  EIS_CHECK(PetscObjectCompose(reinterpret_cast<PetscObject>(A), kCopyName,
                               reinterpret_cast<PetscObject>(container)));
  EIS_CHECK(PetscContainerDestroy(&container));
  EIS_CHECK(MatSetOperation(A, MATOP_MULT, reinterpret_cast<void (*)(void)>(multiplyThroughCopy)));
}

}  // namespace

void multiplyLevelsInBlocks(KSP ksp) {
  PC pc;
  EIS_CHECK(KSPGetPC(ksp, &pc));
  PetscBool multigrid;
  EIS_CHECK(
      PetscObjectTypeCompareAny(reinterpret_cast<PetscObject>(pc), &multigrid, PCMG, PCGAMG, ""));
  if (!multigrid) return;
  PetscInt levels;
  EIS_CHECK(PCMGGetLevels(pc, &levels));
  // Level 0 is the coarsest, levels - 1 the finest (the KSP's own operator).
  for (PetscInt level = 1; level + 1 < levels; ++level) {
    KSP smoother;
    Mat A;
    EIS_CHECK(PCMGGetSmoother(pc, level, &smoother));
    EIS_CHECK(KSPGetOperators(smoother, &A, nullptr));
    redirect(A);
  }
}

}  // namespace eis
