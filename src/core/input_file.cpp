#include "eis/core/input_file.hpp"

#include <cstring>
#include <filesystem>
#include <fstream>

#include "eis/core/error.hpp"

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

bool isHdf5File(const std::string& path, MPI_Comm comm) {
  int hdf5 = 0;
  // Only a regular file is opened: opening a FIFO would wait for a writer for ever; what is not
  // one is refused by name where the file is read.
  if (commRank(comm) == 0 && inputFileProblem(path).empty()) {
    static const char signature[8] = {'\x89', 'H', 'D', 'F', '\r', '\n', '\x1a', '\n'};
    char head[8] = {};
    std::ifstream in(path, std::ios::binary);
    hdf5 = in.read(head, 8) && std::memcmp(head, signature, 8) == 0;
  }
  EIS_CHECK_MPI(MPI_Bcast(&hdf5, 1, MPI_INT, 0, comm));
  return hdf5 != 0;
}

}  // namespace eis
