#pragma once
// The check every input file passes before it is read: a directory, a device (/dev/zero reads
// forever) or a pipe is refused by name instead of read as empty or until memory runs out.
#include <mpi.h>

#include <string>

namespace eis {

// Why `path` cannot be read as an input file ("no such file", "a directory, not a file", "not a
// regular file (a device, a pipe or a socket)"), or "" when it is a regular file.
std::string inputFileProblem(const std::string& path);

// Collective: whether `path` is a regular file that starts with HDF5's signature (rank 0 looks;
// anything else, a FIFO included, is not opened). Checkpoints and the converted meshes
// (mesh.convert) are HDF5 files.
bool isHdf5File(const std::string& path, MPI_Comm comm);

}  // namespace eis
