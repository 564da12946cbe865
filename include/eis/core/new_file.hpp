#pragma once
// Creating the files a run writes so that a name never leads the write elsewhere: a temporary
// (PATH.partial) or a file made afresh is created only where nothing is, never through a link
// or into an existing file, so a link left at its name (by an earlier run, by anyone) cannot
// send the write into the file it points at. Used by the outputs (io/output_file), the
// checkpoints and mesh.convert.
#include <mpi.h>

#include <string>

namespace eis {

// The temporary a whole file is written to before it is renamed over `path`: PATH.partial.
std::string temporaryPathFor(const std::string& path);

// Rank-local. Removes what may be at `path`, left by an earlier run: a file or a link, the link
// itself and never the file it points at (unlink). "" when the name is free afterwards, else why
// not (a folder is there, no permission), as "cannot remove 'PATH': reason".
std::string clearName(const std::string& path);

// Rank-local. clearName(path), then creates `path` as a new, empty regular file, open for
// writing, with O_CREAT | O_EXCL | O_NOFOLLOW: if a file or a link appeared at the name since,
// the creation fails instead of writing through it. Returns the descriptor, or -1 with `why`
// set ("cannot create 'PATH': reason").
int createNewFile(const std::string& path, std::string& why);

// Collective; rank 0 acts. clearName(path) before HDF5 creates `path` itself (H5F_ACC_TRUNC),
// which would truncate and write through a link or into a file
// found there. Throws on every rank, "WHAT: reason", when the name cannot be freed. HDF5's create
// offers no O_EXCL, so the name is free only as long as nobody else creates it
// before HDF5 does; that race is with another process writing our own output folder, which
// nothing guards against anyway, and not with files left from an earlier run.
void clearNameForHdf5(const std::string& what, const std::string& path, MPI_Comm comm);

// Collective; rank 0 acts. The file HDF5 wrote at `temporary` (closed on every rank) is flushed
// to disk, then renamed over `path`, so that `path` never names a partial file. A link at `path`
// is replaced by the file, not written through. Throws on every rank, "WHAT: reason", on failure.
void commitTemporary(const std::string& what, const std::string& temporary, const std::string& path,
                     MPI_Comm comm);

}  // namespace eis
