#pragma once
// The KSP behind every linearized step: configured as KspSettings says, with a clear error when
// it does not converge, and its preconditioner set up again as PreconditionerReuse decides.
// Also the linear-solver component: the solver.* keys that choose the operator, the
// preconditioner and where each solve starts.
#include <petscksp.h>

#include <string>

#include "eis/core/component.hpp"
#include "eis/linalg/ksp_settings.hpp"
#include "eis/linalg/preconditioner_reuse.hpp"
#include "eis/linalg/prefetching_block_product.hpp"
#include "eis/linalg/projection_history.hpp"
#include "eis/linalg/solution_check.hpp"
#include "eis/linalg/solution_space_guess.hpp"
#include "eis/linalg/system_matrix.hpp"

namespace eis {

struct LinearSolverOptions {
  PreconditionerOptions preconditioner;
  // Where each solve starts: from zero; from the x handed to solve() (KSPSetInitialGuessNonzero);
  // or from the right-hand side's projection on the span of the last solves' right-hand sides,
  // mapped to their solutions (PETSc's KSPGuess, Fischer's method 3), which PETSc forgets
  // whenever the matrix changes; or from the best combination of the last `spanSolutions`
  // solutions for the current matrix (SolutionSpaceGuess), which survives its changes.
  enum class Start { Zero, GivenVector, Projection, Span };
  Start start = Start::Zero;
  int spanSolutions = 8;
  // Direct: a Cholesky factorization by MUMPS (KSPPREONLY + PCCHOLESKY), once per matrix.
  bool direct = false;
  // The iterative solve's stop: ||r|| <= rtol ||b|| within maxIterations. unpreconditionedNorm:
  // ||r|| is the true residual's norm (SOFA's CGLinearSolver), not the preconditioned one.
  double rtol = 1e-8;
  int maxIterations = 1000;
  bool unpreconditionedNorm = false;
  // An iterative solve multiplies by a block copy of an assembled matrix (BlockCopy), whose
  // products fetch the matrix ahead as `prefetch` says (a distance of 0: PETSc's product);
  // symmetricBlocks: the step matrix's copy holds the upper triangle of a symmetric matrix on
  // one rank.
  bool blockProducts = true;
  BlockPrefetch prefetch;
  // The multigrid's coarser levels and interpolations multiply by their copies' values rounded
  // to float (prefetching_block_product.hpp).
  bool singleLevels = true;
  bool symmetricBlocks = true;
  // The multigrid's finest smoother and residual multiply by the high halves of the step
  // matrix's upper triangle (fineSmootherProducts), where its copy holds them.
  bool truncatedFinestSmoother = true;
  // Reaching maxIterations ends the solve with what it has (SOFA's CG) instead of an error.
  bool acceptIterationLimit = false;
  // The run writes checkpoints, which carry the projection start's pairs: the solver keeps a
  // copy of them beside PETSc's guess (ProjectionHistory). Without checkpoints only the guess
  // holds them, 20 vectors fewer.
  bool checkpointed = true;
  // The step matrix depends on the step's factors alone (a linear model): it never turns
  // indefinite within a run, and GAMG's smoothers estimate their eigenvalues by CG
  // (CgEigenvalueEstimates). A nonlinear model's may (a buckling beam), where the GMRES that then
  // solves it needs smoothers estimated by GMRES.
  bool constantMatrix = false;
};

class LinearSolver {
public:
  // Defaults: CG with `defaultPc` (PCGAMG for assembled operators, PCJACOBI for matrix-free
  // ones, PCHYPRE for BoomerAMG with HypreDefaults), relative tolerance 1e-8; -ksp_* and -pc_*
  // options override them. Elasticity gets its near-nullspace from the rest coordinates (a
  // global Vec with block size 3); pass nullptr for scalar problems.
  LinearSolver(MPI_Comm comm, PCType defaultPc, Vec restCoordinates,
               const LinearSolverOptions& options = {});
  ~LinearSolver();
  LinearSolver(const LinearSolver&) = delete;
  LinearSolver& operator=(const LinearSolver&) = delete;

