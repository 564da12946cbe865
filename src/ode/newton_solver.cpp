#include "eis/ode/newton_solver.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "eis/core/error.hpp"
#include "eis/core/timer.hpp"

namespace eis {

namespace {

PetscErrorCode residualCallback(SNES, Vec v, Vec r, void* context) {
  auto* solver = static_cast<NewtonSolver*>(context);
  PetscFunctionBeginUser;
  try {
    solver->formResidual(v, r);
  } catch (const std::exception& e) {
    solver->recordFailure(e.what());
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_USER, "%s", e.what());
  }
  PetscFunctionReturn(0);
}

PetscErrorCode jacobianCallback(SNES, Vec v, Mat, Mat, void* context) {
  auto* solver = static_cast<NewtonSolver*>(context);
  PetscFunctionBeginUser;
  try {
    solver->formJacobian(v);
  } catch (const std::exception& e) {
    solver->recordFailure(e.what());
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_USER, "%s", e.what());
  }
  PetscFunctionReturn(0);
}

}  // namespace

NewtonSolver::NewtonSolver(MPI_Comm comm, const EulerImplicitOptions& options, NewtonGuess guess,
                           Vec like, PCType defaultPc, Vec restCoordinates,
                           const PreconditionerOptions& preconditioner)
    : options_(options),
      guess_(guess),
      settings_(defaultPc, preconditioner.hypreElasticity, restCoordinates),
      reuse_(preconditioner) {
  if (options.scheme == TimeScheme::SofaTrapezoidal)
    throw Error("the Newton solver does not take SOFA's trapezoidal variant (a linearized scheme)");
  trapezoidal_ = options.scheme == TimeScheme::Trapezoidal;
  for (Vec* v : {&xStart_, &vStart_, &vBefore_, &iterate_, &residual_, &xTrial_, &force_, &work_,
                 &forceStart_, &startIterate_})
    EIS_CHECK(VecDuplicate(like, v));
  EIS_CHECK(SNESCreate(comm, &snes_));
  EIS_CHECK(SNESSetFunction(snes_, residual_, residualCallback, this));
  KSP ksp;
  EIS_CHECK(SNESGetKSP(snes_, &ksp));
  settings_.setDefaults(ksp, 1e-10);
}

NewtonSolver::~NewtonSolver() {
  if (!snesFailed_) SNESDestroy(&snes_);
  for (Vec* v : {&xStart_, &vStart_, &vBefore_, &iterate_, &residual_, &xTrial_, &force_, &work_,
                 &forceStart_, &startIterate_})
    VecDestroy(v);
}

// The near-nullspace goes on after the options are read, for the preconditioner they chose.
void NewtonSolver::configure(Mat jacobian) {
  EIS_CHECK(SNESSetJacobian(snes_, jacobian, jacobian, jacobianCallback, this));
  KSP ksp;
  EIS_CHECK(SNESGetKSP(snes_, &ksp));
  settings_.readOptions(ksp, jacobian, [this] { EIS_CHECK(SNESSetFromOptions(snes_)); });
  // A direct solve's kept factorization would answer an old Jacobian.
  PetscBool preonly = PETSC_FALSE;
  EIS_CHECK(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(ksp), KSPPREONLY, &preonly));
  if (preonly) reuse_.setUpAtEveryUpdate();
  configured_ = true;
}

// The initial guesses: v = 0 (x = x_n), v = v_n, or v = 2 v_n - v_{n-1}.
void NewtonSolver::initialGuess(Vec v) {
  switch (guess_) {
    case NewtonGuess::Zero: EIS_CHECK(VecZeroEntries(iterate_)); break;
    case NewtonGuess::Previous: EIS_CHECK(VecCopy(v, iterate_)); break;
    case NewtonGuess::Extrapolated:
      EIS_CHECK(VecCopy(v, iterate_));
      if (haveBefore_) EIS_CHECK(VecAXPBY(iterate_, -1.0, 2.0, vBefore_));
      break;
  }
}

// x at the iterate v: x_n + h v, or x_n + h/2 (v_n + v) for the second-order trapezoidal rule.
void NewtonSolver::positionAt(Vec v, Vec x) {
  EIS_CHECK(VecWAXPY(x, positionRate_, v, xStart_));
  if (trapezoidal_ && !options_.firstOrder) EIS_CHECK(VecAXPY(x, positionRate_, vStart_));
}

Mat NewtonSolver::jacobianAt(Vec v) {
  // The force at the iterate sets the linearization point that K is assembled at.
  positionAt(v, xTrial_);
  mop_->computeForce(xTrial_, v, force_);
  // dF/dv = (1 + w rM) M - w B - w (c + rK) K with w the force weight, c = dx/dv.
  const double w = forceWeight_, c = positionRate_;
  if (options_.firstOrder) return mop_->systemMatrix(1.0, 0.0, -w * c);
  const double rM = options_.rayleighMass, rK = options_.rayleighStiffness;
  return mop_->systemMatrix(1 + w * rM, -w, -w * (c + rK));
}

