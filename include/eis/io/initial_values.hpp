#pragma once
// initial.positions and initial.velocities: a starting state written inline (SOFA's
// MechanicalObject `position` where it differs from `rest_position`, and `velocity`), in input
// node order; the rest shape stays the mesh. initial.values: diffusion's starting u, one number a
// node (SOFA's Vec1 `position`).
#include <petscvec.h>

#include "eis/core/component.hpp"
#include "eis/mesh/distributed_mesh.hpp"

namespace eis {

// Collective: x and v (global vectors) take the values the keys give (initial.values: x holds
// one u a node, diffusion). Throws the
// same error on every rank when a list does not fit the mesh.
void applyInitialValues(const Parameters& scene, const DistributedMesh& mesh, Vec x, Vec v);

// The keys' checks: groups of three finite numbers.
Check initialValuesCheck();

}  // namespace eis
