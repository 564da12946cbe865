// What SOFA's index and vector fields become in our keys' grammar (io/sofa_selections.hpp).
#include "sofa_selections.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "sofa_diffusion.hpp"
#include "sofa_low_dimension.hpp"
#include "sofa_subset_multi_mapping.hpp"

namespace eis::sofa {

std::string joined(const std::vector<double>& values, std::size_t from, std::size_t count) {
  std::string text;
  for (std::size_t i = from; i < from + count; ++i)
    text += (i == from ? "" : " ") + parse::text(values[i]);
  return text;
}

std::string vector3(const Reader& reader, const SofaObject& o, const std::string& field) {
  const std::vector<double> v = reader.reals(o, field);
  if (v.size() != 3) reader.reject(o, field, "expected 3 numbers");
  return joined(v, 0, 3);
}

std::string indexList(const std::vector<long long>& indices) {
  std::string text = "indices";
  for (long long i : indices) text += " " + std::to_string(i);
  return text;
}

std::vector<std::array<double, 6>> alignedBoxes(const Reader& reader, const SofaObject& roi) {
  std::vector<double> flat = reader.reals(roi, "box");
  if (!reader.given(roi, "box")) flat = {0, 0, 0, 1, 1, 1};
  if (flat.empty() || flat.size() % 6 != 0) reader.reject(roi, "box", "expected 6 numbers per box");
  std::vector<std::array<double, 6>> boxes;
  for (std::size_t b = 0; b < flat.size(); b += 6) {
    std::array<double, 6> box{flat[b],     flat[b + 1], flat[b + 2],
                              flat[b + 3], flat[b + 4], flat[b + 5]};
    for (std::size_t d = 0; d < 3; ++d)
      if (box[d] > box[d + 3]) std::swap(box[d], box[d + 3]);
    boxes.push_back(box);
  }
  return boxes;
}

bool inAlignedBoxes(const std::vector<std::array<double, 6>>& boxes,
                    const std::array<double, 3>& p) {
  for (const auto& box : boxes) {
    bool inside = true;
    for (std::size_t d = 0; d < 3; ++d) inside = inside && !(p[d] < box[d] || p[d] > box[d + 3]);
    if (inside) return true;
  }
  return false;
}

std::optional<std::string> axisSlab(int axis, double sign, double dmin, double dmax) {
  const double low = std::nextafter(sign > 0 ? dmin : -dmax, HUGE_VAL);
  const double high = std::nextafter(sign > 0 ? dmax : -dmin, -HUGE_VAL);
  if (low > high) return std::nullopt;
  std::array<double, 6> box{-1e308, -1e308, -1e308, 1e308, 1e308, 1e308};
  box[axis] = low;
  box[3 + axis] = high;
  std::string text = "box";
  for (double b : box) text += " " + parse::text(b);
  return text;
}

namespace {

// BaseROI.inl: a ROI without `position` tests its context's MechanicalObject's rest_position,
// and so do our selections; `position` linked to that same field (a scene may write it out) is
// the same set. Another source (the deformed positions, which BaseROI's doUpdate re-tests at
// every step, or a loader's) is refused.
// For a ROI's triangleIndices read by a field of a boundary sub-mesh (a child node with no
// state of its own), the body's state is the nearest up the nodes, and its `position` is taken
// at rest too: said once, for SOFA's ROI re-tests the moving positions at every step.
void refuseOtherPositions(Reader& reader, const SofaObject& constraint, const SofaObject& roi,
                          bool triangles) {
  const std::string* position = roi.field("position");
  if (!position) position = roi.field("rest_position");
  if (!position) return;
  const SofaObject* state = nullptr;
  for (const SofaNode* node = constraint.node; node && !state;
       node = triangles ? node->parent : nullptr)
    for (const SofaObject& object : node->objects)
      if (object.type == "MechanicalObject" && !state) state = &object;
  if (isSofaLink(*position)) {
    const SofaLinkTarget target =
        reader.scene().resolve(*roi.node, *position, reader.where(roi, "position"), &roi);
    if (state && target.object == state && target.field == "rest_position") return;
    // A Vec1 temperature's ROI on the positions of its geometry (io/sofa_diffusion), a state no
    // solver moves: its rest positions, our mesh.
    if (state && target.object && target.object == temperatureGeometry(reader, *state) &&
        !integratingSolver(target.object->node))
      return;
    if (triangles && state && target.object == state && target.field == "position") {
      reader.warnOnce(reader.where(roi, "position") + ": " + roi.type +
                      "'s triangleIndices are chosen once, at the rest positions (SOFA chooses "
                      "them again from the moving positions at every step)");
      return;
    }
  }
  reader.refuseIfGiven(roi, "position",
                       "a ROI tests the rest positions of its body's "
                       "MechanicalObject here (position absent or \"@that.rest_position\")");
}

}  // namespace

std::vector<std::string> selectionsOf(Reader& reader, const SofaObject& o, const std::string& field,
                                      const std::vector<std::string>& fallback,
                                      const std::string& roiField) {
  std::string linkedField;
  if (const SofaObject* merge = reader.linked(o, field, &linkedField);
      merge && linkedField == "output" && merge->type == "MergeVectors" && roiField == "indices") {
    // MergeVectors.inl (doUpdate): output = input1, ..., input<nbInputs> one after the other
    // (nbInputs 2 by default); the union of their selections.
    const double count = reader.real(*merge, "nbInputs", 2);
    if (count < 0 || count != std::floor(count))
      reader.reject(*merge, "nbInputs", "expected a whole number >= 0");
    std::vector<std::string> selections;
    for (int i = 1; i <= int(count); ++i) {
      const std::string input = "input" + std::to_string(i);
      std::string inputField;
      const SofaObject* source = reader.linked(*merge, input, &inputField);
      const bool computed =
          source && ((inputField == "indices" &&
                      (source->type == "BoxROI" || source->type == "SphereROI" ||
                       source->type == "PlaneROI" || source->type == "PairBoxROI")) ||
                     (inputField == "output" && source->type == "MergeVectors"));
      if (source && !computed && !reader.given(*merge, input))
        reader.reject(*merge, input,
                      "merged here only when written in the scene or a BoxROI's, SphereROI's, "
                      "PlaneROI's or PairBoxROI's indices");
      for (std::string& s : selectionsOf(reader, *merge, input, {}))
        selections.push_back(std::move(s));
    }
    return selections;
  }
  if (const SofaObject* roi = reader.linked(o, field, &linkedField);
      roi && linkedField == roiField &&
      (roi->type == "BoxROI" || roi->type == "SphereROI" || roi->type == "PlaneROI" ||
       roi->type == "PairBoxROI" || roi->type == "ProximityROI")) {
    std::vector<std::string> selections;
    // The points of a Vec1 or Vec2 state have d coordinates (io/sofa_low_dimension); a Vec1
    // temperature's ROI tests its geometry's 3D points (io/sofa_diffusion).
    int dimensions = stateDimensions(reader, o.node);
    for (const SofaObject& state : o.node->objects)
      if (const SofaObject* geometry =
              state.type == "MechanicalObject" ? temperatureGeometry(reader, state) : nullptr) {
        const std::string* position = roi->field("position");
        if (!position || !isSofaLink(*position) ||
            reader.scene()
                    .resolve(*roi->node, *position, reader.where(*roi, "position"), roi)
                    .object != geometry)
          reader.reject(*roi, "position",
                        "a ROI of the Vec1 temperature " + state.label() +
                            " must test its geometry's points, " + geometry->label());
        dimensions = 3;
      }
    if (dimensions < 3 && roi->type != "BoxROI")
      reader.reject(o, field, roi->type + " on a Vec1 or Vec2 state is not supported (BoxROI is)");
    if (roi->type == "BoxROI") {
      std::vector<double> boxes = reader.reals(*roi, "box");
      if (!reader.given(*roi, "box") && !reader.given(*roi, "orientedBox"))
        boxes = {0, 0, 0, 1, 1, 1};
      if (boxes.size() % 6 != 0) reader.reject(*roi, "box", "expected 6 numbers per box");
      // BoxROI::isPointInAlignedBox tests the point's d coordinates alone.
      for (std::size_t b = 0; b < boxes.size(); b += 6)
        for (int axis = dimensions; axis < 3; ++axis) {
          boxes[b + axis] = -1e308;
          boxes[b + 3 + axis] = 1e308;
        }
      for (std::size_t b = 0; b < boxes.size(); b += 6)
        selections.push_back("box " + joined(boxes, b, 6));
      const std::vector<double> oriented = reader.reals(*roi, "orientedBox");
      if (oriented.size() % 10 != 0)
        reader.reject(*roi, "orientedBox", "expected 10 numbers per box (p0 p1 p2 depth)");
      // BoxROI::isPointInROI tests oriented boxes in 3D only: none holds a Vec1 or Vec2 point.
      for (std::size_t b = 0; b < oriented.size() && dimensions == 3; b += 10)
        selections.push_back("oriented-box " + joined(oriented, b, 10));
    } else if (roi->type == "ProximityROI") {
      // ProximityROI.inl: no centers, no radii or N = 0 (its default) leave the indices as the
      // constructor set them, {0}; missing radii are the last one; extra radii are unused.
      const std::vector<double> centers = reader.reals(*roi, "centers");
      std::vector<double> radii = reader.reals(*roi, "radii");
      const double n = reader.real(*roi, "N", 0);
      if (centers.size() % 3 != 0) reader.reject(*roi, "centers", "expected 3 numbers per center");
      if (n < 0 || n != std::floor(n)) reader.reject(*roi, "N", "expected a whole number >= 0");
      if (centers.empty() || radii.empty() || n == 0) {
        selections.push_back("indices 0");
      } else {
        radii.resize(std::max(radii.size(), centers.size() / 3), radii.back());
        std::string text = "nearest " + parse::text(n);
        for (std::size_t c = 0; c < centers.size() / 3; ++c)
          text += " " + joined(centers, 3 * c, 3) + " " + parse::text(radii[c]);
        selections.push_back(text);
      }
    } else if (roi->type == "PairBoxROI") {
      // PairBoxROI.inl (doUpdate): an all-zero box leaves the indices as they were.
      const std::vector<double> outer = reader.reals(*roi, "inclusiveBox");
      const std::vector<double> inner = reader.reals(*roi, "includedBox");
      for (const auto& [field, box] : {std::pair{"inclusiveBox", &outer}, {"includedBox", &inner}})
        if (box->size() != 6 ||
            std::all_of(box->begin(), box->end(), [](double b) { return b == 0; }))
          reader.reject(*roi, field,
                        "expected 6 numbers, not all zero (SOFA then computes no indices)");
      selections.push_back("pair-box " + joined(outer, 0, 6) + " " + joined(inner, 0, 6));
    } else if (roi->type == "PlaneROI") {
      std::vector<double> planes = reader.reals(*roi, "plane");
      if (!reader.given(*roi, "plane")) planes.assign(10, 0);
      if (planes.size() % 10 != 0)
        reader.reject(*roi, "plane", "expected 10 numbers per plane (p0 p1 p2 depth)");
      for (std::size_t b = 0; b < planes.size(); b += 10)
        selections.push_back("plane " + joined(planes, b, 10));
    } else {
      const std::vector<double> centers = reader.reals(*roi, "centers");
      const std::vector<double> radii = reader.reals(*roi, "radii");
      if (centers.empty() || centers.size() % 3 != 0 || radii.size() != centers.size() / 3)
        reader.reject(*roi, "centers", "expected 3 numbers per center and one radius each");
      for (std::size_t s = 0; s < radii.size(); ++s)
        selections.push_back("sphere " + joined(centers, 3 * s, 3) + " " + parse::text(radii[s]));
    }
    refuseOtherPositions(reader, o, *roi, roiField == "triangleIndices");
    return selections;
  }
  if (const auto pairs = nearestPointIndices(reader, o, field); pairs && roiField == "indices")
    return pairs->empty() ? std::vector<std::string>{}
                          : std::vector<std::string>{indexList(*pairs)};
  if (const SofaObject* engine = reader.linked(o, field);
      engine && engine->type == "SubsetTopology")
    reader.reject(o, field, "a SubsetTopology's outputs are read here only as a body's mesh");
  if (!reader.given(o, field)) return fallback;
  const std::vector<long long> indices = reader.integers(o, field);
  if (indices.empty()) return {};
  return {indexList(indices)};
}

}  // namespace eis::sofa
