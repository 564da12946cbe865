#include "eis/ode/euler_explicit_solver.hpp"

namespace eis {

EulerExplicitSolver::EulerExplicitSolver(bool symplectic, Vec like,
                                         std::unique_ptr<LinearSolver> linear)
    : symplectic_(symplectic), linear_(std::move(linear)) {
  EIS_CHECK(VecDuplicate(like, &force_));
  EIS_CHECK(VecDuplicate(like, &acceleration_));
  EIS_CHECK(VecZeroEntries(acceleration_));
}

EulerExplicitSolver::~EulerExplicitSolver() {
  VecDestroy(&force_);
  VecDestroy(&acceleration_);
}

// SOFA's solve for a trivially invertible mass: f = f(x_n, v_n); a = M^-1 f; P a (its
// projectResponse on the acceleration). f is projected before the solve too, so that the fixed
// rows, the identity in M's matrix, give a = 0 there.
StepReport EulerExplicitSolver::step(MechanicalOperations& mop, Vec x, Vec v, double h) {
  StepReport report;
  mop.computeForce(x, v, force_);
  mop.projectResponse(force_);
  const Mat M = mop.systemMatrix(1.0, 0.0, 0.0);
  const long setupsBefore = linear_->preconditionerSetups();
  report.linearIterations = linear_->solve(M, force_, acceleration_);
  report.preconditionerSetups = int(linear_->preconditionerSetups() - setupsBefore);
  mop.projectResponse(acceleration_);
  if (symplectic_) {
    EIS_CHECK(VecAXPY(v, h, acceleration_));
    mop.addToPosition(x, h, v);
  } else {
    mop.addToPosition(x, h, v);
    EIS_CHECK(VecAXPY(v, h, acceleration_));
  }
  return report;
}

}  // namespace eis
