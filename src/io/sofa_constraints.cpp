// SOFA's projective constraints as the keys of our fixed-constraint and prescribed-motion
// (model/fixed_constraint.cpp, model/prescribed_motion.cpp). The names before SOFA v24.06
// (FixedConstraint, ...) are mapped as the new ones.
#include <array>
#include <cmath>

#include "sofa_low_dimension.hpp"
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
  if (const std::optional<std::string> slab = axisSlab(axis, dir[axis], dmin, dmax))
    r.key("constraint.partial-fixed", flags + *slab);
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
  // On a Vec1 temperature (io/sofa_diffusion), one number a key time: u's movement.
  const std::size_t d = stateDimensions(r, o.node) == 1 ? 1 : 3;
  if (times.empty() || moves.size() != d * times.size())
    r.reject(o, "movements",
             "expected one displacement (" + std::to_string(d) + " number" + (d == 1 ? "" : "s") +
                 ") per key time");
  std::string frames;
  for (std::size_t i = 0; i < times.size(); ++i)
    frames += parse::text(times[i]) + " " + joined(moves, d * i, d) + (d == 1 ? " 0 0 " : " ");
  for (const std::string& s : selectionsOf(r, o, "indices", {"indices 0"}))
    r.key("constraint.linear-movement", frames + ": " + s);
}

// PlaneProjectiveConstraint.inl, LineProjectiveConstraint.inl, PointProjectiveConstraint.inl
// (master): indices {0}; origin, normal, direction and point default to zero. The normal and
// direction are normalized by constraint.plane and constraint.line as SOFA's reinit does.
void mapNodeProjector(Reader& r, const SofaObject& o) {
  const bool plane = o.type == "PlaneProjectiveConstraint" || o.type == "ProjectToPlaneConstraint";
  const bool line = o.type == "LineProjectiveConstraint" || o.type == "ProjectToLineConstraint";
  auto vector = [&](const char* field) {
    if (!r.given(o, field)) return std::string("0 0 0");
    const std::vector<double> values = r.reals(o, field);
    if (values.size() != 3) r.reject(o, field, "expected 3 numbers");
    return joined(values, 0, 3);
  };
  std::string numbers, key = "constraint.point";
  if (plane || line) {
    numbers = vector("origin") + " " + vector(plane ? "normal" : "direction") + " ";
    key = plane ? "constraint.plane" : "constraint.line";
  } else {
    numbers = vector("point") + " ";
  }
  const std::vector<std::string> selections = !plane && !line && r.boolean(o, "fixAll", false)
                                                  ? std::vector<std::string>{"all"}
                                                  : selectionsOf(r, o, "indices", {"indices 0"});
  for (const std::string& s : selections) r.key(key, numbers + s);
}

// OscillatorProjectiveConstraint.inl: each oscillator is "index mean(3) amplitude(3) pulsation
// phase".
void mapOscillator(Reader& r, const SofaObject& o) {
  const std::vector<double> values = r.reals(o, "oscillators");
  if (values.size() % 9 != 0)
    r.reject(o, "oscillators",
             "expected 9 numbers an oscillator: index, mean, amplitude, "
             "pulsation, phase");
  for (std::size_t i = 0; i < values.size(); i += 9) {
    if (values[i] < 0 || values[i] != std::floor(values[i]))
      r.reject(o, "oscillators", "an index must be a whole number >= 0");
    r.key("constraint.oscillator", joined(values, i + 1, 8) + " indices " + parse::text(values[i]));
  }
}

// AffineMovementProjectiveConstraint.inl: indices empty, beginConstraintTime 0,
// endConstraintTime 20, rotation the zero matrix (Mat's default), translation zero; a matrix
// is read as Mat's operator>> reads it ("[a b c,d e f,g h i]" or nine numbers).
void mapAffineMovement(Reader& r, const SofaObject& o) {
  std::string rotation = "0 0 0 0 0 0 0 0 0";
  if (const auto text = r.text(o, "rotation")) {
    std::string plain = *text;
    for (char& c : plain)
      if (c == '[' || c == ']' || c == ',') c = ' ';
    std::vector<double> values;
    try {
      values = parse::reals("rotation", plain, 9);
    } catch (const Error&) {
      r.reject(o, "rotation", "expected a 3x3 matrix");
    }
    rotation = joined(values, 0, 9);
  }
  std::string translation = "0 0 0";
  if (r.given(o, "translation")) {
    const std::vector<double> values = r.reals(o, "translation");
    if (values.size() != 3) r.reject(o, "translation", "expected 3 numbers");
    translation = joined(values, 0, 3);
  }
  const std::string numbers = parse::text(r.real(o, "beginConstraintTime", 0)) + " " +
                              parse::text(r.real(o, "endConstraintTime", 20)) + " " + rotation +
                              " " + translation + " ";
  for (const std::string& s : selectionsOf(r, o, "indices", {}))
    r.key("constraint.affine-movement", numbers + s);
}

