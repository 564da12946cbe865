#include "eis/core/component_registry.hpp"

namespace eis {

ComponentRegistry<const ComponentDeclaration*>& componentDeclarations() {
  static ComponentRegistry<const ComponentDeclaration*> registry;
  return registry;
}

RegisterComponent::RegisterComponent(int rank, const ComponentDeclaration& (*declaration)()) {
  componentDeclarations().add(rank, [declaration] { return &declaration(); });
}

}  // namespace eis
