#include "eis/linalg/linear_solver.hpp"

#include "eis/core/error.hpp"

namespace eis {

LinearSolver::LinearSolver(MPI_Comm comm, PCType defaultPc, Vec restCoordinates) {
  EIS_CHECK(KSPCreate(comm, &ksp_));
  EIS_CHECK(KSPSetType(ksp_, KSPCG));
  PC pc;
  EIS_CHECK(KSPGetPC(ksp_, &pc));
  EIS_CHECK(PCSetType(pc, defaultPc));
  EIS_CHECK(KSPSetTolerances(ksp_, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
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
    if (restCoordinates_) {
      MatNullSpace rigid;
      EIS_CHECK(MatNullSpaceCreateRigidBody(restCoordinates_, &rigid));
      EIS_CHECK(MatSetNearNullSpace(A, rigid));
      EIS_CHECK(MatNullSpaceDestroy(&rigid));
    }
    EIS_CHECK(KSPSetOperators(ksp_, A, A));
    EIS_CHECK(KSPSetFromOptions(ksp_));
    configured_ = true;
  } else {
    EIS_CHECK(KSPSetOperators(ksp_, A, A));
  }
  EIS_CHECK(KSPSolve(ksp_, b, x));
  KSPConvergedReason reason;
  EIS_CHECK(KSPGetConvergedReason(ksp_, &reason));
  PetscInt iterations;
  EIS_CHECK(KSPGetIterationNumber(ksp_, &iterations));
  seconds_ += MPI_Wtime() - start;
  if (reason < 0)
    throw Error(std::string("linear solve did not converge: ") + KSPConvergedReasons[reason] +
                " after " + std::to_string(iterations) + " iterations");
  return int(iterations);
}

}  // namespace eis
