#pragma once
// The mesh layer's MPI calls, checked: EIS_MPI_CHECK turns a failed MPI call into eis::Error, as
// EIS_CHECK (core/error.hpp) does for PETSc calls. Private to src/mesh.
#include <mpi.h>

#include <string>

#include "eis/core/error.hpp"

namespace eis::mesh_detail {

// Builds the message for a failed MPI call (MPI's own text, and where we called it).
[[noreturn]] inline void throwMpiError(int code, const char* call, const char* file, int line) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) length = 0;
  throw Error("MPI: " + (length > 0 ? std::string(text, length) : "error " + std::to_string(code)) +
              " in " + call + " (" + file + ":" + std::to_string(line) + ")");
}

}  // namespace eis::mesh_detail

#define EIS_MPI_CHECK(call)                                                               \
  do {                                                                                    \
    const int eis_mpi_err_ = (call);                                                      \
    if (eis_mpi_err_ != MPI_SUCCESS)                                                      \
      ::eis::mesh_detail::throwMpiError(eis_mpi_err_, #call, __FILE__, __LINE__);        \
  } while (0)

namespace eis::mesh_detail {

// This rank's number in `comm`, and the number of ranks in it.
inline int commRank(MPI_Comm comm) {
  int rank = 0;
  EIS_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  return rank;
}

inline int commSize(MPI_Comm comm) {
  int size = 1;
  EIS_MPI_CHECK(MPI_Comm_size(comm, &size));
  return size;
}

}  // namespace eis::mesh_detail
