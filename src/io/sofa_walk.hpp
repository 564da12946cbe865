#pragma once
// The SOFA scene walk: which components are visual, collision or topology only, which
// MechanicalObjects are the scene's independent bodies, and which components act on each, as
// SOFA's graph decides it: a mass, force field or constraint acts on the mechanical state of its
// node, or of the nearest ancestor that has one (BaseContext::getMechanicalState); an ODE solver
// integrates every state of its node's subtree, with the linear solver of its node or above.
// Private to io/sofa_import.cpp.
#include <string>
#include <vector>

#include "eis/io/sofa_scene.hpp"
#include "sofa_reader.hpp"

namespace eis::sofa {

// A mapped child that carries masses or force fields: its node, its MechanicalObject, the one
// mechanical mapping (IdentityMapping, SubsetMapping, BarycentricMapping or RigidMapping) that
// drives it, and
// the node's other components, in the order written.
struct MappedNode {
  const SofaNode* node = nullptr;
  const SofaObject* state = nullptr;
  const SofaObject* mapping = nullptr;
  std::vector<const SofaObject*> components;
};

// A child that a BarycentricMapping drives from the state into which a
// DeformableOnRigidFrameMapping puts a body's nodes, given in a frame's coordinates
// (io/sofa_carried_points): the child, that mapping and the frames' state (its input2).
struct CarriedNode {
  MappedNode child;
  const SofaObject* frameMapping = nullptr;
  const SofaObject* frames = nullptr;
};

// One independent body: its MechanicalObject and what acts on it, in the order written.
struct Body {
  const SofaObject* state = nullptr;
  const SofaObject* odeSolver = nullptr;        // nearest in its node or above; may be null
  const SofaObject* linearSolver = nullptr;     // nearest in the ODE solver's node or above
  const SofaObject* nonlinearSolver = nullptr;  // NewtonRaphsonSolver: found as the linear one
  std::vector<const SofaObject*> components;
  std::vector<MappedNode> mapped;    // the mapped children it drives
  std::vector<CarriedNode> carried;  // the children a frame carries from it
  // A SubsetMultiMapping's child that is a body of its own (io/sofa_split_body): the mapping,
  // and the masses of the free points it maps from (those bodies are folded into this one).
  const SofaObject* splitMapping = nullptr;
  std::vector<const SofaObject*> splitMasses;
};

struct Walk {
  std::vector<Body> bodies;  // depth first, in the order written (SOFA's search-down order)
  // Components that may change the mechanics and act on no body (a scene-level animation loop
  // or constraint solver, a force field above every MechanicalObject).
  std::vector<const SofaObject*> orphans;
  // MechanicalObjects that no ODE solver integrates (none in their node or above) and that
  // nothing acts on: no mass, force field or constraint, no interaction spring, no mapping into
  // a state an ODE solver integrates. SOFA's SolveVisitor runs only the solvers of a node, so
  // such a state never moves; here, with contact not simulated, it acts on nothing either: a
  // collision obstacle, skipped. Not among `bodies`.
  std::vector<const SofaObject*> obstacles;
  // MechanicalObjects an ODE solver integrates whose points a Mesh2PointTopologicalMapping in
  // their node computes, with nothing acting on them (as above) and no velocity written: their
  // rows of SOFA's step are zero (no mass, no force, no stiffness), so the solve leaves them where
  // the mapping put them, and with contact not simulated they act on nothing. Not among `bodies`.
  std::vector<const SofaObject*> still;
  std::vector<std::string> visual, collision;  // types skipped, one entry per component
  // Python controllers (io/python_controllers), run between steps, depth first as written.
  std::vector<const SofaObject*> controllers;
};

// Walks the whole graph. Throws eis::Error naming the component for what cannot be simulated
// (a mass or force in a child of a mapping other than IdentityMapping, SubsetMapping,
// BarycentricMapping and RigidMapping, a Python force field, two MechanicalObjects in one node);
// with skipUnsupported the first two are skipped with a warning through `reader`.
Walk walkScene(const SofaScene& scene, Reader& reader, bool skipUnsupported);

// Whether the type is an ODE solver (it integrates its subtree), a nonlinear solver (the
// Newton iterations an ODE solver runs), or a linear solver.
bool isOdeSolver(const std::string& type);
bool isNonlinearSolver(const std::string& type);
bool isLinearSolver(const std::string& type);
// The ODE solver that integrates the states of `node`: the outermost one in the node or above
// (nullptr: none). SOFA's SolveVisitor stops at the first node with a solver, going down from the
// root, and that solver's step visits the whole subtree: a solver below it never runs.
const SofaObject* integratingSolver(const SofaNode* node);
// SpringForceField (StiffSpringForceField, its name before v25.06): springs between object1's
// and object2's points; it acts on the body of object1.
bool isInteractionSpring(const std::string& type);
// The MechanicalObject SOFA's context gives a component of `node`: its own, else the nearest
// ancestor's (nullptr: none).
const SofaObject* contextState(const SofaNode* node);
// The MechanicalObject the link in `field` names (an object, or a node: its state, as
// Node::findLinkDestClass finds it); an error naming the field when there is none.
const SofaObject* linkedState(const Reader& reader, const SofaObject& o, const std::string& field);
// The direct solvers that map onto our direct solve (MUMPS).
bool isDirectSolver(const std::string& type);
// A mechanical mapping: the node's state follows its parent's (a topological mapping is not).
bool isMechanicalMapping(const std::string& type);
// The body state whose points a SubsetMapping or IdentityMapping in `state`'s node selects, or a
// BarycentricMapping interpolates from a body on a RegularGridTopology or a sparse grid, or
// nullptr when no mechanical mapping drives `state`. Throws eis::Error naming `user`, whose
// `field` links the state, for another mapping, another topology or a mapped input.
const SofaObject* selectionBody(const Reader& reader, const SofaObject& state,
                                const SofaObject& user, const std::string& field);

}  // namespace eis::sofa
