#pragma once
// The KSP behind every step: configured from the PETSc options database, with a default per
// physics (CG + GAMG), and a clear error when it does not converge. Also the rule that decides
// when a preconditioner is set up again for a changed matrix, which the Newton solver's KSP
// follows too.
#include <petscksp.h>

#include <string>
#include <vector>

namespace eis {

// Our defaults for a KSP (CG with `pc`, relative tolerance `rtol`), set before the options
// database is read so that -ksp_* and -pc_* override them.
void setDefaultSolver(KSP ksp, PCType pc, double rtol);

// While it lives, the options database holds our BoomerAMG settings for 3D problems (strong
// threshold 0.5, HMIS coarsening, ext+i interpolation, P_max 4, one aggressive level) and, with
// `elasticity`, nodal coarsening with the near-nullspace as interpolation vectors (GM-1), each
// only where the user gave no value for it; it removes what it added when it goes. PETSc offers
// these settings through the options database only, read by KSPSetFromOptions. It adds nothing
// unless `defaultPc` is PCHYPRE and -pc_type, if given, names hypre too. Works on the options
// of `ksp`'s prefix.
class HypreDefaults {
public:
  HypreDefaults(KSP ksp, PCType defaultPc, bool elasticity);
  ~HypreDefaults();
  HypreDefaults(const HypreDefaults&) = delete;
  HypreDefaults& operator=(const HypreDefaults&) = delete;

private:
  std::vector<std::string> added_;
};

// Elasticity's near-nullspace on A, for the preconditioner `ksp` ended up with (so after its
// options were read): the six rigid-body modes of the rest coordinates (a global Vec with block
// size 3) for GAMG and the others, only the three rotations for hypre, whose unknown-based
// interpolation already holds the translations (all six nearly double BoomerAMG's operator
// complexity, for the same iterations). Does nothing when restCoordinates is null.
void attachNearNullSpace(KSP ksp, Mat A, Vec restCoordinates);

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

struct LinearSolverOptions {
  PreconditionerOptions preconditioner;
  // Where each solve starts: from zero; from the x handed to solve() (KSPSetInitialGuessNonzero);
  // or from the right-hand side's projection on the span of the last solves' right-hand sides,
  // mapped to their solutions (PETSc's KSPGuess, Fischer's method 3), which PETSc forgets
  // whenever the matrix changes.
  enum class Start { Zero, GivenVector, Projection };
  Start start = Start::Zero;
};

class LinearSolver {
public:
  // Defaults: CG with `defaultPc` (PCGAMG for assembled operators, PCJACOBI for matrix-free
  // ones, PCHYPRE for BoomerAMG with HypreDefaults), relative tolerance 1e-8; -ksp_* and -pc_*
  // options override them. Elasticity gets its near-nullspace from the rest coordinates (a
  // global Vec with block size 3); pass nullptr for scalar problems.
  LinearSolver(MPI_Comm comm, PCType defaultPc, Vec restCoordinates,
               const LinearSolverOptions& options = {});
  ~LinearSolver();
  LinearSolver(const LinearSolver&) = delete;
  LinearSolver& operator=(const LinearSolver&) = delete;

  // Solves A x = b; returns the iteration count. Throws eis::Error naming PETSc's reason when
  // the solve diverges. The preconditioner is set up again only when A's values changed, as
  // PreconditionerReuse decides.
  int solve(Mat A, Vec b, Vec x);
  KSP ksp() const { return ksp_; }
  // Wall seconds spent so far setting up the preconditioner, and in KSPSolve after it.
  double setupSeconds() const { return setupSeconds_; }
  double seconds() const { return seconds_; }
  // Preconditioner set-ups so far.
  long preconditionerSetups() const { return reuse_.setups(); }

private:
  void configure(Mat A);
  void setUp(Mat A);

  KSP ksp_ = nullptr;
  Vec restCoordinates_ = nullptr;
  std::string defaultPc_;
  bool hypreElasticity_;
  PreconditionerReuse reuse_;
  bool configured_ = false;
  double setupSeconds_ = 0, seconds_ = 0;
};

}  // namespace eis
