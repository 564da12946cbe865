#pragma once
// A scene: the components a run is made of, with their parameters. The INI file and the command
// line fill it today (every key belongs to the one component that declares it); other scene
// formats are further producers of the same object. Read as one set of parameters, keyed
// "section.name", through the declarations of every component the build knows.
#include <memory>
#include <string>
#include <vector>

#include "eis/core/component.hpp"
#include "eis/core/parameters.hpp"

namespace eis {

class Scene : public Parameters {
public:
  // `components`: every component this build knows, in the order --help lists them. Throws
  // eis::Error when two declare the same key.
  explicit Scene(std::vector<const ComponentDeclaration*> components);

  const std::vector<const ComponentDeclaration*>& components() const { return components_; }
  // Whether any parameter of the component was given.
  bool mentions(const ComponentDeclaration& component) const;

private:
  std::vector<const ComponentDeclaration*> components_;
};

// One independent body of a run and its scene: the node path of its MechanicalObject in a SOFA
// scene ("/liver") when it has several, "" for a scene of one body. A run's keys that are not
// the body's own (solver.steps, solver.dt, the outputs) are the same in every body's scene.
struct ObjectScene {
  std::string path;
  Scene scene;
};

}  // namespace eis
