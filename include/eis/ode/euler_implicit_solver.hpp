#pragma once
// SOFA's EulerImplicitSolver (sofa-framework/sofa master, v25.06 and later): one linearized
// implicit Euler step, exactly as SOFA computes it.
#include <petscvec.h>

#include <memory>

#include "eis/linalg/linear_solver.hpp"
#include "eis/linalg/mechanical_operations.hpp"
#include "eis/ode/time_integrator.hpp"

namespace eis {

// euler: SOFA's implicit Euler; sofa-trapezoidal: SOFA's trapezoidalScheme (tr = 0.5, still
// x += h v_{n+1}); trapezoidal: the true trapezoidal rule, x += h/2 (v_n + v_{n+1}).
enum class TimeScheme { Euler, SofaTrapezoidal, Trapezoidal };
inline constexpr Named<TimeScheme> kTimeSchemes[] = {
    {"euler", TimeScheme::Euler},
    {"sofa-trapezoidal", TimeScheme::SofaTrapezoidal},
    {"trapezoidal", TimeScheme::Trapezoidal}};

struct EulerImplicitOptions {
  double rayleighMass = 0;       // SOFA rayleighMass (rM)
  double rayleighStiffness = 0;  // SOFA rayleighStiffness (rK)
  double vdamping = 0;           // SOFA vdamping: v *= exp(-h vdamping) after each step
  bool firstOrder = false;       // SOFA firstOrder
  // Euler: tr = 1. SofaTrapezoidal (SOFA trapezoidalScheme): tr = 0.5 but x += h v_{n+1}, still
  // first order in time and only conditionally stable. Trapezoidal: the same dv with
  // x += h/2 (v_n + v_{n+1}), the true (average-acceleration) trapezoidal rule.
  TimeScheme scheme = TimeScheme::Euler;
  bool computeResidual = false;  // SOFA computeResidual
};

// ||P (M (v - vBefore) - h f(x, v))||_2, SOFA's computeResidual (which keeps its square);
// `force` and `work` are scratch vectors of the same layout.
double sofaResidualNorm(MechanicalOperations& mop, Vec x, Vec v, Vec vBefore, double h, Vec force,
                        Vec work);

// SOFA's EulerImplicitSolver solveConstraint: the constraint solver called from inside the
// step, on the new velocity before the position update (ConstraintOrder::VEL) and on the new
// position after it (ConstraintOrder::POS), both before vdamping.
class StepConstraints {
public:
  virtual ~StepConstraints() = default;
  // x is still x_n; v is v_{n+1}, corrected in place.
  virtual void correctVelocity(MechanicalOperations& mop, Vec x, Vec v, double h,
                               StepReport& report) = 0;
  // x = x_n + h v_{n+1}, corrected in place.
  virtual void correctPosition(MechanicalOperations& mop, Vec x, double h, StepReport& report) = 0;
};

class EulerImplicitSolver : public TimeIntegrator {
public:
  // `like` gives the layout of x and v (for the work vectors); `linear` solves each step.
  EulerImplicitSolver(const EulerImplicitOptions& options, Vec like,
                      std::unique_ptr<LinearSolver> linear);
  ~EulerImplicitSolver() override;
  EulerImplicitSolver(const EulerImplicitSolver&) = delete;
  EulerImplicitSolver& operator=(const EulerImplicitSolver&) = delete;

  // Advances (x, v) by one step of size h in place. The linear solve's solution (dv, or v_{n+1}
  // in first-order mode) is kept from one step to the next: where the next solve starts when
  // the linear solver takes a nonzero initial guess.
  StepReport step(MechanicalOperations& mop, Vec x, Vec v, double h) override;
  // The last solve's solution ("euler.solution"): the next solve's start; and the projection
  // start's pairs ("euler.projection.b.I", ".x.I"), which the next start is made of.
  void saveCarried(const SaveVector& save) const override {
    save("euler.solution", solution_);
    linear_->saveStart("euler.projection", save);
  }
  void loadCarried(const LoadVector& load) override {
    load("euler.solution", solution_);
    linear_->loadStart("euler.projection", load, solution_);
  }

  const EulerImplicitOptions& options() const { return options_; }
  LinearSolver& linearSolver() { return *linear_; }
  // The system matrix of the last step's solve (owned by the mechanical operations): what a
  // constraint correction solves against (ode/free_motion_step.hpp). Null before the first step.
  Mat lastOperator() const { return lastOperator_; }
  // The factor of M in that matrix, SOFA's mFactor: 1 + tr h rM (first order: 1).
  double lastMassFactor() const { return lastMassFactor_; }
  // The last solve's right-hand side (null when solver.compute-residual reused it since) and
  // solution, as SofaPython3's linear-system reads give them (app/component_matrices).
  Vec lastRhs() const { return options_.computeResidual ? nullptr : rhs_; }
  Vec lastSolution() const { return solution_; }
  // Called by every later step (null: none); not owned. The true trapezoidal scheme, whose
  // position update is not SOFA's, does not call it.
  void setStepConstraints(StepConstraints* constraints) { stepConstraints_ = constraints; }

  // SOFA's integration factors: how a solution dv of the linear system moves the state.
  static double velocityIntegrationFactor() { return 1.0; }
  static double positionIntegrationFactor(double dt) { return dt; }
  // Effect of input derivative order `in` on output order `out` (0 position, 1 velocity,
  // 2 acceleration): [[1, dt, 0], [0, 1, 0], [0, 0, 0]][out][in]; 0 beyond.
  static double integrationFactor(int in, int out, double dt);
  // [dt, 1, 1/dt][out]; 0 beyond.
  static double solutionIntegrationFactor(int out, double dt);

private:
  EulerImplicitOptions options_;
  std::unique_ptr<LinearSolver> linear_;
  // The true trapezoidal rule's position update, h/2 (v_n + v_{n+1}).
  bool averagesVelocity() const {
    return options_.scheme == TimeScheme::Trapezoidal && !options_.firstOrder;
  }
  // lift_ = the known solution on prescribed-motion unknowns (zero elsewhere); true when any.
  bool prescribedLift(MechanicalOperations& mop, Vec x, Vec v, double h, bool averageVelocity);
  // solution_ = A^-1 rhs_: the linear solver's iterations; its error, for a system with a
  // massless body, says what that means.
  int solve(const MechanicalOperations& mop, Mat A);

  Vec force_ = nullptr, rhs_ = nullptr, vBefore_ = nullptr, lift_ = nullptr;
  Vec solution_ = nullptr;  // the last solve's solution; zero before the first
  Mat lastOperator_ = nullptr;
  double lastMassFactor_ = 0;
  StepConstraints* stepConstraints_ = nullptr;
};

}  // namespace eis
