#include "eis/linalg/projection_history.hpp"

// PetscObjectStateGet, declared here in PETSc 3.18 (see preconditioner_reuse.cpp).
#include <petsc/private/petscimpl.h>

#include "eis/core/error.hpp"

namespace eis {

ProjectionHistory::ProjectionHistory(int capacity) : capacity_(capacity) {}

ProjectionHistory::~ProjectionHistory() {
  clear();
}

void ProjectionHistory::clear() {
  for (Vec& v : b_) VecDestroy(&v);
  for (Vec& v : x_) VecDestroy(&v);
  b_.clear();
  x_.clear();
}

// KSPGuessSetUp's rule: the guess starts afresh when its matrix is another, or has other values,
// unless the preconditioner is kept (then the old pairs stay, as PETSc keeps them).
void ProjectionHistory::record(KSP ksp, Vec b, Vec x) {
  Mat A;
  EIS_CHECK(KSPGetOperators(ksp, &A, nullptr));
  PC pc;
  EIS_CHECK(KSPGetPC(ksp, &pc));
  PetscBool reuse;
  EIS_CHECK(PCGetReusePreconditioner(pc, &reuse));
  PetscObjectId id;
  EIS_CHECK(PetscObjectGetId(reinterpret_cast<PetscObject>(A), &id));
  PetscObjectState state;
  EIS_CHECK(PetscObjectStateGet(reinterpret_cast<PetscObject>(A), &state));
  if (!reuse && (id != matrixId_ || state != matrixState_)) clear();
  matrixId_ = id;
  matrixState_ = state;
  if (int(b_.size()) == capacity_) {
    b_.push_back(b_.front());
    x_.push_back(x_.front());
    b_.erase(b_.begin());
    x_.erase(x_.begin());
  } else {
    b_.push_back(nullptr);
    x_.push_back(nullptr);
    EIS_CHECK(VecDuplicate(b, &b_.back()));
    EIS_CHECK(VecDuplicate(x, &x_.back()));
  }
  EIS_CHECK(VecCopy(b, b_.back()));
  EIS_CHECK(VecCopy(x, x_.back()));
}

void ProjectionHistory::replay(KSP ksp) {
  if (!pending_) return;
  pending_ = false;
  if (b_.empty()) return;
  KSPGuess guess;
  EIS_CHECK(KSPGetGuess(ksp, &guess));
  EIS_CHECK(KSPGuessSetUp(guess));  // KSPSolve's first step; it allocates the pairs
  Vec scratch;
  EIS_CHECK(VecDuplicate(x_.front(), &scratch));
  for (std::size_t i = 0; i < b_.size(); ++i) {
    EIS_CHECK(KSPGuessFormGuess(guess, b_[i], scratch));
    EIS_CHECK(KSPGuessUpdate(guess, b_[i], x_[i]));
  }
  EIS_CHECK(VecDestroy(&scratch));
  Mat A;
  EIS_CHECK(KSPGetOperators(ksp, &A, nullptr));
  EIS_CHECK(PetscObjectGetId(reinterpret_cast<PetscObject>(A), &matrixId_));
  EIS_CHECK(PetscObjectStateGet(reinterpret_cast<PetscObject>(A), &matrixState_));
}

void ProjectionHistory::save(const std::string& prefix, const SaveVector& save) const {
  for (std::size_t i = 0; i < b_.size(); ++i) {
    save(prefix + ".b." + std::to_string(i), b_[i]);
    save(prefix + ".x." + std::to_string(i), x_[i]);
  }
}

void ProjectionHistory::load(const std::string& prefix, const LoadVector& load, Vec like) {
  clear();
  for (int i = 0; i < capacity_; ++i) {
    Vec b, x;
    EIS_CHECK(VecDuplicate(like, &b));
    EIS_CHECK(VecDuplicate(like, &x));
    b_.push_back(b);
    x_.push_back(x);
    if (!load(prefix + ".b." + std::to_string(i), b) ||
        !load(prefix + ".x." + std::to_string(i), x)) {
      VecDestroy(&b_.back());
      VecDestroy(&x_.back());
      b_.pop_back();
      x_.pop_back();
      break;
    }
  }
  pending_ = true;
}

}  // namespace eis
