#pragma once
// What every time integrator offers a run: one step of (x, v) through the mechanical
// operations, and what it cost. SOFA's linearized step (EulerImplicitSolver) and Newton to
// convergence (NewtonSolver) implement it; makeTimeIntegrator
// (eis/ode/time_integrator_component.hpp) builds the one a scene asks for.
#include <petscvec.h>

#include <functional>
#include <memory>
#include <string>

#include "eis/core/component.hpp"
#include "eis/linalg/mechanical_operations.hpp"

namespace eis {

struct StepReport {
  int linearIterations = 0;
  int nonlinearIterations = 1;   // Newton iterations; the linearized step is one
  int preconditionerSetups = 0;  // times the preconditioner was set up in the step
  double residualNorm = -1;      // ||P(M (v_{n+1} - v_n) - h f(x_{n+1}, v_{n+1}))||_2, or -1
  // Lagrangian constraints (ode/free_motion_step.hpp): the rows solved, the Gauss-Seidel's
  // iterations and last error (-1: none solved), and the wall seconds of the free motion, the
  // compliance W, the Gauss-Seidel and the correction.
  int constraintRows = 0;
  int constraintIterations = 0;
  double constraintError = -1;
  double freeMotionSeconds = 0, complianceSeconds = 0, gaussSeidelSeconds = 0,
         correctionSeconds = 0;
};

// linearized: SOFA's single linear solve per step; full: Newton to convergence (solver.newton).
enum class NewtonMode { Linearized, Full };
inline constexpr Named<NewtonMode> kNewtonModes[] = {{"linearized", NewtonMode::Linearized},
                                                     {"full", NewtonMode::Full}};

class TimeIntegrator {
public:
  virtual ~TimeIntegrator() = default;
  // Collective. Advances (x, v) by one step of size h in place; when it throws, x and v still
  // hold the state before the step.
  virtual StepReport step(MechanicalOperations& mop, Vec x, Vec v, double h) = 0;

  // What the integrator carries from one step to the next, by name, for a checkpoint: `save` is
  // called for each vector it holds now; `load` (a restart) fills each vector it could use and
  // says whether the checkpoint had it. Vectors have the layout of x and v.
  using SaveVector = std::function<void(const std::string& name, Vec vector)>;
  using LoadVector = std::function<bool(const std::string& name, Vec vector)>;
  virtual void saveCarried(const SaveVector& save) const { (void)save; }
  virtual void loadCarried(const LoadVector& load) { (void)load; }

  // What the ParaView outputs show of the last step besides x and v, by name, in the layout of
  // x: "constraint_force", the Lagrangian constraints' forces J^T lambda / h on each unknown
  // (SOFA's multipliers are impulses over the step). Called with the same names on every rank.
  virtual void saveShown(const SaveVector& save) const { (void)save; }
};

// The solver.* keys of the step: dt, steps, the scheme and its SOFA options, Newton (read into
// TimeIntegratorParameters, eis/ode/time_integrator_component.hpp).
const ComponentDeclaration& timeIntegratorComponent();

}  // namespace eis
