#pragma once
// The rule that decides when a preconditioner is set up again for a changed matrix; the
// linearized step's solver and Newton's follow it alike.
#include <petscmat.h>

namespace eis {

// The preconditioner beside its PETSc type.
struct PreconditionerOptions {
  // With PCHYPRE: also nodal coarsening with the rigid rotations as interpolation vectors.
  bool hypreElasticity = false;
  // Set up again at most every `lag` matrix updates (1: each one; 0: no count limit) ...
  int lag = 0;
  // ... and sooner once a solve needs this factor more iterations than the reference.
  double rebuildGrowth = 1.5;
};

// Decides, before each linear solve, whether the preconditioner is set up again from the
// matrix's current values or kept from an earlier set-up (PETSc's KSPSetReusePreconditioner):
// always on the first solve and for another matrix, never while the matrix is unchanged, and
// otherwise once `lag` updates of its values have passed since the last set-up (lag 0: never for
// that reason), or sooner when a solve since then needed more than rebuildGrowth times the
// reference: the fewest iterations among the first kReferenceSolves solves after the set-up
// (solves of no iteration, whose start was already converged, left out). One solve's count
// varies by up to 1.2x between fresh set-ups; the smallest of three is the preconditioner's
// best, not one step's luck or ill luck.
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
  // Whether the last setUpAgainFor kept a preconditioner set up from older values of the
  // matrix. Such a one can fail where a fresh one would not: a Chebyshev smoother's eigenvalue
  // bounds, once outgrown, make it indefinite.
  bool keptStale() const { return updatesSinceSetup_ > 0; }
  // The next setUpAgainFor sets up again, whatever the matrix: after a solve that failed with a
  // stale preconditioner, to solve once more with a fresh one.
  void setUpAgainNext() { forced_ = true; }
  // From now on, set up again at every update of the matrix, whatever the lag: for a direct
  // solve, whose kept factorization would answer the old matrix.
  void setUpAtEveryUpdate() { lag_ = 1; }

  static constexpr int kReferenceSolves = 3;

private:
  enum class Change { None, Values, Matrix };  // ordered: the largest wins across ranks
  Change changeOf(Mat pmat);

  int lag_;
  double rebuildGrowth_;
  PetscObjectId matrixId_ = 0;
  PetscObjectState matrixState_ = 0;
  long setups_ = 0;
  int updatesSinceSetup_ = 0;
  int referenceIterations_ = -1;  // the reference of the last set-up; -1: none yet
  int referenceSolves_ = 0;       // solves counted into it so far
  bool iterationsGrew_ = false;
  bool forced_ = false;
};

}  // namespace eis
