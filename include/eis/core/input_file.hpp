#pragma once
// The check every input file passes before it is read: a directory, a device (/dev/zero reads
// forever) or a pipe is refused by name instead of read as empty or until memory runs out.
#include <string>

namespace eis {

// Why `path` cannot be read as an input file ("no such file", "a directory, not a file", "not a
// regular file (a device, a pipe or a socket)"), or "" when it is a regular file.
std::string inputFileProblem(const std::string& path);

}  // namespace eis
