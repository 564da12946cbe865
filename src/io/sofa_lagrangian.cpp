// SOFA's Lagrangian constraint solving (master): FreeMotionAnimationLoop,
// BlockGaussSeidelConstraintSolver (GenericConstraintSolver's data), FixedLagrangianConstraint and
// LinearSolverConstraintCorrection as the keys of ode/free_motion_step.cpp and
// model/fixed_lagrangian_constraint.cpp.
#include "sofa_lagrangian.hpp"

#include <algorithm>
#include <cmath>

#include "eis/core/error.hpp"
#include "sofa_selections.hpp"

namespace eis::sofa {

namespace {

bool isLagrangian(const std::string& type) {
  return type == "FixedLagrangianConstraint" || type == "LinearSolverConstraintCorrection";
}

// What makes contacts: a collision pipeline and its contact managers.
bool makesContacts(const std::string& type) {
  return type == "CollisionPipeline" || type == "DefaultPipeline" ||
         type == "DefaultContactManager" || type == "CollisionResponse" ||
         type == "RuleBasedContactManager";
}

void requireVec3(Reader& r, const SofaObject& o) {
  const std::string t = r.text(o, "template").value_or("Vec3d");
  if (t != "Vec3d" && t != "Vec3" && t != "Vec3f")
    r.reject(o, "template", "only Vec3d (3D points) is supported");
}

// FixedLagrangianConstraint.inl: indices empty by default, fixAll false; the Vec3 rows are the
// node's x, y, z unit vectors, the violation x_free - x_rest (FixedLagrangianConstraint.cpp).
void mapFixedLagrangian(Reader& r, const SofaObject& o) {
  requireVec3(r, o);
  if (r.real(o, "endTime", -1) >= 0)
    r.reject(o, "endTime", "a constraint that ends is not supported");
  const std::vector<std::string> selections = r.boolean(o, "fixAll", false)
                                                  ? std::vector<std::string>{"all"}
                                                  : selectionsOf(r, o, "indices", {});
  if (selections.size() > 1)
    r.reject(o, "indices",
             "several boxes or spheres: their nodes' rows would not follow SOFA's order");
  for (const std::string& s : selections) r.key("lagrange.fixed", s);
}

// LinearSolverConstraintCorrection.inl: wire_optimization false, regularizationTerm 0; W and the
// correction through the linear solver of its context, which here is the body's.
void mapLinearSolverCorrection(Reader& r, const SofaObject& o) {
  requireVec3(r, o);
  if (r.boolean(o, "wire_optimization", false))
    r.reject(o, "wire_optimization", "reordering the constraints along a wire is not supported");
  r.key("lagrange.correction", "linear-solver");
  r.key("lagrange.correction-regularization", parse::text(r.real(o, "regularizationTerm", 0)));
}

}  // namespace

bool isFreeMotionLoop(const std::string& type) {
  return type == "FreeMotionAnimationLoop";
}

bool isConstraintSolver(const std::string& type) {
  return type == "BlockGaussSeidelConstraintSolver" || type == "LCPConstraintSolver" ||
         type == "UnbuiltGaussSeidelConstraintSolver" || type == "NNCGConstraintSolver" ||
         type == "ImprovedJacobiConstraintSolver" || type == "PreconditionedConjugateResidual";
}

void mapConstraintSolving(Reader& r, const SofaObject* loop, const SofaObject* solver,
                          const std::vector<const SofaObject*>& components,
                          const SofaObject* linearSolver,
                          const std::vector<std::string>& collision) {
  for (const SofaObject* o : components)
    if (o->type == "LinearSolverConstraintCorrection" && o->field("linearSolver") &&
        r.linked(*o, "linearSolver") != linearSolver)
      r.reject(*o, "linearSolver",
               "not the linear solver that integrates its body" +
                   (linearSolver ? " (" + linearSolver->label() + ")" : std::string()) +
                   ": W and the correction go through that one");
  if (!loop) {
    if (solver)
      throw Error(solver->where + ": " + solver->type +
                  ": no FreeMotionAnimationLoop calls it (SOFA's DefaultAnimationLoop does not; "
                  "EulerImplicitSolver solveConstraint is not supported)");
    for (const SofaObject* o : components)
      if (isLagrangian(o->type))
        throw Error(o->where + ": " + o->type +
                    ": a Lagrangian constraint needs SOFA's FreeMotionAnimationLoop and a "
                    "constraint solver; under DefaultAnimationLoop nothing holds it");
    return;
  }
  r.from(*loop);
  if (r.boolean(*loop, "solveVelocityConstraintFirst", false))
    r.reject(*loop, "solveVelocityConstraintFirst", "velocity constraints are not supported");
  for (const std::string& type : collision)
    if (makesContacts(type))
      throw Error(loop->where + ": FreeMotionAnimationLoop with a " + type +
                  ": contacts would become Lagrangian constraints, which are not simulated");
  if (solver && solver->type != "BlockGaussSeidelConstraintSolver")
    throw Error(solver->where + ": " + solver->type +
                ": not supported (BlockGaussSeidelConstraintSolver is)");
  r.key("lagrange.solver", "block-gauss-seidel");
  if (!solver) {
    // FreeMotionAnimationLoop::init adds a BlockGaussSeidelConstraintSolver with its defaults.
    r.note(
        "FreeMotionAnimationLoop without a constraint solver: SOFA's default "
        "BlockGaussSeidelConstraintSolver (maxIterations 1000, tolerance 0.001)");
    return;
  }
  // GenericConstraintSolver.cpp: maxIterations 1000, tolerance 0.001, sor 1,
  // regularizationTerm 0, scaleTolerance true, allVerified false.
  r.from(*solver);
  if (r.boolean(*solver, "useSVDForRegularization", false))
    r.reject(*solver, "useSVDForRegularization", "not supported");
  const double iterations = r.real(*solver, "maxIterations", 1000);
  if (!(iterations >= 1) || iterations != std::floor(iterations))
    r.reject(*solver, "maxIterations", "expected a whole number of at least 1");
  const double tolerance = r.real(*solver, "tolerance", 0.001);
  if (!(tolerance > 0)) r.reject(*solver, "tolerance", "expected a positive number");
  const double sor = r.real(*solver, "sor", 1);
  if (!(sor > 0 && sor < 2)) r.reject(*solver, "sor", "expected a number in (0, 2)");
  const double regularization = r.real(*solver, "regularizationTerm", 0);
  if (!(regularization >= 0)) r.reject(*solver, "regularizationTerm", "expected 0 or more");
  r.key("lagrange.max-iterations", parse::text(iterations));
  r.key("lagrange.tolerance", parse::text(tolerance));
  r.key("lagrange.sor", parse::text(sor));
  r.key("lagrange.regularization", parse::text(regularization));
  r.key("lagrange.scale-tolerance", r.boolean(*solver, "scaleTolerance", true) ? "true" : "false");
  r.key("lagrange.all-verified", r.boolean(*solver, "allVerified", false) ? "true" : "false");
}

const RegisterSofaMapping fixedLagrangian({"FixedLagrangianConstraint"}, mapFixedLagrangian);
const RegisterSofaMapping linearSolverCorrection({"LinearSolverConstraintCorrection"},
                                                 mapLinearSolverCorrection);

}  // namespace eis::sofa
