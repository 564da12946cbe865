#pragma once
// What the unknowns of a node are: three displacement components (elasticity) or one scalar
// field (diffusion). A component that applies to one physics only says so through these.
#include "eis/core/component.hpp"
#include "eis/core/parameters.hpp"

namespace eis {

enum class Physics { Elasticity, Diffusion };
inline constexpr Named<Physics> kPhysics[] = {{"elasticity", Physics::Elasticity},
                                              {"diffusion", Physics::Diffusion}};

const ComponentDeclaration& physicsComponent();

// The physics component's reader (physics.type), the only reader of its key.
Physics physicsOf(const Parameters& scene);
inline int unknownsPerNode(Physics physics) {
  return physics == Physics::Elasticity ? 3 : 1;
}

}  // namespace eis
