// SOFA's Lagrangian constraint solving (master): FreeMotionAnimationLoop,
// BlockGaussSeidelConstraintSolver (GenericConstraintSolver's data), FixedLagrangianConstraint and
// LinearSolverConstraintCorrection as the keys of ode/free_motion_step.cpp and
// model/fixed_lagrangian_constraint.cpp.
#include "sofa_lagrangian.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "eis/core/error.hpp"
#include "eis/model/selection.hpp"
#include "sofa_grid.hpp"
#include "sofa_rigid_targets.hpp"
#include "sofa_selections.hpp"

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

// The ODE solver that integrates a state (io/sofa_walk.hpp; null: none).
const SofaObject* odeSolverOf(const SofaObject& state) {
  return integratingSolver(state.node);
}

// object1 or object2 of a pair interaction: the state linked, else the context's
// (PairInteractionConstraint::parse: "@./").
const SofaObject* pairState(const Reader& r, const SofaObject& o, const char* field) {
  if (o.field(field)) return linkedState(r, o, field);
  const SofaObject* state = contextState(o.node);
  if (!state) throw Error(o.where + ": " + o.type + ": no " + field + " and no state in its node");
  return state;
}

// The points of a MechanicalObject that nothing integrates: its position written in the scene,
// else its grid's points (MechanicalObject::init takes them).
std::vector<std::array<double, 3>> fixedPoints(Reader& r, const SofaObject& state) {
  for (const char* field : {"translation", "rotation", "scale3d", "scale", "dx", "dy", "dz", "rx",
                            "ry", "rz", "sx", "sy", "sz", "rest_position"})
    r.refuseIfGiven(state, field, "not supported on the points a constraint holds others to");
  const std::string tmpl = r.text(state, "template").value_or("Vec3d");
  if (tmpl != "Vec3d" && tmpl != "Vec3" && tmpl != "Vec3f")
    r.reject(state, "template", "only Vec3d (3D points) is supported");
  const SofaObject* grid = r.linked(state, "position");
  if (!grid)
    for (const SofaObject& o : state.node->objects)
      if (o.type == "RegularGridTopology" && !grid) grid = &o;
  if (state.field("position") && !isSofaLink(*state.field("position"))) grid = nullptr;
  std::vector<std::array<double, 3>> points;
  if (grid && grid->type == "RegularGridTopology") return regularGrid(r, *grid, true).points;
  const std::vector<double> xyz = r.reals(state, "position");
  if (xyz.empty() || xyz.size() % 3 != 0)
    r.reject(state, "position",
             "the points a constraint holds others to come from a position written in the scene "
             "or a RegularGridTopology");
  for (std::size_t i = 0; i < xyz.size(); i += 3)
    points.push_back({xyz[i], xyz[i + 1], xyz[i + 2]});
  return points;
}

// The one selection a field of indices stands for ("" when it is empty).
std::string oneSelection(Reader& r, const SofaObject& o, const char* field) {
  const std::vector<std::string> selections = selectionsOf(r, o, field, {});
  if (selections.size() > 1)
    r.reject(o, field,
             "several boxes or spheres: their points' pairs would not follow SOFA's order");
  return selections.empty() ? "" : selections.front();
}

// The points a selection picks, in SOFA's order (BoxROI's: by increasing index).
std::vector<std::array<double, 3>> selectedPoints(Reader& r, const SofaObject& o, const char* field,
                                                  const std::string& text,
                                                  const std::vector<std::array<double, 3>>& all) {
  const Selection s = parseSelectionValue(field, text, 0).selection;
  std::vector<std::array<double, 3>> out;
  if (s.kind == Selection::Kind::Indices) {
    for (std::int64_t i : s.indices) {
      if (i < 0 || std::size_t(i) >= all.size())
        r.reject(
            o, field,
            "index " + std::to_string(i) + " names no point of the " + std::to_string(all.size()));
      out.push_back(all[std::size_t(i)]);
    }
    return out;
  }
  for (const auto& p : all) {
    double r2 = 0;
    for (int d = 0; d < 3; ++d) r2 += (p[d] - s.centre[d]) * (p[d] - s.centre[d]);
    if (s.kind == Selection::Kind::All || (s.kind == Selection::Kind::Box && s.box.contains(p)) ||
        (s.kind == Selection::Kind::Sphere && r2 <= s.radius * s.radius))
      out.push_back(p);
  }
  return out;
}

