// SOFA's Lagrangian constraint solving (master): the scene's FreeMotionAnimationLoop and its
// constraint solver (BlockGaussSeidelConstraintSolver, GenericConstraintSolver's data, and the
// others read as ours), or an EulerImplicitSolver's solveConstraint, as the lagrange.* keys of
// ode/free_motion_step.cpp. The constraints and corrections: io/sofa_lagrangian_constraints.cpp.
#include "sofa_lagrangian.hpp"

#include <cmath>

#include "eis/core/error.hpp"

namespace eis::sofa {

namespace {

bool isLagrangian(const std::string& type) {
  return type == "FixedLagrangianConstraint" || type == "BilateralLagrangianConstraint" ||
         type == "SlidingLagrangianConstraint" || type == "LinearSolverConstraintCorrection" ||
         type == "UncoupledConstraintCorrection" || type == "GenericConstraintCorrection";
}

// What makes contacts: a collision pipeline and its contact managers.
bool makesContacts(const std::string& type) {
  return type == "CollisionPipeline" || type == "DefaultPipeline" ||
         type == "DefaultContactManager" || type == "CollisionResponse" ||
         type == "RuleBasedContactManager";
}

}  // namespace

bool isFreeMotionLoop(const std::string& type) {
  return type == "FreeMotionAnimationLoop";
}

bool isConstraintSolver(const std::string& type) {
  return type == "BlockGaussSeidelConstraintSolver" || type == "LCPConstraintSolver" ||
         type == "UnbuiltGaussSeidelConstraintSolver" || type == "NNCGConstraintSolver" ||
         type == "ImprovedJacobiConstraintSolver" || type == "PreconditionedConjugateResidual" ||
         type == "GenericConstraintSolver";
}

namespace {

// LCPConstraintSolver.cpp: maxIt 1000, tolerance 0.001, regularizationTerm 0, mu 0.6,
// initial_guess true, build_lcp true, minW 0, maxF 0.
void mapLcpSolver(Reader& r, const SofaObject& solver) {
  r.from(solver);
  if (!r.boolean(solver, "build_lcp", true))
    r.reject(solver, "build_lcp",
             "the unbuilt Gauss-Seidel (W's blocks computed as it goes) is not supported; "
             "build_lcp true is");
  const double iterations = r.real(solver, "maxIt", 1000);
  if (!(iterations >= 1) || iterations != std::floor(iterations))
    r.reject(solver, "maxIt", "expected a whole number of at least 1");
  const double tolerance = r.real(solver, "tolerance", 0.001);
  if (!(tolerance > 0)) r.reject(solver, "tolerance", "expected a positive number");
  const double regularization = r.real(solver, "regularizationTerm", 0);
  if (!(regularization >= 0)) r.reject(solver, "regularizationTerm", "expected 0 or more");
  for (const char* field : {"mu", "minW", "maxF"})
    if (!(r.real(solver, field, 0) >= 0)) r.reject(solver, field, "expected 0 or more");
  r.key("lagrange.max-iterations", std::to_string(static_cast<long long>(iterations)));
  r.key("lagrange.tolerance", parse::text(tolerance));
  r.key("lagrange.regularization", parse::text(regularization));
  r.key("lagrange.lcp-mu", parse::text(r.real(solver, "mu", 0.6)));
  r.key("lagrange.initial-guess", r.boolean(solver, "initial_guess", true) ? "true" : "false");
  r.key("lagrange.min-w", parse::text(r.real(solver, "minW", 0)));
  r.key("lagrange.max-f", parse::text(r.real(solver, "maxF", 0)));
}

}  // namespace

void refuseContacts(const SofaObject& caller, const std::vector<std::string>& collision) {
  for (const std::string& type : collision)
    if (makesContacts(type))
      throw Error(caller.where + ": " + caller.type + " with a " + type +
                  ": contacts would become Lagrangian constraints, which are not simulated");
}

bool solvesConstraintInStep(Reader& r, const SofaObject* odeSolver) {
  return odeSolver && odeSolver->type == "EulerImplicitSolver" &&
         r.boolean(*odeSolver, "solveConstraint", false);
}

void mapConstraintSolving(Reader& r, const SofaObject* loop, const SofaObject* solver,
                          const std::vector<const SofaObject*>& components,
                          const SofaObject* odeSolver, const SofaObject* linearSolver,
                          const std::vector<std::string>& collision) {
  // EulerImplicitSolver solveConstraint: MechanicalOperations::solveConstraint calls the
  // constraint solvers of the ODE solver's own node (BaseContext::Local) and no other.
  const SofaObject* caller = loop;
  if (solvesConstraintInStep(r, odeSolver)) {
    if (loop)
      r.reject(*odeSolver, "solveConstraint",
               "with a FreeMotionAnimationLoop SOFA would solve the constraints inside the free "
               "motion and again after it; not supported (one or the other is)");
    const SofaObject* local = nullptr;
    for (const SofaObject& o : odeSolver->node->objects)
      if (isConstraintSolver(o.type) && !local) local = &o;
    if (local) {
      caller = odeSolver;
      solver = local;
      r.from(*odeSolver);
      r.key("lagrange.in-step", "true");
    } else {
      r.note(odeSolver->label() +
             ": solveConstraint: no constraint solver in its node, so SOFA "
             "solves nothing in the step");
    }
  }
  // The preconditioner of the body's PCGLinearSolver (a direct solver factoring the same
  // matrix) gives SOFA W and the correction from that factorization; ours come from the step's
  // own solve of that matrix, converged: the same to its tolerance.
  const SofaObject* preconditioner = linearSolver && linearSolver->type == "PCGLinearSolver" &&
                                             linearSolver->field("preconditioner")
                                         ? r.linked(*linearSolver, "preconditioner")
                                         : nullptr;
  for (const SofaObject* o : components) {
    if ((o->type != "LinearSolverConstraintCorrection" &&
         o->type != "GenericConstraintCorrection") ||
        !o->field("linearSolver"))
      continue;
    const SofaObject* linked = r.linked(*o, "linearSolver");
    if (linked == preconditioner && preconditioner && isDirectSolver(preconditioner->type))
      r.note(o->label() + ": linearSolver is the preconditioner of " + linearSolver->label() +
             ": W and the correction through the step's own solve of the same matrix");
    else if (linked != linearSolver)
      r.reject(*o, "linearSolver",
               "not the linear solver that integrates its body" +
                   (linearSolver ? " (" + linearSolver->label() + ")" : std::string()) +
                   " nor its preconditioner: W and the correction go through that one");
  }
  if (!caller) {
    if (solver)
      throw Error(solver->where + ": " + solver->type +
                  ": no FreeMotionAnimationLoop calls it (SOFA's DefaultAnimationLoop does not; "
                  "an EulerImplicitSolver with solveConstraint calls only one in its own "
                  "node)");
    const auto correction = [](const SofaObject* o) {
      return o->type.find("Correction") != std::string::npos;
    };
    for (const SofaObject* o : components)
      if (isLagrangian(o->type) && !correction(o))
        throw Error(o->where + ": " + o->type +
                    ": a Lagrangian constraint needs SOFA's FreeMotionAnimationLoop and a "
                    "constraint solver; under DefaultAnimationLoop nothing holds it");
    // A constraint correction is called by a constraint solver alone (W, the correction of the
    // free motion): with none, SOFA's step never reaches it.
    for (const SofaObject* o : components)
      if (isLagrangian(o->type)) {
        r.forget(*o, "lagrange.");
        r.note(o->label() +
               ": no constraint solver calls it under DefaultAnimationLoop; it changes nothing, "
               "as in SOFA");
      }
    return;
  }
  r.from(*caller);
  // Only the rows of model/distance_lagrangian_constraint take it (a DistanceMapping child's,
  // which are not among the body's own components).
  if (loop && r.boolean(*loop, "solveVelocityConstraintFirst", false)) {
    for (const SofaObject* o : components)
      if (isLagrangian(o->type) && o->type.find("Correction") == std::string::npos)
        r.reject(*loop, "solveVelocityConstraintFirst",
                 "SOFA measures the velocity violation of " + o->label() +
                     " at a free position that order does not update; only the rows of a "
                     "UniformLagrangianConstraint on a DistanceMapping child are supported "
                     "with it");
    r.key("lagrange.velocity-first", "true");
  }
  refuseContacts(*caller, collision);
  // UnbuiltGaussSeidelConstraintSolver: the same sweeps from zero forces (its d, summed from the
  // corrections' displacements, is W f); NNCGConstraintSolver: the sweeps accelerated.
  // GenericConstraintSolver, which SOFA master removed in v25.12 (ComponentChange.cpp) for one
  // component per resolutionMethod, is read as the component that replaced it, as older scenes
  // ran under SOFA v25.06; its NNCG method (newtonIterations) is refused.
  const std::string resolution =
      solver && solver->type == "GenericConstraintSolver"
          ? r.text(*solver, "resolutionMethod").value_or("ProjectedGaussSeidel")
          : "";
  const std::string method =
      !solver                                                ? "block-gauss-seidel"
      : solver->type == "BlockGaussSeidelConstraintSolver"   ? "block-gauss-seidel"
      : solver->type == "UnbuiltGaussSeidelConstraintSolver" ? "unbuilt-gauss-seidel"
      : solver->type == "NNCGConstraintSolver"               ? "nncg"
      : solver->type == "PreconditionedConjugateResidual"    ? "preconditioned-conjugate-residual"
      : solver->type == "LCPConstraintSolver"                ? "lcp"
      : resolution == "ProjectedGaussSeidel"                 ? "block-gauss-seidel"
      : resolution == "UnbuiltGaussSeidel"                   ? "unbuilt-gauss-seidel"
                                                             : "";
  if (!resolution.empty()) {
    if (method.empty())
      throw Error(solver->where + ": GenericConstraintSolver: resolutionMethod = '" + resolution +
                  "': not supported (ProjectedGaussSeidel and UnbuiltGaussSeidel are; SOFA "
                  "master replaced this component by one per method: write "
                  "NNCGConstraintSolver, whose maxIterations is the old newtonIterations)");
    r.warn(solver->label() + ": SOFA master removed GenericConstraintSolver (v25.12); read as " +
           (method == "block-gauss-seidel" ? "BlockGaussSeidelConstraintSolver"
                                           : "UnbuiltGaussSeidelConstraintSolver") +
           ", which replaced its resolutionMethod " + resolution);
  }
  if (method.empty())
    throw Error(solver->where + ": " + solver->type +
                ": not supported (BlockGaussSeidelConstraintSolver, "
                "UnbuiltGaussSeidelConstraintSolver, NNCGConstraintSolver, "
                "PreconditionedConjugateResidual and LCPConstraintSolver are)");
  r.key("lagrange.solver", method);
  if (!solver) {
    // FreeMotionAnimationLoop::init adds a BlockGaussSeidelConstraintSolver with its defaults.
    r.note(
        "FreeMotionAnimationLoop without a constraint solver: SOFA's default "
        "BlockGaussSeidelConstraintSolver (maxIterations 1000, tolerance 0.001)");
    return;
  }
  if (method == "lcp") {
    mapLcpSolver(r, *solver);
    return;
  }
  // GenericConstraintSolver.cpp: maxIterations 1000, tolerance 0.001, sor 1,
  // regularizationTerm 0, scaleTolerance true, allVerified false.
  r.from(*solver);
  const double iterations = r.real(*solver, "maxIterations", 1000);
  if (!(iterations >= 1) || iterations != std::floor(iterations))
    r.reject(*solver, "maxIterations", "expected a whole number of at least 1");
  const double tolerance = r.real(*solver, "tolerance", 0.001);
  if (!(tolerance > 0)) r.reject(*solver, "tolerance", "expected a positive number");
  const double sor = r.real(*solver, "sor", 1);
  if (!(sor > 0 && sor < 2)) r.reject(*solver, "sor", "expected a number in (0, 2)");
  if ((method == "nncg" || method == "preconditioned-conjugate-residual") && sor != 1)
    r.note(solver->label() + ": sor: " + solver->type + " does not apply it");
  if (method == "preconditioned-conjugate-residual")
    for (const SofaObject* o : components)
      if (o->type == "SlidingLagrangianConstraint")
        r.note(o->label() +
               ": PreconditionedConjugateResidual solves every row as bilateral, "
               "its unilateral rows too, as SOFA does");
  const double regularization = r.real(*solver, "regularizationTerm", 0);
  if (!(regularization >= 0)) r.reject(*solver, "regularizationTerm", "expected 0 or more");
  r.key("lagrange.max-iterations", std::to_string(static_cast<long long>(iterations)));
  r.key("lagrange.tolerance", parse::text(tolerance));
  r.key("lagrange.sor", parse::text(sor));
  r.key("lagrange.regularization", parse::text(regularization));
  // BuiltConstraintSolver.cpp: useSVDForRegularization false, the criteria 0.01 and 0.001.
  if (solver->type != "UnbuiltGaussSeidelConstraintSolver") {
    r.key("lagrange.svd-regularization",
          r.boolean(*solver, "useSVDForRegularization", false) ? "true" : "false");
    r.key("lagrange.svd-value-factor",
          parse::text(r.real(*solver, "svdSingularValueNullSpaceCriteriaFactor", 0.01)));
    r.key("lagrange.svd-vector-factor",
          parse::text(r.real(*solver, "svdSingularVectorNullSpaceCriteriaFactor", 0.001)));
  }
  r.key("lagrange.scale-tolerance", r.boolean(*solver, "scaleTolerance", true) ? "true" : "false");
  r.key("lagrange.all-verified", r.boolean(*solver, "allVerified", false) ? "true" : "false");
}

}  // namespace eis::sofa