void NewtonSolver::formJacobian(Vec v) {
  choosePreconditionerSetUp(jacobianAt(v));
}

// SNES sets its KSP's reuse flag right after this callback, from its preconditioner lag, so our
// verdict travels through the lag: -2 sets the preconditioner up once more, -1 keeps it.
void NewtonSolver::choosePreconditionerSetUp(Mat jacobian) {
  recordLinearSolve();
  if (freshEveryJacobian_) reuse_.setUpAgainNext();
  const bool again = reuse_.setUpAgainFor(jacobian);
  EIS_CHECK(SNESSetLagPreconditioner(snes_, again ? -2 : -1));
  staleSolve_ = reuse_.keptStale();
  linearSolvePending_ = true;
}

// The iterations of the solve that followed the last Jacobian, for the reuse rule.
void NewtonSolver::recordLinearSolve() {
  if (!linearSolvePending_) return;
  KSP ksp;
  EIS_CHECK(SNESGetKSP(snes_, &ksp));
  PetscInt iterations;
  EIS_CHECK(KSPGetIterationNumber(ksp, &iterations));
  reuse_.recordIterations(int(iterations));
  linearSolvePending_ = false;
}

// Second order: F(v) = M (v - v_n) - w [f(x, v) - rM M v + rK K v] - (trapezoidal: w f_n);
// first order: F(v) = M v - w f(x) - (trapezoidal: w f_n). w = h (Euler, second order), h/2
// (trapezoidal, second order), 1 or 1/2 (first order).
void NewtonSolver::formResidual(Vec v, Vec r) {
  const double w = forceWeight_, rM = options_.rayleighMass, rK = options_.rayleighStiffness;
  positionAt(v, xTrial_);
  mop_->computeForce(xTrial_, v, force_);
  EIS_CHECK(VecCopy(force_, r));
  EIS_CHECK(VecScale(r, -w));
  if (options_.firstOrder) {
    mop_->addMBKv(r, 1.0, 0.0, 0.0, v);
  } else {
    EIS_CHECK(VecWAXPY(work_, -1.0, vStart_, v));
    mop_->addMBKv(r, 1.0, 0.0, 0.0, work_);
    if (rM != 0 || rK != 0) mop_->addMBKv(r, w * rM, 0.0, -w * rK, v);
  }
  if (trapezoidal_) EIS_CHECK(VecAXPY(r, -w, forceStart_));
  mop_->projectResponse(r);
}

// f_n (with its Rayleigh terms, second order) at the start of the step, for the trapezoidal rule.
void NewtonSolver::startForce(Vec x, Vec v) {
  mop_->computeForce(x, v, forceStart_);
  if (!options_.firstOrder && (options_.rayleighMass != 0 || options_.rayleighStiffness != 0))
    mop_->addMBKv(forceStart_, -options_.rayleighMass, 0.0, options_.rayleighStiffness, v);
}

// SNES measures F itself at every iterate (no recursion to drift), so a stop on ||F|| (FNORM) or
// on its step against -snes_stol (SNORM) met the tolerance it names. A stop on the iteration
// count alone (-snes_convergence_test skip, say) measured nothing: then ||F|| at the answer is held
// to 10 max(atol, rtol ||F(guess)||), as SolutionCheck holds a linear solve, or to rounding level,
// 1000 eps ||J|| (||v|| + ||v_n||) (the forces in F cancel to about that). -snes_type ksponly asks
// for one iteration and claims no more. Empty when it passes; two residual evaluations otherwise.
std::string NewtonSolver::verifyConvergence() {
  SNESConvergedReason reason;
  EIS_CHECK(SNESGetConvergedReason(snes_, &reason));
  PetscBool kspOnly;
  EIS_CHECK(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(snes_), SNESKSPONLY, &kspOnly));
  if (reason != SNES_CONVERGED_ITS || kspOnly) return {};
  PetscReal atol, rtol, stol;
  PetscInt maxIterations, maxEvaluations;
  EIS_CHECK(SNESGetTolerances(snes_, &atol, &rtol, &stol, &maxIterations, &maxEvaluations));
  PetscReal start, end, size, startSize;
  formResidual(startIterate_, residual_);
  EIS_CHECK(VecNorm(residual_, NORM_2, &start));
  formResidual(iterate_, residual_);
  EIS_CHECK(VecNorm(residual_, NORM_2, &end));
  Mat jacobian;
  EIS_CHECK(SNESGetJacobian(snes_, &jacobian, nullptr, nullptr, nullptr));
  EIS_CHECK(VecNorm(iterate_, NORM_2, &size));
  EIS_CHECK(VecNorm(vStart_, NORM_2, &startSize));
  const double rounding = 1000 * std::numeric_limits<double>::epsilon() *
                          check_.operatorNorm(jacobian) * double(size + startSize);
  const double tolerance = std::max(double(atol), double(rtol * start));
  if (end <= std::max(10 * tolerance, rounding)) return {};
  char text[256];
  std::snprintf(text, sizeof text,
                "its residual ||F|| = %.3g is %.3g times max(rtol ||F(guess)||, atol) with rtol "
                "%.3g (at most 10 times allowed), and above rounding level (%.3g)",
                double(end), double(end) / tolerance, double(rtol), rounding);
  return text;
}

