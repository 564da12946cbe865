// SOFA's linear-system storage components, which choose how SOFA stores the assembled matrix
// and projects mapped matrices, and change no result of ours: we assemble our own
// (linalg/system_matrix.cpp).
#include <string>
#include <vector>

#include "eis/io/sofa_scene.hpp"
#include "sofa_reader.hpp"
#include "sofa_walk.hpp"

namespace eis::sofa {

namespace {

bool endsWith(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() &&
         text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

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
// refused, but on a system a CompositeLinearSystem assembles only for what displays it.
void mapConstantSparsityPattern(Reader& r, const SofaObject& o) {
  if (onlyAssembledForReaders(r, o)) {
    r.note(o.label() +
           ": assembled by a CompositeLinearSystem beside the system it solves, for what "
           "displays it: no effect on the result");
    return;
  }
  for (const char* field :
       {"assembleStiffness", "assembleMass", "assembleDamping", "assembleGeometricStiffness",
        "applyProjectiveConstraints", "applyMappedComponents", "enableAssembly"})
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

}  // namespace

const RegisterSofaMapping matrixProjectionMethod({"MatrixProjectionMethod"},
                                                 mapMatrixProjectionMethod);
const RegisterSofaMapping compositeLinearSystem({"CompositeLinearSystem"},
                                                mapCompositeLinearSystem);
const RegisterSofaMapping constantSparsityPattern({"ConstantSparsityPatternSystem",
                                                   "MatrixLinearSystem"},
                                                  mapConstantSparsityPattern);

}  // namespace eis::sofa
