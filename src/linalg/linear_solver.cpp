#include "eis/linalg/linear_solver.hpp"

#include <cstdio>

#include "eis/core/error.hpp"
#include "eis/core/timer.hpp"
#include "eis/linalg/level_block_products.hpp"
#include "eis/linalg/product_fill.hpp"

namespace eis {

LinearSolver::LinearSolver(MPI_Comm comm, PCType defaultPc, Vec restCoordinates,
                           const LinearSolverOptions& options)
    : settings_(defaultPc, options.preconditioner.hypreElasticity, restCoordinates),
      reuse_(options.preconditioner),
      start_(options.start),
      span_(options.spanSolutions),
      blockProducts_(options.blockProducts),
      prefetch_(options.prefetch),
      singleLevels_(options.singleLevels),
      symmetricBlocks_(options.symmetricBlocks),
      truncatedFinestSmoother_(options.truncatedFinestSmoother),
      acceptIterationLimit_(options.acceptIterationLimit),
      checkpointed_(options.checkpointed),
      constantMatrix_(options.constantMatrix) {
  EIS_CHECK(KSPCreate(comm, &ksp_));
  settings_.setDefaults(ksp_, options.rtol);
  EIS_CHECK(
      KSPSetTolerances(ksp_, options.rtol, PETSC_DEFAULT, PETSC_DEFAULT, options.maxIterations));
  if (options.unpreconditionedNorm) EIS_CHECK(KSPSetNormType(ksp_, KSP_NORM_UNPRECONDITIONED));
  if (options.direct) {
    EIS_CHECK(KSPSetType(ksp_, KSPPREONLY));
    PC pc;
    EIS_CHECK(KSPGetPC(ksp_, &pc));
    EIS_CHECK(PCSetType(pc, PCCHOLESKY));
    EIS_CHECK(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
  }
}

LinearSolver::~LinearSolver() {
  VecDestroy(&givenStart_);
  if (kspFailed_) return;
  KSPDestroy(&indefinite_);
  KSPDestroy(&ksp_);
}

void LinearSolver::configure(Mat A) {
  reserveLessForProducts(A);
  EIS_CHECK(KSPSetOperators(ksp_, A, A));
  settings_.readOptions(ksp_, A, [this] { EIS_CHECK(KSPSetFromOptions(ksp_)); });
  check_.watch(ksp_);
  check_.audit(ksp_);
  PetscBool preonly = PETSC_FALSE;
  EIS_CHECK(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(ksp_), KSPPREONLY, &preonly));
  direct_ = preonly;
  if (direct_) reuse_.setUpAtEveryUpdate();
  setStart();
  configured_ = true;
}

// Where each solve starts, once the KSP type is known: a direct solve (preonly) takes no
// starting point, and PETSc refuses one.
void LinearSolver::setStart() {
  if (direct_) return;
  if (start_ == LinearSolverOptions::Start::GivenVector ||
      start_ == LinearSolverOptions::Start::Span)
    EIS_CHECK(KSPSetInitialGuessNonzero(ksp_, PETSC_TRUE));
  if (start_ == LinearSolverOptions::Start::Projection) {
    // The last 10 (b, x) pairs: 20 vectors; -ksp_guess_* options override the choice.
    KSPGuess guess;
    EIS_CHECK(KSPGetGuess(ksp_, &guess));
    EIS_CHECK(KSPGuessSetType(guess, KSPGUESSFISCHER));
    EIS_CHECK(KSPGuessFischerSetModel(guess, 3, kProjectionPairs));
    EIS_CHECK(KSPGuessSetFromOptions(guess));
  }
}

bool LinearSolver::projecting() const {
  return start_ == LinearSolverOptions::Start::Projection && !direct_;
}

void LinearSolver::saveStart(const std::string& prefix,
                             const ProjectionHistory::SaveVector& save) const {
  if (start_ == LinearSolverOptions::Start::Projection) projection_.save(prefix, save);
}

void LinearSolver::loadStart(const std::string& prefix, const ProjectionHistory::LoadVector& load,
                             Vec like) {
  if (start_ == LinearSolverOptions::Start::Projection) projection_.load(prefix, load, like);
}

// Sets the preconditioner up apart from the solve, to time the two separately: from A's
// current values when the reuse rule says so, else kept as it is (a no-op). A multigrid set up
// afresh has new level operators, which then get their block copies, takes its finest residual
// with its finest smoother's operator, and lets its smoothers' eigenvalue estimates' vectors go.
//
// The first set-up frees what only a set-up again would read, which a matrix that never changes
// never asks for. On several ranks that is the data GAMG's products keep (ClearedProducts): a
// quarter of the peak memory per rank of a linear beam of 1e6 unknowns on 2 ranks
// (docs/performance.md). On one rank, where they keep next to nothing, it is the AIJ storage of
// GAMG's coarser levels and interpolations, whose products read float blocks
// (multiplyLevelsInBlocks). A matrix that changes pays at its first set-up again: a symbolic phase
// more for each product, or on one rank a multigrid built afresh; the set-ups after it keep
// everything, as before. The preconditioner is set up before the KSP's own work vectors are
// made, so that they take memory its set-up freed rather than add to the peak it reaches, and
// A carries the rigid-body modes only through the set-ups, which alone read them.
void LinearSolver::setUp(Mat A) {
  const bool again = reuse_.setUpAgainFor(A);
  const bool first = again && reuse_.setups() == 1;
  EIS_CHECK(KSPSetReusePreconditioner(ksp_, again ? PETSC_FALSE : PETSC_TRUE));
  const ScopedTimer timer("Preconditioner set-up");
  PetscMPIInt ranks;
  EIS_CHECK(MPI_Comm_size(PetscObjectComm(reinterpret_cast<PetscObject>(ksp_)), &ranks));
  const ClearedProducts cleared(ksp_, first && ranks > 1);
  const FreshInterpolation fresh(ksp_, again && levelsReleased_);
  const CgEigenvalueEstimates estimates(ksp_, constantMatrix_);
  PC pc;
  EIS_CHECK(KSPGetPC(ksp_, &pc));
  if (again && !direct_) settings_.attachNearNullSpace(ksp_, A);  // a factorization reads none
  intoSolver(kspFailed_, [&] { EIS_CHECK(PCSetUp(pc)); });
  if (again) settings_.releaseNearNullSpace(A);
  if (again && !direct_) {
    if (truncatedFinestSmoother_) smoothFinestByHighHalves(ksp_);
    releaseEigenvalueEstimates(ksp_);
    if (blockProducts_)
      levelsReleased_ = multiplyLevelsInBlocks(ksp_, prefetch_, singleLevels_, first);
    followFinestOperator(ksp_);
  }
  intoSolver(kspFailed_, [&] { EIS_CHECK(KSPSetUp(ksp_)); });
}

// The matrix the solve multiplies by: A's block copy for an iterative solve (a direct one
// only factors A), timed with the assembly whose values it copies; its making at the first
// solve is set-up done late (the AIJ matrix's is the run's set-up), timed as "Block copy
// set-up". A stays the preconditioner's matrix and the one SolutionCheck tests the answer
// against.
Mat LinearSolver::productOperator(Mat A) {
  if (!blockProducts_ || direct_) return A;
  const ScopedTimer timer("Matrix assembly");
  return fineBlockProducts(
      A, prefetch_, symmetricBlocks_ ? BlockCopy::Storage::Upper : BlockCopy::Storage::Whole);
}

// The KSP's operators, A's product operator and A, and the preconditioner set up as the reuse
// rule says; the product operator. The first set-up runs before A's block copy is made, so that
// GAMG's set-up, where one rank's memory peaks, does not hold it too (197 MiB at 1e6 unknowns):
// the copy then takes the memory of the AIJ levels it freed, and the finest smoother takes the
// copy, its eigenvalue bounds estimated again on it (handFinestOperator), as a set-up with the
// copy would have had them.
Mat LinearSolver::setUpWithProducts(Mat A) {
  const bool late = reuse_.setups() == 0 && blockProducts_ && !direct_;
  if (late) {
    EIS_CHECK(KSPSetOperators(ksp_, A, A));
    setUp(A);
  }
  const Mat products = productOperator(A);
  EIS_CHECK(KSPSetOperators(ksp_, products, A));
  if (!late) {
    setUp(A);
  } else if (products != A) {
    const ScopedTimer timer("Preconditioner set-up");
    const Mat smoother = truncatedFinestSmoother_ ? fineSmootherProducts(A) : products;
    intoSolver(kspFailed_, [&] { handFinestOperator(ksp_, smoother); });
    releaseEigenvalueEstimates(ksp_);
  }
  return products;
}

// A kept preconditioner is a bet that the matrix has not moved far from the one it was set up
// from, and a lost bet must not cost the run: a solve that fails with a stale one is done once
// more, from the same start, with the preconditioner set up from A (what solver.pc-lag = 1 would
// have used). CG then stops only for A itself: an indefinite one (a buckling beam, whose K
// outweighs M / h^2; a fresh GAMG set up from it is indefinite too) is solved by GMRES with the
// same preconditioner, as a direct solve would solve it. Only what fails after that is the
// user's error.
//
// A zero right-hand side has the solution zero, given at once (SOFA's CGLinearSolver returns
// x = 0 for b = 0): no preconditioner is set up, so a zero or singular matrix (a massless body at
// rest) is no failure, and no start is read.
int LinearSolver::solve(Mat A, Vec b, Vec x) {
  PetscReal bNorm;
  EIS_CHECK(VecNorm(b, NORM_INFINITY, &bNorm));
  if (bNorm == 0) {
    EIS_CHECK(VecZeroEntries(x));
    return 0;
  }
  if (!configured_) configure(A);
  const Mat products = setUpWithProducts(A);
  if (projecting()) projection_.replay(ksp_);
  const bool stale = reuse_.keptStale();
  if (start_ == LinearSolverOptions::Start::GivenVector) {
    if (!givenStart_) EIS_CHECK(VecDuplicate(x, &givenStart_));
    EIS_CHECK(VecCopy(x, givenStart_));
  }
  Attempt attempt = attemptSolve(ksp_, products, A, b, x);
  if (!attempt.failure.empty() && stale) {
    reuse_.setUpAgainNext();
    // Set again, the unchanged operators have KSPSetUp make the set-up here rather than leave it
    // to the next solve, past FreshInterpolation's reach.
    EIS_CHECK(KSPSetOperators(ksp_, products, A));
    setUp(A);
    attempt = attemptAgain(ksp_, attempt, products, A, b, x);
  }
  PetscBool cg = PETSC_FALSE;
  if (attempt.reason == KSP_DIVERGED_INDEFINITE_MAT || attempt.reason == KSP_DIVERGED_INDEFINITE_PC)
    EIS_CHECK(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(ksp_), KSPCG, &cg));
  if (cg) {
    const Attempt byCg = attempt;
    attempt = attemptAgain(indefiniteFallback(products, A), attempt, products, A, b, x);
    if (!attempt.failure.empty())
      throw Error(
          "linear solve: CG found the " +
          std::string(byCg.reason == KSP_DIVERGED_INDEFINITE_MAT ? "matrix" : "preconditioner") +
          " indefinite (" + KSPConvergedReasons[byCg.reason] + " after " +
          std::to_string(byCg.iterations) + " iterations), and GMRES " + attempt.failure);
  }
  if (!attempt.failure.empty()) throw Error("linear solve " + attempt.failure);
  return attempt.iterations;
}

