#pragma once
// A component of a scene: a mesh source, a mass, a force field, a projective constraint, the
// time integrator, the linear solver, an output. Each declares itself in its own file: its type
// name, what kind of part it is, one line saying what it stands for, and its parameters; reads
// them into its own typed struct there (the only reader of its keys); and registers itself
// there. The scene readers, --help and the start-up report work from these
// declarations alone.
#include <functional>
#include <string>

#include "eis/core/parameters.hpp"

namespace eis {

class Scene;

struct ComponentDeclaration {
  std::string type;     // the name scenes use: "mesh-springs"
  std::string kind;     // "force field", "mass", "output", ...
  std::string summary;  // one line, with the SOFA component it stands for where there is one
  ParameterSpec parameters;
  // Checks among the component's own keys, and defaults of its keys from its own keys; run once
  // on the whole scene after it is read (checkScene, eis/io/scene_checks.hpp, which also runs the
  // checks that read other components' keys). Throws eis::Error naming the keys.
  std::function<void(Scene&)> resolve;
};

// A static object of this type at the end of a component's file registers its declaration at
// its rank (eis/core/component_registry.hpp): adding a component edits no list elsewhere.
// Force fields and outputs register with their factories instead (RegisterForceField,
// RegisterOutput).
struct RegisterComponent {
  RegisterComponent(int rank, const ComponentDeclaration& (*declaration)());
};

}  // namespace eis
