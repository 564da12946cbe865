#pragma once
// The keys of SOFA's LCPConstraintSolver beyond the other constraint solvers' (lagrange.solver =
// lcp; its maxIt and tolerance are lagrange.max-iterations and lagrange.tolerance): the
// friction coefficient of every contact, the initial guess, minW and maxF.
#include "eis/core/component.hpp"
#include "eis/core/parameters.hpp"
#include "eis/linalg/lcp_gauss_seidel.hpp"

namespace eis {

const ComponentDeclaration& lcpConstraintSolverComponent();
// mu, initialGuess, minW and maxF from the scene (maxIterations and tolerance left default).
LcpOptions lcpOptionsOf(const Parameters& scene);

}  // namespace eis