// BilateralLagrangianConstraint.inl (Vec3): first_point and second_point empty by default,
// activate true, load 1, no rest_vector; keepOrientationDifference is for rigids only. Points of
// its object1's body to points of the same body, or to the points of a MechanicalObject that
// nothing integrates (held where they are: no correction moves them).
void mapBilateral(Reader& r, const SofaObject& o) {
  requireVec3(r, o);
  if (!r.boolean(o, "activate", true)) {
    r.note(o.label() + ": activate false: no rows");
    return;
  }
  if (r.real(o, "load", 1) != 1)
    r.reject(o, "load", "a constraint force scaled by a load factor is not supported");
  if (r.real(o, "endTime", -1) >= 0)
    r.reject(o, "endTime", "a constraint that ends is not supported");
  const SofaObject* first = pairState(r, o, "object1");
  const SofaObject* second = pairState(r, o, "object2");
  const std::string firstSelection = oneSelection(r, o, "first_point");
  const std::string secondSelection = oneSelection(r, o, "second_point");
  if (firstSelection.empty() || secondSelection.empty()) {
    r.note(o.label() + ": no first_point or second_point: no rows");
    return;
  }
  if (second == first) {
    r.refuseIfGiven(o, "rest_vector", "a rest vector between points of one body is not supported");
    r.key("lagrange.bilateral", firstSelection + " to " + secondSelection);
    return;
  }
  if (const SofaObject* solver = odeSolverOf(*second)) {
    // Under one ODE solver the two bodies are one solver.group, whose joined system holds the
    // rows; under two, W would join two systems' factorizations.
    if (solver != odeSolverOf(*first))
      throw Error(o.where + ": " + o.type + ": object2 (" + second->node->path() +
                  ") is integrated by another ODE solver than object1 (" + solver->where +
                  "): constraints between bodies of two solvers are not supported yet; between "
                  "bodies under one ODE solver, a body's points to its own, or to a "
                  "MechanicalObject that nothing integrates, are");
    r.refuseIfGiven(o, "rest_vector",
                    "a rest vector between points of two bodies is not supported");
    r.key("lagrange.bilateral",
          firstSelection + " to body " + second->node->path() + " " + secondSelection);
    return;
  }
  if (solvesConstraintInStep(r, odeSolverOf(*first)))
    r.refuseIfGiven(o, "rest_vector",
                    "with EulerImplicitSolver solveConstraint: SOFA's velocity violation adds the "
                    "rest vector where its position violation takes it off; not supported");
  // Points rigidly mapped from a frame that a LinearMovementProjectiveConstraint moves:
  // FreeMotionAnimationLoop projects the frame after each step and maps its points, which
  // the next step's violation reads (model/bilateral_lagrangian_constraint.hpp).
  const SofaObject* frame = unintegratedFrame(r, *second);
  std::string motion;
  std::vector<std::array<double, 3>> points = selectedPoints(
      r, o, "second_point", secondSelection,
      frame ? rigidlyMappedPoints(r, *second, *frame, motion) : fixedPoints(r, *second));
  if (!motion.empty() && solvesConstraintInStep(r, odeSolverOf(*first)))
    throw Error(o.where + ": " + o.type +
                ": object2's points move (a LinearMovementProjectiveConstraint on their frame): "
                "with EulerImplicitSolver solveConstraint their velocity would enter the "
                "violation; not supported");
  // getConstraintViolation: x2 - x1 - rest_vector[k], for the first pairs that have one.
  const std::vector<double> rest = r.reals(o, "rest_vector");
  if (rest.size() % 3 != 0) r.reject(o, "rest_vector", "expected 3 numbers per pair");
  for (std::size_t k = 0; k < rest.size() / 3 && k < points.size(); ++k)
    for (int d = 0; d < 3; ++d) points[k][d] -= rest[3 * k + std::size_t(d)];
  std::string value = firstSelection + " to points";
  for (const auto& p : points)
    for (double x : p) value += " " + parse::text(x);
  if (!motion.empty()) value += " moving " + motion;
  r.key("lagrange.bilateral", value);
}

