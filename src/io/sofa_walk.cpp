// The SOFA scene walk (io/sofa_walk.hpp): the kinds of component, the bodies and what acts on
// each.
#include "sofa_walk.hpp"

#include <algorithm>

#include "eis/core/error.hpp"
#include "eis/core/parameters.hpp"
#include "sofa_carried_points.hpp"
#include "sofa_lagrangian.hpp"
#include "sofa_rigid.hpp"
#include "sofa_sparse_grid.hpp"
#include "sofa_split_body.hpp"
#include "sofa_subset_multi_mapping.hpp"

namespace eis::sofa {

namespace {

bool isOneOf(const std::string& type, std::initializer_list<const char*> types) {
  return std::any_of(types.begin(), types.end(), [&](const char* t) { return type == t; });
}

bool startsWith(const std::string& text, const std::string& start) {
  return text.rfind(start, 0) == 0;
}

// Topology, not mechanics: SOFA's topological mappings build one topology from another (a grid's
// hexahedra cut into tetrahedra, a volume's surface) and move no degree of freedom; the
// containers, modifiers and algorithms of every kind of set topology hold or edit a mesh.
bool isTopology(const std::string& t) {
  return endsWith(t, "TopologicalMapping") || endsWith(t, "TopologyContainer") ||
         endsWith(t, "TopologyModifier") || endsWith(t, "GeometryAlgorithms") ||
         endsWith(t, "TopologyAlgorithms") || t == "MeshTopology";
}

// Components with no effect on the mechanics here: plugins, the default loops, topology, the
// mesh sources (loaders and the regular, cylinder, sphere and sparse grids, read where the body's
// mesh is, as are the GenerateGrid, GenerateCylinder and MeshTetraStuffing engines), the engines
// our selections stand for (ROIs, MergeVectors of their indices, NearestPointROI's pairs,
// MeshSplittingEngine's parts, read where a body's SubsetMultiMapping reads them), the task
// scheduler's thread count, the Gravity context object (read where the body's gravity is), and the
// ordering methods a direct solver links (BaseOrderingMethod::computePermutation: the order in
// which it factorises, which changes the rounding of its exact solve, not the solve; ours is
// MUMPS's).
bool isAccepted(const std::string& t) {
  return isTopology(t) ||
         isOneOf(t, {"NaturalOrderingMethod", "AMDOrderingMethod", "COLAMDOrderingMethod"}) ||
         t == "CylinderGridTopology" || t == "SphereGridTopology" || t == "Gravity" ||
         t == "PlaneROI" || t == "PairBoxROI" || t == "TaskSchedulerSettings" ||
         isOneOf(t, {"RequiredPlugin", "DefaultAnimationLoop", "DefaultVisualManagerLoop",
                     "AddPluginRepository", "BoxROI", "SphereROI", "RegularGridTopology",
                     "SparseGridTopology", "SparseGridRamificationTopology",
                     "SparseGridMultipleTopology", "MeshGmshLoader", "MeshVTKLoader",
                     "MeshOBJLoader", "MeshSTLLoader", "MeshOffLoader", "MeshTrianLoader",
                     "SphereLoader", "GIDMeshLoader"}) ||
         t == "MergeVectors" || t == "GridMeshCreator" || t == "ProximityROI" ||
         t == "GenerateGrid" || t == "GenerateCylinder" || t == "StringMeshCreator" ||
         t == "MeshTetraStuffing" || t == "SubsetTopology" || t == "NearestPointROI" ||
         t == "MeshSplittingEngine";
}

// What only draws, records or serves the GUI: rendering (every Ogl* component: models, shaders,
// their variables, viewports, post-processing), cameras and lights, the mouse's button settings,
// and the exporters, which write files of the state and are not run here (as WriteState, which
// writes the state's vectors at its times and reads nothing back). VisualMesh (a VisualModel)
// draws its topology's elements from the positions it links to; GlobalSystemMatrixImage turns
// an assembled matrix into an image for the GUI; CompareState (CompareState.cpp) reads a state
// WriteState recorded and logs its distance to the state at each step, writing nothing back.
bool isVisual(const std::string& t) {
  return startsWith(t, "Ogl") || endsWith(t, "Exporter") || endsWith(t, "ButtonSetting") ||
         isOneOf(t, {"VisualModel",
                     "VisualStyle",
                     "LightManager",
                     "DirectionalLight",
                     "PositionalLight",
                     "SpotLight",
                     "InteractiveCamera",
                     "Camera",
                     "RecordedCamera",
                     "BackgroundSetting",
                     "VisualGrid",
                     "LineAxis",
                     "ClipPlane",
                     "DataDisplay",
                     "VisualModelImpl",
                     "PostProcessManager",
                     "ViewerSetting",
                     "VisualTransform",
                     "VisualManagerPass",
                     "VisualManagerSecondaryPass",
                     "CompositingVisualLoop",
                     "Light",
                     "TextureInterpolation",
                     "VisualPointCloud",
                     "TrailRenderer",
                     "MouseButtonSetting",
                     "StatsSetting",
                     "SofaDefaultPathSetting",
                     "BackgroundSetting",
                     "Visual3DText",
                     "VisualVectorField",
                     "VisualMesh",
                     "WriteState",
                     "CompareState",
                     "GlobalSystemMatrixImage"});
}

// SOFA's analysis engines, which compute a value from a state for whatever reads it and change
// nothing themselves (AverageCoord: the mean of some positions, which Component/Visual/OglLabel.scn
// prints; ValuesFromPositions: a value or vector per point interpolated along a direction;
// MeshROI: the points inside a closed surface, which Component/Engine/Select/MeshROI.scn draws;
// ValuesFromIndices, DifferenceEngine and NormEngine: values picked from a vector, their
// differences and norms, which Demos/rigidifiedSectionsInBeam.scn prints with an OglLabel;
// PointsFromIndices: the positions at some indices, whose trail
// Component/Constraint/Lagrangian/InextensiblePendulum.scn draws).
bool isAnalysis(const std::string& t) {
  return t == "AverageCoord" || t == "ValuesFromPositions" || t == "MeshROI" ||
         t == "ValuesFromIndices" || t == "DifferenceEngine" || t == "NormEngine" ||
         t == "PointsFromIndices";
}

}  // namespace

bool isMechanicalMapping(const std::string& t) {
  return endsWith(t, "Mapping") && !endsWith(t, "TopologicalMapping");
}

namespace {

// A state a RigidMapping drives from frames.
bool isRigidlyMapped(const SofaObject& state) {
  return std::any_of(state.node->objects.begin(), state.node->objects.end(),
                     [](const SofaObject& m) { return m.type == "RigidMapping"; });
}

// A TransformEngine or TransformPosition whose output_position is a MechanicalObject's position,
// or the position of a topology container in a node no mechanical mapping drives: it moves the
// points of the body's mesh, which io/sofa_import.cpp's mapMesh reads (and checks) with the mesh.
bool movesMesh(const Reader& reader, const SofaObject& engine) {
  if (engine.type != "TransformEngine" && engine.type != "TransformPosition") return false;
  const auto unmapped = [](const SofaNode& node) {
    return std::none_of(node.objects.begin(), node.objects.end(),
                        [](const SofaObject& o) { return isMechanicalMapping(o.type); });
  };
  for (const SofaObject* o : reader.scene().objects())
    if ((o->type == "MechanicalObject" ||
         ((endsWith(o->type, "TopologyContainer") || o->type == "MeshTopology") &&
          unmapped(*o->node))) &&
        reader.linked(*o, "position") == &engine)
      return true;
  return false;
}

// Whether only visual components link to `engine` (by its name, as "@center.average" or
// "@../center" do), or analysis engines whose own results are only drawn: then what it computes
// is only drawn. An unnamed one is linked to by none.
bool onlyDrawn(const SofaScene& scene, const SofaObject& engine, int depth = 0) {
  if (engine.name.empty()) return true;
  for (const SofaObject* o : scene.objects()) {
    if (isVisual(o->type)) continue;
    for (const xml::Attribute& a : o->data)
      for (const std::string& token : parse::tokens(a.value)) {
        if (token.size() < 2 || token[0] != '@') continue;
        std::string target = token.substr(1);
        const std::size_t slash = target.find_last_of('/');
        if (slash != std::string::npos) target = target.substr(slash + 1);
        if (target.substr(0, target.find('.')) == engine.name &&
            !(o != &engine && depth < 16 && isAnalysis(o->type) && onlyDrawn(scene, *o, depth + 1)))
          return false;
      }
  }
  return true;
}

bool isCollision(const std::string& t) {
  return endsWith(t, "CollisionModel") || isOneOf(t, {"CollisionPipeline",
                                                      "DefaultPipeline",
                                                      "BruteForceBroadPhase",
                                                      "BVHNarrowPhase",
                                                      "RayTraceNarrowPhase",
                                                      "BruteForceDetection",
                                                      "ParallelBruteForceBroadPhase",
                                                      "ParallelBVHNarrowPhase",
                                                      "DefaultContactManager",
                                                      "CollisionResponse",
                                                      "RuleBasedContactManager",
                                                      "MinProximityIntersection",
                                                      "LocalMinDistance",
                                                      "NewProximityIntersection",
                                                      "DiscreteIntersection",
                                                      "DefaultCollisionGroupManager",
                                                      "CollisionGroup",
                                                      "SphereModel",
                                                      "TriangleModel",
                                                      "LineModel",
                                                      "PointModel"});
}

// The mechanical mappings whose child may carry masses and force fields (io/sofa_mapped_child).
bool mapsMechanics(const std::string& t) {
  return isOneOf(
      t, {"IdentityMapping", "SubsetMapping", "BarycentricMapping", "RigidMapping", "VolumeMapping",
          "DistanceMapping", "SubsetMultiMapping", "HexahedronCompositeFEMMapping"});
}

struct Collector {
  Walk& walk;
  Reader& reader;
  bool skipUnsupported;
  std::vector<const SofaObject*> states;
  std::vector<const SofaObject*> mechanics;
  std::vector<MappedNode> mappedNodes;

