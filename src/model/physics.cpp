#include "eis/model/physics.hpp"

namespace eis {

const ComponentDeclaration& physicsComponent() {
  static const ComponentDeclaration component{
      "physics", "model", "the unknowns of every node",
      ParameterSpec().add(
          {"physics.type", "elasticity|diffusion",
           "elasticity: 3 displacement components per node; diffusion: one scalar field u per node,\n"
           "c du/dt = div(k grad u) (needs solver.first-order = true)",
           "elasticity", "", false, check::choice(kPhysics)}),
      nullptr};
  return component;
}

Physics physicsOf(const Parameters& scene) {
  return scene.choice("physics.type", kPhysics);
}

const RegisterComponent registered(200, physicsComponent);

}  // namespace eis
