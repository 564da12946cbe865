#include "eis/ode/newton_solver.hpp"

#include <cmath>

#include "eis/core/error.hpp"
#include "eis/linalg/linear_solver.hpp"

namespace eis {

namespace {

PetscErrorCode residualCallback(SNES, Vec v, Vec r, void* context) {
  auto* solver = static_cast<NewtonSolver*>(context);
  PetscFunctionBeginUser;
  try {
    solver->formResidual(v, r);
  } catch (const Error& e) {
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
  } catch (const Error& e) {
    solver->recordFailure(e.what());
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_USER, "%s", e.what());
  }
  PetscFunctionReturn(0);
}

}  // namespace

NewtonSolver::NewtonSolver(MPI_Comm comm, const EulerImplicitOptions& options, NewtonGuess guess,
                           Vec like, PCType defaultPc, Vec restCoordinates)
    : options_(options), guess_(guess) {
  if (options.trapezoidal) throw Error("the Newton solver does not take SOFA's trapezoidal factor");
  for (Vec* v : {&xStart_, &vStart_, &vBefore_, &iterate_, &residual_, &xTrial_, &force_, &work_})
    EIS_CHECK(VecDuplicate(like, v));
  EIS_CHECK(SNESCreate(comm, &snes_));
  EIS_CHECK(SNESSetFunction(snes_, residual_, residualCallback, this));
  KSP ksp;
  EIS_CHECK(SNESGetKSP(snes_, &ksp));
  setDefaultSolver(ksp, defaultPc, 1e-10);
  if (restCoordinates) {
    EIS_CHECK(PetscObjectReference(reinterpret_cast<PetscObject>(restCoordinates)));
    restCoordinates_ = restCoordinates;
  }
}

NewtonSolver::~NewtonSolver() {
  SNESDestroy(&snes_);
  VecDestroy(&restCoordinates_);
  for (Vec* v : {&xStart_, &vStart_, &vBefore_, &iterate_, &residual_, &xTrial_, &force_, &work_})
    VecDestroy(v);
}

void NewtonSolver::configure(Mat jacobian) {
  attachRigidBodyModes(jacobian, restCoordinates_);
  EIS_CHECK(SNESSetJacobian(snes_, jacobian, jacobian, jacobianCallback, this));
  EIS_CHECK(SNESSetFromOptions(snes_));
  configured_ = true;
}

// The seed's initial guesses: v = 0 (x = x_n), v = v_n, or v = 2 v_n - v_{n-1}.
void NewtonSolver::initialGuess(Vec v) {
  switch (guess_) {
    case NewtonGuess::Zero:
      EIS_CHECK(VecZeroEntries(iterate_));
      break;
    case NewtonGuess::Previous:
      EIS_CHECK(VecCopy(v, iterate_));
      break;
    case NewtonGuess::Extrapolated:
      EIS_CHECK(VecCopy(v, iterate_));
      if (haveBefore_) EIS_CHECK(VecAXPBY(iterate_, -1.0, 2.0, vBefore_));
      break;
  }
}

Mat NewtonSolver::jacobianAt(Vec v) {
  // The force at the iterate sets the linearization point that K is assembled at.
  EIS_CHECK(VecWAXPY(xTrial_, h_, v, xStart_));
  mop_->computeForce(xTrial_, v, force_);
  const double h = h_, rM = options_.rayleighMass, rK = options_.rayleighStiffness;
  return options_.firstOrder ? mop_->systemMatrix(1.0, 0.0, -h)
                             : mop_->systemMatrix(1 + h * rM, -h, -h * (h + rK));
}

void NewtonSolver::formJacobian(Vec v) { jacobianAt(v); }

void NewtonSolver::formResidual(Vec v, Vec r) {
  const double h = h_, rM = options_.rayleighMass, rK = options_.rayleighStiffness;
  EIS_CHECK(VecWAXPY(xTrial_, h, v, xStart_));
  mop_->computeForce(xTrial_, v, force_);
  EIS_CHECK(VecCopy(force_, r));
  if (options_.firstOrder) {
    EIS_CHECK(VecScale(r, -1.0));  // M v - f
    mop_->addMBKv(r, 1.0, 0.0, 0.0, v);
  } else {
    EIS_CHECK(VecScale(r, -h));  // M (v - v_n) - h f + h rM M v - h rK K v
    EIS_CHECK(VecWAXPY(work_, -1.0, vStart_, v));
    mop_->addMBKv(r, 1.0, 0.0, 0.0, work_);
    if (rM != 0 || rK != 0) mop_->addMBKv(r, h * rM, 0.0, -h * rK, v);
  }
  mop_->projectResponse(r);
}

StepReport NewtonSolver::step(MechanicalOperations& mop, Vec x, Vec v, double h) {
  mop_ = &mop;
  h_ = h;
  callbackFailure_.clear();
  EIS_CHECK(VecCopy(x, xStart_));
  EIS_CHECK(VecCopy(v, vStart_));
  initialGuess(v);
  if (!configured_) configure(jacobianAt(iterate_));

  const double start = MPI_Wtime();
  const PetscErrorCode status = SNESSolve(snes_, nullptr, iterate_);
  seconds_ += MPI_Wtime() - start;
  mop_ = nullptr;
  if (status) {
    // A callback's own message (an inverted element, say) says more than PETSc's code.
    if (!callbackFailure_.empty()) throw Error(callbackFailure_);
    throwPetscError(status, "SNESSolve", __FILE__, __LINE__);
  }
  SNESConvergedReason reason;
  EIS_CHECK(SNESGetConvergedReason(snes_, &reason));
  PetscInt iterations, linearIterations;
  EIS_CHECK(SNESGetIterationNumber(snes_, &iterations));
  EIS_CHECK(SNESGetLinearSolveIterations(snes_, &linearIterations));
  if (reason < 0)
    throw Error(std::string("Newton solve did not converge: ") + SNESConvergedReasons[reason] +
                " after " + std::to_string(iterations) + " iterations");

  EIS_CHECK(VecCopy(vStart_, vBefore_));
  haveBefore_ = true;
  EIS_CHECK(VecCopy(iterate_, v));
  EIS_CHECK(VecWAXPY(x, h, v, xStart_));
  if (options_.vdamping != 0) EIS_CHECK(VecScale(v, std::exp(-h * options_.vdamping)));

  StepReport report;
  report.linearIterations = int(linearIterations);
  report.nonlinearIterations = int(iterations);
  if (options_.computeResidual)
    report.residualNorm = sofaResidualNorm(mop, x, v, vStart_, h, force_, work_);
  return report;
}

}  // namespace eis
