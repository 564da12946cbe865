#pragma once
// SOFA's PreconditionedConjugateResidual constraint solver (master,
// PreconditionedConjugateResidual.cpp, a BuiltConstraintSolver): the conjugate residual method
// on W f = -dfree with W's Jacobi preconditioner on both sides (M = D^-1/2 W D^-1/2, the
// unknown D^1/2 f), from zero forces, every row bilateral (the resolutions are not applied), at
// most min(maxIterations, m) iterations, never stopping on the first. Its error is SOFA's: for
// each group of n rows, sqrt(n r_i^2) where r_i is the preconditioned residual's entry at the
// iteration's index i (SOFA reads r[i], not the group's rows), summed over groups; it stops
// once that is below the tolerance (times m with scaleTolerance), or with allVerified once each
// group's n r_i^2 is below the tolerance squared. Where SOFA would go on from an exact
// solution (W p = 0) into 0 / 0, it stops.
#include <vector>

#include "eis/linalg/block_gauss_seidel.hpp"

namespace eis {

// w: the m x m compliance, row-major, with a positive diagonal (else eis::Error); groups: the
// group sizes in row order; force: out, the forces.
GaussSeidelResult preconditionedConjugateResidual(const std::vector<double>& w,
                                                  const std::vector<int>& groups,
                                                  const std::vector<double>& dfree,
                                                  std::vector<double>& force,
                                                  const GaussSeidelOptions& options);

}  // namespace eis