  // Solves A x = b; returns the iteration count. Throws eis::Error naming PETSc's reason when
  // the solve diverges, and when its answer fails SolutionCheck. The preconditioner is set up again
  // only when A's values changed, as PreconditionerReuse decides, and when a solve with one kept
  // from older values fails or passes an answer it mismeasures (keptMetricFailure): that solve
  // is done once more with a fresh one. When CG finds A indefinite (with a fresh
  // preconditioner), GMRES solves it (indefiniteFallbackOf). The iterations of every attempt
  // are counted.
  int solve(Mat A, Vec b, Vec x);
  // Solves A X = B for every column of the dense B (rows laid out as b's), X dense alike. A
  // direct solve takes them all at once from its factorization (KSPMatSolve: MUMPS's multiple
  // right-hand sides), each column's answer checked as solve() checks one; an iterative solve
  // takes them one by one through solve(). Returns the iterations (a direct solve: one a column).
  int solveColumns(Mat A, Mat B, Mat X);
  KSP ksp() const { return ksp_; }
  // The projection start's pairs (LinearSolverOptions::Start::Projection and checkpointed; none
  // otherwise), for a checkpoint: loaded ones are handed to PETSc's guess before the next solve.
  void saveStart(const std::string& prefix, const ProjectionHistory::SaveVector& save) const;
  void loadStart(const std::string& prefix, const ProjectionHistory::LoadVector& load, Vec like);
  // Preconditioner set-ups so far.
  long preconditionerSetups() const { return reuse_.setups(); }

private:
  void configure(Mat A);
  void setStart();
  bool projecting() const;
  void setUp(Mat A);
  Mat productOperator(Mat A);
  struct Attempt {
    int iterations;
    KSPConvergedReason reason;
    std::string failure;  // what follows "linear solve "; empty: solved
  };
  Attempt attemptSolve(KSP ksp, Mat products, Mat A, Vec b, Vec x);
  Attempt attemptAgain(KSP ksp, const Attempt& failed, Mat products, Mat A, Vec b, Vec x);
  KSP indefiniteFallback(Mat products, Mat A);
  std::string keptMetricFailure();
  Mat setUpWithProducts(Mat A);

