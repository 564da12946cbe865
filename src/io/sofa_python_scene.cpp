// The Python front end's C++ side: runs python3 (from PATH) on the driver installed beside the
// executable (<exe dir>/../share/euler-implicit/python/eis_sofa_scene.py), its standard output
// and error in temporary files, and returns the XML or the driver's one-line verdict. The driver
// is told the deepest nesting of nodes SOFA's XML parser (tinyxml2) takes, to refuse a deeper
// graph at the scene line that made it.
#include "eis/io/sofa_python_scene.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tinyxml2.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
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

// Beside the executable, or where $EULER_IMPLICIT_PYTHON says (set by the euler_implicit Python
// package, whose process is python3).
fs::path driverScript() {
  fs::path folder;
  if (const char* given = std::getenv("EULER_IMPLICIT_PYTHON"); given && *given) {
    folder = given;
  } else {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) throw Error("cannot find the running executable to locate the Python front end");
    folder = exe.parent_path().parent_path() / "share/euler-implicit/python";
  }
  const fs::path driver = folder / "eis_sofa_scene.py";
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

// The python3 child: its own process group, so that the scene's own children go with it. The
// group is killed on every way out (the verdict read, a time limit, a stop signal, an error), and
// the child reaped; until it is reaped its id, and so its group's, cannot be reused.
class Child {
public:
  explicit Child(pid_t pid) : pid_(pid) {}
  ~Child() {
    kill(-pid_, SIGKILL);
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) continue;
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  // Waits until the child exits (true; exit() then tells how), `seconds` pass or `stopSignal`
  // gives a signal number (false). It polls: the stop handlers restart a blocking wait.
  bool wait(double seconds, const std::function<int()>& stopSignal) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    for (;;) {
      exit_ = siginfo_t{};
      if (waitid(P_PID, id_t(pid_), &exit_, WEXITED | WNOHANG | WNOWAIT) < 0) {
        if (errno == EINTR) continue;
        throw Error(std::string("waiting for python3: ") + std::strerror(errno));
      }
      if (exit_.si_pid == pid_) return true;
      if ((stopSignal && stopSignal() != 0) || std::chrono::steady_clock::now() >= end)
        return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  const siginfo_t& exit() const { return exit_; }

private:
  pid_t pid_;
  siginfo_t exit_{};
};

}  // namespace

std::string sofaPythonSceneToXml(const std::string& path, double seconds,
                                 const std::function<int()>& stopSignal) {
  if (const std::string problem = inputFileProblem(path); !problem.empty())
    throw Error("scene.file = " + path + ": " + problem);
  const std::string driver = driverScript().string();
  TemporaryFile out, err;
  posix_spawn_file_actions_t actions;
  if (posix_spawn_file_actions_init(&actions) != 0)
    throw Error("cannot prepare to start python3: out of memory");
  posix_spawnattr_t attributes;
  if (posix_spawnattr_init(&attributes) != 0) {
    posix_spawn_file_actions_destroy(&actions);
    throw Error("cannot prepare to start python3: out of memory");
  }
  const bool prepared =
      posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0) == 0 &&
      posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.path().c_str(), O_WRONLY, 0) ==
          0 &&
      posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.path().c_str(), O_WRONLY, 0) ==
          0 &&
      posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP) == 0 &&
      posix_spawnattr_setpgroup(&attributes, 0) == 0;
  std::string program = "python3", noCache = "-B";
  std::string scene = path, depth = std::to_string(TINYXML2_MAX_ELEMENT_DEPTH - 2);
  std::vector<char*> argv{program.data(), noCache.data(), const_cast<char*>(driver.c_str()),
                          scene.data(),   depth.data(),   nullptr};
  pid_t pid = 0;
  const int spawned =
      prepared ? posix_spawnp(&pid, "python3", &actions, &attributes, argv.data(), environ)
               : ENOMEM;
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0)
    throw Error("scene.file = " + path + ": a Python scene needs python3 on PATH, which " +
                (spawned == ENOENT
                     ? std::string("is not there")
                     : "could not be started: " + std::string(std::strerror(spawned))));
  Child child(pid);
  if (!child.wait(seconds, stopSignal)) {
    const int signal = stopSignal ? stopSignal() : 0;
    if (signal != 0)
      throw Error("scene.file = " + path + ": stopped by signal " + std::to_string(signal) + " (" +
                  strsignal(signal) + ") while python3 ran createScene; python3 killed");
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", seconds);
    throw Error("scene.file = " + path + ": createScene did not return within " + limit +
                " s (scene.python-timeout); python3 killed (an endless loop in the scene?)");
  }
  const siginfo_t& exit = child.exit();
  const bool exited = exit.si_code == CLD_EXITED;
  // os._exit(0) in the scene would end the driver before it wrote the XML; it cannot catch
  // every way out (a C extension's exit), so an empty output at status 0 is one too.
  const std::string xml = exited && exit.si_status == 0 ? out.text() : "";
  if (!xml.empty()) {
    // What the scene printed while it built the graph (its print() calls, Sofa.Helper's
    // messages), as SOFA's console would show it.
    const std::string printed = err.text();
    std::fwrite(printed.data(), 1, printed.size(), stdout);
    std::fflush(stdout);
    return xml;
  }
  const std::string verdict = lastLine(err.text());
  if (!verdict.empty()) throw Error(verdict);
  throw Error(
      "scene.file = " + path + ": python3 " +
      (exited ? "exited (status " + std::to_string(exit.si_status) + ") before createScene returned"
              : "was killed by signal " + std::to_string(exit.si_status)) +
      " and said nothing");
}

}  // namespace eis
