#pragma once
// SOFA's LCPConstraintSolver with build_lcp (master LCPConstraintSolver.cpp, its Gauss-Seidels in
// helper/LCPcalc.cpp), on the dense problem W f + dfree = d: every row is a contact, whatever
// constraint made it.
// - mu > 0 (nlcp_gaussseidel): the rows are contacts of 3 (normal, two tangents), solved in turn
//   against the others' current forces: the normal force -d_n / W_nn from the force-free d,
//   released (all three zero) when negative, else the tangent forces moved by
//   -2 d_t / (W_tt + W_ss) and scaled back onto the cone |f_t| <= mu f_n. An iteration's error
//   is the sum over contacts of the change of their d; it stops once below tolerance times
//   (contacts + 1). At convergence, with maxF > 0, a contact whose |f_n| >= maxF is zeroed.
// - mu = 0 (gaussSeidelLCP1): every row unilateral, f = max(0, -d / W_ii) in turn; an
//   iteration's error is the sum of |W_ii (f_new - f_old)|, it stops once below the tolerance
//   (not scaled); afterwards, with maxF > 0, every |f| >= maxF is zeroed. SOFA reads its starting
//   forces past the end of its force vector (undefined); here they are zero.
// A row (mu = 0) or contact whose |W_nn| <= minW (when minW > 0) gets no force.
#include <vector>

#include "eis/linalg/block_gauss_seidel.hpp"

namespace eis {

struct LcpOptions {
  double mu = 0.6;            // SOFA mu: the friction coefficient of every contact
  bool initialGuess = true;   // SOFA initial_guess: contacts start from their last forces
  double minW = 0, maxF = 0;  // SOFA minW, maxF (0: not applied)
  int maxIterations = 1000;   // SOFA maxIt
  double tolerance = 1e-3;    // SOFA tolerance
};

// w: m x m, row-major; force: in, the starting forces (used when mu > 0 and initialGuess);
// out, the forces. With mu > 0, m must be a multiple of 3 (else eis::Error).
GaussSeidelResult lcpGaussSeidel(const std::vector<double>& w, const std::vector<double>& dfree,
                                 std::vector<double>& force, const LcpOptions& options);

}  // namespace eis
