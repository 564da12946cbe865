#pragma once
// SOFA's BlockGaussSeidelConstraintSolver (master, BlockGaussSeidelConstraintSolver.cpp, with
// GenericConstraintSolver's data and BilateralConstraintResolution(3Dof)): the projected
// Gauss-Seidel on the dense constraint problem W f + dfree = d, d = 0 for bilateral rows. Each
// group of rows is solved in turn against the current forces of all others (a group of 3 with
// the inverse of its 3 x 3 block of W, a group of 1 by its diagonal), starting from the forces
// the group kept from the last solve; an iteration's error is the sum over groups of the
// displacement its new force causes (per row of a group of 3, the norm of the products of the
// group's block entries with the force changes); the iterations stop once it is below the
// tolerance (times the row count with scaleTolerance), or, with allVerified, once every group's
// is, or after maxIterations. Plain arithmetic on the same inputs: every rank that runs it gets
// the same forces to the bit. Besides the bilateral groups: a unilateral row (SOFA's
// UnilateralConstraintResolution: the force projected on f >= 0) and a contact with Coulomb
// friction (UnilateralConstraintResolutionWithFriction: a normal row, then two tangent rows whose
// forces are projected on the cone |f_t| <= mu f_n), and a bilateral block of any size
// (BilateralConstraintResolutionNDof: its block of W factorised once, LDL^T with diagonal
// pivoting as Eigen::LDLT does, and each visit solves it for the whole block's force change).
#include <vector>

namespace eis {

struct GaussSeidelOptions {
  int maxIterations = 1000;    // SOFA maxIterations
  double tolerance = 1e-3;     // SOFA tolerance
  double sor = 1.0;            // SOFA sor: f = sor f_new + (1 - sor) f_old after each iteration
  bool scaleTolerance = true;  // SOFA scaleTolerance: the tolerance times the row count
  bool allVerified = false;    // SOFA allVerified: every group's error below the tolerance
  // GaussSeidel: BlockGaussSeidelConstraintSolver's sweeps; NonsmoothNonlinearConjugateGradient:
  // NNCGConstraintSolver's, the same sweeps accelerated along conjugate directions;
  // PreconditionedConjugateResidual: SOFA's solver of that name
  // (linalg/preconditioned_conjugate_residual.hpp), which blockGaussSeidel does not run.
  enum class Method {
    GaussSeidel,
    NonsmoothNonlinearConjugateGradient,
    PreconditionedConjugateResidual
  };
  Method method = Method::GaussSeidel;
  bool zeroStart = false;  // start from zero forces (UnbuiltGaussSeidelConstraintSolver)
};

// How the Gauss-Seidel resolves a group (SOFA's ConstraintResolution).
struct GroupResolution {
  enum class Kind {
    Bilateral,   // 1 or 3 rows, d = 0
    Unilateral,  // 1 row: d >= 0, f >= 0, f d = 0
    Friction,    // 3 rows: the normal as Unilateral, the tangents in the cone of slope mu
    Block        // any rows, d = 0, solved together: f -= W_block^-1 d (LDL^T of W_block)
  };
  Kind kind = Kind::Bilateral;
  double mu = 0;  // Friction: the Coulomb coefficient
};

struct GaussSeidelResult {
  int iterations = 0;      // iterations run
  double error = 0;        // the last iteration's error
  bool converged = false;  // stopped by the tolerance, not by maxIterations
};

// w: the m x m compliance, row-major; groups: the group sizes (1 or 3; any for a Block) in row
// order; dfree: the violation without constraint forces; force: in, each group's starting
// forces; out, the forces; resolutions: one per group (empty: every group bilateral).
GaussSeidelResult blockGaussSeidel(const std::vector<double>& w, const std::vector<int>& groups,
                                   const std::vector<double>& dfree, std::vector<double>& force,
                                   const GaussSeidelOptions& options,
                                   const std::vector<GroupResolution>& resolutions = {});

}  // namespace eis