// One SNESSolve from iterate_, timed; PETSc's error code, for step() to report.
PetscErrorCode NewtonSolver::newtonSolve() {
  PetscErrorCode status;
  {
    const ScopedTimer timer("Newton solve");
    status = SNESSolve(snes_, nullptr, iterate_);
  }
  recordLinearSolve();
  return status;
}

StepReport NewtonSolver::step(MechanicalOperations& mop, Vec x, Vec v, double h) {
  mop_ = &mop;
  callbackFailure_.clear();
  positionRate_ = trapezoidal_ && !options_.firstOrder ? h / 2 : h;
  forceWeight_ = options_.firstOrder ? (trapezoidal_ ? 0.5 : 1.0) : (trapezoidal_ ? h / 2 : h);
  EIS_CHECK(VecCopy(x, xStart_));
  EIS_CHECK(VecCopy(v, vStart_));
  if (trapezoidal_) startForce(x, v);
  initialGuess(v);
  EIS_CHECK(VecCopy(iterate_, startIterate_));
  if (!configured_) configure(jacobianAt(iterate_));

  const long setupsBefore = reuse_.setups();
  PetscErrorCode status = newtonSolve();
  // As LinearSolver::solve: a linear solve that failed with a preconditioner kept from an older
  // Jacobian costs a second Newton solve from the same guess, with the preconditioner set up
  // afresh at each of its Jacobians (solver.pc-lag = 1 for that step), not the run.
  PetscInt failedLinearIterations = 0;
  SNESConvergedReason reason = SNES_CONVERGED_ITERATING;
  if (!status) EIS_CHECK(SNESGetConvergedReason(snes_, &reason));
  if (!status && reason == SNES_DIVERGED_LINEAR_SOLVE && staleSolve_) {
    EIS_CHECK(SNESGetLinearSolveIterations(snes_, &failedLinearIterations));
    EIS_CHECK(VecCopy(startIterate_, iterate_));
    freshEveryJacobian_ = true;
    status = newtonSolve();
    freshEveryJacobian_ = false;
  }
  if (status) {
    mop_ = nullptr;
    // A callback's own message (an inverted element, say) says more than PETSc's code.
    if (!callbackFailure_.empty()) throw Error(callbackFailure_);
    intoSolver(snesFailed_, [&] { throwPetscError(status, "SNESSolve", __FILE__, __LINE__); });
  }
  EIS_CHECK(SNESGetConvergedReason(snes_, &reason));
  PetscInt iterations, linearIterations;
  EIS_CHECK(SNESGetIterationNumber(snes_, &iterations));
  EIS_CHECK(SNESGetLinearSolveIterations(snes_, &linearIterations));
  const std::string unverified = reason < 0 ? std::string() : verifyConvergence();
  mop_ = nullptr;
  if (reason < 0)
    throw Error(std::string("Newton solve did not converge: ") + SNESConvergedReasons[reason] +
                " after " + std::to_string(iterations) + " iterations");
  if (!unverified.empty())
    throw Error(std::string("Newton solve reported ") + SNESConvergedReasons[reason] + " after " +
                std::to_string(iterations) + " iterations, but " + unverified);

  EIS_CHECK(VecCopy(vStart_, vBefore_));
  haveBefore_ = true;
  EIS_CHECK(VecCopy(iterate_, v));
  positionAt(v, x);
  if (options_.vdamping != 0) EIS_CHECK(VecScale(v, std::exp(-h * options_.vdamping)));

  StepReport report;
  report.linearIterations = int(failedLinearIterations + linearIterations);
  report.nonlinearIterations = int(iterations);
  report.preconditionerSetups = int(reuse_.setups() - setupsBefore);
  if (options_.computeResidual)
    report.residualNorm = sofaResidualNorm(mop, x, v, vStart_, h, force_, work_);
  return report;
}

}  // namespace eis
