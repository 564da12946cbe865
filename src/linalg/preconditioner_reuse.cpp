#include "eis/linalg/preconditioner_reuse.hpp"

// PetscObjectStateGet (public, developer level: how PCSetUp itself tells a changed matrix) is
// declared in this header in PETSc 3.18.
#include <petsc/private/petscimpl.h>

#include <algorithm>

#include "eis/core/error.hpp"

namespace eis {

PreconditionerReuse::PreconditionerReuse(const PreconditionerOptions& options)
    : lag_(options.lag), rebuildGrowth_(options.rebuildGrowth) {}

bool PreconditionerReuse::setUpAgainFor(Mat pmat) {
  const Change change = changeOf(pmat);
  bool again = setups_ == 0 || change == Change::Matrix || forced_;
  forced_ = false;
  if (!again && change == Change::Values) {
    ++updatesSinceSetup_;
    again = (lag_ > 0 && updatesSinceSetup_ >= lag_) || iterationsGrew_;
  }
  if (again) {
    ++setups_;
    updatesSinceSetup_ = 0;
    referenceIterations_ = -1;
    referenceSolves_ = 0;
    iterationsGrew_ = false;
  }
  return again;
}

// How pmat differs from the one of the previous call: not, in its values, or another matrix.
PreconditionerReuse::Change PreconditionerReuse::changeOf(Mat pmat) {
  PetscObjectId id;
  PetscObjectState state;
  EIS_CHECK(PetscObjectGetId(reinterpret_cast<PetscObject>(pmat), &id));
  EIS_CHECK(PetscObjectStateGet(reinterpret_cast<PetscObject>(pmat), &state));
  int change = int(id != matrixId_         ? Change::Matrix
                   : state != matrixState_ ? Change::Values
                                           : Change::None);
  matrixId_ = id;
  matrixState_ = state;
  // Every rank changes the matrix in the same collective calls, so the verdicts agree; the
  // reduction guarantees it, as KSPSetReusePreconditioner must be called alike on every rank.
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &change, 1, MPI_INT, MPI_MAX,
                              PetscObjectComm(reinterpret_cast<PetscObject>(pmat))));
  return Change(change);
}

void PreconditionerReuse::recordIterations(int iterations) {
  if (iterations == 0) return;
  if (referenceSolves_ < kReferenceSolves) {
    ++referenceSolves_;
    referenceIterations_ =
        referenceIterations_ < 0 ? iterations : std::min(referenceIterations_, iterations);
  }
  if (iterations > rebuildGrowth_ * referenceIterations_) iterationsGrew_ = true;
}

}  // namespace eis