  void unsupported(const SofaObject& o, const std::string& why) {
    if (!skipUnsupported)
      throw Error(o.where + ": " + o.type + (o.name.empty() ? "" : " '" + o.name + "'") + ": " +
                  why + " (--scene.skip-unsupported=true skips it with a warning)");
    reader.warn("skipped " + o.label() + ": " + why);
  }

  void classify(const SofaNode& node) {
    bool mapped = false, collisionChild = false;
    MappedNode child{&node, nullptr, nullptr, {}};
    int mappings = 0;
    for (const SofaObject& o : node.objects) {
      mapped = mapped || isMechanicalMapping(o.type);
      collisionChild = collisionChild || isCollision(o.type);
      if (isMechanicalMapping(o.type)) ++mappings, child.mapping = &o;
      if (o.type == "MechanicalObject") child.state = &o;
    }
    // A mapped child that carries mechanics: one mapping of the kinds io/sofa_mapped_child
    // reads, from a MechanicalObject to the node's, with a mass or force field in the node or in
    // a node below it without a state of its own.
    const bool carries = actsOnState(node);
    const bool mapsChild =
        mapped && carries && mappings == 1 && child.state && mapsMechanics(child.mapping->type);
    const SofaObject* state = nullptr;
    for (const SofaObject& o : node.objects) {
      if (movesMesh(reader, o)) continue;
      // ReadState (ReadState.cpp) sets its state from a file WriteState recorded, at each step's
      // time. Where no ODE solver integrates that state, it replays a recorded motion that only
      // what draws the state sees: it is not replayed here (what else reads such a state is
      // refused where it links to it).
      if (o.type == "ReadState" && !nearest(&node, isOdeSolver)) {
        reader.warn(o.label() + ": the recorded motion it replays into a state no ODE solver " +
                    "integrates is not replayed, and that state is not written");
        walk.visual.push_back(o.type);
        continue;
      }
      // WriteState.inl: with stopAt, SOFA ends the whole run (exit) in a node without a mass.
      if (o.type == "WriteState" && reader.real(o, "stopAt", 0) != 0 &&
          std::none_of(node.objects.begin(), node.objects.end(),
                       [](const SofaObject& m) { return endsWith(m.type, "Mass"); }))
        unsupported(o, "stopAt in a node without a mass: SOFA would end the run");
      if (isVisual(o.type) || ((isAnalysis(o.type) || o.type == "TransformEngine" ||
                                o.type == "TransformPosition" || o.type == "MergePoints") &&
                               onlyDrawn(reader.scene(), o))) {
        walk.visual.push_back(o.type);
      } else if (isCollision(o.type)) {
        walk.collision.push_back(o.type);
      } else if (mapped && (isMechanicalMapping(o.type) || o.type == "MechanicalObject" ||
                            isAccepted(o.type))) {
        if (!mapsChild) (collisionChild ? walk.collision : walk.visual).push_back(o.type);
      } else if (mapsChild) {
        child.components.push_back(&o);
      } else if (mapped && endsWith(o.type, "LagrangianConstraint")) {
        // SOFA builds such rows on the child's state and maps them to its input's (J_c J_mapping).
        unsupported(o, "Lagrangian constraint rows on a mapped child (J_c J_mapping through its " +
                           (child.mapping ? child.mapping->type : std::string("mapping")) +
                           ", in node " + node.path() + " (" + node.where +
                           ")) are not built: the constraints act on a body's own nodes");
      } else if (mapped) {
        const std::string why = notCarried(node);
        unsupported(o, "a mapped child's " + o.type +
                           " changes the mechanics through its mapping, which is not simulated; "
                           "in node " +
                           node.path() + " (" + node.where + ")" + (why.empty() ? "" : ": " + why));
      } else if (o.type == "PythonController") {
        walk.controllers.push_back(&o);
      } else if (o.type == "PythonMapping") {
        unsupported(o, "a mapping written in Python (class " +
                           reader.text(o, "class").value_or("?") + ", on Sofa.Core." +
                           reader.text(o, "base").value_or("?") +
                           "): its apply, applyJ and applyJT are Python code, which the "
                           "distributed step does not call");
      } else if (o.type == "MechanicalObject") {
        if (state)
          throw Error(o.where + ": a second MechanicalObject in node " + node.path() +
                      " (the first: " + state->where +
                      "): SOFA keeps one mechanical state per node");
        state = &o;
        states.push_back(&o);
      } else if (const SofaNode* owner = stateNode(&node);
                 !isAccepted(o.type) && owner && owner != &node && isMappedNode(*owner)) {
        // Below a mapped node, a node without a state of its own acts on the mapped state (the
        // context's): carried with the mapped node's own components.
        const auto carried = std::find_if(mappedNodes.begin(), mappedNodes.end(),
                                          [&](const MappedNode& m) { return m.node == owner; });
        if (carried != mappedNodes.end()) {
          carried->components.push_back(&o);
        } else {
          const std::string why = notCarried(*owner);
          unsupported(o, "acts on the mapped state of node " + owner->path() + " (" + owner->where +
                             ") from a node below it, " + node.path() + ", which is not simulated" +
                             (why.empty() ? "" : ": " + why));
        }
      } else if (!isAccepted(o.type)) {
        // SOFA's animation loop runs every ODE solver of a node: two would integrate one state
        // twice.
        if (isOdeSolver(o.type))
          for (const SofaObject* other : mechanics)
            if (other->node == &node && isOdeSolver(other->type))
              throw Error(o.where + ": " + o.type + ": a second ODE solver in node " + node.path() +
                          " (the first: " + other->type + ", " + other->where +
                          "): a node's state is integrated by one");
        mechanics.push_back(&o);
      }
    }
    if (mapsChild) mappedNodes.push_back(child);
    for (const auto& next : node.children) classify(*next);
  }

