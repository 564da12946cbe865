#pragma once
// The time-integrator component's parameters as one struct, read once from a scene, and the
// integrator made from them (SOFA's linearized EulerImplicitSolver step, with or without
// Lagrangian constraints after it, or Newton to convergence).
#include <mpi.h>
#include <petscvec.h>

#include <memory>

#include "eis/core/parameters.hpp"
#include "eis/linalg/linear_solver.hpp"
#include "eis/ode/euler_explicit_solver.hpp"
#include "eis/ode/euler_implicit_solver.hpp"
#include "eis/ode/free_motion_step.hpp"
#include "eis/ode/newton_solver.hpp"
#include "eis/ode/time_integrator.hpp"

namespace eis {

// Read by readTimeIntegratorParameters (the only reader of its keys, beside its declaration), after
// the component's resolve step has made solver.trapezoidal and solver.scheme agree.
struct TimeIntegratorParameters {
  double dt;  // solver.dt
  int steps;  // solver.steps
  // solver.rayleigh-mass, solver.rayleigh-stiffness, solver.vdamping, solver.first-order,
  // solver.scheme (solver.trapezoidal = true is sofa-trapezoidal), solver.compute-residual
  EulerImplicitOptions step;
  NewtonMode newton;        // solver.newton
  NewtonGuess newtonGuess;  // solver.newton-guess
  bool explicitStep;        // solver.explicit: SOFA's EulerExplicitSolver
  bool symplectic;          // solver.symplectic
  // lagrange.*, read by the constraint solver's own reader (eis/ode/free_motion_step.hpp): each
  // step a free motion, then the Lagrangian constraints' forces and the correction.
  bool solvesConstraints;
  ConstraintStepOptions constraints;
};
TimeIntegratorParameters readTimeIntegratorParameters(const Parameters& scene);

// Collective. The integrator the parameters ask for, with the linear solver `linear`. like: the
// layout of x and v; restCoordinates: elasticity's rest positions for the near-nullspace
// (nullptr for none).
std::unique_ptr<TimeIntegrator> makeTimeIntegrator(const TimeIntegratorParameters& parameters,
                                                   const LinearSolverChoice& linear, MPI_Comm comm,
                                                   Vec like, Vec restCoordinates);

}  // namespace eis