// The failed attempt's solve once more with `ksp`, from the same start; the iterations of both.
LinearSolver::Attempt LinearSolver::attemptAgain(KSP ksp, const Attempt& failed, Mat products,
                                                 Mat A, Vec b, Vec x) {
  if (givenStart_) EIS_CHECK(VecCopy(givenStart_, x));
  Attempt attempt = attemptSolve(ksp, products, A, b, x);
  attempt.iterations += failed.iterations;
  return attempt;
}

KSP LinearSolver::indefiniteFallback(Mat products, Mat A) {
  if (!indefinite_) {
    indefinite_ = indefiniteFallbackOf(ksp_);
    check_.watch(indefinite_);
  }
  EIS_CHECK(KSPSetOperators(indefinite_, products, A));
  return indefinite_;
}

// One solve by `ksp` from the configured start: its iterations, and what failed. Only the main
// KSP's iterations count for PreconditionerReuse's guard.
LinearSolver::Attempt LinearSolver::attemptSolve(KSP ksp, Mat products, Mat A, Vec b, Vec x) {
  const bool span = start_ == LinearSolverOptions::Start::Span && !direct_;
  if (span) {
    const ScopedTimer timer("Initial guess");
    span_.start(products, b, x);
  }
  {
    const ScopedTimer timer("KSP solve");
    intoSolver(kspFailed_, [&] { EIS_CHECK(KSPSolve(ksp, b, x)); });
  }
  if (ksp == ksp_ && projecting() && checkpointed_) projection_.record(ksp, b, x);
  KSPConvergedReason reason;
  EIS_CHECK(KSPGetConvergedReason(ksp, &reason));
  PetscInt iterations;
  EIS_CHECK(KSPGetIterationNumber(ksp, &iterations));
  const bool acceptedLimit = acceptIterationLimit_ && reason == KSP_DIVERGED_ITS;
  if (reason < 0 && !acceptedLimit)
    return {int(iterations), reason,
            std::string("did not converge: ") + KSPConvergedReasons[reason] + " after " +
                std::to_string(iterations) + " iterations"};
  // A solve stopped by an accepted iteration limit (SOFA's cost) makes no claim to check.
  if (!acceptedLimit) {
    const ScopedTimer timer("Solution check");
    std::string verdict = check_.verdict(ksp, A, b, x);
    if (!verdict.empty() && direct_) verdict += " (a direct solve: check -pc_type)";
    if (verdict.empty() && ksp == ksp_) verdict = keptMetricFailure();
    if (!verdict.empty())
      return {int(iterations), reason,
              std::string("reported ") + KSPConvergedReasons[reason] + " after " +
                  std::to_string(iterations) + " iterations, but " + verdict};
  }
  if (ksp == ksp_) reuse_.recordIterations(int(iterations));
  if (span) span_.store(x);
  return {int(iterations), reason, {}};
}