  // Whether a mass or force field acts on `node`'s state: one of its own components, or a mass or
  // force field in a node below it that has no state or mapping of its own (SOFA's context gives
  // it `node`'s).
  static bool actsOnState(const SofaNode& node, bool below = false) {
    const auto own = [](const SofaObject& o) {
      return o.type == "MechanicalObject" || isMechanicalMapping(o.type);
    };
    if (below && std::any_of(node.objects.begin(), node.objects.end(), own)) return false;
    for (const SofaObject& o : node.objects)
      if (below ? endsWith(o.type, "ForceField") || endsWith(o.type, "Mass")
                : !(isVisual(o.type) || isCollision(o.type) || own(o) || isAccepted(o.type)))
        return true;
    return std::any_of(node.children.begin(), node.children.end(),
                       [](const auto& next) { return actsOnState(*next, true); });
  }

  // Why the mapped node `node` is no mapped child the importer carries (empty: it is one).
  std::string notCarried(const SofaNode& node) const {
    int mappings = 0;
    const SofaObject *mapping = nullptr, *state = nullptr;
    for (const SofaObject& o : node.objects) {
      if (isMechanicalMapping(o.type)) ++mappings, mapping = &o;
      if (o.type == "MechanicalObject") state = &o;
    }
    if (mappings != 1) return std::to_string(mappings) + " mechanical mappings in one node";
    if (!state) return "no MechanicalObject in the node";
    if (mapping->type == "PythonMapping")
      return "its mapping is written in Python (class " +
             reader.text(*mapping, "class").value_or("?") +
             "), whose apply, applyJ and applyJT the distributed step does not call";
    if (!mapsMechanics(mapping->type))
      return mapping->type +
             " children are not carried (IdentityMapping, SubsetMapping, BarycentricMapping, "
             "RigidMapping, VolumeMapping, DistanceMapping, SubsetMultiMapping and "
             "HexahedronCompositeFEMMapping ones are)";
    return "";
  }

