#pragma once
// The rule that decides when a preconditioner is set up again for a changed matrix; the
// linearized step's solver and Newton's follow it alike.
#include <petscmat.h>

namespace eis {

// The preconditioner beside its PETSc type.
struct PreconditionerOptions {
  // With PCHYPRE: also nodal coarsening with the rigid rotations as interpolation vectors.
  bool hypreElasticity = false;
  int lag = 1;                 // set up again at most every `lag` matrix updates (1: each one)
  double rebuildGrowth = 1.5;  // ... and sooner once a solve needs this factor more iterations
};

// Decides, before each linear solve, whether the preconditioner is set up again from the
// matrix's current values or kept from an earlier set-up (PETSc's KSPSetReusePreconditioner):
// always on the first solve and for another matrix, never while the matrix is unchanged, and
// otherwise once `lag` updates of its values have passed since the last set-up, or sooner when
// a solve since then needed more than rebuildGrowth times the iterations of the first solve
// after it.
class PreconditionerReuse {
public:
  explicit PreconditionerReuse(const PreconditionerOptions& options);
  // Collective. Before a solve whose preconditioner is built from `pmat`: whether it is set up
  // again (counted in setups()).
  bool setUpAgainFor(Mat pmat);
  // After that solve: its iteration count.
  void recordIterations(int iterations);
  // Set-ups so far, the first one included.
  long setups() const { return setups_; }

private:
  enum class Change { None, Values, Matrix };  // ordered: the largest wins across ranks
  Change changeOf(Mat pmat);

  int lag_;
  double rebuildGrowth_;
  PetscObjectId matrixId_ = 0;
  PetscObjectState matrixState_ = 0;
  long setups_ = 0;
  int updatesSinceSetup_ = 0;
  int firstIterations_ = -1;  // of the first solve after the last set-up; -1: none yet
  bool iterationsGrew_ = false;
};

}  // namespace eis