// PatchTestMovementProjectiveConstraint.inl: beginConstraintTime 0, endConstraintTime 20; the
// corners are found among constrainedPoints, read here as the positions of the nodes `indices`
// selects (the same ROI's pointsInROI and indices). meshIndices only feeds getFinalPositions,
// which the step never calls. cornerMovements is a vector of Vec3, read as SOFA's vector::read
// reads it: whole triples while they last, an incomplete last one dropped. computeInterpolated
// Displacement reads the first 4 (points in one plane z = constant) or 8 of them.
void mapPatchTest(Reader& r, const SofaObject& o) {
  std::string pointsField, indicesField;
  const SofaObject* points = r.linked(o, "constrainedPoints", &pointsField);
  const SofaObject* indices = r.linked(o, "indices", &indicesField);
  if (!points || points != indices || pointsField != "pointsInROI" || indicesField != "indices")
    r.reject(o, "constrainedPoints",
             "read only as the pointsInROI of the ROI whose indices are `indices`");
  const std::vector<double> numbers = r.reals(o, "cornerMovements");
  const std::size_t movements = numbers.size() / 3;
  const std::string count = std::to_string(numbers.size()) + " numbers, which SOFA reads as " +
                            std::to_string(movements) + " movement" + (movements == 1 ? "" : "s") +
                            (numbers.size() % 3 ? " (an incomplete last one dropped)" : "");
  if (movements < 4)
    r.reject(o, "cornerMovements",
             count +
                 ": it reads 4 (8 for points not in one plane z = constant), past the end "
                 "of its list");
  if (numbers.size() != 12 && numbers.size() != 24)
    r.note(o.label() + ": cornerMovements: " + count + "; the first " +
           (movements < 8 ? "4 are read (points in one plane z = constant: 8 would be read past "
                            "the end of the list otherwise)"
                          : std::string("8 are read (4 for points in one plane z = constant)")));
  const std::size_t used = movements < 8 ? 12 : 24;
  const std::string value = parse::text(r.real(o, "beginConstraintTime", 0)) + " " +
                            parse::text(r.real(o, "endConstraintTime", 20)) + " " +
                            joined(numbers, 0, used) + " ";
  for (const std::string& s : selectionsOf(r, o, "indices", {}))
    r.key("constraint.patch-test", value + s);
}

}  // namespace

const RegisterSofaMapping nodeProjector({"PlaneProjectiveConstraint", "ProjectToPlaneConstraint",
                                         "LineProjectiveConstraint", "ProjectToLineConstraint",
                                         "PointProjectiveConstraint", "ProjectToPointConstraint"},
                                        mapNodeProjector);
const RegisterSofaMapping oscillator({"OscillatorProjectiveConstraint", "OscillatorConstraint"},
                                     mapOscillator);
const RegisterSofaMapping affineMovement({"AffineMovementProjectiveConstraint",
                                          "AffineMovementConstraint"},
                                         mapAffineMovement);
const RegisterSofaMapping patchTest({"PatchTestMovementProjectiveConstraint"}, mapPatchTest);
const RegisterSofaMapping fixedPlane({"FixedPlaneProjectiveConstraint", "FixedPlaneConstraint"},
                                     mapFixedPlane);
const RegisterSofaMapping fixed({"FixedProjectiveConstraint", "FixedConstraint",
                                 "PartialFixedProjectiveConstraint", "PartialFixedConstraint"},
                                mapFixed);
const RegisterSofaMapping linearMovement({"LinearMovementProjectiveConstraint",
                                          "LinearMovementConstraint"},
                                         mapLinearMovement);

}  // namespace eis::sofa