  // The node of the state SOFA's context gives a component of `node`: the nearest at or above it
  // holding a MechanicalObject.
  static const SofaNode* stateNode(const SofaNode* node) {
    for (; node; node = node->parent)
      for (const SofaObject& o : node->objects)
        if (o.type == "MechanicalObject") return node;
    return nullptr;
  }

  static bool isMappedNode(const SofaNode& node) {
    return std::any_of(node.objects.begin(), node.objects.end(),
                       [](const SofaObject& o) { return isMechanicalMapping(o.type); });
  }

  // The state SOFA's context gives a component of `node`: its own, else its nearest ancestor's.
  const SofaObject* stateOf(const SofaNode* node) const {
    for (; node; node = node->parent)
      for (const SofaObject* s : states)
        if (s->node == node) return s;
    return nullptr;
  }

  // Whether a mechanical mapping under an ODE solver reads `state` (its input, input1 or input2
  // links, else its parent node's state): SOFA's solver would then see the state through it.
  bool mapsIntoSolved(const SofaObject& state) const {
    for (const SofaObject* o : reader.scene().objects()) {
      if (!isMechanicalMapping(o->type) || !nearest(o->node, isOdeSolver)) continue;
      bool linked = false;
      for (const char* field : {"input", "input1", "input2"}) {
        const std::string* text = o->field(field);
        if (!text) continue;
        linked = true;
        for (const std::string& link : parse::tokens(*text)) {
          const SofaLinkTarget target =
              reader.scene().resolve(*o->node, link, reader.where(*o, field), o);
          const SofaObject* input = target.object ? target.object : contextState(target.node);
          if (input == &state) return true;
        }
      }
      if (!linked && o->node->parent && contextState(o->node->parent) == &state) return true;
    }
    return false;
  }

