#include "eis/linalg/linear_solver.hpp"

#include "eis/core/error.hpp"
#include "eis/core/log_stage.hpp"

namespace eis {

void setDefaultSolver(KSP ksp, PCType pc, double rtol) {
  EIS_CHECK(KSPSetType(ksp, KSPCG));
  PC preconditioner;
  EIS_CHECK(KSPGetPC(ksp, &preconditioner));
  EIS_CHECK(PCSetType(preconditioner, pc));
  EIS_CHECK(KSPSetTolerances(ksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
}

void attachRigidBodyModes(Mat A, Vec restCoordinates) {
  if (!restCoordinates) return;
  MatNullSpace rigid;
  EIS_CHECK(MatNullSpaceCreateRigidBody(restCoordinates, &rigid));
  EIS_CHECK(MatSetNearNullSpace(A, rigid));
  EIS_CHECK(MatNullSpaceDestroy(&rigid));
}

LinearSolver::LinearSolver(MPI_Comm comm, PCType defaultPc, Vec restCoordinates) {
  EIS_CHECK(KSPCreate(comm, &ksp_));
  setDefaultSolver(ksp_, defaultPc, 1e-8);
  if (restCoordinates) {
    EIS_CHECK(PetscObjectReference(reinterpret_cast<PetscObject>(restCoordinates)));
    restCoordinates_ = restCoordinates;
  }
}

LinearSolver::~LinearSolver() {
  KSPDestroy(&ksp_);
  VecDestroy(&restCoordinates_);
}

int LinearSolver::solve(Mat A, Vec b, Vec x) {
  const double start = MPI_Wtime();
  if (!configured_) {
    // The near-nullspace goes on the operator before the first set-up, and options are read
    // once the operator is known so that -pc_type and friends override our defaults.
    attachRigidBodyModes(A, restCoordinates_);
    EIS_CHECK(KSPSetOperators(ksp_, A, A));
    EIS_CHECK(KSPSetFromOptions(ksp_));
    configured_ = true;
  } else {
    EIS_CHECK(KSPSetOperators(ksp_, A, A));
  }
  {
    // Set up apart from the solve (a no-op when A is unchanged), to time the two separately.
    const ScopedStage stage("Preconditioner set-up");
    EIS_CHECK(KSPSetUp(ksp_));
  }
  const double solveStart = MPI_Wtime();
  setupSeconds_ += solveStart - start;
  {
    const ScopedStage stage("KSP solve");
    EIS_CHECK(KSPSolve(ksp_, b, x));
  }
  KSPConvergedReason reason;
  EIS_CHECK(KSPGetConvergedReason(ksp_, &reason));
  PetscInt iterations;
  EIS_CHECK(KSPGetIterationNumber(ksp_, &iterations));
  seconds_ += MPI_Wtime() - solveStart;
  if (reason < 0)
    throw Error(std::string("linear solve did not converge: ") + KSPConvergedReasons[reason] +
                " after " + std::to_string(iterations) + " iterations");
  return int(iterations);
}

}  // namespace eis