int LinearSolver::solveColumns(Mat A, Mat B, Mat X) {
  PetscInt columns;
  EIS_CHECK(MatGetSize(B, nullptr, &columns));
  if (!configured_) configure(A);
  if (!direct_) {
    int iterations = 0;
    for (PetscInt j = 0; j < columns; ++j) {
      Vec b, x;
      EIS_CHECK(MatDenseGetColumnVecRead(B, j, &b));
      EIS_CHECK(MatDenseGetColumnVecWrite(X, j, &x));
      EIS_CHECK(VecZeroEntries(x));
      iterations += solve(A, b, x);
      EIS_CHECK(MatDenseRestoreColumnVecWrite(X, j, &x));
      EIS_CHECK(MatDenseRestoreColumnVecRead(B, j, &b));
    }
    return iterations;
  }
  EIS_CHECK(KSPSetOperators(ksp_, productOperator(A), A));
  setUp(A);
  {
    const ScopedTimer timer("KSP solve");
    intoSolver(kspFailed_, [&] { EIS_CHECK(KSPMatSolve(ksp_, B, X)); });
  }
  std::string verdict;
  {
    const ScopedTimer timer("Solution check");
    verdict = check_.columnsVerdict(ksp_, A, B, X);
  }
  if (!verdict.empty())
    throw Error("linear solve of " + std::to_string(columns) +
                " right-hand sides at once: " + verdict + " (a direct solve: check -pc_type)");
  return int(columns);
}

