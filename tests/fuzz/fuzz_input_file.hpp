#pragma once
// The readers under fuzzing take a path: each input is written to one temporary file per process
// (reused, rewritten for every input) and its path handed over.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace eis::fuzz {

inline const std::string& inputPath() {
  static const std::string path = [] {
    std::string name = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") +
                       "/eis_fuzz_input.XXXXXX";
    const int fd = mkstemp(name.data());
    if (fd < 0) std::abort();
    close(fd);
    return name;
  }();
  return path;
}

inline const std::string& writeInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = inputPath();
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file || std::fwrite(data, 1, size, file) != size || std::fclose(file) != 0) std::abort();
  return path;
}

}  // namespace eis::fuzz
