// The outputs this build knows: each registers itself at the end of its own file.
#include "eis/io/output.hpp"

namespace eis {

ComponentRegistry<OutputComponent>& outputRegistry() {
  static ComponentRegistry<OutputComponent> registry;
  return registry;
}

RegisterOutput::RegisterOutput(int rank, OutputComponent (*component)()) {
  outputRegistry().add(rank, component);
}

const std::vector<OutputComponent>& outputComponents() {
  return outputRegistry().entries();
}

}  // namespace eis
