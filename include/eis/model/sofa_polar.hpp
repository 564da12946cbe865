#pragma once
// SOFA's helper::Decompose<double>::polarDecomposition(M, Q), shared by the corotational
// tetrahedron and hexahedron (their method "polar"): the orthogonal factor Q of M = Q S.
#include <array>

namespace eis {

// m and the result are row-major 3x3. As SOFA (Higham's scaled Newton iteration, Shoemake and
// Barbic's form) it iterates on X = M^T, X <- (gamma X + X^-T / gamma) / 2 with
// X^-T = cof(X) / det X, until the step is below 1e-8 of |X|_1, and returns X^T: about five
// steps on a mesh. A singular M stops the iteration where it is, as in SOFA; the step cap, which
// SOFA does not have, bounds the work on a degenerate element (a non-finite step fails the test
// and stops at once). For det M < 0 the factor is a reflection, as in SOFA.
std::array<double, 9> sofaPolarRotation(const std::array<double, 9>& m);

}  // namespace eis
