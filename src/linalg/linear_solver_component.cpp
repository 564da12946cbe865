// The linear-solver component: its parameters, and what they ask of the KSP.
#include "eis/core/scene.hpp"
#include "eis/linalg/linear_solver.hpp"

namespace eis {

namespace {

ParameterSpec linearSolverParameters() {
  return ParameterSpec()
      .add(
          {"solver.operator", "assembled|matrix-free",
           "assembled: the step matrix is assembled (PETSc AIJ); matrix-free: SOFA's iterative path,\n"
           "matrix-free products element by element (PETSc MatShell), Jacobi preconditioner by default",
           "assembled", "", false, check::choice(kOperatorModes)})
      .add(
          {"solver.preconditioner", "auto|gamg|hypre|hypre-elasticity|jacobi|none",
           "the linear solves' preconditioner (under CG); a -pc_type option overrides it. auto: gamg\n"
           "for an assembled operator, jacobi for solver.operator = matrix-free. gamg: PETSc's\n"
           "smoothed-aggregation AMG (for elasticity with the six rigid-body modes; its Chebyshev\n"
           "smoothers estimate each set-up's matrix, -pc_gamg_use_sa_esteig false). hypre:\n"
           "BoomerAMG with settings for 3D (strong threshold 0.5, HMIS coarsening, ext+i\n"
           "interpolation, P_max 4, one level of aggressive coarsening): the cheapest set-up.\n"
           "hypre-elasticity: those plus nodal coarsening and the three rigid rotations as\n"
           "interpolation vectors (GM-1), for elasticity: the fewest iterations, each dearer. A\n"
           "-pc_hypre_boomeramg_* option overrides the setting it names. jacobi: the diagonal. All\n"
           "but jacobi and none need an assembled operator. none: plain CG, SOFA's CGLinearSolver;\n"
           "from a zero start (solver.initial-guess = zero) it gives a singular but consistent\n"
           "system (a massless body's, mass.type = none) SOFA's answer, the one with no part in\n"
           "the matrix's null space, which a preconditioner would add. docs/linear-solvers.md,\n"
           "\"Choosing the preconditioner\", says which to take when.",
           "auto", "", false, check::choice(kPreconditioners)})
      .add(
          {"solver.pc-lag", "N",
           "the preconditioner is set up again at most every N updates of the matrix (one update per\n"
           "step; one per Newton iteration with solver.newton = full) and kept in between (PETSc's\n"
           "KSPSetReusePreconditioner); 1: at every update; 0 (default): no limit, kept until\n"
           "solver.pc-rebuild-growth says the iterations grew. Only matters where the matrix changes\n"
           "(the nonlinear materials): a linear model's matrix is built once, its preconditioner with\n"
           "it. A direct solve (solver.linear = direct, -ksp_type preonly) is factored again at every\n"
           "update whatever N. With solver.newton = full it replaces -snes_lag_preconditioner. A solve\n"
           "that fails with a kept preconditioner is done again with a fresh one (a Newton step:\n"
           "with one at each Jacobian), and so is a linearized solve whose true residual a kept one\n"
           "let pass 100 times past what the last fresh one's test allowed. The history's\n"
           "pc_rebuilt column counts the set-ups of each step. >= 0",
           "0", "", false, check::integerAtLeast(0)})
      .add(
          {"solver.pc-rebuild-growth", "G",
           "the guard of a kept preconditioner: once a linear solve needs more than G times the\n"
           "reference, the preconditioner is set up again at the next matrix update, before\n"
           "solver.pc-lag runs out. The reference is the fewest iterations among the first 3 solves\n"
           "after the set-up (solves of no iteration left out), as one solve's count varies by up\n"
           "to 1.2x between fresh set-ups. The default sits above that spread and well below what\n"
           "a never-rebuilt GAMG reached on a swinging soft beam (nearly 3). > 1",
           "1.5", "", false, check::above(1)})
      .add(
          {"solver.initial-guess", "auto|zero|previous|projected|span",
           "where the linearized step's linear solve starts. The solve stops at a residual relative\n"
           "to the right-hand side, so a close start saves iterations. zero: from zero. previous: the\n"
           "previous step's solution of the same system (dv; v_{n+1} with solver.first-order), via\n"
           "KSPSetInitialGuessNonzero: 7 to 13% fewer iterations on the runs of\n"
           "docs/linear-solvers.md. projected: the new right-hand side's projection on the last 10\n"
           "ones, mapped to their solutions (PETSc's KSPGuess, Fischer's method 3): exact for a\n"
           "right-hand side in their span while the matrix stays the same, about half the\n"
           "iterations once 10 steps are stored on those beams; it starts from zero whenever the\n"
           "matrix changes, so it suits linear models. span: the best combination of the last\n"
           "solver.guess-solutions solutions for the current matrix A: A is applied to them (one\n"
           "product each), and the k x k system of their Galerkin projection (least squares when A\n"
           "is not known symmetric) is solved, nearly dependent solutions dropped; exact for a\n"
           "right-hand side in A's image of their span, whatever A, so it suits the nonlinear\n"
           "models. auto: projected for linear models, span for the others. For\n"
           "solver.newton = linearized only: Newton's first iterate is solver.newton-guess, and its\n"
           "linear solves start from zero.",
           "auto", "", false, check::choice(kInitialGuesses)})
      .add({"solver.guess-solutions", "K",
            "how many of the last solutions solver.initial-guess = span keeps (K vectors, and K\n"
            "more for their products; K products per solve), >= 1",
            "8", "", false, check::integerAtLeast(1)})
      .add({"solver.linear", "iterative|direct",
            "iterative: CG under solver.preconditioner, stopped by solver.rtol and\n"
            "solver.max-iterations (SOFA CGLinearSolver, PCGLinearSolver); a matrix CG finds\n"
            "indefinite (a buckling model) is solved by GMRES with the same preconditioner and\n"
            "stop. direct: a sparse Cholesky factorization by MUMPS through PETSc, factored once\n"
            "per matrix (SOFA SparseLDLSolver, SparseCholeskySolver, EigenSimplicialLDLT,\n"
            "AsyncSparseLDLSolver); needs an assembled operator",
            "iterative", "", false, check::choice(kLinearMethods)})
      .add({"solver.rtol", "RTOL",
            "the iterative solve stops once ||r|| <= RTOL ||b|| (SOFA CGLinearSolver tolerance,\n"
            "with solver.residual-norm = unpreconditioned), in (0, 1)",
            "1e-8", "", false, check::within(0, 1)})
      .add({"solver.max-iterations", "N",
            "most iterations of one iterative solve (SOFA CGLinearSolver iterations), >= 1", "1000",
            "", false, check::integerAtLeast(1)})
      .add({"solver.residual-norm", "default|unpreconditioned",
            "the norm of r in solver.rtol's test. default: PETSc's for the KSP (for CG, the\n"
            "preconditioned residual); unpreconditioned: the true residual b - A x, as SOFA's CG\n"
            "measures it",
            "default", "", false, check::choice(kResidualNorms)})
      .add(
          {"solver.block-products", "BOOL",
           "the linearized step's iterative solve multiplies by a copy of the assembled matrix in\n"
           "PETSc's 3 x 3 block storage (BAIJ): CG's products, the span start's and those of GAMG's\n"
           "finest smoother, 1.3 to 1.7 times faster each than over the AIJ matrix, which stays the\n"
           "preconditioner's; and after each GAMG set-up, the levels between the finest and the\n"
           "coarsest, and the interpolations between all levels, multiply by BAIJ copies of\n"
           "themselves (blocks of 6 for elasticity; 3 x 3 for the finest interpolation's rows),\n"
           "1.5 to 2 times faster. Costs a second matrix's memory (about 0.37 kB per unknown, 0.2\n"
           "on one rank with solver.symmetric-blocks, and 0.34 kB for the levels and\n"
           "interpolations); false multiplies by the AIJ matrices themselves. No effect\n"
           "with solver.operator = matrix-free, a direct solve, a scalar problem (diffusion) or\n"
           "solver.newton = full",
           "true", "", false, check::boolean()})
      .add(
          {"solver.symmetric-blocks", "BOOL",
           "a symmetric step matrix's block copy (solver.block-products) holds its upper\n"
           "triangle only: each block multiplies into its row and, transposed, into its column's,\n"
           "so a product reads half the bytes. On one rank PETSc's SBAIJ storage (1.7 times\n"
           "faster products at 1e6 unknowns); on several, each rank's rows among its own columns,\n"
           "the rest of its rows whole, multiplied by the read-ahead's loop (with\n"
           "solver.block-prefetch = 0 the whole matrix there). The sums differ from the whole\n"
           "matrix's in order (answers agree to rounding, then to the solver's tolerance).\n"
           "false: the whole matrix in blocks",
           "true", "", false, check::boolean()})
      .add({"solver.single-precision-levels", "BOOL",
            "GAMG's coarser levels and interpolations multiply by their block copies' values\n"
            "rounded to float, widened to double as they multiply (solver.block-products):\n"
            "half the bytes of their products. A preconditioner needs to be fixed and symmetric,\n"
            "not exact; CG and the step matrix stay in double (the finest smoother: see\n"
            "solver.truncated-finest-smoother), so answers meet the same tolerance, with\n"
            "iterations and rounding of their own. Costs the copies' values once more in float.\n"
            "false: every product in double",
            "true", "", false, check::boolean()})
      .add(
          {"solver.truncated-finest-smoother", "BOOL",
           "with solver.symmetric-blocks and a read-ahead (solver.block-prefetch > 0), the step\n"
           "matrix's upper triangle keeps each value as its two 32-bit halves, and GAMG's finest\n"
           "smoother and residual multiply by the high halves alone: the values cut to 20 bits of\n"
           "significand (at most 2^-20 of each off), half the bytes of four of an iteration's\n"
           "five products by the step matrix. CG's products join the halves into the exact\n"
           "values. Costs no memory; answers meet the same tolerance, with iterations and\n"
           "rounding of their own. false: the finest smoother multiplies by the exact values",
           "true", "", false, check::boolean()})
      .add({"solver.block-prefetch", "N",
            "how far ahead, in 3 x 3 blocks (72 bytes), the products by the block copies of the\n"
            "step matrix, GAMG's levels and their prolongations fetch the matrix from memory\n"
            "(solver.block-products). PETSc's own product fetches one block row ahead and reads\n"
            "the matrix at about 0.6 of the memory's pace on this project's step matrices; 128\n"
            "(about 9 kB) made the product 1.1 to 1.3 times faster. The same sums in the same\n"
            "order: the answer is PETSc's to the last bit. 0: PETSc's own product",
            "128", "", false, check::integerAtLeast(0)})
      .add({"solver.block-prefetch-locality", "0|1|2|3",
            "where the read-ahead of solver.block-prefetch asks the processor to keep what it\n"
            "fetches, as GCC's __builtin_prefetch takes it: 3 in every cache level (x86's\n"
            "prefetcht0), 2 and 1 in fewer (prefetcht1, prefetcht2), 0 non-temporal, evicted\n"
            "first (prefetchnta). On a host with a 14 GB/s triad and a large shared cache, 0 made\n"
            "the step matrix's product 3.8 times slower than 3 and the corotational beam's steps\n"
            "twice as long; where the read-ahead was first measured, 0 was at most 5 % faster.\n"
            "The same sums either way: the answer to the last bit",
            "3", "", false, check::choice(kPrefetchLocalities)})
      .add(
          {"solver.iteration-limit", "error|accept",
           "error: a solve that reaches solver.max-iterations fails the step; accept: it ends with\n"
           "its last iterate, as SOFA's CGLinearSolver does",
           "error", "", false, check::choice(kIterationLimits)});
}

// A multigrid preconditioner needs a matrix to coarsen.
void checkPreconditioner(Scene& scene) {
  const LinearSolverParameters p = readLinearSolverParameters(scene);
  if (p.method == LinearMethod::Direct && p.op == OperatorMode::MatrixFree)
    throw Error(
        "solver.linear = direct needs an assembled matrix; solver.operator = matrix-free "
        "has none");
  const Preconditioner pc = p.preconditioner;
  const bool multigrid =
      pc != Preconditioner::Automatic && pc != Preconditioner::Jacobi && pc != Preconditioner::None;
  if (multigrid && p.op == OperatorMode::MatrixFree)
    throw Error("solver.preconditioner = " + parse::nameOf(pc, kPreconditioners) +
                " needs an assembled matrix; solver.operator = matrix-free has none (take jacobi)");
}

// auto: PETSc's projection needs a matrix that stays the same from step to step (it forgets the
// stored solutions when it changes) and costs no product; a changing matrix takes the span of
// the last solutions, applied to it.
LinearSolverOptions::Start startOf(InitialGuess guess, bool constantMatrix) {
  if (guess == InitialGuess::Automatic)
    guess = constantMatrix ? InitialGuess::Projected : InitialGuess::Span;
  switch (guess) {
    case InitialGuess::Previous: return LinearSolverOptions::Start::GivenVector;
    case InitialGuess::Projected: return LinearSolverOptions::Start::Projection;
    case InitialGuess::Span: return LinearSolverOptions::Start::Span;
    default: return LinearSolverOptions::Start::Zero;
  }
}

}  // namespace

const ComponentDeclaration& linearSolverComponent() {
  static const ComponentDeclaration component{
      "linear-solver", "linear solver",
      "the KSP of each step: CG with GAMG by default, any PETSc solver through -ksp_/-pc_ options",
      linearSolverParameters(), checkPreconditioner};
  return component;
}

LinearSolverParameters readLinearSolverParameters(const Parameters& scene) {
  LinearSolverParameters p;
  p.op = scene.choice("solver.operator", kOperatorModes);
  p.preconditioner = scene.choice("solver.preconditioner", kPreconditioners);
  p.pcLag = scene.integer("solver.pc-lag");
  p.pcRebuildGrowth = scene.real("solver.pc-rebuild-growth");
  p.initialGuess = scene.choice("solver.initial-guess", kInitialGuesses);
  p.guessSolutions = scene.integer("solver.guess-solutions");
  p.method = scene.choice("solver.linear", kLinearMethods);
  p.rtol = scene.real("solver.rtol");
  p.maxIterations = scene.integer("solver.max-iterations");
  p.residualNorm = scene.choice("solver.residual-norm", kResidualNorms);
  p.blockProducts = scene.boolean("solver.block-products");
  p.symmetricBlocks = scene.boolean("solver.symmetric-blocks");
  p.singleLevels = scene.boolean("solver.single-precision-levels");
  p.truncatedFinestSmoother = scene.boolean("solver.truncated-finest-smoother");
  p.blockPrefetch = scene.integer("solver.block-prefetch");
  p.blockPrefetchLocality = scene.choice("solver.block-prefetch-locality", kPrefetchLocalities);
  p.iterationLimit = scene.choice("solver.iteration-limit", kIterationLimits);
  return p;
}

LinearSolverChoice linearSolverOf(const LinearSolverParameters& p, bool constantMatrix) {
  LinearSolverChoice choice;
  choice.op = p.op;
  const Preconditioner pc = p.preconditioner;
  switch (pc) {
    case Preconditioner::Gamg: choice.pcType = PCGAMG; break;
    case Preconditioner::Hypre:
    case Preconditioner::HypreElasticity: choice.pcType = PCHYPRE; break;
    case Preconditioner::Jacobi: choice.pcType = PCJACOBI; break;
    case Preconditioner::None: choice.pcType = PCNONE; break;
    case Preconditioner::Automatic:
      choice.pcType = choice.op == OperatorMode::MatrixFree ? PCJACOBI : PCGAMG;
      break;
  }
  choice.options.preconditioner.hypreElasticity = pc == Preconditioner::HypreElasticity;
  choice.options.preconditioner.lag = p.pcLag;
  choice.options.preconditioner.rebuildGrowth = p.pcRebuildGrowth;
  choice.options.start = startOf(p.initialGuess, constantMatrix);
  choice.options.constantMatrix = constantMatrix;
  choice.options.spanSolutions = p.guessSolutions;
  choice.options.direct = p.method == LinearMethod::Direct;
  choice.options.rtol = p.rtol;
  choice.options.maxIterations = p.maxIterations;
  choice.options.unpreconditionedNorm = p.residualNorm == ResidualNorm::Unpreconditioned;
  choice.options.blockProducts = p.blockProducts;
  choice.options.prefetch = {p.blockPrefetch, p.blockPrefetchLocality};
  choice.options.symmetricBlocks = p.symmetricBlocks;
  choice.options.singleLevels = p.singleLevels;
  choice.options.truncatedFinestSmoother = p.truncatedFinestSmoother;
  choice.options.acceptIterationLimit = p.iterationLimit == IterationLimit::Accept;
  return choice;
}

const RegisterComponent registered(700, linearSolverComponent);

}  // namespace eis
