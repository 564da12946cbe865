#pragma once
// SOFA's heat diffusion on a Vec1 state (Sofa/Component/Diffusion): a Vec1 MechanicalObject whose
// values are a temperature, a TetrahedronDiffusionFEMForceField<Vec1> on a tetrahedral topology
// whose geometry is a Vec3 state (found by its tag, tagMechanics), a MeshMatrixMass<Vec1,Vec3>
// (geometryState: that Vec3 state), FixedProjectiveConstraints and
// LinearMovementProjectiveConstraints (one number a key time), integrated by an
// EulerImplicitSolver with firstOrder: our physics.type = diffusion on the geometry's mesh.
// Private to the SOFA importer (io/sofa_*.cpp).
#include <string>
#include <vector>

#include "sofa_reader.hpp"
#include "sofa_walk.hpp"

namespace eis::sofa {

// Whether a TetrahedronDiffusionFEMForceField acts on the body (then its state is Vec1: else
// refused).
bool isDiffusionBody(const Reader& reader, const Body& body);

// The Vec3 state whose positions are the diffusion's geometry: the one the force field finds by
// its tagMechanics, which the mass's geometryState must name. Refuses in one line a body whose
// components do not agree on it, or any component but those named above.
const SofaObject& diffusionGeometry(Reader& reader, const Body& body);

// The geometry of the TetrahedronDiffusionFEMForceField in `state`'s node (the Vec3 state its
// tagMechanics names), or nullptr when it has none.
const SofaObject* temperatureGeometry(const Reader& reader, const SofaObject& state);

// The body's keys past its mesh (read from the geometry): physics.type = diffusion, the
// conductivity, the capacity and its mass type, the constraints, and the starting values (the
// Vec1 state's `position`; one linked to a MeshOBJLoader's points is read from `objFile`).
// Gravity's x component would act on the temperature through the mass: refused unless 0.
void mapDiffusionBody(Reader& reader, const Body& body, const std::string& objFile,
                      std::vector<SofaKey>& keys);

}  // namespace eis::sofa
