#pragma once
// What the unknowns of a node are: three displacement components (elasticity) or one scalar
// field (diffusion). A component that applies to one physics only says so through these.
#include <string>

#include "eis/core/component.hpp"
#include "eis/core/parameters.hpp"

namespace eis {

enum class Physics { Elasticity, Diffusion };
inline constexpr Named<Physics> kPhysics[] = {{"elasticity", Physics::Elasticity},
                                              {"diffusion", Physics::Diffusion}};

const ComponentDeclaration& physicsComponent();

Physics physicsOf(const Parameters& scene);
inline int unknownsPerNode(Physics physics) {
  return physics == Physics::Elasticity ? 3 : 1;
}

// An error when the scene is a diffusion scene and `set` says that `key`, which applies to
// elasticity only, asks for something.
void requireElasticity(const Parameters& scene, const std::string& key, bool set);

}  // namespace eis
