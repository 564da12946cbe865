#pragma once
// SOFA's Lagrangian constraint solving as our lagrange.* keys: the scene-wide animation loop and
// constraint solver (io/sofa_lagrangian.cpp), and the constraints and corrections as SOFA
// mappings (io/sofa_lagrangian_constraints.cpp). Private to the SOFA importer.
#include <set>
#include <vector>

#include "sofa_reader.hpp"
#include "sofa_walk.hpp"

namespace eis::sofa {

// Whether the type is SOFA's animation loop that solves Lagrangian constraints, or one of its
// constraint solvers.
bool isFreeMotionLoop(const std::string& type);
bool isConstraintSolver(const std::string& type);

// Throws eis::Error naming `caller` (the loop, or the ODE solver that solves the constraints in
// its step) when `collision` holds a pipeline or contact manager: its contacts would be
// Lagrangian constraints, which are not simulated.
void refuseContacts(const SofaObject& caller, const std::vector<std::string>& collision);

// Whether the ODE solver is an EulerImplicitSolver with solveConstraint true.
bool solvesConstraintInStep(Reader& reader, const SofaObject* odeSolver);

// The current body's lagrange.solver keys from the scene's FreeMotionAnimationLoop (`loop`, may
// be null) and constraint solver (`solver`, may be null). Throws eis::Error naming the component
// for what is not supported: a constraint solver no FreeMotionAnimationLoop calls, a Lagrangian
// constraint or correction of `components` without the loop, the loop with a collision pipeline
// (contacts are not simulated), a constraint solver other than
// BlockGaussSeidelConstraintSolver.
// A LinearSolverConstraintCorrection whose linearSolver links to another solver than
// `linearSolver`, the body's, is refused too: W and the correction go through the body's.
// With an EulerImplicitSolver `odeSolver` whose solveConstraint is true (and no loop), the
// constraint solver of its own node is the one its step calls (lagrange.in-step).
void mapConstraintSolving(Reader& reader, const SofaObject* loop, const SofaObject* solver,
                          const std::vector<const SofaObject*>& components,
                          const SofaObject* odeSolver, const SofaObject* linearSolver,
                          const std::vector<std::string>& collision);

// The MechanicalObjects that the bodies' BilateralLagrangianConstraints name as object2. Those
// that nothing integrates and nothing acts on (the walk's obstacles) give the constraints fixed
// points.
std::set<const SofaObject*> bilateralTargets(const Reader& reader, const Walk& walk);

}  // namespace eis::sofa
