#pragma once
// The checks of a scene across its components, run once on the whole scene after it is read: the
// one place where a component's parameters are judged against another's (diffusion needs
// solver.first-order; a prescribed motion is refused with solver.newton = full; the built-in
// box is fixed at x = 0 when no constraint is given). Each check names every key it reads. A
// component's checks of its own keys alone stay in its declaration (ComponentDeclaration::
// resolve), beside its reader.
#include <functional>
#include <string>
#include <vector>

#include "eis/core/scene.hpp"

namespace eis {

struct SceneCheck {
  std::string component;           // the type whose parameters it checks or sets defaults of
  std::vector<std::string> reads;  // every key it reads, its own component's and others'
  // Throws eis::Error naming the keys; may set defaults of the component's keys.
  std::function<void(Scene&)> run;
};

// Every check, each after the checks of the components before its own.
const std::vector<SceneCheck>& sceneChecks();

// Runs, component by component in the scene's order, the component's own resolve step and then
// its checks in sceneChecks().
void checkScene(Scene& scene);

}  // namespace eis
