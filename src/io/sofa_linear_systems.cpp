// SOFA's linear-system storage components, which choose how SOFA stores the assembled matrix
// and projects mapped matrices, and change no result of ours: we assemble our own
// (linalg/system_matrix.cpp).
#include "sofa_linear_systems.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "eis/io/sofa_scene.hpp"
#include "sofa_reader.hpp"
#include "sofa_walk.hpp"

namespace eis::sofa {

namespace {

bool isMatrixSystem(const SofaObject& o) {
  return o.type == "MatrixLinearSystem" || o.type == "ConstantSparsityPatternSystem";
}

// The objects a field's links name ("@a @b"), in order.
std::vector<const SofaObject*> linkedObjects(const Reader& r, const SofaObject& o,
                                             const std::string& field) {
  std::vector<const SofaObject*> out;
  const std::string* text = o.field(field);
  if (!text) return out;
  for (const std::string& token : parse::tokens(*text)) {
    if (!isSofaLink(token)) r.reject(o, field, "expected links (@path)");
    const SofaLinkTarget target = r.scene().resolve(*o.node, token, r.where(o, field), &o);
    if (target.object) out.push_back(target.object);
  }
  return out;
}

// CompositeLinearSystem::init: the system the linear solver solves, solverLinearSystem, else the
// first of linearSystems; nullptr when none.
const SofaObject* solverSystemOf(const Reader& r, const SofaObject& composite) {
  const std::vector<const SofaObject*> solver = linkedObjects(r, composite, "solverLinearSystem");
  if (!solver.empty()) return solver.front();
  const std::vector<const SofaObject*> systems = linkedObjects(r, composite, "linearSystems");
  return systems.empty() ? nullptr : systems.front();
}

// Whether a CompositeLinearSystem assembles `system` beside the one it solves, and no linear
// solver solves it (none links it by `linearSystem`): its matrix is only read by what displays
// it (GlobalSystemMatrixImage, which links it by `linearSystem` too), and what it leaves out
// changes nothing.
bool onlyAssembledForReaders(const Reader& r, const SofaObject& system) {
  bool listed = false;
  for (const SofaObject* o : r.scene().objects()) {
    if (o->type == "CompositeLinearSystem") {
      if (solverSystemOf(r, *o) == &system) return false;
      for (const SofaObject* each : linkedObjects(r, *o, "linearSystems"))
        listed = listed || each == &system;
    } else if (endsWith(o->type, "Solver") && o->field("linearSystem") &&
               r.linked(*o, "linearSystem") == &system) {
      return false;
    }
  }
  return listed;
}

// ConstantSparsityPatternSystem.inl (Sofa/Component/LinearSystem): a MatrixLinearSystem that,
// after the first assembly, adds each contribution straight into the compressed matrix's values
// at the place its first insertion took (a hash table of the pattern), which SOFA documents as
// valid only while the pattern stays constant; the matrix and its projective constraints
// (MatrixLinearSystem::applyProjectiveConstraints) are those of MatrixLinearSystem. Our bodies
// have a constant pattern (no topological changes, no contacts), so it is accepted, and so is
// MatrixLinearSystem itself (whose matrix a Python controller may read: app/component_matrices).
// The MatrixLinearSystem switches (all true by default) that leave out a part of the matrix are
// refused, but on a system a CompositeLinearSystem assembles only for what displays it
// (readerSystems: what a controller reads of it).
constexpr const char* kSwitches[] = {"assembleStiffness",
                                     "assembleMass",
                                     "assembleDamping",
                                     "assembleGeometricStiffness",
                                     "applyProjectiveConstraints",
                                     "applyMappedComponents",
                                     "enableAssembly"};

void mapConstantSparsityPattern(Reader& r, const SofaObject& o) {
  if (onlyAssembledForReaders(r, o)) {
    r.note(o.label() +
           ": assembled by a CompositeLinearSystem beside the system it solves, for what "
           "displays it: no effect on the result");
    return;
  }
  for (const char* field : kSwitches)
    if (!r.boolean(o, field, true))
      r.reject(o, field, "a linear system that leaves out part of the matrix is not supported");
  r.note(o.label() +
         ": SOFA's storage of the assembled matrix, with a constant pattern as here: no "
         "effect on the result");
}

// CompositeLinearSystem.inl: it assembles each of its linearSystems (solverLinearSystem added
// when missing) and hands the linear solver solverLinearSystem's matrix, else the first one's.
// The solve is that system's, whose switches its own mapping checks.
void mapCompositeLinearSystem(Reader& r, const SofaObject& o) {
  const SofaObject* solver = solverSystemOf(r, o);
  if (!solver)
    r.reject(o, "linearSystems", "no linear system to solve (SOFA: the component is invalid)");
  if (!isMatrixSystem(*solver))
    r.reject(o, r.given(o, "solverLinearSystem") ? "solverLinearSystem" : "linearSystems",
             "the solved system " + solver->label() +
                 " is not a MatrixLinearSystem or ConstantSparsityPatternSystem");
  r.note(o.label() + ": the linear solver solves " + solver->label() +
         "'s assembled matrix, ours; the other systems are only assembled for display");
}

// MatrixProjectionMethod.inl: for a pair of mapped states, the projection J1^T K J2 of their
// matrix onto the states the mappings read, which MatrixLinearSystem (findProjectionMethod)
// otherwise creates itself with areJacobiansConstant false; true computes the mappings'
// Jacobians once, at the first assembly. Ours is the same product, with the Jacobians as they
// stand: no effect on the result while they cannot change, which holds for IdentityMapping,
// SubsetMapping and BarycentricMapping (linear in the input). With another mapping on the way
// up from either state (RigidMapping's J turns with its frames), true is refused.
void mapMatrixProjectionMethod(Reader& r, const SofaObject& o) {
  const std::vector<const SofaObject*> states = linkedObjects(r, o, "mechanicalStates");
  if (states.size() != 2)
    r.reject(o, "mechanicalStates",
             "expected the two states whose matrix it projects (SOFA: it projects none)");
  const bool constant = r.boolean(o, "areJacobiansConstant", false);
  for (const SofaObject* state : states) {
    if (state->type != "MechanicalObject")
      r.reject(o, "mechanicalStates", state->label() + " is no MechanicalObject");
    const SofaObject* mapped = state;
    for (int depth = 0; mapped && depth < 64; ++depth) {
      const SofaObject* mapping = nullptr;
      for (const SofaObject& m : mapped->node->objects)
        if (isMechanicalMapping(m.type)) mapping = &m;
      if (!mapping) break;
      if (constant && mapping->type != "IdentityMapping" && mapping->type != "SubsetMapping" &&
          mapping->type != "BarycentricMapping")
        r.reject(o, "areJacobiansConstant",
                 "true, and the Jacobian of " + mapping->label() + " above " + state->label() +
                     " changes with the positions: SOFA would keep its first one");
      mapped = mapping->field("input") ? linkedState(r, *mapping, "input")
                                       : contextState(mapped->node->parent);
    }
  }
  r.note(o.label() +
         ": the projection J^T K J of a mapped pair's matrix, which ours assembles too, its "
         "Jacobians constant: no effect on the result");
}

// TypedMatrixLinearSystem::getSolveContext: the node of the linear solver in the system's node
// or above (the nearest), else the system's own node.
const SofaNode* solveContext(const SofaObject& system) {
  for (const SofaNode* node = system.node; node; node = node->parent)
    for (const SofaObject& o : node->objects)
      if (isLinearSolver(o.type)) return node;
  return system.node;
}

bool inSubtree(const SofaNode* node, const SofaNode* top) {
  for (; node; node = node->parent)
    if (node == top) return true;
  return false;
}

// Why the run cannot give the mass-only system `o`'s matrix over the bodies it covers (their
// indices in `bodies`), or "" when it can.
std::string massOnlyRefusal(Reader& r, const SofaObject& o, const SofaImport& out,
                            std::vector<std::size_t>& bodies) {
  const SofaNode* context = solveContext(o);
  for (const SofaObject* each : r.scene().objects()) {
    if (!inSubtree(each->node, context)) continue;
    if (endsWith(each->type, "Mass") && r.real(*each, "rayleighMass", 0) != 0)
      return each->label() +
             " has its own rayleighMass, which SOFA adds to the mass factor and the run "
             "does not take";
    if (each->type != "MechanicalObject") continue;
    const bool mapped =
        std::any_of(each->node->objects.begin(), each->node->objects.end(),
                    [](const SofaObject& m) { return isMechanicalMapping(m.type); });
    const std::string path = each->node->path();
    const auto body = std::find_if(out.objects.begin(), out.objects.end(),
                                   [&](const SofaObjectKeys& k) { return k.path == path; });
    if (body == out.objects.end()) {
      if (mapped) continue;
      return each->label() + " in " + path +
             " is not simulated by the run, and SOFA's matrix holds its rows";
    }
    const std::string kind = r.text(*each, "template").value_or("Vec3d");
    if (kind != "Vec3d" && kind != "Vec3f" && kind != "Vec3")
      return each->label() + " is a " + kind + " state: only Vec3 states are supported";
    if (body->matrices.mapped || body->matrices.python)
      return "the body of " + path +
             (body->matrices.mapped ? " has mapped children, whose masses SOFA maps into it"
                                    : " has a force field written in Python");
    bodies.push_back(std::size_t(body - out.objects.begin()));
  }
  if (bodies.empty()) return "its solve context " + context->path() + " holds no body of the run";
  return "";
}

}  // namespace

// MatrixLinearSystem::assembleSystem with assembleStiffness and assembleDamping false (SOFA's
// "mass-only" system, SofaPython3's access_mass_matrix.py): only the masses contribute, each
// scaled by getContributionFactor<MASS>, mFactor - bFactor rayleighMass (the mass's own), that
// is the ODE solver's mFactor, 1 + tr h rM (1 first-order), the same mparams the solved system
// gets (CompositeLinearSystem::buildSystemMatrix hands it to every system). The matrix covers
// every state of its solve context in MappingGraph order (depth first, as written: the order of
// the run's bodies). Without mapped states there is no geometric stiffness nor mapped
// component, so those two switches change nothing; applyProjectiveConstraints true and
// enableAssembly false are refused, as is any other combination.
void readerSystems(Reader& r, SofaImport& out) {
  for (const SofaObject* o : r.scene().objects()) {
    if (!isMatrixSystem(*o) || !onlyAssembledForReaders(r, *o)) continue;
    std::string off;
    for (const char* field : kSwitches)
      if (!r.boolean(*o, field, true)) off += std::string(off.empty() ? "" : ", ") + field;
    if (off.empty()) continue;
    SofaReaderSystem system{objectPath(*o), {}, ""};
    const bool massOnly =
        r.boolean(*o, "assembleMass", true) && !r.boolean(*o, "assembleStiffness", true) &&
        !r.boolean(*o, "assembleDamping", true) &&
        !r.boolean(*o, "applyProjectiveConstraints", true) && r.boolean(*o, "enableAssembly", true);
    if (!massOnly)
      system.refused = "a linear system that leaves out part of the matrix (" + off +
                       " false) is read only as SOFA's mass-only system (assembleStiffness, "
                       "assembleDamping and applyProjectiveConstraints false)";
    else if (std::string why = massOnlyRefusal(r, *o, out, system.bodies); !why.empty())
      system.refused = "the mass-only linear system is not read: " + why;
    for (SofaObjectKeys& body : out.objects) {
      auto& systems = body.matrices.systems;
      systems.erase(std::remove(systems.begin(), systems.end(), system.path), systems.end());
    }
    out.readerSystems.push_back(std::move(system));
  }
}

const RegisterSofaMapping matrixProjectionMethod({"MatrixProjectionMethod"},
                                                 mapMatrixProjectionMethod);
const RegisterSofaMapping compositeLinearSystem({"CompositeLinearSystem"},
                                                mapCompositeLinearSystem);
const RegisterSofaMapping constantSparsityPattern({"ConstantSparsityPatternSystem",
                                                   "MatrixLinearSystem"},
                                                  mapConstantSparsityPattern);

}  // namespace eis::sofa
