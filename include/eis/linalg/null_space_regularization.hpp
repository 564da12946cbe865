#pragma once
// BuiltConstraintSolver::addRegularization with useSVDForRegularization (SOFA master,
// BuiltConstraintSolver.cpp): the regularization term goes on the diagonal of W only on the rows
// that take part in its null space, the constraints that work against one another. From the SVD
// W = U S V^T (singular values in decreasing order), the null space is spanned by the columns of
// V from the first singular value below valueFactor times the largest; a row takes part when any
// of those columns has a component above vectorFactor in magnitude. W is symmetric positive
// semi-definite here, so its SVD is its eigendecomposition (of its symmetric part, by Jacobi
// rotations as Eigen's JacobiSVD, which SOFA uses, also works), singular values |lambda|.
#include <vector>

namespace eis {

// w: the m x m compliance, row-major, regularized in place; returns which rows got the term.
// Nothing changes when regularization is not above the machine epsilon (SOFA's test).
std::vector<bool> regularizeNullSpace(std::vector<double>& w, double regularization,
                                      double valueFactor = 0.01, double vectorFactor = 0.001);

}  // namespace eis
