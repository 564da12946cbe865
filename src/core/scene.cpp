#include "eis/core/scene.hpp"

namespace eis {

namespace {
std::shared_ptr<const ParameterSpec> unionOf(
    const std::vector<const ComponentDeclaration*>& components) {
  auto all = std::make_shared<ParameterSpec>();
  for (const ComponentDeclaration* component : components)
    for (const ParameterDeclaration& d : component->parameters.declarations()) all->add(d);
  return all;
}
}  // namespace

Scene::Scene(std::vector<const ComponentDeclaration*> components)
    : Parameters(unionOf(components)), components_(std::move(components)) {}

bool Scene::mentions(const ComponentDeclaration& component) const {
  for (const ParameterDeclaration& d : component.parameters.declarations())
    if (given(d.key)) return true;
  return false;
}

}  // namespace eis