  KSP ksp_ = nullptr;
  KspSettings settings_;
  PreconditionerReuse reuse_;
  SolutionCheck check_;
  LinearSolverOptions::Start start_;
  SolutionSpaceGuess span_;
  ProjectionHistory projection_{kProjectionPairs};
  bool blockProducts_;
  BlockPrefetch prefetch_;
  bool singleLevels_;
  bool symmetricBlocks_;
  bool truncatedFinestSmoother_;
  bool acceptIterationLimit_;
  bool checkpointed_;
  bool constantMatrix_;
  // kappa of keptMetricFailure: the last fresh preconditioner's true / tested relative residual
  // (-1: none measured yet), and how far past it a kept one may go.
  double trueToTested_ = -1;
  static constexpr double kKeptMetricMargin = 100;
  static constexpr int kProjectionPairs = 10;  // the projection start's (b, x) pairs
  bool configured_ = false;
  bool direct_ = false;          // -ksp_type preonly: no starting point
  bool levelsReleased_ = false;  // its multigrid's AIJ levels freed (multiplyLevelsInBlocks)
  Vec givenStart_ = nullptr;     // a copy of the given start, for a second attempt
  KSP indefinite_ = nullptr;     // GMRES for an indefinite A, made when first needed
  // A PETSc error inside KSPSetUp or KSPSolve (SolverUnusable) can leave the KSP half built:
  // PETSc 3.18's GAMG, when a level's smoother fails under -ksp_error_if_not_converged, crashes
  // in PCReset_MG if it is destroyed then. The error is on its way to the user, so such a KSP is
  // left to the process's end.
  bool kspFailed_ = false;
};

// The default preconditioner of the linear solves; -pc_type overrides it. Automatic: GAMG for an
// assembled operator, Jacobi for a matrix-free one. Hypre: BoomerAMG with our 3D settings;
// HypreElasticity: those plus nodal coarsening and the rigid rotations as interpolation vectors.
enum class Preconditioner { Automatic, Gamg, Hypre, HypreElasticity, Jacobi, None };
inline constexpr Named<Preconditioner> kPreconditioners[] = {
    {"auto", Preconditioner::Automatic}, {"gamg", Preconditioner::Gamg},
    {"hypre", Preconditioner::Hypre},    {"hypre-elasticity", Preconditioner::HypreElasticity},
    {"jacobi", Preconditioner::Jacobi},  {"none", Preconditioner::None}};
// Where each linearized step's KSP starts (LinearSolverOptions::Start; auto picks one).
enum class InitialGuess { Automatic, Zero, Previous, Projected, Span };
inline constexpr Named<InitialGuess> kInitialGuesses[] = {{"auto", InitialGuess::Automatic},
                                                          {"zero", InitialGuess::Zero},
                                                          {"previous", InitialGuess::Previous},
                                                          {"projected", InitialGuess::Projected},
                                                          {"span", InitialGuess::Span}};

// The linear solve: CG (iterative) or a MUMPS Cholesky factorization (direct).
enum class LinearMethod { Iterative, Direct };
inline constexpr Named<LinearMethod> kLinearMethods[] = {{"iterative", LinearMethod::Iterative},
                                                         {"direct", LinearMethod::Direct}};
// The norm the iterative solve's stop measures.
enum class ResidualNorm { Default, Unpreconditioned };
inline constexpr Named<ResidualNorm> kResidualNorms[] = {
    {"default", ResidualNorm::Default}, {"unpreconditioned", ResidualNorm::Unpreconditioned}};
// What reaching solver.max-iterations means.
enum class IterationLimit { Error, Accept };
inline constexpr Named<IterationLimit> kIterationLimits[] = {{"error", IterationLimit::Error},
                                                             {"accept", IterationLimit::Accept}};
// solver.block-prefetch-locality: __builtin_prefetch's locality, by its number.
inline constexpr Named<int> kPrefetchLocalities[] = {{"0", 0}, {"1", 1}, {"2", 2}, {"3", 3}};

// solver.operator, solver.preconditioner, solver.pc-lag, solver.pc-rebuild-growth,
// solver.initial-guess, solver.guess-solutions, solver.linear, solver.rtol, solver.max-iterations,
// solver.residual-norm, solver.iteration-limit, solver.block-products, solver.block-prefetch,
// solver.block-prefetch-locality, solver.symmetric-blocks, solver.single-precision-levels,
// solver.truncated-finest-smoother.
const ComponentDeclaration& linearSolverComponent();

// The linear-solver component's parameters, read once from a scene by readLinearSolverParameters
// (the only reader of its keys, beside its declaration).
struct LinearSolverParameters {
  OperatorMode op;                // solver.operator
  Preconditioner preconditioner;  // solver.preconditioner
  int pcLag;                      // solver.pc-lag
  double pcRebuildGrowth;         // solver.pc-rebuild-growth
  InitialGuess initialGuess;      // solver.initial-guess
  int guessSolutions;             // solver.guess-solutions
  LinearMethod method;            // solver.linear
  double rtol;                    // solver.rtol
  int maxIterations;              // solver.max-iterations
  ResidualNorm residualNorm;      // solver.residual-norm
  bool blockProducts;             // solver.block-products
  bool symmetricBlocks;           // solver.symmetric-blocks
  bool singleLevels;              // solver.single-precision-levels
  bool truncatedFinestSmoother;   // solver.truncated-finest-smoother
  int blockPrefetch;              // solver.block-prefetch
  int blockPrefetchLocality;      // solver.block-prefetch-locality
  IterationLimit iterationLimit;  // solver.iteration-limit
};
LinearSolverParameters readLinearSolverParameters(const Parameters& scene);

// What those parameters ask for: the operator, the default preconditioner's PETSc type, and
// the solver's options. constantMatrix: the system matrix depends on the step factors alone.
struct LinearSolverChoice {
  OperatorMode op = OperatorMode::Assembled;
  std::string pcType;
  LinearSolverOptions options;
};
LinearSolverChoice linearSolverOf(const LinearSolverParameters& parameters, bool constantMatrix);

}  // namespace eis
