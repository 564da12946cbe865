// The outputs this build knows: each registers itself at the end of its own file.
#include "eis/io/output.hpp"

#include <algorithm>

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

std::vector<std::string> shownFieldNames(const RunStates& states) {
  std::vector<std::string> names;
  for (const RunState& state : states)
    state.integrator.saveShown([&](const std::string& name, Vec) {
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    });
  return names;
}

void useShownFields(const RunState& state, const std::vector<std::string>& names,
                    const std::function<void(std::size_t k, Vec vector)>& use) {
  std::vector<bool> shown(names.size(), false);
  state.integrator.saveShown([&](const std::string& name, Vec vector) {
    const auto at = std::find(names.begin(), names.end(), name);
    if (at == names.end()) return;
    shown[std::size_t(at - names.begin())] = true;
    use(std::size_t(at - names.begin()), vector);
  });
  for (std::size_t k = 0; k < names.size(); ++k)
    if (!shown[k]) use(k, nullptr);
}

}  // namespace eis
