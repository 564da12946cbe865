// libFuzzer harness: any bytes as an INI config file (io/config_file). A clean eis::Error is the
// expected end of a bad input; anything else is a finding.
#include <cstddef>
#include <cstdint>

#include "eis/core/error.hpp"
#include "eis/io/config_file.hpp"
#include "fuzz_input_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    eis::readConfigFile(eis::fuzz::writeInput(data, size));
  } catch (const eis::Error&) {
  }
  return 0;
}
