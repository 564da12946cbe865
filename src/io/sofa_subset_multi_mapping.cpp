// SOFA's SubsetMultiMapping (Sofa/Component/Mapping/Linear) with springs in its child, and the
// NearestPointROI engine (Sofa/Component/Engine/Select) whose pairs such a child often picks.
// The child's point i is point k_i of input p_i (model/subset_multi_mapping.hpp): a spring between
// two child points is, through J^T f and J^T K J, the same spring between the parent points they
// pick, which our interaction springs are (model/interaction_springs, solved with the group of the
// inputs' ODE solver).
#include "sofa_subset_multi_mapping.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <set>
#include <utility>

#include "eis/core/error.hpp"
#include "eis/model/subset_multi_mapping.hpp"
#include "sofa_grid.hpp"
#include "sofa_selections.hpp"

namespace eis::sofa {

namespace {

using Points = std::vector<Vec3>;

bool isVec3(const std::string& t) {
  return t == "Vec3d" || t == "Vec3" || t == "Vec3f";
}

// A MechanicalObject's points as MechanicalObject::init takes them: its position written in the
// scene, else its topology's points (a RegularGridTopology's, or a position written on the
// topology); rest = position.
Points statePoints(const Reader& r, const SofaObject& state) {
  if (!isVec3(r.text(state, "template").value_or("Vec3d")))
    r.reject(state, "template", "only Vec3d states are read here");
  for (const char* field :
       {"translation", "rotation", "scale3d", "scale", "dx", "dy", "dz", "rx", "ry", "rz", "sx",
        "sy", "sz", "rest_position", "translation2", "rotation2"})
    r.refuseIfGiven(state, field,
                    "not supported on a state a SubsetMultiMapping or NearestPointROI reads");
  const std::string* position = state.field("position");
  const SofaObject* grid = position && isSofaLink(*position) ? r.linked(state, "position")
                           : position                        ? nullptr
                                                             : topologyOf(state.node);
  Points points;
  if (grid && grid->type == "RegularGridTopology") {
    for (const auto& p : regularGrid(r, *grid, true).points) points.push_back(p);
    return points;
  }
  const SofaObject& source = position || !grid ? state : *grid;
  const std::vector<double> xyz = r.reals(source, "position");
  if (xyz.empty() || xyz.size() % 3 != 0)
    r.reject(state, "position",
             "a state a SubsetMultiMapping or NearestPointROI reads takes its points from a "
             "position written in the scene or a RegularGridTopology");
  for (std::size_t i = 0; i < xyz.size(); i += 3)
    points.push_back({xyz[i], xyz[i + 1], xyz[i + 2]});
  return points;
}

// BoxROI.inl: the indices (increasing) of the points in any aligned box (min and max swapped
// where min > max; p >= min and p <= max in each coordinate; "0 0 0 1 1 1" when no box is given).
std::vector<long long> boxIndices(const Reader& r, const SofaObject& roi, const SofaObject& state,
                                  const Points& points) {
  r.refuseIfGiven(roi, "orientedBox", "oriented boxes are not read for a NearestPointROI's input");
  const std::string* position = roi.field("position");
  const SofaLinkTarget target =
      position && isSofaLink(*position)
          ? r.scene().resolve(*roi.node, *position, r.where(roi, "position"), &roi)
          : SofaLinkTarget{};
  const bool onState = position ? target.object == &state && (target.field == "position" ||
                                                              target.field == "rest_position")
                                : contextState(roi.node) == &state;
  if (!onState)
    r.reject(roi, "position",
             "a NearestPointROI's input indices from a BoxROI of " + state.label() +
                 "'s points (its position or rest_position) are read; another is not");
  const std::vector<std::array<double, 6>> boxes = alignedBoxes(r, roi);
  std::vector<long long> indices;
  for (std::size_t i = 0; i < points.size(); ++i)
    if (inAlignedBoxes(boxes, points[i])) indices.push_back(static_cast<long long>(i));
  return indices;
}

// A NearestPointROI's inputIndices1 or inputIndices2: written, or a BoxROI's indices; empty means
// every point (computeNearestPointMaps).
std::vector<long long> inputIndices(const Reader& r, const SofaObject& roi, const char* field,
                                    const SofaObject& state, const Points& points) {
  std::string linkedField;
  const SofaObject* source = r.linked(roi, field, &linkedField);
  std::vector<long long> indices;
  if (source && source->type == "BoxROI" && linkedField == "indices")
    indices = boxIndices(r, *source, state, points);
  else if (source && !r.given(roi, field))
    r.reject(roi, field, "read when written in the scene or a BoxROI's indices");
  else
    indices = r.integers(roi, field);
  for (long long i : indices)
    if (i < 0 || std::size_t(i) >= points.size())
      r.reject(roi, field,
               "index " + std::to_string(i) + " names no point of the " +
                   std::to_string(points.size()) + " of " + state.label());
  if (indices.empty())
    for (std::size_t i = 0; i < points.size(); ++i) indices.push_back(static_cast<long long>(i));
  return indices;
}

struct NearestPairs {
  std::vector<long long> indices1, indices2, edges, indexPairs;
};

// NearestPointROI.inl (computeNearestPointMaps): for each input point i2 of object2 in order, the
// first input point i1 of object1 at the smallest squared distance |x2 - x1|^2; kept when that is
// below radius^2 (radius 1 by default): indices1 += i1, indices2 += i2, edges += (2 i2, 2 i2 + 1),
// indexPairs += 0 i1 1 i2. The points are the rest positions at init (useRestPosition true), which
// are the positions here.
NearestPairs nearestPairs(const Reader& r, const SofaObject& roi) {
  if (!isVec3(r.text(roi, "template").value_or("Vec3d")))
    r.reject(roi, "template", "only Vec3d is supported");
  for (const char* field : {"object1", "object2"})
    if (!roi.field(field))
      r.reject(roi, field, "not given: a NearestPointROI pairs two linked states here");
  const SofaObject& first = *linkedState(r, roi, "object1");
  const SofaObject& second = *linkedState(r, roi, "object2");
  const double radius = r.real(roi, "radius", 1);
  if (!(radius > 0)) r.reject(roi, "radius", "must be > 0 (SOFA computes no pairs)");
  const Points x1 = statePoints(r, first), x2 = statePoints(r, second);
  const std::vector<long long> filter1 = inputIndices(r, roi, "inputIndices1", first, x1);
  const std::vector<long long> filter2 = inputIndices(r, roi, "inputIndices2", second, x2);
  const auto squared = [](const Vec3& a, const Vec3& b) {
    const double u = b[0] - a[0], v = b[1] - a[1], w = b[2] - a[2];
    return u * u + v * v + w * w;
  };
  NearestPairs out;
  for (long long i2 : filter2) {
    const Vec3& p2 = x2[std::size_t(i2)];
    long long i1 = filter1.front();
    for (long long candidate : filter1)
      if (squared(x1[std::size_t(candidate)], p2) < squared(x1[std::size_t(i1)], p2))
        i1 = candidate;
    if (!(squared(x1[std::size_t(i1)], p2) < radius * radius)) continue;
    out.indices1.push_back(i1);
    out.indices2.push_back(i2);
    out.edges.insert(out.edges.end(), {2 * i2, 2 * i2 + 1});
    out.indexPairs.insert(out.indexPairs.end(), {0, i1, 1, i2});
  }
  return out;
}

// The NearestPointROI `o`'s `field` links to, with the output it names; nullptr when none.
const SofaObject* nearestRoi(const Reader& r, const SofaObject& o, const std::string& field,
                             std::string& output) {
  const SofaObject* roi = r.linked(o, field, &output);
  return roi && roi->type == "NearestPointROI" ? roi : nullptr;
}

// A field of indices: written, or the NearestPointROI output `output` it links to.
std::vector<long long> indicesOf(const Reader& r, const SofaObject& o, const std::string& field,
                                 const std::string& output) {
  std::string linked;
  if (const SofaObject* roi = nearestRoi(r, o, field, linked)) {
    if (linked != output)
      r.reject(o, field, "reads " + roi->label() + "'s " + linked + "; " + output + " is expected");
    const NearestPairs pairs = nearestPairs(r, *roi);
    return output == "edges" ? pairs.edges : pairs.indexPairs;
  }
  if (r.linked(o, field))
    r.reject(o, field, "read when written in the scene or a NearestPointROI's " + output);
  return r.integers(o, field);
}

// The value SOFA ends with for MeshSpringForceField's lines constant: linesX and its alias x both
// write it, and Base::parse reads attributes in name order, so "stiffness" (or "damping") wins
// over "linesStiffness" when both are given; 0 when neither is.
double linesConstant(const Reader& r, const SofaObject& o, const char* own, const char* alias) {
  if (r.given(o, alias)) return r.real(o, alias, 0);
  return r.real(o, own, 0);
}

// The child's rest positions, which MeshSpringForceField::addSpring reads: MechanicalObject::init
// stores its position (written, or its one default point at the origin) as the rest positions;
// SubsetMultiMapping::init resizes the state, the new points at the origin, and maps only the
// positions and velocities, and the rest positions too with applyRestPosition.
Points childRest(const Reader& r, const MappedNode& child, const SubsetMultiMapping& mapping,
                 const std::vector<Points>& parents) {
  const SofaObject& state = *child.state;
  // SOFA initialises a node's objects in the order written: a state after its mapping would store
  // the mapped points as its rest points, springs before it would read rest points not yet sized.
  const auto place = [&](const SofaObject* o) {
    std::size_t i = 0;
    while (&child.node->objects[i] != o) ++i;
    return i;
  };
  if (place(&state) > place(child.mapping))
    throw Error(state.where + ": " + state.label() + ": after " + child.mapping->label() +
                " in its node: SOFA would initialise it from the mapped points; not supported "
                "(write the MechanicalObject first)");
  for (const SofaObject* o : child.components)
    if (place(o) < place(child.mapping))
      throw Error(o->where + ": " + o->label() + ": before " + child.mapping->label() +
                  " in its node: SOFA would read the child's rest points before the mapping "
                  "sizes them; not supported");
  for (const char* field : {"rest_position", "translation", "rotation", "scale3d", "scale", "dx",
                            "dy", "dz", "rx", "ry", "rz", "sx", "sy", "sz"})
    r.refuseIfGiven(state, field, "not supported on a SubsetMultiMapping's child");
  if (r.boolean(*child.mapping, "applyRestPosition", false)) return mapping.apply(parents);
  if (!r.given(state, "position")) return Points(mapping.size(), Vec3{0, 0, 0});
  const std::vector<double> xyz = r.reals(state, "position");
  if (xyz.size() != 3 * mapping.size())
    r.reject(
        state, "position",
        "expected X Y Z for each of the mapping's " + std::to_string(mapping.size()) + " points");
  Points rest;
  for (std::size_t i = 0; i < xyz.size(); i += 3) rest.push_back({xyz[i], xyz[i + 1], xyz[i + 2]});
  return rest;
}

// The child's edges: its MeshSpringForceField's topology (linked, else its node's), an
// EdgeSetTopologyContainer or MeshTopology of edges only, written or a NearestPointROI's.
std::vector<long long> childEdges(const Reader& r, const SofaObject& springs) {
  const SofaObject* topology =
      springs.field("topology") ? r.linked(springs, "topology") : topologyOf(springs.node);
  if (!topology ||
      (topology->type != "EdgeSetTopologyContainer" && topology->type != "MeshTopology"))
    r.reject(springs, "topology",
             "a SubsetMultiMapping child's springs are read on an EdgeSetTopologyContainer's or "
             "MeshTopology's edges, and it has " +
                 (topology ? topology->label() : std::string("no topology")));
  for (const char* field : {"src", "position", "triangles", "quads", "tetrahedra", "tetras",
                            "hexahedra", "hexas", "lines"})
    r.refuseIfGiven(*topology, field,
                    "a SubsetMultiMapping child's topology of edges alone is supported");
  return indicesOf(r, *topology, "edges", "edges");
}

}  // namespace

std::vector<const SofaObject*> multiMappingInputs(const Reader& r, const SofaObject& mapping) {
  const std::string* text = mapping.field("input");
  if (!text) r.reject(mapping, "input", "not given: a SubsetMultiMapping reads linked states");
  std::vector<const SofaObject*> inputs;
  for (const std::string& link : parse::tokens(*text)) {
    const SofaLinkTarget target =
        r.scene().resolve(*mapping.node, link, r.where(mapping, "input"), &mapping);
    const SofaObject* state = target.object ? target.object : contextState(target.node);
    if (!state || state->type != "MechanicalObject" || !target.field.empty())
      r.reject(mapping, "input", link + " links to no MechanicalObject");
    inputs.push_back(state);
  }
  if (inputs.empty()) r.reject(mapping, "input", "links to no state");
  return inputs;
}

std::optional<std::vector<long long>> nearestPointIndices(Reader& r, const SofaObject& o,
                                                          const std::string& field) {
  std::string output;
  const SofaObject* roi = nearestRoi(r, o, field, output);
  if (!roi) return std::nullopt;
  if (output != "indices1" && output != "indices2")
    r.reject(o, field,
             "reads " + roi->label() + "'s " + output + ": indices1 or indices2 are read");
  NearestPairs pairs = nearestPairs(r, *roi);
  return output == "indices1" ? pairs.indices1 : pairs.indices2;
}

void mapSubsetMultiMappedChild(Reader& r, const MappedNode& child) {
  const SofaObject& mapping = *child.mapping;
  const std::string tmpl = r.text(mapping, "template").value_or("Vec3d,Vec3d");
  const std::size_t comma = tmpl.find(',');
  if (comma == std::string::npos || !isVec3(tmpl.substr(0, comma)) ||
      !isVec3(tmpl.substr(comma + 1)))
    r.reject(mapping, "template",
             "only Vec3d parents and child are carried (Rigid3 parents are not)");
  for (const char* field : {"mapForces", "mapMatrices", "isMechanical"})
    if (!r.boolean(mapping, field, true))
      r.reject(mapping, field, "a mapping that keeps the child's forces is not supported");
  for (const SofaObject* o : child.components)
    if (o->type != "MeshSpringForceField")
      throw Error(o->where + ": " + o->label() + ": in the child of " + mapping.label() + " (" +
                  child.node->path() +
                  "): only a MeshSpringForceField on the child's edges is carried through a "
                  "SubsetMultiMapping");
  const std::vector<const SofaObject*> inputs = multiMappingInputs(r, mapping);
  std::vector<Points> parents;
  std::vector<std::size_t> sizes;
  for (const SofaObject* input : inputs) {
    parents.push_back(statePoints(r, *input));
    sizes.push_back(parents.back().size());
  }
  const SubsetMultiMapping map(sizes, indicesOf(r, mapping, "indexPairs", "indexPairs"));
  const Points rest = childRest(r, child, map, parents);
  for (const SofaObject* springs : child.components) {
    r.from(*springs);
    if (r.boolean(*springs, "noCompression", false))
      r.reject(*springs, "noCompression", "springs that only pull are not supported");
    if (r.real(*springs, "rayleighStiffness", 0) != 0)
      r.reject(*springs, "rayleighStiffness",
               "a force field's own Rayleigh damping is not supported");
    for (const char* field : {"localRange", "object1", "object2"})
      r.refuseIfGiven(*springs, field, "not supported in a SubsetMultiMapping's child");
    const double ks = linesConstant(r, *springs, "linesStiffness", "stiffness");
    const double kd = linesConstant(r, *springs, "linesDamping", "damping");
    if (ks == 0 && kd == 0) continue;
    const std::vector<long long> edges = childEdges(r, *springs);
    if (edges.size() % 2 != 0) r.reject(*springs, "topology", "an odd count of edge ends");
    // MeshSpringForceField::addSpring: a pair of child points once (the first edge that joins
    // them), ks / L and kd / L with L = |rest_j - rest_i| (ks and kd as given when L is not above
    // the machine epsilon).
    std::set<std::pair<long long, long long>> joined;
    std::vector<std::string> sets(inputs.size());
    for (std::size_t e = 0; e < edges.size(); e += 2) {
      const long long a = edges[e], b = edges[e + 1];
      for (long long end : {a, b})
        if (end < 0 || std::size_t(end) >= map.size())
          r.reject(*springs, "topology",
                   "edge " + std::to_string(e / 2) + " joins point " + std::to_string(end) +
                       " of a child of " + std::to_string(map.size()) + " points");
      if (!joined.insert({std::min(a, b), std::max(a, b)}).second) continue;
      const Vec3 &ra = rest[std::size_t(a)], &rb = rest[std::size_t(b)];
      const double u = rb[0] - ra[0], v = rb[1] - ra[1], w = rb[2] - ra[2];
      const double length = std::sqrt(u * u + v * v + w * w);
      const bool scaled = length > std::numeric_limits<double>::epsilon();
      SubsetMultiMapping::Pick first = map.pick(std::size_t(a)), second = map.pick(std::size_t(b));
      // The same parent point at both ends: never apart, no force (computeSpringForce).
      if (first.parent == second.parent && first.index == second.index) continue;
      // The spring is held by the first input's body; its law is the same read from either end.
      if (first.parent != 0) std::swap(first, second);
      if (first.parent != 0)
        r.reject(*springs, "topology",
                 "edge " + std::to_string(e / 2) + " joins two points of input " +
                     std::to_string(first.parent) + " and " + std::to_string(second.parent) +
                     ": springs with no end in the first input (" + inputs[0]->label() +
                     ") are not supported");
      sets[second.parent] += " " + std::to_string(first.index) + " " +
                             std::to_string(second.index) + " " +
                             parse::text(scaled ? ks / length : ks) + " " +
                             parse::text(scaled ? kd / length : kd) + " " + parse::text(length);
    }
    for (std::size_t p = 0; p < sets.size(); ++p) {
      if (sets[p].empty()) continue;
      if (p > 0 && integratingSolver(inputs[p]->node) != integratingSolver(inputs[0]->node))
        throw Error(mapping.where + ": " + mapping.label() + ": its inputs " + inputs[0]->label() +
                    " and " + inputs[p]->label() +
                    " are integrated by different ODE solvers: springs between them through "
                    "the child are not supported");
      r.key("interaction.springs",
            (p == 0 ? std::string("self") : inputs[p]->node->path()) + sets[p]);
    }
  }
}

}  // namespace eis::sofa