// A preconditioner kept from older values measures the residual in their metric, which a sudden
// change of the matrix can blind to the error (a third of a Laplacian's rows 1000 times stiffer:
// CG "converged" with ||b - A x|| / ||b|| = 1). The solves with a fresh one record how the true
// relative residual relates to the tested one (kappa = true / tested, the check's two
// measurements); a solve with a kept one fails, to be done again with a fresh one, when its true
// relative residual is above kKeptMetricMargin kappa rtol: two orders of magnitude past what
// the fresh preconditioner's test let through. On the soft and stiff beams of
// docs/performance.md's sweep a kept one reached 35 times at most; the stiffened Laplacian
// 3,700 to 260,000 times. Not measured (the test's norm is the true one, or the answer is at
// rounding level): no verdict.
std::string LinearSolver::keptMetricFailure() {
  const double trueRelative = check_.lastTrueRelative(), tested = check_.lastTestedRelative();
  if (trueRelative < 0 || tested <= 0) return {};
  if (!reuse_.keptStale()) {
    trueToTested_ = trueRelative / tested;
    return {};
  }
  if (trueToTested_ <= 0) return {};
  PetscReal rtol;
  EIS_CHECK(KSPGetTolerances(ksp_, &rtol, nullptr, nullptr, nullptr));
  const double allowed = kKeptMetricMargin * trueToTested_ * double(rtol);
  if (trueRelative <= allowed) return {};
  char text[240];
  std::snprintf(text, sizeof text,
                "with a preconditioner kept from older values its true relative residual "
                "||b - A x|| / ||b|| is %.3g, %.3g times what a fresh one's test let through",
                trueRelative, trueRelative * kKeptMetricMargin / allowed);
  return text;
}

}  // namespace eis
