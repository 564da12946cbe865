#include "eis/linalg/linear_solver.hpp"

// PetscObjectStateGet (public, developer level: how PCSetUp itself tells a changed matrix) is
// declared in this header in PETSc 3.18.
#include <petsc/private/petscimpl.h>

#include <algorithm>
#include <cstring>

#include "eis/core/error.hpp"
#include "eis/core/log_stage.hpp"

namespace eis {

namespace {

struct OptionDefault {
  const char* name;  // without the leading dash and the prefix
  const char* value;
};

// BoomerAMG in 3D: hypre's defaults (strength threshold 0.25, Falgout coarsening, classical
// interpolation) build an operator complexity of 4.5 on our beams; these keep it near 1.5.
constexpr OptionDefault kHypre3d[] = {{"pc_hypre_boomeramg_strong_threshold", "0.5"},
                                      {"pc_hypre_boomeramg_coarsen_type", "HMIS"},
                                      {"pc_hypre_boomeramg_interp_type", "ext+i"},
                                      {"pc_hypre_boomeramg_P_max", "4"},
                                      {"pc_hypre_boomeramg_agg_nl", "1"}};

// Elasticity: coarsen the three unknowns of a node together (strength from the row-sum norm of
// each 3x3 block, hypre's nodal = 4; nodal_diag = 1 sets each diagonal entry of that strength
// matrix to minus the sum of its row's others) and add the near-nullspace vectors to the
// interpolation (GM-1, at most 4 entries per row for each). PETSc hands BoomerAMG the matrix's
// near-nullspace in PCSetUp_HYPRE; BoomerAMG uses it only with a vec_interp_variant.
constexpr OptionDefault kHypreElasticity[] = {{"pc_hypre_boomeramg_nodal_coarsen", "4"},
                                              {"pc_hypre_boomeramg_nodal_coarsen_diag", "1"},
                                              {"pc_hypre_boomeramg_vec_interp_variant", "1"},
                                              {"pc_hypre_boomeramg_vec_interp_qmax", "4"}};

const char* optionsPrefix(KSP ksp) {
  const char* prefix = nullptr;
  EIS_CHECK(KSPGetOptionsPrefix(ksp, &prefix));
  return prefix;
}

// Whether -pc_type is absent or names hypre.
bool hypreUnlessOverridden(const char* prefix) {
  char type[64] = "";
  PetscBool given = PETSC_FALSE;
  EIS_CHECK(PetscOptionsGetString(nullptr, prefix, "-pc_type", type, sizeof type, &given));
  return !given || std::strcmp(type, PCHYPRE) == 0;
}

}  // namespace

void setDefaultSolver(KSP ksp, PCType pc, double rtol) {
  EIS_CHECK(KSPSetType(ksp, KSPCG));
  PC preconditioner;
  EIS_CHECK(KSPGetPC(ksp, &preconditioner));
  EIS_CHECK(PCSetType(preconditioner, pc));
  EIS_CHECK(KSPSetTolerances(ksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
}

HypreDefaults::HypreDefaults(KSP ksp, PCType defaultPc, bool elasticity) {
  const char* prefix = optionsPrefix(ksp);
  if (std::strcmp(defaultPc, PCHYPRE) != 0 || !hypreUnlessOverridden(prefix)) return;
  std::vector<OptionDefault> defaults(std::begin(kHypre3d), std::end(kHypre3d));
  if (elasticity)
    defaults.insert(defaults.end(), std::begin(kHypreElasticity), std::end(kHypreElasticity));
  for (const OptionDefault& option : defaults) {
    const std::string name = "-" + std::string(prefix ? prefix : "") + option.name;
    PetscBool given = PETSC_FALSE;
    EIS_CHECK(PetscOptionsHasName(nullptr, nullptr, name.c_str(), &given));
    if (given) continue;
    EIS_CHECK(PetscOptionsSetValue(nullptr, name.c_str(), option.value));
    added_.push_back(name);
  }
}

HypreDefaults::~HypreDefaults() {
  for (const std::string& name : added_) PetscOptionsClearValue(nullptr, name.c_str());
}

void attachNearNullSpace(KSP ksp, Mat A, Vec restCoordinates) {
  if (!restCoordinates) return;
  PC pc;
  EIS_CHECK(KSPGetPC(ksp, &pc));
  PetscBool hypre = PETSC_FALSE;
  EIS_CHECK(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(pc), PCHYPRE, &hypre));
  MatNullSpace rigid;
  EIS_CHECK(MatNullSpaceCreateRigidBody(restCoordinates, &rigid));
  if (hypre) {
    // MatNullSpaceCreateRigidBody lists the three translations first, then the rotations.
    PetscBool hasConstant;
    PetscInt count;
    const Vec* modes;
    EIS_CHECK(MatNullSpaceGetVecs(rigid, &hasConstant, &count, &modes));
    MatNullSpace rotations;
    EIS_CHECK(MatNullSpaceCreate(PetscObjectComm(reinterpret_cast<PetscObject>(A)), PETSC_FALSE,
                                 count - 3, modes + 3, &rotations));
    EIS_CHECK(MatSetNearNullSpace(A, rotations));
    EIS_CHECK(MatNullSpaceDestroy(&rotations));
  } else {
    EIS_CHECK(MatSetNearNullSpace(A, rigid));
  }
  EIS_CHECK(MatNullSpaceDestroy(&rigid));
}

PreconditionerReuse::PreconditionerReuse(const PreconditionerOptions& options)
    : lag_(options.lag), rebuildGrowth_(options.rebuildGrowth) {}

bool PreconditionerReuse::setUpAgainFor(Mat pmat) {
  const Change change = changeOf(pmat);
  bool again = setups_ == 0 || change == Change::Matrix;
  if (!again && change == Change::Values) {
    ++updatesSinceSetup_;
    again = updatesSinceSetup_ >= lag_ || iterationsGrew_;
  }
  if (again) {
    ++setups_;
    updatesSinceSetup_ = 0;
    firstIterations_ = -1;
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
  int change = int(id != matrixId_ ? Change::Matrix
                                   : state != matrixState_ ? Change::Values : Change::None);
  matrixId_ = id;
  matrixState_ = state;
  // Every rank changes the matrix in the same collective calls, so the verdicts agree; the
  // reduction guarantees it, as KSPSetReusePreconditioner must be called alike on every rank.
  MPI_Allreduce(MPI_IN_PLACE, &change, 1, MPI_INT, MPI_MAX,
                PetscObjectComm(reinterpret_cast<PetscObject>(pmat)));
  return Change(change);
}

void PreconditionerReuse::recordIterations(int iterations) {
  if (firstIterations_ < 0) firstIterations_ = iterations;
  else if (iterations > rebuildGrowth_ * std::max(firstIterations_, 1)) iterationsGrew_ = true;
}

LinearSolver::LinearSolver(MPI_Comm comm, PCType defaultPc, Vec restCoordinates,
                           const LinearSolverOptions& options)
    : defaultPc_(defaultPc),
      hypreElasticity_(options.preconditioner.hypreElasticity && restCoordinates),
      reuse_(options.preconditioner) {
  EIS_CHECK(KSPCreate(comm, &ksp_));
  setDefaultSolver(ksp_, defaultPc, 1e-8);
  if (options.start == LinearSolverOptions::Start::GivenVector)
    EIS_CHECK(KSPSetInitialGuessNonzero(ksp_, PETSC_TRUE));
  if (options.start == LinearSolverOptions::Start::Projection) {
    // The last 10 (b, x) pairs: 20 vectors; -ksp_guess_* options override the choice.
    KSPGuess guess;
    EIS_CHECK(KSPGetGuess(ksp_, &guess));
    EIS_CHECK(KSPGuessSetType(guess, KSPGUESSFISCHER));
    EIS_CHECK(KSPGuessFischerSetModel(guess, 3, 10));
  }
  if (restCoordinates) {
    EIS_CHECK(PetscObjectReference(reinterpret_cast<PetscObject>(restCoordinates)));
    restCoordinates_ = restCoordinates;
  }
}

LinearSolver::~LinearSolver() {
  KSPDestroy(&ksp_);
  VecDestroy(&restCoordinates_);
}

// Options are read once the operator is known so that -pc_type and friends override our
// defaults; the near-nullspace goes on after, for the preconditioner they chose.
void LinearSolver::configure(Mat A) {
  EIS_CHECK(KSPSetOperators(ksp_, A, A));
  {
    const HypreDefaults hypre(ksp_, defaultPc_.c_str(), hypreElasticity_);
    EIS_CHECK(KSPSetFromOptions(ksp_));
  }
  attachNearNullSpace(ksp_, A, restCoordinates_);
  configured_ = true;
}

// Sets the preconditioner up apart from the solve, to time the two separately: from A's
// current values when the reuse rule says so, else kept as it is (a no-op).
void LinearSolver::setUp(Mat A) {
  const bool again = reuse_.setUpAgainFor(A);
  EIS_CHECK(KSPSetReusePreconditioner(ksp_, again ? PETSC_FALSE : PETSC_TRUE));
  const ScopedStage stage("Preconditioner set-up");
  EIS_CHECK(KSPSetUp(ksp_));
}

int LinearSolver::solve(Mat A, Vec b, Vec x) {
  const double start = MPI_Wtime();
  if (!configured_) configure(A);
  else EIS_CHECK(KSPSetOperators(ksp_, A, A));
  setUp(A);
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
  reuse_.recordIterations(int(iterations));
  return int(iterations);
}

}  // namespace eis
