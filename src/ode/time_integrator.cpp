// The time-integrator component: its parameters, their checks, its reader, and the factory.
#include "eis/ode/time_integrator_component.hpp"

#include <cmath>

#include "eis/core/scene.hpp"

namespace eis {

namespace {

ParameterSpec stepParameters() {
  return ParameterSpec()
      .add({"solver.dt", "H", "time step h, > 0", "0.01", "time", false,
            [](const std::string& key, const std::string& text) {
              check::positive()(key, text);
              // The step's matrix holds h^2 K: past a double's range it is infinite.
              const double h = parse::reals(key, text, 1)[0];
              if (!std::isfinite(h * h)) parse::reject(key, text, "h^2 overflows a double");
            }})
      .add({"solver.steps", "N", "number of time steps, >= 0", "100", "", false,
            check::integerAtLeast(0)})
      .add({"solver.rayleigh-mass", "RM",
            "Rayleigh damping coefficient on M (SOFA rayleighMass), >= 0", "0", "1/time", false,
            check::nonNegative()})
      .add({"solver.rayleigh-stiffness", "RS",
            "Rayleigh damping coefficient on K (SOFA rayleighStiffness), >= 0", "0", "time", false,
            check::nonNegative()})
      .add({"solver.vdamping", "D",
            "velocity decay after each step, v *= exp(-h D) (SOFA vdamping), >= 0", "0", "1/time",
            false, check::nonNegative()})
      .add(
          {"solver.first-order", "BOOL",
           "SOFA firstOrder: the system is M dx/dt = f(x); solve (M - h K) v = f(x_n) (h/2 K with\n"
           "solver.trapezoidal), then x_{n+1} = x_n + h v. Required by physics.type = diffusion.",
           "false", "", false, check::boolean()})
      .add(
          {"solver.trapezoidal", "BOOL",
           "SOFA trapezoidalScheme: tr = 0.5 in the matrix and right-hand-side factors, but the\n"
           "position update x_{n+1} = x_n + h v_{n+1} keeps the scheme FIRST order in time, and it\n"
           "is only conditionally stable: a mode of angular frequency w grows unless h w < 2.\n"
           "Same as solver.scheme = sofa-trapezoidal; solver.scheme = trapezoidal is the stable,\n"
           "second-order rule.",
           "false", "", false, check::boolean()})
      .add(
          {"solver.scheme", "euler|sofa-trapezoidal|trapezoidal",
           "euler: SOFA's implicit Euler (tr = 1). sofa-trapezoidal: what solver.trapezoidal = true\n"
           "selects (see there). trapezoidal: the true trapezoidal rule (average acceleration):\n"
           "M (v_{n+1} - v_n) = h/2 (f_n + f_{n+1}), x_{n+1} = x_n + h/2 (v_n + v_{n+1}); linearized\n"
           "like SOFA's step, or solved by Newton (solver.newton = full); unconditionally stable,\n"
           "second order in time, and it conserves the energy of undamped linear elasticity. With\n"
           "solver.first-order both trapezoidal schemes are Crank-Nicolson.",
           "euler", "", false, check::choice(kTimeSchemes)})
      .add(
          {"solver.compute-residual", "BOOL",
           "after each step print the 2-norm ||r|| of r = P(M (v_{n+1} - v_n) - h f(x_{n+1}, v_{n+1})),\n"
           "P the projection onto the free degrees of freedom (SOFA stores r.r in its `residual` data;\n"
           "we print the norm)",
           "false", "", false, check::boolean()})
      .add(
          {"solver.newton", "linearized|full",
           "linearized: one linear solve per step, as SOFA (docs/architecture.md, \"The step\").\n"
           "full: Newton iterations on the same implicit equations with PETSc SNES until converged\n"
           "(unknown v_{n+1}); -snes_rtol, -snes_stol, -snes_max_it, -snes_linesearch_type tune it.\n"
           "Takes solver.scheme = euler or trapezoidal, not SOFA's linearized trapezoidal variant.",
           "linearized", "", false, check::choice(kNewtonModes)})
      .add({"solver.newton-guess", "zero|previous|extrapolated",
            "initial Newton iterate: zero (v = 0, so x = x_n), previous (v = v_n) or extrapolated\n"
            "(v = 2 v_n - v_{n-1}; v_n on the first step)",
            "previous", "", false, check::choice(kNewtonGuesses)})
      .add({"solver.explicit", "BOOL",
            "SOFA EulerExplicitSolver instead of the implicit step: a = M^-1 P f(x_n, v_n), P a,\n"
            "then the update solver.symplectic chooses; M^-1 a Jacobi-preconditioned CG (exact\n"
            "in one iteration for a diagonal mass) or the direct solver. No Rayleigh damping,\n"
            "vdamping, first order, trapezoidal scheme, Newton, residual or mass.type = none.",
            "false", "", false, check::boolean()})
      .add(
          {"solver.symplectic", "BOOL",
           "SOFA EulerExplicitSolver symplectic: true, v_{n+1} = v_n + h a then x_{n+1} = x_n +\n"
           "h v_{n+1}; false, x_{n+1} = x_n + h v_n then v_{n+1} = v_n + h a. With solver.explicit.",
           "true", "", false, check::boolean()});
}

// What SOFA's EulerExplicitSolver has none of: the implicit step's options, refused with it.
void checkExplicit(const Scene& scene) {
  if (!scene.boolean("solver.explicit")) return;
  for (const char* key : {"solver.rayleigh-mass", "solver.rayleigh-stiffness", "solver.vdamping"})
    if (scene.real(key) != 0)
      throw Error(std::string(key) + " = " + scene.text(key) +
                  ": SOFA's EulerExplicitSolver (solver.explicit = true) has no such damping");
  for (const char* key : {"solver.first-order", "solver.compute-residual"})
    if (scene.boolean(key))
      throw Error(std::string(key) +
                  " = true: not an option of SOFA's EulerExplicitSolver "
                  "(solver.explicit = true)");
  if (scene.choice("solver.scheme", kTimeSchemes) != TimeScheme::Euler)
    throw Error("solver.scheme = " + scene.text("solver.scheme") +
                ": the explicit step (solver.explicit = true) has its own update");
  if (scene.choice("solver.newton", kNewtonModes) == NewtonMode::Full)
    throw Error(
        "solver.newton = full: the explicit step (solver.explicit = true) solves no "
        "nonlinear system");
}

// solver.trapezoidal is SOFA's name for solver.scheme = sofa-trapezoidal: the two must agree,
// and whichever is given sets the other.
void reconcileScheme(Scene& scene) {
  const bool flag = scene.boolean("solver.trapezoidal");
  if (flag && !scene.given("solver.scheme")) scene.set("solver.scheme", "sofa-trapezoidal");
  const TimeScheme scheme = scene.choice("solver.scheme", kTimeSchemes);
  if (scheme == TimeScheme::SofaTrapezoidal && !scene.given("solver.trapezoidal"))
    scene.set("solver.trapezoidal", "true");
  if (scene.boolean("solver.trapezoidal") != (scheme == TimeScheme::SofaTrapezoidal))
    throw Error("solver.trapezoidal = " + std::string(flag ? "true" : "false") +
                " contradicts solver.scheme = " + scene.text("solver.scheme"));
  if (scene.choice("solver.newton", kNewtonModes) == NewtonMode::Full &&
      scheme == TimeScheme::SofaTrapezoidal)
    throw Error(
        "solver.newton = full does not take SOFA's trapezoidal variant (a linearized "
        "scheme); solver.scheme = trapezoidal is the rule it approximates");
  checkExplicit(scene);
}

}  // namespace

const ComponentDeclaration& timeIntegratorComponent() {
  static const ComponentDeclaration component{
      "time-integrator", "time integrator",
      "SOFA EulerImplicitSolver (linearized), the same equations solved by Newton (SNES), or "
      "SOFA EulerExplicitSolver",
      stepParameters(), reconcileScheme};
  return component;
}

TimeIntegratorParameters readTimeIntegratorParameters(const Parameters& scene) {
  TimeIntegratorParameters p;
  p.dt = scene.real("solver.dt");
  p.steps = scene.integer("solver.steps");
  p.step.rayleighMass = scene.real("solver.rayleigh-mass");
  p.step.rayleighStiffness = scene.real("solver.rayleigh-stiffness");
  p.step.vdamping = scene.real("solver.vdamping");
  p.step.firstOrder = scene.boolean("solver.first-order");
  p.step.scheme = scene.choice("solver.scheme", kTimeSchemes);
  p.step.computeResidual = scene.boolean("solver.compute-residual");
  p.newton = scene.choice("solver.newton", kNewtonModes);
  p.newtonGuess = scene.choice("solver.newton-guess", kNewtonGuesses);
  p.explicitStep = scene.boolean("solver.explicit");
  p.symplectic = scene.boolean("solver.symplectic");
  p.solvesConstraints = solvesConstraints(scene);
  p.constraints = constraintStepOptionsOf(scene);
  return p;
}

std::unique_ptr<TimeIntegrator> makeTimeIntegrator(const TimeIntegratorParameters& parameters,
                                                   const LinearSolverChoice& linear, MPI_Comm comm,
                                                   Vec like, Vec restCoordinates) {
  if (parameters.explicitStep) {
    if (parameters.solvesConstraints)
      throw Error(
          "lagrange.solver: Lagrangian constraints are not solved with the explicit step "
          "(solver.explicit = true)");
    // M a = P f: Jacobi-preconditioned CG, exact in one iteration for a diagonal mass (SOFA's
    // accFromF), or the direct solver.
    const std::string pc = linear.options.direct ? linear.pcType : std::string(PCJACOBI);
    return std::make_unique<EulerExplicitSolver>(
        parameters.symplectic, like,
        std::make_unique<LinearSolver>(comm, pc.c_str(), restCoordinates, linear.options));
  }
  if (parameters.newton == NewtonMode::Full)
    return std::make_unique<NewtonSolver>(comm, parameters.step, parameters.newtonGuess, like,
                                          linear.pcType.c_str(), restCoordinates,
                                          linear.options.preconditioner);
  auto euler = std::make_unique<EulerImplicitSolver>(
      parameters.step, like,
      std::make_unique<LinearSolver>(comm, linear.pcType.c_str(), restCoordinates, linear.options));
  if (parameters.solvesConstraints)
    return std::make_unique<FreeMotionStep>(std::move(euler), parameters.constraints, like);
  return euler;
}

const RegisterComponent registered(600, timeIntegratorComponent);

}  // namespace eis