// SlidingLagrangianConstraint.inl (Vec3): sliding_point, axis_1 and axis_2 0 by default. A point
// of object1's body sliding on the segment between two points of an object2 that nothing
// integrates (fixed: no correction moves them).
void mapSliding(Reader& r, const SofaObject& o) {
  requireVec3(r, o);
  const SofaObject* first = pairState(r, o, "object1");
  const SofaObject* second = pairState(r, o, "object2");
  if (second == first || odeSolverOf(*second))
    throw Error(o.where + ": " + o.type + ": object2 (" + second->node->path() +
                ") is integrated: a segment that moves is not supported (one of points that "
                "nothing integrates is)");
  const std::vector<std::array<double, 3>> points = fixedPoints(r, *second);
  const auto index = [&](const char* field) {
    const double i = r.real(o, field, 0);
    if (!(i >= 0) || i != std::floor(i) || i >= double(points.size()))
      r.reject(
          o, field,
          "expected the index of one of object2's " + std::to_string(points.size()) + " points");
    return points[std::size_t(i)];
  };
  const double point = r.real(o, "sliding_point", 0);
  if (!(point >= 0) || point != std::floor(point))
    r.reject(o, "sliding_point", "expected a node index");
  std::string value = "indices " + std::to_string(static_cast<long long>(point)) + " on";
  for (const auto& p : {index("axis_1"), index("axis_2")})
    for (double x : p) value += " " + parse::text(x);
  r.key("lagrange.sliding", value);
}

// GenericConstraintCorrection.cpp: complianceFactor 1, regularizationTerm 0; W and the
// correction through its linear solver (the body's), with the ODE solver's factors: the
// LinearSolverConstraintCorrection's.
void mapGenericCorrection(Reader& r, const SofaObject& o) {
  if (r.real(o, "complianceFactor", 1) != 1)
    r.reject(o, "complianceFactor", "a compliance factor other than 1 is not supported");
  r.key("lagrange.correction", "linear-solver");
  r.key("lagrange.correction-regularization", parse::text(r.real(o, "regularizationTerm", 0)));
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

// UncoupledConstraintCorrection.inl (Vec3): defaultCompliance 1e-5, compliance empty,
// useOdeSolverIntegrationFactors true, correctionPositionFactor 1, correctionVelocityFactor 1.
// init: a compliance list of another length than the points gives way to defaultCompliance, or
// to the list's first value when defaultCompliance is not set; a list of one value per point
// would be a compliance per node.
void mapUncoupledCorrection(Reader& r, const SofaObject& o) {
  requireVec3(r, o);
  double compliance = r.real(o, "defaultCompliance", 1e-5);
  const std::vector<double> list = r.reals(o, "compliance");
  if (list.size() > 1)
    r.reject(o, "compliance", "a compliance per node is not supported (defaultCompliance is)");
  if (list.size() == 1 && !r.given(o, "defaultCompliance")) compliance = list[0];
  if (!(compliance > 0))
    r.reject(o, r.given(o, "defaultCompliance") ? "defaultCompliance" : "compliance",
             "a compliance of zero or less makes the constraint resolution diverge (SOFA refuses "
             "it)");
  if (!r.given(o, "defaultCompliance") && list.empty())
    r.note(o.label() + ": neither defaultCompliance nor compliance: SOFA's default 1e-05");
  r.key("lagrange.correction", "uncoupled");
  r.key("lagrange.compliance", parse::text(compliance));
  const bool ode = r.boolean(o, "useOdeSolverIntegrationFactors", true);
  r.key("lagrange.ode-factors", ode ? "true" : "false");
  r.key("lagrange.correction-position-factor",
        parse::text(r.real(o, "correctionPositionFactor", 1)));
  r.key("lagrange.correction-velocity-factor",
        parse::text(r.real(o, "correctionVelocityFactor", 1)));
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

std::set<const SofaObject*> bilateralTargets(const Reader& reader, const Walk& walk) {
  std::set<const SofaObject*> states;
  for (const Body& body : walk.bodies)
    for (const SofaObject* o : body.components)
      if ((o->type == "BilateralLagrangianConstraint" ||
           o->type == "SlidingLagrangianConstraint") &&
          o->field("object2"))
        states.insert(linkedState(reader, *o, "object2"));
  return states;
}

const RegisterSofaMapping bilateral({"BilateralLagrangianConstraint"}, mapBilateral);
const RegisterSofaMapping sliding({"SlidingLagrangianConstraint"}, mapSliding);
const RegisterSofaMapping genericCorrection({"GenericConstraintCorrection"}, mapGenericCorrection);
const RegisterSofaMapping fixedLagrangian({"FixedLagrangianConstraint"}, mapFixedLagrangian);
const RegisterSofaMapping uncoupledCorrection({"UncoupledConstraintCorrection"},
                                              mapUncoupledCorrection);
const RegisterSofaMapping linearSolverCorrection({"LinearSolverConstraintCorrection"},
                                                 mapLinearSolverCorrection);

}  // namespace eis::sofa
