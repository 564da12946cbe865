#include "eis/core/input_file.hpp"

#include <filesystem>

namespace eis {

std::string inputFileProblem(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (status.type() == fs::file_type::not_found) return "no such file";
  if (error) return error.message();
  if (status.type() == fs::file_type::directory) return "a directory, not a file";
  if (status.type() != fs::file_type::regular)
    return "not a regular file (a device, a pipe or a socket)";
  return "";
}

}  // namespace eis
