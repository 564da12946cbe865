#include "eis/model/physics.hpp"

#include "eis/core/scene.hpp"
#include "eis/linalg/linear_solver.hpp"

namespace eis {

const ComponentDeclaration& physicsComponent() {
  static const ComponentDeclaration component{
      "physics", "model", "the unknowns of every node",
      ParameterSpec().add(
          {"physics.type", "elasticity|diffusion",
           "elasticity: 3 displacement components per node; diffusion: one scalar field u per node,\n"
           "c du/dt = div(k grad u) (needs solver.first-order = true)",
           "elasticity", "", false, check::choice(kPhysics)}),
      [](Scene& scene) {
        if (physicsOf(scene) != Physics::Diffusion) return;
        if (!scene.boolean("solver.first-order"))
          throw Error("physics.type = diffusion requires solver.first-order = true");
        if (scene.choice("solver.preconditioner", kPreconditioners) ==
            Preconditioner::HypreElasticity)
          throw Error(
              "solver.preconditioner = hypre-elasticity applies to elasticity only, not to "
              "physics.type = diffusion (take hypre)");
      }};
  return component;
}

Physics physicsOf(const Parameters& scene) {
  return scene.choice("physics.type", kPhysics);
}

void requireElasticity(const Parameters& scene, const std::string& key, bool set) {
  if (set && physicsOf(scene) == Physics::Diffusion)
    throw Error(key + " applies to elasticity only, not to physics.type = diffusion");
}

const RegisterComponent registered(200, physicsComponent);

}  // namespace eis
