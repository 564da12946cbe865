#pragma once
// What the program says about its scene keys: --help (every component with its parameters,
// their meanings, units and defaults) and the resolved scene as INI text (printed at start-up,
// so that a log says what ran, and readable back as a config file).
#include <string>
#include <vector>

#include "eis/core/scene.hpp"

namespace eis {

std::string helpText(const std::vector<const ComponentDeclaration*>& components);

std::string describe(const Scene& scene);

}  // namespace eis
