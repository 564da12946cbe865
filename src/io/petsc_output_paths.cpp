#include "eis/io/petsc_output_paths.hpp"

#include <petscsys.h>

#include <unistd.h>

#include <filesystem>
#include <sstream>
#include <vector>

#include "eis/core/error.hpp"

namespace eis {

namespace fs = std::filesystem;

namespace {

// The file a PETSc viewer value names ("[TYPE]:FILE[:FORMAT[:MODE]]", TYPE ascii, binary, hdf5
// or vtk, or none for -log_view's ":FILE"), or "" when it names none (standard output, a draw
// window, a socket).
std::string viewerFile(const std::string& value) {
  const std::size_t colon = value.find(':');
  if (colon == std::string::npos) return "";
  const std::string type = value.substr(0, colon);
  if (!type.empty() && type != "ascii" && type != "binary" && type != "hdf5" && type != "vtk")
    return "";
  const std::size_t end = value.find(':', colon + 1);
  return value.substr(colon + 1, end == std::string::npos ? std::string::npos : end - colon - 1);
}

// Why PETSc could not create `file`, or "".
std::string unwritable(const std::string& file) {
  const fs::path folder = fs::path(file).parent_path();
  std::error_code error;
  if (!folder.empty() && !fs::is_directory(folder, error)) return "no folder " + folder.string();
  if (fs::is_directory(file, error)) return "it is a folder";
  // PETSc does not check its writes (-log_view's are made in PetscFinalize): to a device or a
  // pipe what fails would be lost, or the open would wait. The standard streams, /dev/null and
  // terminals are what such a path is for.
  const fs::file_status status = fs::status(file, error);
  const bool terminal = file.rfind("/dev/tty", 0) == 0 || file.rfind("/dev/pts/", 0) == 0;
  if (fs::exists(status) && !fs::is_regular_file(status) && !terminal && file != "/dev/stdout" &&
      file != "/dev/stderr" && file != "/dev/null")
    return "not a regular file (PETSc does not check its writes there)";
  if (access(folder.empty() ? "." : folder.c_str(), W_OK) != 0)
    return "the folder " + (folder.empty() ? std::string(".") : folder.string()) +
           " is not writable";
  return "";
}

// Rank 0's verdict on every option of PETSc's database; `option`, the one it refuses.
std::string problemOnRankZero(std::string& option) {
  char* all = nullptr;
  EIS_CHECK(PetscOptionsGetAll(nullptr, &all));
  std::istringstream in(all ? all : "");
  EIS_CHECK(PetscFree(all));
  std::vector<std::string> tokens;
  for (std::string token; in >> token;) tokens.push_back(token);
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    if (tokens[i].size() < 2 || tokens[i][0] != '-' || tokens[i + 1][0] == '-') continue;
    const std::string file = viewerFile(tokens[i + 1]);
    if (file.empty()) continue;
    if (const std::string why = unwritable(file); !why.empty()) {
      option = tokens[i];
      return "PETSc option " + tokens[i] + " " + tokens[i + 1] + ": " + why +
             " (refused before step 1; PETSc would fail when it writes, -log_view after the "
             "last step)";
    }
  }
  return "";
}

}  // namespace

void checkPetscOutputPaths(MPI_Comm comm) {
  int rank;
  EIS_CHECK_MPI(MPI_Comm_rank(comm, &rank));
  std::string option;
  const std::string problem = rank == 0 ? problemOnRankZero(option) : "";
  // The refused option leaves the database on every rank, so that PetscFinalize does not fail
  // on it a second time.
  int length = int(option.size());
  EIS_CHECK_MPI(MPI_Bcast(&length, 1, MPI_INT, 0, comm));
  option.resize(std::size_t(length));
  EIS_CHECK_MPI(MPI_Bcast(option.data(), length, MPI_CHAR, 0, comm));
  if (!option.empty()) EIS_CHECK(PetscOptionsClearValue(nullptr, option.c_str()));
  throwIfAnyRankFailed(problem, comm);
}

}  // namespace eis
