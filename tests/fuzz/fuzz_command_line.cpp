// libFuzzer harness: any bytes as a command line, one argument per line, parsed into a scene of
// every known component and resolved (the path of `main` before PETSc starts). --config is left
// out: what it reads is fuzzed by fuzz_config_file, and a fuzzed path could name any file.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "eis/app/scene_builder.hpp"
#include "eis/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> arguments{"euler-implicit"};
  std::string current;
  for (std::size_t i = 0; i <= size; ++i) {
    if (i == size || data[i] == '\n') {
      if (current.rfind("--config", 0) != 0) arguments.push_back(current);
      current.clear();
    } else {
      current.push_back(static_cast<char>(data[i]));
    }
  }
  std::vector<const char*> argv;
  for (const std::string& argument : arguments) argv.push_back(argument.c_str());
  try {
    eis::parseArguments(static_cast<int>(argv.size()), argv.data());
  } catch (const eis::Error&) {
  }
  return 0;
}
