#include "eis/ode/euler_implicit_solver.hpp"

#include <cmath>
#include <string>

#include "eis/core/error.hpp"

namespace eis {

EulerImplicitSolver::EulerImplicitSolver(const EulerImplicitOptions& options, Vec like,
                                         std::unique_ptr<LinearSolver> linear)
    : options_(options), linear_(std::move(linear)) {
  EIS_CHECK(VecDuplicate(like, &rhs_));
  EIS_CHECK(VecDuplicate(like, &solution_));
  // v_n and the force apart are kept only where the step reads them again: for the residual,
  // or (v_n) to average it in.
  if (options_.computeResidual) EIS_CHECK(VecDuplicate(like, &force_));
  if (options_.computeResidual || averagesVelocity()) EIS_CHECK(VecDuplicate(like, &vBefore_));
  EIS_CHECK(VecZeroEntries(solution_));
}

EulerImplicitSolver::~EulerImplicitSolver() {
  VecDestroy(&force_);
  VecDestroy(&rhs_);
  VecDestroy(&solution_);
  VecDestroy(&vBefore_);
  VecDestroy(&lift_);
}

// Second order (default), with tr = 1 (or 0.5 for either trapezoidal scheme):
//   b = P h (f(x_n, v_n) + (tr h + rK) K v_n - rM M v_n)
//   A = (1 + tr h rM) M - tr h B - tr h (tr h + rK) K,  fixed rows/columns -> their diagonal
//   v_{n+1} = v_n + A^-1 b,  x_{n+1} = x_n + h v_{n+1},  v_{n+1} *= exp(-h vdamping)
// (with StepConstraints, SOFA's solveConstraint, v_{n+1} corrected before x_{n+1} is formed and
// x_{n+1} after, both before vdamping)
// The true trapezoidal rule solves the same system (it is the linearization of
// M (v_{n+1} - v_n) = h/2 (f_n + f_{n+1})) and moves x by h/2 (v_n + v_{n+1}) instead.
// First order:  b = P f(x_n),  A = M - tr h K,  v_{n+1} = A^-1 b,  x_{n+1} = x_n + h v_{n+1}
// (with tr = 0.5 both trapezoidal schemes are the linearized Crank-Nicolson rule).
// Prescribed motion: the solution on the moving unknowns is known, L (the lift), such that the
// position update ends them where they must be; A (dv - L) = b - A L is solved with their rows
// projected, so the matrix stays the symmetric one of the fixed rows (MatZeroRowsColumns with
// x = L, b).
StepReport EulerImplicitSolver::step(MechanicalOperations& mop, Vec x, Vec v, double h) {
  const double tr = options_.scheme == TimeScheme::Euler ? 1.0 : 0.5;
  const bool averageVelocity = averagesVelocity();
  const double rM = options_.rayleighMass, rK = options_.rayleighStiffness;
  StepReport report;
  if (options_.computeResidual || averageVelocity) EIS_CHECK(VecCopy(v, vBefore_));
  const double mFactor = options_.firstOrder ? 1.0 : 1 + tr * h * rM;
  const double bFactor = options_.firstOrder ? 0.0 : -tr * h;
  const double kFactor = options_.firstOrder ? -tr * h : -tr * h * (tr * h + rK);
  const bool moving = prescribedLift(mop, x, v, h, averageVelocity);

  if (options_.firstOrder) {
    mop.computeForce(x, v, rhs_);
  } else {
    mop.computeForcePlusMKv(x, v, -rM, tr * h + rK, rhs_);
    EIS_CHECK(VecScale(rhs_, h));
  }
  if (moving) mop.addMBKv(rhs_, -mFactor, -bFactor, -kFactor, lift_);
  mop.projectResponse(rhs_);

  const Mat A = mop.systemMatrix(mFactor, bFactor, kFactor);
  lastOperator_ = A;
  lastMassFactor_ = mFactor;
  const long setupsBefore = linear_->preconditionerSetups();
  report.linearIterations = solve(mop, A);
  report.preconditionerSetups = int(linear_->preconditionerSetups() - setupsBefore);
  // Exact arithmetic gives zero on the fixed unknowns; an iterative solve leaves them at its
  // tolerance (GAMG's coarse grids mix fixed and free rows). P dv keeps fixed nodes still.
  mop.projectResponse(solution_);
  if (moving) EIS_CHECK(VecAXPY(solution_, 1.0, lift_));

  if (options_.firstOrder)
    EIS_CHECK(VecCopy(solution_, v));
  else
    EIS_CHECK(VecAXPY(v, 1.0, solution_));
  if (stepConstraints_ && !averageVelocity) stepConstraints_->correctVelocity(mop, x, v, h, report);
  if (averageVelocity)
    EIS_CHECK(VecAXPBYPCZ(x, h / 2, h / 2, 1.0, vBefore_, v));
  else
    mop.addToPosition(x, h, v);
  if (stepConstraints_ && !averageVelocity) stepConstraints_->correctPosition(mop, x, h, report);
  if (options_.vdamping != 0) EIS_CHECK(VecScale(v, std::exp(-h * options_.vdamping)));

  // rhs_ is free until the next step; solution_ is kept as the next solve's starting point.
  if (options_.computeResidual)
    report.residualNorm = sofaResidualNorm(mop, x, v, vBefore_, h, force_, rhs_);
  return report;
}

// A failed solve of a system with a massless body says so: SOFA's quasi-static step (M = 0) has
// no answer where a force acts on unknowns that no stiffness holds.
int EulerImplicitSolver::solve(const MechanicalOperations& mop, Mat A) {
  try {
    return linear_->solve(A, rhs_, solution_);
  } catch (const SolverUnusable&) {
    throw;
  } catch (const Error& e) {
    if (!mop.massless()) throw;
    throw Error(std::string(e.what()) +
                " (a body with no mass, mass.type = none: SOFA's quasi-static step M = 0 is "
                "singular where a force acts on unknowns no stiffness holds)");
  }
}

// The lift: the moving unknowns' v_{n+1} = dx / h (first order: the solution is v_{n+1}), or
// their dv = dx / h - v_n, or with the averaged position update dv = 2 (dx / h - v_n).
bool EulerImplicitSolver::prescribedLift(MechanicalOperations& mop, Vec x, Vec v, double h,
                                         bool averageVelocity) {
  if (!mop.prescribesMotion()) return false;
  if (!lift_) EIS_CHECK(VecDuplicate(x, &lift_));  // made at the first step that moves anything
  mop.prescribedDisplacement(h, x, lift_);
  if (options_.firstOrder) {
    EIS_CHECK(VecScale(lift_, 1 / h));
    return true;
  }
  // rhs_ = P v - v: minus v_n on the constrained unknowns (zero on the fixed ones).
  EIS_CHECK(VecCopy(v, rhs_));
  mop.projectResponse(rhs_);
  EIS_CHECK(VecAXPY(rhs_, -1.0, v));
  const double c = averageVelocity ? 2.0 : 1.0;
  EIS_CHECK(VecAXPBY(lift_, c, c / h, rhs_));
  return true;
}

double sofaResidualNorm(MechanicalOperations& mop, Vec x, Vec v, Vec vBefore, double h, Vec force,
                        Vec work) {
  EIS_CHECK(VecWAXPY(work, -1.0, vBefore, v));
  mop.computeForce(x, v, force);
  EIS_CHECK(VecScale(force, -h));
  mop.addMBKv(force, 1.0, 0.0, 0.0, work);
  mop.projectResponse(force);
  PetscReal norm;
  EIS_CHECK(VecNorm(force, NORM_2, &norm));
  return norm;
}

double EulerImplicitSolver::integrationFactor(int in, int out, double dt) {
  const double matrix[3][3] = {{1, dt, 0}, {0, 1, 0}, {0, 0, 0}};
  if (in < 0 || out < 0 || in >= 3 || out >= 3) return 0;
  return matrix[out][in];
}

double EulerImplicitSolver::solutionIntegrationFactor(int out, double dt) {
  const double factors[3] = {dt, 1, 1 / dt};
  if (out < 0 || out >= 3) return 0;
  return factors[out];
}

}  // namespace eis
