#pragma once
// A linear solve's starting point from the last solutions, valid for whatever matrix comes next:
// the new matrix is applied to the stored solutions, and the start is the best combination of
// them for the new system (solver.initial-guess = span).
#include <petscmat.h>

#include <vector>

namespace eis {

// Keeps the last `capacity` solutions X = [x_1 .. x_k]. Before a solve of A x = b it applies A
// to them (W = A X: k products, or one for the solution stored since the last start when A is
// that start's matrix with unchanged values) and starts from X c, c solving the k x k system
//   (X^T W) c = X^T b   (Galerkin: the A-norm's best in their span) for a matrix known to be
//                       symmetric (MatIsSymmetricKnown), else
//   (W^T W) c = W^T b   (least squares: the smallest residual in their span),
// by a Cholesky factorization with diagonal pivoting of the scaled system that drops every
// column nearly dependent on those before it. Exact when b = A X c for some c, whatever A.
// PETSc's KSPGuess (Fischer) instead keeps the right-hand sides of the old matrix and starts
// from zero whenever the matrix changes.
class SolutionSpaceGuess {
public:
  explicit SolutionSpaceGuess(int capacity);
  ~SolutionSpaceGuess();
  SolutionSpaceGuess(const SolutionSpaceGuess&) = delete;
  SolutionSpaceGuess& operator=(const SolutionSpaceGuess&) = delete;

  // Collective. Sets x to the start for A x = b (zero while nothing is stored); returns how
  // many stored solutions it combined (those kept by the pivoting).
  int start(Mat A, Vec b, Vec x);
  // Collective. Stores a solution; the oldest goes once `capacity` are stored.
  void store(Vec x);

  // Below this, a pivot of the scaled k x k system (the squared sine of the angle between its
  // column and the span of the columns before it) drops the column.
  static constexpr double kDependence = 1e-10;

private:
  void applyTo(Mat A);

  int capacity_;
  std::vector<Vec> solutions_;      // oldest first once full: next_ is the next to replace
  std::vector<Vec> products_;       // A x_i, for the matrix of the last start
  std::vector<bool> productKnown_;  // products_[i] is A x_i for that matrix's values
  PetscObjectId productsId_ = 0;
  PetscObjectState productsState_ = -1;
  std::size_t next_ = 0;
};

// Solves the symmetric positive semidefinite n x n system G c = r (row-major G) by a Cholesky
// factorization with diagonal pivoting of D G D, D = diag(G)^-1/2, stopped at the first pivot
// below `dependence`: the dropped columns get c = 0. Returns the columns kept.
int solveSemidefinite(int n, std::vector<double> G, const std::vector<double>& r,
                      std::vector<double>& c, double dependence);

}  // namespace eis
