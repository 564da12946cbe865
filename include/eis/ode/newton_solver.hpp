#pragma once
// The implicit Euler step solved to convergence with PETSc SNES, beyond SOFA's single
// linearized iteration: the unknown is v_{n+1}, x_{n+1} = x_n + h v_{n+1}, and
//   second order: F(v) = P (M (v - v_n) - h [f(x_n + h v, v) - rM M v + rK K v])
//   first order:  F(v) = P (M v - f(x_n + h v))
// with the Jacobian of the linearized step, (1 + h rM) M - h B - h (h + rK) K (first order:
// M - h K), assembled at each iterate. The true trapezoidal rule (TimeScheme::Trapezoidal)
// averages the force of both ends instead: M (v - v_n) = h/2 (f_n + f(x, v)) with
// x = x_n + h/2 (v_n + v) (first order: M v = (f_n + f(x_n + h v)) / 2).
#include <petscsnes.h>

#include <string>

#include "eis/linalg/ksp_settings.hpp"
#include "eis/linalg/preconditioner_reuse.hpp"
#include "eis/linalg/solution_check.hpp"
#include "eis/ode/euler_implicit_solver.hpp"
#include "eis/ode/time_integrator.hpp"

namespace eis {

enum class NewtonGuess { Zero, Previous, Extrapolated };
inline constexpr Named<NewtonGuess> kNewtonGuesses[] = {
    {"zero", NewtonGuess::Zero},
    {"previous", NewtonGuess::Previous},
    {"extrapolated", NewtonGuess::Extrapolated}};

class NewtonSolver : public TimeIntegrator {
public:
  // options.scheme must not be SofaTrapezoidal. Defaults for the inner KSP as LinearSolver's,
  // relative tolerance 1e-10; -snes_* and -ksp_* options override them. Its preconditioner is set
  // up again as PreconditionerReuse decides from `preconditioner`, one matrix update per Jacobian
  // (-snes_lag_preconditioner has no effect).
  NewtonSolver(MPI_Comm comm, const EulerImplicitOptions& options, NewtonGuess guess, Vec like,
               PCType defaultPc, Vec restCoordinates,
               const PreconditionerOptions& preconditioner = {});
  ~NewtonSolver() override;
  NewtonSolver(const NewtonSolver&) = delete;
  NewtonSolver& operator=(const NewtonSolver&) = delete;

  // Advances (x, v) by one converged step of size h; x and v are left unchanged when SNES does
  // not converge (an eis::Error names its reason).
  StepReport step(MechanicalOperations& mop, Vec x, Vec v, double h) override;
  // v_{n-1} ("newton.previous-velocity") once a step was taken: the extrapolated guess's.
  void saveCarried(const SaveVector& save) const override {
    if (haveBefore_) save("newton.previous-velocity", vBefore_);
  }
  void loadCarried(const LoadVector& load) override {
    haveBefore_ = load("newton.previous-velocity", vBefore_);
  }
  SNES snes() const { return snes_; }

  // SNES callbacks, and where they leave the message of an error they caught.
  void formResidual(Vec v, Vec residual);
  void formJacobian(Vec v);
  void recordFailure(const std::string& message) { callbackFailure_ = message; }

private:
  void configure(Mat jacobian);
  void positionAt(Vec v, Vec x);
  void startForce(Vec x, Vec v);
  void initialGuess(Vec v);
  Mat jacobianAt(Vec v);
  void choosePreconditionerSetUp(Mat jacobian);
  void recordLinearSolve();
  PetscErrorCode newtonSolve();
  std::string verifyConvergence();

  EulerImplicitOptions options_;
  NewtonGuess guess_;
  SNES snes_ = nullptr;
  // A PETSc error inside SNESSolve, not a callback's, can leave its KSP half built
  // (SolverUnusable; see LinearSolver's kspFailed_): such a SNES is left to the process's end,
  // not destroyed.
  bool snesFailed_ = false;
  KspSettings settings_;
  PreconditionerReuse reuse_;
  SolutionCheck check_;              // for its bound on ||J||
  bool linearSolvePending_ = false;  // a Jacobian was formed; its solve is not yet recorded
  bool staleSolve_ = false;          // that solve's preconditioner was kept from an older Jacobian
  bool freshEveryJacobian_ = false;  // during a step's second Newton solve
  Vec xStart_ = nullptr, vStart_ = nullptr, vBefore_ = nullptr, iterate_ = nullptr;
  Vec residual_ = nullptr, xTrial_ = nullptr, force_ = nullptr, work_ = nullptr;
  Vec forceStart_ = nullptr;    // f_n, for the trapezoidal rule
  Vec startIterate_ = nullptr;  // the step's initial guess, kept for verifyConvergence
  bool configured_ = false, haveBefore_ = false;
  MechanicalOperations* mop_ = nullptr;  // during step() only
  bool trapezoidal_ = false;
  // Of the current step: dx/dv (h, or h/2 for the trapezoidal rule) and the weight of the
  // force in the residual.
  double positionRate_ = 0, forceWeight_ = 0;
  std::string callbackFailure_;
};

}  // namespace eis
