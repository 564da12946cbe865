// The constraint solver's keys (lagrange.*: the solver, the Gauss-Seidel, the correction) and
// the options of ode/free_motion_step.hpp read from them.
#include <string>

#include "eis/core/error.hpp"
#include "eis/core/scene.hpp"
#include "eis/ode/free_motion_step.hpp"
#include "eis/ode/lcp_constraint_solver.hpp"

namespace eis {

namespace {

enum class ConstraintSolverType { None, BlockGaussSeidel, UnbuiltGaussSeidel, Nncg, Pcr, Lcp };
constexpr Named<ConstraintSolverType> kConstraintSolvers[] = {
    {"none", ConstraintSolverType::None},
    {"block-gauss-seidel", ConstraintSolverType::BlockGaussSeidel},
    {"unbuilt-gauss-seidel", ConstraintSolverType::UnbuiltGaussSeidel},
    {"nncg", ConstraintSolverType::Nncg},
    {"preconditioned-conjugate-residual", ConstraintSolverType::Pcr},
    {"lcp", ConstraintSolverType::Lcp}};
enum class ConstraintCorrection { None, LinearSolver, Uncoupled };
constexpr Named<ConstraintCorrection> kConstraintCorrections[] = {
    {"none", ConstraintCorrection::None},
    {"linear-solver", ConstraintCorrection::LinearSolver},
    {"uncoupled", ConstraintCorrection::Uncoupled}};

}  // namespace

bool solvesConstraints(const Parameters& scene) {
  return scene.choice("lagrange.solver", kConstraintSolvers) != ConstraintSolverType::None;
}

ConstraintStepOptions constraintStepOptionsOf(const Parameters& scene) {
  ConstraintStepOptions options;
  const ConstraintSolverType solver = scene.choice("lagrange.solver", kConstraintSolvers);
  options.gaussSeidel.zeroStart = solver == ConstraintSolverType::UnbuiltGaussSeidel;
  if (solver == ConstraintSolverType::Nncg)
    options.gaussSeidel.method = GaussSeidelOptions::Method::NonsmoothNonlinearConjugateGradient;
  if (solver == ConstraintSolverType::Pcr)
    options.gaussSeidel.method = GaussSeidelOptions::Method::PreconditionedConjugateResidual;
  options.gaussSeidel.maxIterations = scene.integer("lagrange.max-iterations");
  options.gaussSeidel.tolerance = scene.real("lagrange.tolerance");
  options.gaussSeidel.sor = scene.real("lagrange.sor");
  options.gaussSeidel.scaleTolerance = scene.boolean("lagrange.scale-tolerance");
  options.gaussSeidel.allVerified = scene.boolean("lagrange.all-verified");
  options.regularization = scene.real("lagrange.regularization");
  options.nullSpaceRegularization = scene.boolean("lagrange.svd-regularization");
  options.nullSpaceValueFactor = scene.real("lagrange.svd-value-factor");
  options.nullSpaceVectorFactor = scene.real("lagrange.svd-vector-factor");
  options.correctionRegularization = scene.real("lagrange.correction-regularization");
  options.inStep = scene.boolean("lagrange.in-step");
  options.velocityFirst = scene.boolean("lagrange.velocity-first");
  if (solver == ConstraintSolverType::Lcp) {
    options.lcp = lcpOptionsOf(scene);
    options.lcp->maxIterations = options.gaussSeidel.maxIterations;
    options.lcp->tolerance = options.gaussSeidel.tolerance;
  }
  if (scene.choice("lagrange.correction", kConstraintCorrections) ==
      ConstraintCorrection::Uncoupled)
    options.uncoupled = UncoupledCorrection{scene.real("lagrange.compliance"),
                                            scene.boolean("lagrange.ode-factors"),
                                            scene.real("lagrange.correction-position-factor"),
                                            scene.real("lagrange.correction-velocity-factor")};
  return options;
}

const ComponentDeclaration& constraintSolverComponent() {
  static const ComponentDeclaration component{
      "constraint-solver", "constraint solver",
      "Lagrangian constraints solved after a free motion (SOFA FreeMotionAnimationLoop,\n"
      "BlockGaussSeidelConstraintSolver, LinearSolverConstraintCorrection)",
      ParameterSpec()
          .add(
              {"lagrange.solver",
               "none|block-gauss-seidel|unbuilt-gauss-seidel|nncg|preconditioned-conjugate-residual|"
               "lcp",
               "block-gauss-seidel: each step is a free motion (the step without the Lagrangian\n"
               "constraints), then the constraint forces by SOFA's block Gauss-Seidel on\n"
               "W = h J A^-1 J^T from the last step's forces, then the correction (SOFA\n"
               "FreeMotionAnimationLoop with a BlockGaussSeidelConstraintSolver);\n"
               "unbuilt-gauss-seidel: the same sweeps from zero forces (SOFA\n"
               "UnbuiltGaussSeidelConstraintSolver); nncg: the sweeps accelerated along\n"
               "conjugate directions (SOFA NNCGConstraintSolver, sor not applied);\n"
               "preconditioned-conjugate-residual: W f = -dfree by Jacobi-preconditioned\n"
               "conjugate residuals from zero forces, every row bilateral (SOFA\n"
               "PreconditionedConjugateResidual); lcp: every row a contact, SOFA\n"
               "LCPConstraintSolver's Gauss-Seidel with the friction lagrange.lcp-mu (3 rows a\n"
               "contact) or without (every row f >= 0); none: no constraint solver",
               "none", "", false, check::choice(kConstraintSolvers)})
          .add({"lagrange.in-step", "true|false",
                "true: no free motion; the step itself calls the constraint solver on its new\n"
                "velocity (the rows' velocity violation, W = J A^-1 J^T, v corrected) and then\n"
                "on its new position (W = h J A^-1 J^T, x corrected), as SOFA's\n"
                "EulerImplicitSolver solveConstraint does under DefaultAnimationLoop",
                "false", "", false, check::boolean()})
          .add({"lagrange.velocity-first", "true|false",
                "true: after the free motion the constraint solver works on velocities (the\n"
                "rows' velocity violation at x_n and v_free, W = J A^-1 J^T, v = v_free +\n"
                "A^-1 J^T f, then x = x_n + h v), as SOFA's FreeMotionAnimationLoop\n"
                "solveVelocityConstraintFirst does; only with lagrange.distance rows",
                "false", "", false, check::boolean()})
          .add({"lagrange.max-iterations", "N",
                "the Gauss-Seidel's most iterations (SOFA maxIterations)", "1000", "", false,
                check::integerAtLeast(1)})
          .add({"lagrange.tolerance", "TOL",
                "the Gauss-Seidel stops once an iteration's error (the sum over constraints of\n"
                "the displacement its force change causes) is below TOL (SOFA tolerance)",
                "0.001", "length", false, check::positive()})
          .add({"lagrange.sor", "S", "successive over-relaxation of the forces (SOFA sor, 0-2)",
                "1", "", false, check::within(0, 2)})
          .add({"lagrange.scale-tolerance", "true|false",
                "the tolerance times the number of constraint rows (SOFA scaleTolerance)", "true",
                "", false, check::boolean()})
          .add({"lagrange.all-verified", "true|false",
                "stop only once every constraint's error is below the tolerance (SOFA\n"
                "allVerified)",
                "false", "", false, check::boolean()})
          .add({"lagrange.regularization", "R",
                "added to every diagonal entry of W (SOFA's constraint solver regularizationTerm)",
                "0", "", false, check::nonNegative()})
          .add({"lagrange.svd-regularization", "true|false",
                "lagrange.regularization only on the rows of W's null space, the constraints\n"
                "that work against one another, found from W's SVD (SOFA\n"
                "useSVDForRegularization)",
                "false", "", false, check::boolean()})
          .add({"lagrange.svd-value-factor", "F",
                "lagrange.svd-regularization: singular values below F times the largest span\n"
                "the null space (SOFA svdSingularValueNullSpaceCriteriaFactor)",
                "0.01", "", false, check::nonNegative()})
          .add({"lagrange.svd-vector-factor", "F",
                "lagrange.svd-regularization: a row is in the null space when a null-space\n"
                "singular vector's component there exceeds F (SOFA\n"
                "svdSingularVectorNullSpaceCriteriaFactor)",
                "0.001", "", false, check::nonNegative()})
          .add({"lagrange.correction", "none|linear-solver|uncoupled",
                "linear-solver: W and the correction through the step's own linear solver (SOFA\n"
                "LinearSolverConstraintCorrection); uncoupled: one compliance per node,\n"
                "lagrange.compliance, in place of A^-1 (SOFA UncoupledConstraintCorrection)",
                "none", "", false, check::choice(kConstraintCorrections)})
          .add({"lagrange.compliance", "C",
                "lagrange.correction = uncoupled: every node's compliance (SOFA\n"
                "UncoupledConstraintCorrection defaultCompliance)",
                "1e-05", "", false, check::positive()})
          .add({"lagrange.ode-factors", "true|false",
                "lagrange.correction = uncoupled: W times h and the correction times h and 1\n"
                "(the integrator's factors), else W as it is and the correction times the two\n"
                "factors below (SOFA useOdeSolverIntegrationFactors)",
                "true", "", false, check::boolean()})
          .add({"lagrange.correction-position-factor", "K",
                "lagrange.ode-factors = false: the position correction's factor (SOFA\n"
                "correctionPositionFactor)",
                "1", "", false, check::real()})
          .add({"lagrange.correction-velocity-factor", "K",
                "lagrange.ode-factors = false: the velocity correction's factor, over the step\n"
                "(SOFA correctionVelocityFactor)",
                "1", "", false, check::real()})
          .add({"lagrange.correction-regularization", "R",
                "added to the diagonal of W on the constrained rows (SOFA\n"
                "LinearSolverConstraintCorrection regularizationTerm)",
                "0", "", false, check::nonNegative()}),
      [](Scene& scene) {
        const bool solver = solvesConstraints(scene);
        const bool correction = scene.choice("lagrange.correction", kConstraintCorrections) !=
                                ConstraintCorrection::None;
        const std::string rows = scene.given("lagrange.fixed")        ? "lagrange.fixed"
                                 : scene.given("lagrange.bilateral")  ? "lagrange.bilateral"
                                 : scene.given("lagrange.unilateral") ? "lagrange.unilateral"
                                 : scene.given("lagrange.sliding")    ? "lagrange.sliding"
                                 : scene.given("lagrange.distance")   ? "lagrange.distance"
                                                                      : "";
        if (!rows.empty() && !solver)
          throw Error(rows +
                      ": Lagrangian constraints need a constraint solver (lagrange.solver "
                      "= block-gauss-seidel: SOFA's FreeMotionAnimationLoop and "
                      "BlockGaussSeidelConstraintSolver); nothing would hold them");
        if (!rows.empty() && !correction)
          throw Error(rows +
                      ": Lagrangian constraints need a constraint correction "
                      "(lagrange.correction = linear-solver or uncoupled: SOFA's "
                      "LinearSolverConstraintCorrection or UncoupledConstraintCorrection)");
        if (correction && !solver)
          throw Error("lagrange.correction = " + scene.text("lagrange.correction") +
                      " needs lagrange.solver = block-gauss-seidel");
        if (scene.boolean("lagrange.in-step")) {
          if (!solver) throw Error("lagrange.in-step = true needs a lagrange.solver");
          if (scene.text("lagrange.solver") == "lcp")
            throw Error(
                "lagrange.solver = lcp with lagrange.in-step = true: SOFA's LCPConstraintSolver "
                "builds its problem at the free positions whatever the step asks; not supported");
          for (const char* key : {"lagrange.unilateral", "lagrange.sliding"})
            if (scene.given(key))
              throw Error(std::string(key) +
                          " with lagrange.in-step = true: the velocity violation SOFA's "
                          "solveConstraint measures for these rows is not implemented (fixed "
                          "and bilateral rows are)");
          if (scene.text("solver.scheme") == "trapezoidal" && !scene.boolean("solver.first-order"))
            throw Error(
                "lagrange.in-step = true with solver.scheme = trapezoidal: SOFA's "
                "solveConstraint corrects x_n + h v_{n+1}, which that scheme does not form");
        }
        if (scene.given("lagrange.distance") && scene.boolean("lagrange.in-step"))
          throw Error(
              "lagrange.distance with lagrange.in-step = true: where SOFA's mapping sets its "
              "Jacobian within EulerImplicitSolver's solveConstraint is not followed; not "
              "supported");
        if (scene.boolean("lagrange.velocity-first")) {
          if (!solver || scene.boolean("lagrange.in-step") ||
              scene.text("lagrange.solver") == "lcp")
            throw Error(
                "lagrange.velocity-first = true needs a lagrange.solver other than lcp, "
                "without lagrange.in-step");
          for (const char* key :
               {"lagrange.fixed", "lagrange.bilateral", "lagrange.unilateral", "lagrange.sliding"})
            if (scene.given(key))
              throw Error(std::string(key) +
                          " with lagrange.velocity-first = true: SOFA measures these rows' "
                          "velocity violation at a free position it does not update in that "
                          "order; only lagrange.distance rows are supported");
        }
        if (solver && scene.text("solver.newton") == "full")
          throw Error(
              "lagrange.solver = " + scene.text("lagrange.solver") +
              " runs SOFA's linearized step as the free motion: solver.newton = full is not "
              "supported with it");
      }};
  return component;
}

// Between the time integrator (600) and the linear solver (700).
const RegisterComponent registered(650, constraintSolverComponent);

}  // namespace eis