  // The nearest component of `node` or above that passes `is`.
  const SofaObject* nearest(const SofaNode* node, bool (*is)(const std::string&)) const {
    for (; node; node = node->parent)
      for (const SofaObject& o : node->objects)
        if (is(o.type)) return &o;
    return nullptr;
  }
};

}  // namespace

bool isInteractionSpring(const std::string& t) {
  return t == "SpringForceField" || t == "StiffSpringForceField" ||
         t == "PolynomialSpringsForceField";
}

const SofaObject* contextState(const SofaNode* node) {
  for (; node; node = node->parent)
    for (const SofaObject& o : node->objects)
      if (o.type == "MechanicalObject") return &o;
  return nullptr;
}

// Node::findLinkDestClass for a link to a mechanical state: the object it names, or, for a
// node, that node's state, or the state its context gives it.
const SofaObject* linkedState(const Reader& reader, const SofaObject& o, const std::string& field) {
  const std::string* link = o.field(field);
  const std::string where = reader.where(o, field);
  const SofaLinkTarget target =
      link ? reader.scene().resolve(*o.node, *link, where, &o) : SofaLinkTarget{};
  const SofaObject* state = target.object;
  if (!state && target.node) state = contextState(target.node);
  if (!state || state->type != "MechanicalObject" || !target.field.empty())
    throw Error(where + ": " + o.type + ": " + field + " = " + (link ? *link : "") +
                " links to no MechanicalObject");
  return state;
}

bool isNonlinearSolver(const std::string& t) {
  return t == "NewtonRaphsonSolver";
}

bool isOdeSolver(const std::string& t) {
  return isOneOf(t, {"EulerImplicitSolver", "StaticSolver", "EulerExplicitSolver", "EulerSolver",
                     "RungeKutta2Solver", "RungeKutta4Solver", "CentralDifferenceSolver",
                     "VariationalSymplecticSolver", "BDFOdeSolver", "NewmarkImplicitSolver",
                     "DampVelocitySolver"});
}

const SofaObject* integratingSolver(const SofaNode* node) {
  const SofaObject* outermost = nullptr;
  for (; node; node = node->parent)
    for (const SofaObject& o : node->objects)
      if (isOdeSolver(o.type)) {
        outermost = &o;
        break;
      }
  return outermost;
}

bool isDirectSolver(const std::string& t) {
  return isOneOf(
      t, {"SparseLDLSolver", "SparseCholeskySolver", "EigenSimplicialLDLT", "EigenSimplicialLLT",
          "AsyncSparseLDLSolver", "SparseLUSolver", "EigenSparseLU", "CholeskySolver"});
}

bool isLinearSolver(const std::string& t) {
  return endsWith(t, "LinearSolver") || isDirectSolver(t) ||
         isOneOf(t, {"EigenSparseQR", "PrecomputedLinearSolver", "BTDLinearSolver",
                     "CholeskySolver", "LULinearSolver"});
}

Walk walkScene(const SofaScene& scene, Reader& reader, bool skipUnsupported) {
  Walk walk;
  Collector collector{walk, reader, skipUnsupported, {}, {}, {}};
  collector.classify(scene.root());
  for (const SofaObject* state : collector.states) {
    Body body;
    body.state = state;
    body.odeSolver = integratingSolver(state->node);
    if (body.odeSolver) {
      body.linearSolver = collector.nearest(body.odeSolver->node, isLinearSolver);
      body.nonlinearSolver = collector.nearest(body.odeSolver->node, isNonlinearSolver);
    }
    walk.bodies.push_back(body);
  }
  // A solver below another never runs (integratingSolver): said, not refused.
  for (const SofaObject* o : collector.mechanics)
    if (isOdeSolver(o->type) && integratingSolver(o->node) != o)
      reader.warn(o->where + ": " + o->type +
                  " never runs: SOFA's animation loop integrates node " + o->node->path() +
                  " with the solver above it (" + integratingSolver(o->node)->where + ")");
  // Solvers act through the bodies above; every other component on its node's state, an
  // interaction force field on its object1's (PairInteractionForceField: each object the
  // context's state when not linked).
  for (const SofaObject* o : collector.mechanics) {
    if (isOdeSolver(o->type) || isLinearSolver(o->type) || isNonlinearSolver(o->type)) continue;
    const SofaObject* state = collector.stateOf(o->node);
    const bool attach = o->type == "AttachProjectiveConstraint" || o->type == "AttachConstraint";
    if (isInteractionSpring(o->type) || attach) {
      const auto stateNamed = [&](const char* field) {
        return o->field(field) ? linkedState(reader, *o, field) : state;
      };
      const SofaObject *first = stateNamed("object1"), *second = stateNamed("object2");
      bool rigidSecond = false;  // object2 a RigidMapping child: the spring is its frames'
      if (first && second) {
        // A state a mechanical mapping drives is no body: its forces would go back through the
        // mapping (J^T f), which interactions do not, but SpringForceField's springs to the
        // points a SubsetMapping or IdentityMapping selects from a body, or a BarycentricMapping
        // interpolates on a body's grid, which act on those points (io/sofa_springs.cpp).
        const bool selects = o->type == "SpringForceField" || o->type == "StiffSpringForceField";
        for (const auto& [field, s] : {std::pair{"object1", first}, std::pair{"object2", second}})
          for (const SofaObject& m : s->node->objects)
            if (isMechanicalMapping(m.type) && (!selects || !selectionBody(reader, *s, *o, field)))
              throw Error(o->where + ": " + o->type + ": " + field + " (" + s->node->path() +
                          ") is a state " + m.label() +
                          " drives: " + (attach ? "attached pairs" : "springs") +
                          " to a mapped state are not supported");
        rigidSecond = selects && isRigidlyMapped(*second);
        if (selects) {
          if (const SofaObject* body = selectionBody(reader, *first, *o, "object1")) first = body;
          if (const SofaObject* body = selectionBody(reader, *second, *o, "object2")) second = body;
        }
        const SofaObject* solver1 = integratingSolver(first->node);
        const SofaObject* solver2 = integratingSolver(second->node);
        // Across two solvers, SOFA applies the force in each solver's step from the other
        // state as it stands (an explicit coupling): not this importer's one implicit system.
        if (solver1 != solver2)
          throw Error(
              o->where + ": " + o->type + ": object1 (" + first->node->path() + ") and object2 (" +
              second->node->path() + ") are integrated by different ODE solvers (" +
              (solver1 ? solver1->where : "none") + ", " + (solver2 ? solver2->where : "none") +
              "): " + (attach ? "attached pairs" : "springs") +
              " between two solvers' states are not supported; put both "
              "under one EulerImplicitSolver");
      }
      state = rigidSecond ? second : first;
    }
    // A Lagrangian constraint between two states acts on its object1's body
    // (PairInteractionConstraint: the context's state when not linked).
    if ((o->type == "BilateralLagrangianConstraint" || o->type == "SlidingLagrangianConstraint") &&
        o->field("object1"))
      state = linkedState(reader, *o, "object1");
    // The scene's FreeMotionAnimationLoop, and a constraint solver beside it, act on every body
    // (io/sofa_import reads them among the orphans), also in a node with a state.
    const auto loopIn = [](const SofaNode* node) {
      return std::any_of(node->objects.begin(), node->objects.end(),
                         [](const SofaObject& m) { return isFreeMotionLoop(m.type); });
    };
    if (!state || isFreeMotionLoop(o->type) || (isConstraintSolver(o->type) && loopIn(o->node))) {
      walk.orphans.push_back(o);
      continue;
    }
    for (Body& body : walk.bodies)
      if (body.state == state) body.components.push_back(o);
  }
  // A mapped child goes with the body its mapping reads (`input`, the parent node's state by
  // default); one mapped from another mapped child is not a body's.
  // A SubsetMultiMapping's child goes with its first input's body, every input a body
  // (io/sofa_subset_multi_mapping).
  // An IdentityMapping from Rigid3d frames to a Rigid3d state copies the frames (apply) and adds
  // the child's forces to theirs (applyJT, J = I): that state is the frames themselves, so a
  // mapping reading it reads the frames and its ConstantForceFields act on them.
  const auto isRigid = [&](const SofaObject* state) {
    return state && isRigidTemplate(reader.text(*state, "template").value_or("Vec3d"));
  };
  const auto inputOf = [&](const SofaObject& mapping, const SofaNode* node) {
    return mapping.field("input") ? linkedState(reader, mapping, "input")
                                  : contextState(node->parent);
  };
  const auto framesOf = [&](const SofaObject* state) {
    while (isRigid(state)) {
      const SofaObject* identity = nullptr;
      for (const SofaObject& m : state->node->objects)
        if (m.type == "IdentityMapping") identity = &m;
      if (!identity ||
          (identity->field("output") && linkedState(reader, *identity, "output") != state))
        break;
      const SofaObject* input = inputOf(*identity, state->node);
      if (!isRigid(input)) break;
      state = input;
    }
    return state;
  };
  for (const MappedNode& child : collector.mappedNodes) {
    const SofaObject& mapping = *child.mapping;
    const bool multi = mapping.type == "SubsetMultiMapping";
    const SofaObject* input = multi ? multiMappingInputs(reader, mapping).front()
                                    : framesOf(inputOf(mapping, child.node));
    if (mapping.type == "IdentityMapping" && isRigid(child.state) && isRigid(input)) {
      Body* frames = nullptr;
      for (Body& body : walk.bodies)
        if (body.state == input) frames = &body;
      if (!frames)
        throw Error(mapping.where + ": " + mapping.type + ": its input (" + input->label() +
                    ") is not a body of frames");
      for (const SofaObject* o : child.components) {
        if (o->type != "ConstantForceField")
          throw Error(o->where + ": " + o->label() + ": in " + child.node->path() +
                      ", a Rigid3d copy of frames that an IdentityMapping drives, only a "
                      "ConstantForceField (acting on the frames themselves) is supported");
        frames->components.push_back(o);
      }
      continue;
    }
    // A SubsetMultiMapping child that joins free points and points fixed frames hold, with
    // force fields of its own, is a body (io/sofa_split_body).
    if (multi && isSplitChild(reader, child)) {
      foldSplitBody(reader, walk.bodies, child);
      continue;
    }
    // SOFA registers BarycentricMapping for Vec3 states only (BarycentricMapping.cpp): onto
    // frames its factory creates nothing, and SOFA runs the scene with those frames unmapped.
    if (mapping.type == "BarycentricMapping" && (isRigid(child.state) || isRigid(input)))
      throw Error(mapping.where + ": BarycentricMapping between " +
                  (input ? input->label() : std::string("none")) + " and " + child.state->label() +
                  ": SOFA builds BarycentricMapping for Vec3 states only; its factory fails "
                  "to create this one, and SOFA runs the scene with the state of " +
                  child.node->path() + " unmapped (a scene broken on SOFA's side)");
    if (multi)
      for (const SofaObject* each : multiMappingInputs(reader, mapping)) {
        if (std::any_of(walk.bodies.begin(), walk.bodies.end(),
                        [&](const Body& body) { return body.state == each; }))
          continue;
        std::string driven;
        for (const SofaObject& m : each->node->objects)
          if (isMechanicalMapping(m.type)) driven = ", which " + m.label() + " drives";
        throw Error(mapping.where + ": " + mapping.type + ": its input " + each->label() + " (" +
                    each->node->path() + driven +
                    ") is not a body: masses and force fields in a child mapped from a mapped "
                    "state are not supported");
      }
    if (mapping.field("output") && linkedState(reader, mapping, "output") != child.state)
      throw Error(mapping.where + ": " + mapping.type + ": output is not " + child.state->label() +
                  ", the MechanicalObject of its node, whose masses and "
                  "force fields it would carry");
    Body* parent = nullptr;
    for (Body& body : walk.bodies)
      if (body.state == input) parent = &body;
    // A BarycentricMapping from the state a DeformableOnRigidFrameMapping fills: carried by a
    // frame from the body that mapping reads (io/sofa_carried_points).
    if (!parent && input && mapping.type == "BarycentricMapping")
      if (const CarriedNode carried = carriedNode(reader, walk.bodies, child, *input);
          carried.frameMapping) {
        for (Body& body : walk.bodies)
          if (body.state == carriedBody(reader, *carried.frameMapping))
            body.carried.push_back(carried);
        // The mapping's node, listed as visual where nothing acted on it, is not.
        for (const SofaObject& o : carried.frameMapping->node->objects)
          if (const auto it = std::find(walk.visual.begin(), walk.visual.end(), o.type);
              it != walk.visual.end())
            walk.visual.erase(it);
        continue;
      }
    if (!parent)
      throw Error(mapping.where + ": " + mapping.type + ": its input (" +
                  (input ? input->label() : std::string("none")) +
                  ") is not a body: masses and force fields in a child mapped from another "
                  "mapped child are not supported");
    parent->mapped.push_back(child);
  }
  const auto isObstacle = [&](const Body& body) {
    return !body.odeSolver && body.components.empty() && body.mapped.empty() &&
           !collector.mapsIntoSolved(*body.state);
  };
  const auto isStill = [&](const Body& body) {
    if (!body.odeSolver || !body.components.empty() || !body.mapped.empty() ||
        collector.mapsIntoSolved(*body.state) || body.state->field("velocity"))
      return false;
    for (const SofaObject& o : body.state->node->objects)
      if (o.type == "Mesh2PointTopologicalMapping") return true;
    return false;
  };
  for (const Body& body : walk.bodies)
    if (isObstacle(body))
      walk.obstacles.push_back(body.state);
    else if (isStill(body))
      walk.still.push_back(body.state);
  walk.bodies.erase(std::remove_if(walk.bodies.begin(), walk.bodies.end(),
                                   [&](const Body& b) { return isObstacle(b) || isStill(b); }),
                    walk.bodies.end());
  return walk;
}

const SofaObject* selectionBody(const Reader& r, const SofaObject& state, const SofaObject& user,
                                const std::string& field) {
  const SofaObject* mapping = nullptr;
  for (const SofaObject& m : state.node->objects)
    if (isMechanicalMapping(m.type)) mapping = &m;
  if (!mapping) return nullptr;
  const auto refuse = [&](const std::string& why) -> const SofaObject* {
    throw Error(user.where + ": " + user.type + ": " + field + " (" + state.node->path() +
                ") is a state " + mapping->label() + " drives: " + why);
  };
  const bool barycentric = mapping->type == "BarycentricMapping";
  const bool rigid = mapping->type == "RigidMapping" &&
                     (user.type == "SpringForceField" || user.type == "StiffSpringForceField");
  if (mapping->type != "SubsetMapping" && mapping->type != "IdentityMapping" && !barycentric &&
      !rigid)
    return refuse(
        "springs to a mapped state are supported from SubsetMapping, IdentityMapping, "
        "BarycentricMapping and (SpringForceField) RigidMapping");
  const SofaObject* body = mapping->field("input") ? linkedState(r, *mapping, "input")
                                                   : contextState(state.node->parent);
  if (rigid && !(body && isRigidTemplate(r.text(*body, "template").value_or("Vec3d"))))
    return refuse("its RigidMapping reads no Rigid3d state");
  // SOFA's grid and sparse-grid mappers (BarycentricMapperRegularGridTopology,
  // ...SparseGridTopology) locate the points from the grid alone, which the importer can do; its
  // mesh mapper's search is not read here.
  const SofaObject* grid = body ? topologyOf(body->node) : nullptr;
  if (barycentric && !(grid && (grid->type == "RegularGridTopology" || isSparseGrid(grid->type))))
    return refuse(
        "springs to a BarycentricMapping child are supported from a body on a "
        "RegularGridTopology or a sparse grid; its input's topology is " +
        (grid ? grid->label() : std::string("none")));
  if (mapping->field("output") && linkedState(r, *mapping, "output") != &state)
    r.reject(*mapping, "output", "not " + state.label() + ", the MechanicalObject of its node");
  if (!body) return refuse("its mapping reads no MechanicalObject");
  for (const SofaObject& m : body->node->objects)
    if (isMechanicalMapping(m.type))
      return refuse("its mapping's input " + body->label() + " is mapped too: not supported");
  return body;
}

}  // namespace eis::sofa
