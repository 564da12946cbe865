// SOFA's projective constraints as the keys of our fixed-constraint and prescribed-motion
// (model/fixed_constraint.cpp, model/prescribed_motion.cpp). The names before SOFA v24.06
// (FixedConstraint, ...) are mapped as the new ones.
#include <array>
#include <cmath>

#include "sofa_reader.hpp"
#include "sofa_selections.hpp"

namespace eis::sofa {

namespace {

// FixedPlaneProjectiveConstraint.inl: projectResponse takes dir (dir . dx) off each selected
// node's dx, which for a unit axis fixes that axis; the nodes are `indices` and, when dmin !=
// dmax, those whose position at init has dmin < p . dir < dmax (isPointInPlane, strict: the
// bounds are moved to the next doubles inside). An assembled system (MatrixLinearSystem.inl,
// applyProjectiveConstraints) takes applyConstraint(ZeroDirichletCondition*), which discards the
// rows and columns of the components where dir is not zero: that axis alone, as
// projectResponse; its projectMatrix, which clears whole rows, is called by no solver of master.
void mapFixedPlane(Reader& r, const SofaObject& o) {
  const std::vector<double> dir = r.reals(o, "direction");
  if (dir.size() != 3) r.reject(o, "direction", "expected 3 numbers");
  int axis = -1;
  for (int k = 0; k < 3; ++k)
    if (std::abs(dir[k]) == 1 && dir[(k + 1) % 3] == 0 && dir[(k + 2) % 3] == 0) axis = k;
  if (axis < 0)
    r.reject(o, "direction",
             "a unit axis (1 0 0, 0 -1 0, ...) is supported; another direction needs a projection "
             "along it, not implemented");
  const std::string flags = axis == 0 ? "1 0 0 " : axis == 1 ? "0 1 0 " : "0 0 1 ";
  for (const std::string& s : selectionsOf(r, o, "indices", {}))
    r.key("constraint.partial-fixed", flags + s);
  const double dmin = r.real(o, "dmin", 0), dmax = r.real(o, "dmax", 0);
  if (dmin == dmax) return;
  const double sign = dir[axis];
  const double low = std::nextafter(sign > 0 ? dmin : -dmax, HUGE_VAL);
  const double high = std::nextafter(sign > 0 ? dmax : -dmin, -HUGE_VAL);
  if (low > high) return;
  std::array<double, 6> box{-1e308, -1e308, -1e308, 1e308, 1e308, 1e308};
  box[axis] = low;
  box[3 + axis] = high;
  std::string text = "box";
  for (double b : box) text += " " + parse::text(b);
  r.key("constraint.partial-fixed", flags + text);
}

// FixedProjectiveConstraint.inl: indices defaults to {0}, fixAll false;
// PartialFixedProjectiveConstraint.inl: the same, and fixedDirections "1 1 1".
void mapFixed(Reader& r, const SofaObject& o) {
  const bool partial =
      o.type == "PartialFixedProjectiveConstraint" || o.type == "PartialFixedConstraint";
  const std::vector<std::string> selections = r.boolean(o, "fixAll", false)
                                                  ? std::vector<std::string>{"all"}
                                                  : selectionsOf(r, o, "indices", {"indices 0"});
  std::string flags;
  if (partial) {
    std::vector<double> directions = r.reals(o, "fixedDirections");
    if (!r.given(o, "fixedDirections")) directions = {1, 1, 1};
    if (directions.size() != 3) r.reject(o, "fixedDirections", "expected 3 flags");
    for (double d : directions) flags += (d != 0 ? "1 " : "0 ");
  }
  for (const std::string& s : selections)
    r.key(partial ? "constraint.partial-fixed" : "constraint.fixed", flags + s);
}

// LinearMovementProjectiveConstraint.inl (SOFA master): indices {0}, relativeMovements true.
// findKeyTimes acts only while the time lies in [first key time, last key time), and
// DefaultAnimationLoop projects before it advances the clock: constraint.linear-movement's
// default rule, sofa, does both.
void mapLinearMovement(Reader& r, const SofaObject& o) {
  if (!r.boolean(o, "relativeMovements", true))
    r.reject(o, "relativeMovements", "absolute movements are not supported yet");
  const std::vector<double> times = r.reals(o, "keyTimes");
  const std::vector<double> moves = r.reals(o, "movements");
  if (times.empty() || moves.size() != 3 * times.size())
    r.reject(o, "movements", "expected one displacement (3 numbers) per key time");
  std::string frames;
  for (std::size_t i = 0; i < times.size(); ++i)
    frames += parse::text(times[i]) + " " + joined(moves, 3 * i, 3) + " ";
  for (const std::string& s : selectionsOf(r, o, "indices", {"indices 0"}))
    r.key("constraint.linear-movement", frames + ": " + s);
}

}  // namespace

const RegisterSofaMapping fixedPlane({"FixedPlaneProjectiveConstraint", "FixedPlaneConstraint"},
                                     mapFixedPlane);
const RegisterSofaMapping fixed({"FixedProjectiveConstraint", "FixedConstraint",
                                 "PartialFixedProjectiveConstraint", "PartialFixedConstraint"},
                                mapFixed);
const RegisterSofaMapping linearMovement({"LinearMovementProjectiveConstraint",
                                          "LinearMovementConstraint"},
                                         mapLinearMovement);

}  // namespace eis::sofa
