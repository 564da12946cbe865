#include "eis/core/new_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "eis/core/error.hpp"

namespace eis {

std::string temporaryPathFor(const std::string& path) {
  return path + ".partial";
}

std::string clearName(const std::string& path) {
  // unlink() removes the name: for a link the link, never its target. A folder is refused
  // (EISDIR, or EPERM on some systems), so it is reported, never emptied.
  if (::unlink(path.c_str()) == 0 || errno == ENOENT) return "";
  return "cannot remove '" + path + "': " + std::strerror(errno);
}

int createNewFile(const std::string& path, std::string& why) {
  why = clearName(path);
  if (!why.empty()) return -1;
  // O_EXCL: fails on any existing name, a link (even a dangling one) included, so nothing put
  // there after clearName is followed; O_NOFOLLOW says so for the systems where O_EXCL alone
  // would not. 0666 under the umask: the permissions fopen(path, "w") gave.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) why = "cannot create '" + path + "': " + std::strerror(errno);
  return fd;
}

void clearNameForHdf5(const std::string& what, const std::string& path, MPI_Comm comm) {
  std::string failure;
  if (commRank(comm) == 0) {
    failure = clearName(path);
    if (!failure.empty()) failure = what + ": " + failure;
  }
  // Also the barrier: no rank lets HDF5 create the file before rank 0 has freed the name.
  throwIfAnyRankFailed(failure, comm);
}

void commitTemporary(const std::string& what, const std::string& temporary, const std::string& path,
                     MPI_Comm comm) {
  std::string failure;
  if (commRank(comm) == 0) {
    const int fd = ::open(temporary.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 || ::fsync(fd) != 0 || std::rename(temporary.c_str(), path.c_str()) != 0)
      failure = what + ": cannot complete " + path + ": " + std::strerror(errno);
    if (fd >= 0) ::close(fd);
  }
  throwIfAnyRankFailed(failure, comm);
}

}  // namespace eis
