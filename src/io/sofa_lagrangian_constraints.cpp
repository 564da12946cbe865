// SOFA's Lagrangian constraints and constraint corrections (master) as our lagrange.* keys of
// model/fixed_lagrangian_constraint.cpp and model/bilateral_lagrangian_constraint.cpp:
// FixedLagrangianConstraint, BilateralLagrangianConstraint and SlidingLagrangianConstraint between
// a body's points or to points that nothing integrates, and the Linear solver, Generic and
// Uncoupled constraint corrections. The loop and constraint solver: io/sofa_lagrangian.cpp.
#include "sofa_lagrangian.hpp"

#include <array>
#include <cmath>

#include "eis/core/error.hpp"
#include "eis/model/selection.hpp"
#include "sofa_grid.hpp"
#include "sofa_rigid_targets.hpp"
#include "sofa_selections.hpp"

namespace eis::sofa {

namespace {

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
  requireVec3(r, state);
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
