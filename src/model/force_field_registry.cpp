// The force fields this build knows: each registers itself at the end of its own file.
#include "eis/model/force_field_component.hpp"

namespace eis {

ComponentRegistry<ForceFieldComponent>& forceFieldRegistry() {
  static ComponentRegistry<ForceFieldComponent> registry;
  return registry;
}

RegisterForceField::RegisterForceField(int rank, ForceFieldComponent (*component)()) {
  forceFieldRegistry().add(rank, component);
}

const std::vector<ForceFieldComponent>& forceFieldComponents() {
  return forceFieldRegistry().entries();
}

std::vector<double> restArray(const DistributedMesh& mesh) {
  std::vector<double> rest;
  rest.reserve(3 * mesh.numLocalVertices());
  for (const auto& p : mesh.restCoords()) rest.insert(rest.end(), p.begin(), p.end());
  return rest;
}

}  // namespace eis
