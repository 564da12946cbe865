// libFuzzer harness: any bytes as a Gmsh file. A clean eis::Error is the expected end of a bad
// input; a crash, a sanitizer report, another exception or a hang is a finding.
#include <cstddef>
#include <cstdint>

#include "eis/core/error.hpp"
#include "eis/mesh/gmsh_reader.hpp"
#include "fuzz_input_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    eis::readGmsh(eis::fuzz::writeInput(data, size));
  } catch (const eis::Error&) {
  }
  return 0;
}
