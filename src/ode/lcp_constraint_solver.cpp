#include "eis/ode/lcp_constraint_solver.hpp"

#include "eis/core/component_registry.hpp"

namespace eis {

LcpOptions lcpOptionsOf(const Parameters& scene) {
  LcpOptions options;
  options.mu = scene.real("lagrange.lcp-mu");
  options.initialGuess = scene.boolean("lagrange.initial-guess");
  options.minW = scene.real("lagrange.min-w");
  options.maxF = scene.real("lagrange.max-f");
  return options;
}

// LCPConstraintSolver.cpp: mu 0.6, initial_guess true, minW 0, maxF 0.
const ComponentDeclaration& lcpConstraintSolverComponent() {
  static const ComponentDeclaration component{
      "lcp-constraint-solver", "constraint solver",
      "SOFA LCPConstraintSolver's own data (lagrange.solver = lcp)",
      ParameterSpec()
          .add({"lagrange.lcp-mu", "MU",
                "lagrange.solver = lcp: the friction coefficient of every contact; 0: every row\n"
                "unilateral, without friction (SOFA LCPConstraintSolver mu)",
                "0.6", "", false, check::nonNegative()})
          .add({"lagrange.initial-guess", "true|false",
                "lagrange.solver = lcp: contacts start from their last forces (SOFA\n"
                "initial_guess; without friction SOFA starts from zero either way)",
                "true", "", false, check::boolean()})
          .add({"lagrange.min-w", "W",
                "lagrange.solver = lcp: a contact whose W_nn is at most W gets no force; 0:\n"
                "none (SOFA minW)",
                "0", "", false, check::nonNegative()})
          .add({"lagrange.max-f", "F",
                "lagrange.solver = lcp: a force of at least F is zeroed once solved; 0: none\n"
                "(SOFA maxF)",
                "0", "", false, check::nonNegative()}),
      nullptr};
  return component;
}

// Just after the constraint solver (650).
const RegisterComponent registered(651, lcpConstraintSolverComponent);

}  // namespace eis
