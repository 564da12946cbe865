#include "eis/io/output_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "eis/core/error.hpp"

namespace eis {

namespace fs = std::filesystem;

namespace {

std::string named(const std::string& key, const std::string& path) {
  return key + " = " + path + ": ";
}

// The folder and its parents exist afterwards and it is a folder we may create files in; an
// error message otherwise.
std::string createFolder(const std::string& key, const std::string& path, const fs::path& folder) {
  if (folder.empty()) return "";
  std::error_code error;
  fs::create_directories(folder, error);
  if (!error && !fs::is_directory(folder, error))
    error = std::make_error_code(std::errc::not_a_directory);
  if (error)
    return named(key, path) + "cannot create the folder '" + folder.string() +
           "': " + error.message();
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    return named(key, path) + "cannot write in the folder '" + folder.string() +
           "': " + std::strerror(errno);
  return "";
}

std::string checkFile(const std::string& key, const std::string& path, FileWrite mode) {
  if (path.empty()) return key + ": empty path";
  const fs::path file(path);
  std::string message = createFolder(key, path, file.parent_path());
  if (!message.empty()) return message;
  std::error_code error;
  const fs::file_status status = fs::status(file, error);
  if (fs::is_directory(status)) return named(key, path) + "is a directory";
  const bool exists = fs::exists(status);
  if (mode == FileWrite::InPlace) {
    if (exists && ::access(path.c_str(), W_OK) != 0)
      return named(key, path) + "cannot write the file: " + std::strerror(errno);
    return "";
  }
  if (exists && !fs::is_regular_file(status))
    return named(key, path) + "exists and is not a regular file, so it cannot be replaced";
  // The temporary is what will be written; creating it proves the folder takes new files. As
  // replaceFile will, a link or file left there is removed, not opened: opening it for writing
  // would empty the file it points at.
  const std::string temporary = temporaryPathFor(path);
  std::string why;
  const int probe = createNewFile(temporary, why);
  if (probe < 0) return named(key, path) + why;
  ::close(probe);
  ::unlink(temporary.c_str());
  return "";
}

}  // namespace

void prepareOutputFile(const std::string& key, const std::string& path, FileWrite mode,
                       MPI_Comm comm) {
  throwIfAnyRankFailed(commRank(comm) == 0 ? checkFile(key, path, mode) : "", comm);
}

void prepareOutputFolder(const std::string& key, const std::string& value,
                         const std::string& folder, MPI_Comm comm) {
  throwIfAnyRankFailed(commRank(comm) == 0 ? createFolder(key, value, folder) : "", comm);
}

void refuseSameFiles(const std::vector<NamedFile>& files, MPI_Comm comm) {
  namespace fs = std::filesystem;
  std::string failure;
  if (commRank(comm) == 0) {
    struct Resolved {
      const NamedFile* file;
      fs::path path;
    };
    std::vector<Resolved> resolved;
    for (const NamedFile& f : files) {
      if (f.path.empty()) continue;
      std::error_code ec;
      const fs::file_status status = fs::status(f.path, ec);
      if (!ec && fs::exists(status) && !fs::is_regular_file(status)) continue;
      fs::path path = fs::weakly_canonical(fs::absolute(f.path), ec);
      if (ec) path = fs::absolute(f.path).lexically_normal();
      resolved.push_back({&f, path});
    }
    for (std::size_t i = 0; i < resolved.size() && failure.empty(); ++i)
      for (std::size_t j = i + 1; j < resolved.size() && failure.empty(); ++j) {
        if (!resolved[i].file->written && !resolved[j].file->written) continue;
        std::error_code ec;
        const bool same = resolved[i].path == resolved[j].path ||
                          fs::equivalent(resolved[i].path, resolved[j].path, ec);
        if (same)
          failure = resolved[j].file->key + " = " + printable(resolved[j].file->path, 200) +
                    " is the same file as " + resolved[i].file->key + " = " +
                    printable(resolved[i].file->path, 200) +
                    ": one would be lost (give each its own path)";
      }
  }
  throwIfAnyRankFailed(failure, comm);
}

std::string replaceFile(const std::string& key, const std::string& path,
                        const std::function<void(std::FILE*)>& fill) {
  const std::string temporary = temporaryPathFor(path);
  std::string why;
  const int fd = createNewFile(temporary, why);
  if (fd < 0) return named(key, path) + why;
  std::FILE* file = ::fdopen(fd, "w");
  if (!file) {
    const int reason = errno;
    ::close(fd);
    ::unlink(temporary.c_str());
    return named(key, path) + "cannot open '" + temporary + "': " + std::strerror(reason);
  }
  fill(file);
  // fflush and fsync before the rename: the new name must never point at a partial file.
  bool written = !std::ferror(file) && std::fflush(file) == 0 && ::fsync(fileno(file)) == 0;
  int lastError = errno;
  if (std::fclose(file) != 0 && written) {
    written = false;
    lastError = errno;
  }
  if (written && std::rename(temporary.c_str(), path.c_str()) != 0) {
    written = false;
    lastError = errno;
  }
  if (written) return "";
  std::remove(temporary.c_str());
  return named(key, path) + "write failed: " + std::strerror(lastError);
}

}  // namespace eis
