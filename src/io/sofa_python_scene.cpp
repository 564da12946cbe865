// The Python front end's C++ side: runs python3 (from PATH) on the driver installed beside the
// executable (<exe dir>/../share/euler-implicit/python/eis_sofa_scene.py), its standard output
// and error in temporary files, and returns the XML or the driver's one-line verdict.
#include "eis/io/sofa_python_scene.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "eis/core/error.hpp"
#include "eis/core/input_file.hpp"

extern char** environ;

namespace eis {
namespace {

namespace fs = std::filesystem;

// A temporary file, removed when this goes.
class TemporaryFile {
public:
  TemporaryFile() {
    std::string pattern = (fs::temp_directory_path() / "eis-python-XXXXXX").string();
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    const int fd = mkstemp(name.data());
    if (fd < 0) throw Error(std::string("cannot create a temporary file: ") + std::strerror(errno));
    close(fd);
    path_ = name.data();
  }
  ~TemporaryFile() { std::remove(path_.c_str()); }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  const std::string& path() const { return path_; }
  std::string text() const {
    std::ifstream in(path_, std::ios::binary);
    std::ostringstream read;
    read << in.rdbuf();
    return read.str();
  }

private:
  std::string path_;
};

fs::path driverScript() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error("cannot find the running executable to locate the Python front end");
  const fs::path driver =
      exe.parent_path().parent_path() / "share/euler-implicit/python/eis_sofa_scene.py";
  if (!fs::is_regular_file(driver))
    throw Error("the Python front end is missing: no " + driver.string());
  return driver;
}

// The last line of the text that is not blank.
std::string lastLine(const std::string& text) {
  std::istringstream lines(text);
  std::string line, last;
  while (std::getline(lines, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  return last;
}

}  // namespace

std::string sofaPythonSceneToXml(const std::string& path) {
  if (const std::string problem = inputFileProblem(path); !problem.empty())
    throw Error("scene.file = " + path + ": " + problem);
  const std::string driver = driverScript().string();
  TemporaryFile out, err;
  posix_spawn_file_actions_t actions;
  if (posix_spawn_file_actions_init(&actions) != 0)
    throw Error("cannot prepare to start python3: out of memory");
  const bool redirected =
      posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0) == 0 &&
      posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.path().c_str(), O_WRONLY, 0) ==
          0 &&
      posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.path().c_str(), O_WRONLY, 0) ==
          0;
  if (!redirected) {
    posix_spawn_file_actions_destroy(&actions);
    throw Error("cannot prepare to start python3: out of memory");
  }
  std::string program = "python3", noCache = "-B";
  std::string scene = path;
  std::vector<char*> argv{program.data(), noCache.data(), const_cast<char*>(driver.c_str()),
                          scene.data(), nullptr};
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, "python3", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0)
    throw Error("scene.file = " + path + ": a Python scene needs python3 on PATH, which " +
                (spawned == ENOENT
                     ? std::string("is not there")
                     : "could not be started: " + std::string(std::strerror(spawned))));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw Error(std::string("waiting for python3: ") + std::strerror(errno));
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return out.text();
  const std::string verdict = lastLine(err.text());
  if (!verdict.empty()) throw Error(verdict);
  throw Error("scene.file = " + path + ": python3 " +
              (WIFEXITED(status) ? "exited with status " + std::to_string(WEXITSTATUS(status))
                                 : "was killed by signal " + std::to_string(WTERMSIG(status))) +
              " and said nothing");
}

}  // namespace eis
