// A SubsetMultiMapping's child read as a body (io/sofa_split_body.hpp). SOFA solves for the
// frames and the free points: the child's FEM reaches the free points through J^T f and J^T K J
// of the selection, and the frames through the RigidMapping, where a FixedProjectiveConstraint on
// every frame projects it away (and keeps the frames, and so the points they hold, where they
// are). What is left is the FEM on the whole mesh, with the held points fixed and the free
// points' mass: one body, which the run integrates as any other.
#include "sofa_split_body.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <string>

#include "eis/core/error.hpp"
#include "eis/core/parameters.hpp"
#include "eis/model/rigid_mapping.hpp"
#include "eis/model/subset_multi_mapping.hpp"
#include "sofa_mesh_splitting.hpp"
#include "sofa_rigid.hpp"
#include "sofa_selections.hpp"
#include "sofa_subset_multi_mapping.hpp"

namespace eis::sofa {

namespace {

using Points = std::vector<Vec3>;

const SofaObject* rigidMappingOf(const SofaObject& state) {
  for (const SofaObject& m : state.node->objects)
    if (m.type == "RigidMapping") return &m;
  return nullptr;
}

const SofaObject* framesOf(const Reader& r, const SofaObject& rigidMapping) {
  return rigidMapping.field("input") ? linkedState(r, rigidMapping, "input")
                                     : contextState(rigidMapping.node->parent);
}

// Whether a FixedProjectiveConstraint of the body holds every one of its frames
// (FixedProjectiveConstraint.inl: fixAll, else indices, {0} when not written).
bool allFramesFixed(const Reader& r, const Body& frames) {
  const std::size_t count = r.reals(*frames.state, "position").size() / 7;
  for (const SofaObject* o : frames.components) {
    if (o->type != "FixedProjectiveConstraint" && o->type != "FixedConstraint") continue;
    if (r.boolean(*o, "fixAll", false)) return true;
    std::vector<long long> indices = r.integers(*o, "indices");
    if (!r.given(*o, "indices")) indices = {0};
    const std::set<long long> held(indices.begin(), indices.end());
    bool all = count > 0;
    for (std::size_t i = 0; i < count; ++i) all = all && held.count(static_cast<long long>(i));
    if (all) return true;
  }
  return false;
}

// An input's points as its MechanicalObject::init takes them: a MeshSplittingEngine's part
// (position<k>), or written in the scene.
Points inputPoints(Reader& r, const SofaObject& state, const SofaObject& engine,
                   const MeshSplit& split) {
  for (const char* field : {"translation", "rotation", "scale3d", "scale", "dx", "dy", "dz", "rx",
                            "ry", "rz", "sx", "sy", "sz", "rest_position", "velocity"})
    r.refuseIfGiven(state, field, "not supported on a state a SubsetMultiMapping body reads");
  Points points;
  if (const auto link = meshSplitLink(r, state, "position")) {
    const std::string& out = link->output;
    std::size_t k = 0;
    if (link->engine != &engine || out.size() <= 8 || out.size() > 14 ||
        out.compare(0, 8, "position") != 0 ||
        !std::all_of(out.begin() + 8, out.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        (k = std::stoul(out.substr(8))) < 1 || k > split.parts.size())
      throw Error(r.where(state, "position") + ": " + state.label() + ": position = '" +
                  *state.field("position") + "': expected a position1 .. position" +
                  std::to_string(split.parts.size()) + " of " + engine.label() +
                  ", the engine whose indexPairs the mapping reads");
    for (const auto& p : split.parts[k - 1]) points.push_back(p);
    return points;
  }
  const std::vector<double> xyz = r.reals(state, "position");
  if (xyz.empty() || xyz.size() % 3 != 0)
    r.reject(state, "position", "expected X Y Z for each point, or a MeshSplittingEngine's part");
  for (std::size_t i = 0; i < xyz.size(); i += 3)
    points.push_back({xyz[i], xyz[i + 1], xyz[i + 2]});
  return points;
}

// RigidMapping::init and apply for points all in frame `index`: with globalToLocalCoords the
// points are world points, turned into the frame first.
Points heldPoints(Reader& r, const SofaObject& mapping, const SofaObject& frames,
                  const Points& given) {
  for (const char* field : {"initialPoints", "rigidIndexPerPoint", "indexFromEnd", "useX0",
                            "filename", "fileRigidMapping"})
    r.refuseIfGiven(mapping, field, "not read for points a SubsetMultiMapping body holds");
  const std::vector<double> pose = r.reals(frames, "position");
  const long long index =
      r.integers(mapping, "index").empty() ? 0 : r.integers(mapping, "index")[0];
  if (pose.size() % 7 != 0 || index < 0 || std::size_t(7 * index) >= pose.size())
    r.reject(mapping, "index", "frame " + std::to_string(index) + " of " + frames.label());
  const std::vector<int> frameOf(given.size(), int(index));
  const Points local = r.boolean(mapping, "globalToLocalCoords", false)
                           ? RigidMapping::localCoordinates(pose, frameOf, given)
                           : given;
  return RigidMapping(frameOf, local).apply(pose.data());
}

}  // namespace

bool isSplitChild(const Reader& r, const MappedNode& child) {
  if (child.mapping->type != "SubsetMultiMapping") return false;
  const std::vector<const SofaObject*> inputs = multiMappingInputs(r, *child.mapping);
  return std::any_of(inputs.begin(), inputs.end(),
                     [](const SofaObject* s) { return rigidMappingOf(*s) != nullptr; });
}

void foldSplitBody(const Reader& r, std::vector<Body>& bodies, const MappedNode& child) {
  const SofaObject& mapping = *child.mapping;
  const std::string what = mapping.where + ": " + mapping.label() + " (" + child.node->path() +
                           "), read as a body of its own: ";
  const auto bodyOf = [&](const SofaObject* state) -> Body* {
    for (Body& b : bodies)
      if (b.state == state) return &b;
    return nullptr;
  };
  const SofaObject* solver = nullptr;
  const auto sameSolver = [&](const Body& b) {
    if (!b.odeSolver || (solver && b.odeSolver != solver))
      throw Error(what + "its inputs " + b.state->label() +
                  " and the others are not integrated by one ODE solver");
    solver = b.odeSolver;
  };
  std::vector<const SofaObject*> free;
  for (const SofaObject* input : multiMappingInputs(r, mapping)) {
    if (Body* b = bodyOf(input)) {
      if (isRigidTemplate(r.text(*input, "template").value_or("Vec3d")))
        throw Error(what + "its input " + input->label() + " is frames, not points");
      for (const SofaObject* o : b->components)
        if (!endsWith(o->type, "Mass"))
          throw Error(o->where + ": " + o->label() + ": acts on " + input->label() +
                      ", free points " + mapping.label() +
                      " maps into a body: only their mass is carried");
      if (!b->mapped.empty())
        throw Error(what + "its input " + input->label() + " drives a mapped child of its own (" +
                    b->mapped.front().node->path() + "): not supported");
      sameSolver(*b);
      free.push_back(input);
      continue;
    }
    const SofaObject* rigid = rigidMappingOf(*input);
    const SofaObject* frames = rigid ? framesOf(r, *rigid) : nullptr;
    Body* held = frames ? bodyOf(frames) : nullptr;
    if (!rigid || !held || !isRigidTemplate(r.text(*frames, "template").value_or("Vec3d")))
      throw Error(what + "its input " + input->label() + " (" + input->node->path() +
                  ") is neither free points nor points a RigidMapping drives from a body of "
                  "frames");
    if (!allFramesFixed(r, *held))
      throw Error(what + "its input " + input->label() + " follows " + frames->label() +
                  ", frames that may move: the child is read as a body only where a "
                  "FixedProjectiveConstraint holds every frame");
    sameSolver(*held);
  }
  if (free.empty()) throw Error(what + "every input is held by fixed frames: nothing moves");
  for (const SofaObject* o : child.components)
    if (endsWith(o->type, "Mass") || o->type.find("Constraint") != std::string::npos)
      throw Error(o->where + ": " + o->label() + ": in the child of " + mapping.label() +
                  ", read as a body of its own: only force fields are carried there (its mass "
                  "is its free inputs')");
  const Body& first = *bodyOf(free.front());
  Body body;
  body.state = child.state;
  body.odeSolver = first.odeSolver;
  body.linearSolver = first.linearSolver;
  body.nonlinearSolver = first.nonlinearSolver;
  body.components = child.components;
  body.splitMapping = &mapping;
  for (const SofaObject* state : free) {
    const Body& b = *bodyOf(state);
    body.splitMasses.insert(body.splitMasses.end(), b.components.begin(), b.components.end());
    bodies.erase(std::find_if(bodies.begin(), bodies.end(),
                              [&](const Body& x) { return x.state == state; }));
  }
  bodies.push_back(body);
}

void mapSplitBody(Reader& r, const Body& body) {
  const SofaObject& mapping = *body.splitMapping;
  const SofaObject& child = *body.state;
  r.from(mapping);
  const std::string tmpl = r.text(mapping, "template").value_or("Vec3d,Vec3d");
  if (tmpl != "Vec3d,Vec3d" && tmpl != "Vec3,Vec3")
    r.reject(mapping, "template", "only Vec3d parents and child are carried");
  for (const char* field : {"mapForces", "mapMatrices", "isMechanical"})
    if (!r.boolean(mapping, field, true))
      r.reject(mapping, field, "a mapping that keeps the child's forces is not supported");
  r.refuseIfGiven(mapping, "applyRestPosition",
                  "the child's rest points are its own (its mesh's) here");
  const auto link = meshSplitLink(r, mapping, "indexPairs");
  if (!link || link->output != "indexPairs")
    throw Error(r.where(mapping, "indexPairs") + ": " + mapping.label() +
                ": indexPairs: a SubsetMultiMapping body reads a MeshSplittingEngine's "
                "indexPairs (\"@engine.indexPairs\")");
  const SofaObject& engine = *link->engine;
  const SofaObject* loader = r.linked(engine, "position");
  const MeshSplit split =
      computeMeshSplit(r, engine, loader ? r.file(*loader, "filename") : std::string());
  // The child's rest points, which its FEM reads, are its MechanicalObject's, taken before the
  // mapping runs: the engine's mesh, read from the same loader.
  std::string field;
  if (r.linked(child, "position", &field) != split.loader || field != "position")
    r.reject(child, "position",
             "expected the points of " + split.loader->label() +
                 ", the mesh the engine splits (through src or a topology)");
  for (const char* t : {"translation", "rotation", "scale3d", "scale", "dx", "dy", "dz", "rx", "ry",
                        "rz", "sx", "sy", "sz", "rest_position", "velocity"})
    r.refuseIfGiven(child, t, "not supported on a SubsetMultiMapping body");
  const std::vector<const SofaObject*> inputs = multiMappingInputs(r, mapping);
  std::vector<Points> parents;
  std::vector<std::size_t> sizes;
  std::vector<bool> heldInput;
  for (const SofaObject* input : inputs) {
    const Points given = inputPoints(r, *input, engine, split);
    const SofaObject* rigid = rigidMappingOf(*input);
    heldInput.push_back(rigid != nullptr);
    parents.push_back(rigid ? heldPoints(r, *rigid, *framesOf(r, *rigid), given) : given);
    sizes.push_back(given.size());
  }
  const SubsetMultiMapping map(sizes, split.indexPairs);
  const std::size_t n = split.indexPairs.size() / 2;
  // The held points, fixed: SOFA's frames never move, so neither do they.
  std::vector<long long> fixed;
  for (std::size_t i = 0; i < n; ++i)
    if (heldInput[map.pick(i).parent]) fixed.push_back(static_cast<long long>(i));
  if (!fixed.empty()) r.key("constraint.fixed", indexList(fixed));
  // UniformMass on each free input: totalMass / its points (or vertexMass); the held points get
  // the same, which their fixed rows leave out of the step.
  std::optional<double> vertexMass;
  for (const SofaObject* mass : body.splitMasses) {
    const SofaObject* state = contextState(mass->node);
    if (mass->type != "UniformMass")
      throw Error(mass->where + ": " + mass->label() + ": on free points " + mapping.label() +
                  " maps into a body: only a UniformMass is carried");
    for (const char* f : {"indices", "filename"})
      r.refuseIfGiven(*mass, f, "not supported on free points a SubsetMultiMapping body reads");
    const std::size_t points =
        sizes[std::size_t(std::find(inputs.begin(), inputs.end(), state) - inputs.begin())];
    double m = 0;
    if (r.given(*mass, "totalMass"))
      m = r.real(*mass, "totalMass", 1.0) / double(points);
    else if (r.given(*mass, "vertexMass"))
      m = r.real(*mass, "vertexMass", 1.0);
    else
      r.reject(*mass, "totalMass", "give totalMass or vertexMass (SOFA master requires one)");
    if (vertexMass && *vertexMass != m)
      throw Error(mass->where + ": " + mass->label() + ": a vertex mass of " + parse::text(m) +
                  " beside " + parse::text(*vertexMass) +
                  " on the other free points: one uniform mass is carried");
    vertexMass = m;
  }
  if (vertexMass) {
    r.key("mass.type", "uniform");
    r.key("mass.vertex-mass", parse::text(*vertexMass));
  }
  // SubsetMultiMapping::init maps the positions: the held points where the frames put them,
  // which may differ from the mesh's in the last bits.
  const Points start = map.apply(parents);
  bool moved = false;
  std::vector<double> flat;
  for (std::size_t i = 0; i < n; ++i) {
    moved = moved || start[i] != split.points[i];
    flat.insert(flat.end(), start[i].begin(), start[i].end());
  }
  if (moved) r.key("initial.positions", joined(flat, 0, flat.size()));
  r.note(child.label() + ": the child of " + mapping.label() + " is a body: " +
         std::to_string(fixed.size()) + " points held by fixed frames -> constraint.fixed, " +
         "the free points' mass -> mass.vertex-mass");
}

}  // namespace eis::sofa
