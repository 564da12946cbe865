#pragma once
// The files and folders outputs write: checked (and their missing folders created) once, before
// the first step, so that an unusable path fails the run at once and not after its last step;
// and a whole-file write that never leaves a truncated file where a good one was. The temporaries
// are created where nothing is (core/new_file): a link or a file left at their name is removed,
// never written through.
#include <mpi.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "eis/core/new_file.hpp"

namespace eis {

// How an output writes its file.
enum class FileWrite {
  InPlace,   // opened once and appended to (history CSV): any writable path, /dev/stdout too
  Replaced,  // written whole to a temporary in the same folder, then renamed over the target
};

// Collective; rank 0 checks. Creates the missing parent folders of `path` (as mkdir -p) and
// checks that `path` can be written as `mode` says. Throws on every rank, naming `key` and
// `path`, when the path is a directory, its folder cannot be created or written, or (Replaced)
// it exists and is not a regular file, or its temporary cannot be created (a leftover there is
// removed first, as replaceFile does).
void prepareOutputFile(const std::string& key, const std::string& path, FileWrite mode,
                       MPI_Comm comm);

// Collective; rank 0 creates `folder` and its parents. Throws on every rank, naming `key`, its
// `value` and `folder`, when it is not a writable folder. An empty folder is the working
// directory.
void prepareOutputFolder(const std::string& key, const std::string& value,
                         const std::string& folder, MPI_Comm comm);

// A file a run reads or writes, and the key that names it.
struct NamedFile {
  std::string key, path;
  bool written;  // an output; else an input
};

// Collective; rank 0 checks. Throws on every rank, naming both keys and paths, when an output is
// the same file as another output or an input: the same path once links and relative parts are
// resolved, or, where both exist, the same file (a hard link). An output over an input would
// destroy it, two outputs over one another lose one; two inputs may be one file. Empty paths and
// existing ones that are no regular file (/dev/stdout) are not compared.
void refuseSameFiles(const std::vector<NamedFile>& files, MPI_Comm comm);

// Rank-local: `fill` writes the whole content into temporaryPathFor(path), created anew by
// createNewFile (a leftover file or link there removed, never written through), which is then
// flushed to disk and renamed over `path`. A link at `path` itself is replaced by the file, not
// written through (rename's way, and this function's since it exists). Returns an error message
// (naming `key` and `path`), empty on success; on failure `path` is untouched and the temporary
// is removed.
std::string replaceFile(const std::string& key, const std::string& path,
                        const std::function<void(std::FILE*)>& fill);

}  // namespace eis
