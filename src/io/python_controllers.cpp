// The controllers' python3 on rank 0 and the requests it makes, served by every rank together
// (io/python_controllers.hpp). One socket pair joins the run and the driver: a line per
// message, numbers as raw doubles after their line (the protocol: src/io/python/
// eis_controllers.py). Rank 0 reads each message within the event's time limit and broadcasts
// it, so that a controller that fails, ends or hangs ends every rank with one error.
#include "eis/io/python_controllers.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>

#include "eis/core/error.hpp"
#include "eis/core/mpi_chunks.hpp"

extern char** environ;

namespace eis {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// A message of the driver: its kind, the rest of its line, the numbers that follow it (or the
// bytes of a "state").
struct Message {
  std::string kind, text;
  std::vector<double> numbers;
  std::string bytes;
};

fs::path controllerDriver() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error("cannot find the running executable to locate the Python front end");
  const fs::path driver =
      exe.parent_path().parent_path() / "share/euler-implicit/python/eis_controllers.py";
  if (!fs::is_regular_file(driver))
    throw Error("the Python front end is missing: no " + driver.string());
  return driver;
}

void broadcastString(std::string& text, MPI_Comm comm) {
  unsigned long long size = text.size();
  EIS_CHECK_MPI(MPI_Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, 0, comm));
  text.resize(size);
  if (size) EIS_CHECK_MPI(MPI_Bcast(text.data(), int(size), MPI_CHAR, 0, comm));
}

void broadcast(Message& m, MPI_Comm comm) {
  broadcastString(m.kind, comm);
  broadcastString(m.text, comm);
  broadcastString(m.bytes, comm);
  unsigned long long count = m.numbers.size();
  EIS_CHECK_MPI(MPI_Bcast(&count, 1, MPI_UNSIGNED_LONG_LONG, 0, comm));
  m.numbers.resize(count);
  broadcastInPieces(m.numbers.data(), std::int64_t(count), MPI_DOUBLE, 0, comm);
}

// Rank 0's go-ahead once Python has answered: the other ranks test for it between short sleeps
// instead of spinning in MPI's busy wait, so that they leave the cores to python3 and rank 0 (a
// run on as many ranks as cores, with the script beside it, has one process too many).
void awaitRoot(MPI_Comm comm) {
  int token = 0, done = 0;
  MPI_Request request;
  EIS_CHECK_MPI(MPI_Ibcast(&token, 1, MPI_INT, 0, comm, &request));
  for (;;) {
    EIS_CHECK_MPI(MPI_Test(&request, &done, MPI_STATUS_IGNORE));
    if (done) return;
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}

}  // namespace

// Rank 0's python3: its own process group, killed and reaped when this goes.
struct PythonControllers::Process {
  Process(const SofaControl& control) : file(control.file) {
    if (!control.mainLoop.empty()) {
      connectTo(control.mainLoop);
      return;
    }
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
      throw Error(std::string("cannot start the Python controllers: ") + std::strerror(errno));
    socket = pair[0];
    const std::string driver = controllerDriver().string();
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attributes);
    const bool prepared =
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0) == 0 &&
        posix_spawn_file_actions_adddup2(&actions, pair[1], 3) == 0 &&
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP) == 0 &&
        posix_spawnattr_setpgroup(&attributes, 0) == 0;
    std::string program = "python3", noCache = "-B", scene = control.file;
    std::vector<char*> argv{program.data(), noCache.data(), const_cast<char*>(driver.c_str()),
                            scene.data(), nullptr};
    std::fflush(stdout);
    const int spawned =
        prepared ? posix_spawnp(&pid, "python3", &actions, &attributes, argv.data(), environ)
                 : ENOMEM;
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    close(pair[1]);
    if (spawned != 0) {
      close(socket);
      throw Error("scene.file = " + control.file +
                  ": its Python controllers need python3 on PATH, which could not be started: " +
                  std::strerror(spawned));
    }
  }
  ~Process() {
    sendText("quit\n");
    close(socket);
    if (pid == 0) return;  // a main loop's script, which is not ours to end
    // A moment to end by itself (its output flushed), then the group goes.
    const auto end = Clock::now() + std::chrono::seconds(2);
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0 && Clock::now() < end)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    kill(-pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) continue;
  }

  // A Python main loop's socket (scene.python-main), which Sofa.Simulation.init listens on.
  void connectTo(const std::string& path) {
    driver = "the Python script driving the run (Sofa.Simulation.init)";
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (path.size() >= sizeof address.sun_path)
      throw Error("scene.python-main = " + path + ": a socket path this long is not possible");
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    socket = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (socket < 0 ||
        connect(socket, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
      const std::string why = std::strerror(errno);
      if (socket >= 0) close(socket);
      throw Error("scene.python-main = " + path + ": cannot reach the Python script: " + why);
    }
  }

  bool sendText(const std::string& text) { return sendBytes(text.data(), text.size()); }
  bool sendBytes(const void* data, std::size_t size) {
    const char* p = static_cast<const char*>(data);
    while (size > 0) {
      const ssize_t sent = send(socket, p, size, MSG_NOSIGNAL);
      if (sent < 0 && errno == EINTR) continue;
      if (sent <= 0) return false;
      p += sent;
      size -= std::size_t(sent);
    }
    return true;
  }

  // `size` bytes before `deadline`; "" when they came, else why not.
  std::string receive(char* out, std::size_t size, Clock::time_point deadline) {
    while (size > 0) {
      if (buffered.empty()) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) return "timeout";
        pollfd p{socket, POLLIN, 0};
        const int ready = poll(&p, 1, int(std::min<long long>(left, 100)));
        if (ready < 0 && errno != EINTR) return std::strerror(errno);
        if (ready <= 0) continue;
        char chunk[65536];
        const ssize_t got = recv(socket, chunk, sizeof chunk, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return "ended";
        buffered.append(chunk, std::size_t(got));
      }
      const std::size_t n = std::min(size, buffered.size());
      std::memcpy(out, buffered.data(), n);
      buffered.erase(0, n);
      out += n;
      size -= n;
    }
    return "";
  }

  // Sends `line` and `size` bytes, then waits `seconds` for the answer; a "fail" message saying
  // `ended` when python3 could not be written to.
  Message ask(const std::string& line, const void* data, std::size_t size, double seconds,
              const std::string& during, const std::string& ended) {
    std::fflush(stdout);
    if (!sendText(line) || !sendBytes(data, size)) return {"fail", ended, {}, {}};
    return read(Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                   std::chrono::duration<double>(seconds)),
                seconds, during);
  }

  // The next message, or a "fail" one saying why none came.
  Message read(Clock::time_point deadline, double seconds, const std::string& during) {
    const std::string place = file + ": " + (during.empty() ? "" : during + ": ");
    std::string line;
    for (char c = 0;;) {
      const std::string problem = receive(&c, 1, deadline);
      if (problem == "timeout") {
        char limit[32];
        std::snprintf(limit, sizeof limit, "%g", seconds);
        return {"fail",
                place + "the Python " + (pid ? "controllers" : "script") +
                    " did not return within " + limit + " s (scene.python-timeout)" +
                    (pid ? "; python3 killed (an endless loop?)" : " (an endless loop?)"),
                {},
                {}};
      }
      if (!problem.empty())
        return {"fail",
                place + driver + " " + (problem == "ended" ? "ended" : "failed: " + problem) +
                    " without a word (os._exit, a crash, a signal?)",
                {},
                {}};
      if (c == '\n') break;
      line += c;
    }
    Message m;
    const std::size_t space = line.find(' ');
    m.kind = line.substr(0, space);
    m.text = space == std::string::npos ? "" : line.substr(space + 1);
    if (m.kind == "set" || m.kind == "values") {
      // "set FIELD COUNT PATH": kept as "FIELD PATH" and the numbers; "values COUNT": the numbers
      const std::size_t first = m.kind == "set" ? std::min(m.text.size(), m.text.find(' ')) : 0;
      char* end = nullptr;
      const std::size_t count = std::strtoull(m.text.c_str() + first, &end, 10);
      m.text = m.text.substr(0, first) + (*end ? end : "");
      m.numbers.resize(count);
      const std::string problem =
          receive(reinterpret_cast<char*>(m.numbers.data()), count * sizeof(double), deadline);
      if (!problem.empty()) return {"fail", place + "python3 " + problem, {}, {}};
    }
    if (m.kind == "state") {
      m.bytes.resize(std::strtoull(m.text.c_str(), nullptr, 10));
      const std::string problem = receive(m.bytes.data(), m.bytes.size(), deadline);
      if (!problem.empty()) return {"fail", place + "python3 " + problem, {}, {}};
    }
    return m;
  }

  std::string file;
  std::string driver = "python3 running the controllers";
  int socket = -1;
  pid_t pid = 0;
  std::string buffered;
};

PythonControllers::PythonControllers(const SofaControl& control, MPI_Comm comm)
    : control_(control), comm_(comm) {
  Message m;
  if (commRank(comm) == 0) {
    try {
      process_ = std::make_unique<Process>(control);
      m = process_->read(Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                            std::chrono::duration<double>(control.timeout)),
                         control.timeout, "building the scene for its controllers");
    } catch (const Error& e) {
      m = {"fail", e.what(), {}, {}};
    }
  }
  broadcast(m, comm);
  if (m.kind == "fail") throw Error(m.text);
  if (m.kind != "ready")
    throw Error(control.file + ": the controller driver said '" + m.kind + "'");
}

PythonControllers::~PythonControllers() = default;

void PythonControllers::event(bool begin, int step, double time, double dt,
                              ControllerAccess& access, bool again) {
  char line[160];
  std::snprintf(line, sizeof line, "%s %d %.17g %.17g%s\n", begin ? "begin" : "end", step, time, dt,
                again ? " again" : "");
  const auto [kind, text] = serve(line, true, access);
  if (kind != "done") throw Error(control_.file + ": the controller driver sent '" + kind + "'");
}

bool PythonControllers::idle(int step, double time, double dt, ControllerAccess& access,
                             double& stepDt) {
  char line[160];
  std::snprintf(line, sizeof line, "idle %d %.17g %.17g\n", step, time, dt);
  const auto [kind, text] = serve(line, false, access);
  if (kind == "stop") return false;
  char* end = nullptr;
  stepDt = std::strtod(text.c_str(), &end);
  if (kind != "animate" || end == text.c_str() || !(stepDt >= 0))
    throw Error(control_.file + ": the Python script sent '" + kind + " " + text + "'");
  return true;
}

std::string PythonControllers::saveState() {
  const auto [kind, bytes] = exchange("save\n", "", "saving the controllers' state");
  if (kind != "state")
    throw Error(control_.file + ": the controller driver sent '" + kind + "' for their state");
  return bytes;
}

void PythonControllers::restoreState(const std::string& state, bool force) {
  const std::string line =
      "restore " + std::to_string(state.size()) + " " + (force ? "1" : "0") + "\n";
  const auto [kind, text] = exchange(line, state, "restoring the controllers' state");
  if (kind != "done")
    throw Error(control_.file + ": the controller driver sent '" + kind + "' after their state");
}

std::pair<std::string, std::string> PythonControllers::exchange(const std::string& line,
                                                                const std::string& bytes,
                                                                const std::string& during) {
  Message m;
  if (commRank(comm_) == 0)
    m = process_->ask(line, bytes.data(), bytes.size(), control_.timeout, during,
                      control_.file + ": " + during + ": " + process_->driver + " ended");
  awaitRoot(comm_);
  broadcast(m, comm_);
  if (m.kind == "fail") throw Error(m.text);
  return {m.kind, m.kind == "state" ? m.bytes : m.text};
}

std::string PythonControllers::call(const std::string& line, const std::vector<double>& numbers,
                                    std::vector<double>& out, const std::string& during) {
  Message m;
  if (commRank(comm_) == 0)
    m = process_->ask(line + "\n", numbers.data(), numbers.size() * sizeof(double),
                      control_.timeout, during,
                      control_.file + ": " + during +
                          ": python3 running the controllers ended (a crash, a signal?)");
  awaitRoot(comm_);
  broadcast(m, comm_);
  if (m.kind == "fail") return m.text;
  if (m.kind != "values")
    return control_.file + ": a force field written in Python asked '" + m.kind + " " + m.text +
           "': under --scene it reads and writes the scene only through its arguments";
  out = std::move(m.numbers);
  return {};
}

std::size_t matrixBody(const SofaControl& control, const std::string& path,
                       const std::string& kind) {
  const std::string what = kind == "mass"        ? "mass"
                           : kind == "stiffness" ? "force field with a stiffness"
                                                 : "linear system";
  for (std::size_t b = 0; b < control.matrices.size(); ++b) {
    const SofaMatrixSources& sources = control.matrices[b];
    const std::vector<std::string>& paths = kind == "mass"        ? sources.masses
                                            : kind == "stiffness" ? sources.stiffness
                                                                  : sources.systems;
    if (std::find(paths.begin(), paths.end(), path) == paths.end()) continue;
    std::string others;
    for (const std::string& other : paths)
      if (other != path) others += (others.empty() ? "" : ", ") + other;
    if (!others.empty())
      throw Error(path + ": the body of " + control.statePaths[b] + " also has the " + what + " " +
                  others +
                  ", and the run sums their matrices: one is read alone only where it is "
                  "the body's only " +
                  what);
    if (sources.python)
      throw Error(path + ": the body of " + control.statePaths[b] +
                  " has a force field written in Python, which this python3 computes: the "
                  "run cannot ask it while it waits for the matrix");
    if (sources.mapped)
      throw Error(path + ": the mapped children of " + control.statePaths[b] +
                  " add theirs to the body's matrix, which the run sums");
    return b;
  }
  throw Error(path + " is not a " + what + " of a body of the run");
}

std::vector<double> componentRead(const SofaControl& control, ControllerAccess& access,
                                  const std::string& path, const std::string& kind) {
  const bool vector = kind == "rhs" || kind == "solution";
  for (const SofaReaderSystem& system : control.readerSystems) {
    if (system.path != path) continue;
    if (!system.refused.empty()) throw Error(path + ": " + system.refused);
    if (vector)
      throw Error(path +
                  ": the right-hand side and solution of a linear system assembled beside the "
                  "solved one are not read (SOFA copies the solved system's into it)");
    return access.massSystemMatrix(system.bodies);
  }
  const std::size_t body = matrixBody(control, path, vector ? "system" : kind);
  return vector ? access.systemVector(body, kind == "solution") : access.matrix(body, kind);
}

namespace {

// The body whose state is the MechanicalObject of node `path`.
std::size_t bodyOfState(const SofaControl& control, const std::string& path) {
  for (std::size_t i = 0; i < control.statePaths.size(); ++i)
    if (control.statePaths[i] == path) return i;
  throw Error("the MechanicalObject of node " + path +
              " is not a body of the run (a mapped state is not simulated)");
}

}  // namespace

const SofaStiffnessFactors& stiffnessFactorsAt(const SofaControl& control, const std::string& path,
                                               std::size_t& body) {
  for (body = 0; body < control.stiffnessFactors.size(); ++body)
    for (const SofaStiffnessFactors& field : control.stiffnessFactors[body])
      if (field.path == path) return field;
  throw Error(path + " is not a TetrahedronFEMForceField of a body of the run");
}

std::pair<std::string, std::string> PythonControllers::serve(const std::string& line, bool timed,
                                                             ControllerAccess& access) {
  const bool root = commRank(comm_) == 0;
  const auto deadline = timed ? Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                   std::chrono::duration<double>(control_.timeout))
                              : Clock::time_point::max();
  if (root) {
    std::fflush(stdout);
    process_->sendText(line);
  }
  for (;;) {
    Message m;
    if (root) m = process_->read(deadline, control_.timeout, "");
    awaitRoot(comm_);
    broadcast(m, comm_);
    if (m.kind == "fail") throw Error(m.text);
    if (m.kind != "get" && m.kind != "set") return {m.kind, m.text};
    // "get FIELD PATH" and "set FIELD PATH" (the count read with the line).
    const std::size_t space = m.text.find(' ');
    const std::string field = m.text.substr(0, space);
    const std::string path = space == std::string::npos ? "" : m.text.substr(space + 1);
    std::string reply = "ok\n";
    std::vector<double> values;
    try {
      if (m.kind == "get" && (field == "stiffness" || field == "mass" || field == "system")) {
        values = componentRead(control_, access, path, field);
        reply = "ok " + std::to_string(values.size()) + "\n";
      } else if (m.kind == "get" &&
                 (field == "compliance" || field == "lambda" || field == "dfree")) {
        values = access.constraintProblem(field);
        reply = "ok " + std::to_string(values.size()) + "\n";
      } else if (m.kind == "get" && (field == "rhs" || field == "solution")) {
        values = componentRead(control_, access, path, field);
        reply = "ok " + std::to_string(values.size()) + "\n";
      } else if (m.kind == "get" && field == "constraint") {
        values = access.constraintMatrix(bodyOfState(control_, path));
        reply = "ok " + std::to_string(values.size()) + "\n";
      } else if (m.kind == "get") {
        int width = 3;
        values = access.state(bodyOfState(control_, path), field == "velocity", width);
        reply = "ok " + std::to_string(values.size()) + " " + std::to_string(width) + "\n";
      } else if (m.kind == "set" && (field == "position" || field == "velocity")) {
        access.setState(bodyOfState(control_, path), field == "velocity", m.numbers);
      } else if (m.kind == "set" && field == "localStiffnessFactor") {
        std::size_t body = 0;
        const SofaStiffnessFactors& target = stiffnessFactorsAt(control_, path, body);
        access.setStiffnessFactors(body, target, m.numbers);
      } else if (m.kind == "set" && field == "dt") {
        if (m.numbers.size() != 1 || !(m.numbers[0] > 0)) throw Error("dt must be one number > 0");
        access.setDt(m.numbers[0]);
      } else if (m.kind == "set") {
        bool found = false;
        for (std::size_t b = 0; b < control_.forces.size() && !found; ++b)
          for (const SofaForceLoad& load : control_.forces[b])
            if (load.path == path && !found) {
              access.setForce(b, load, field, m.numbers);
              found = true;
            }
        if (!found)
          throw Error(path +
                      " is not a ConstantForceField that gives a force in the scene (one "
                      "needs forces or totalForce set in createScene to be written)");
      }
    } catch (const Error& e) {
      std::string what = e.what();
      std::replace(what.begin(), what.end(), '\n', ' ');
      reply = "error " + what + "\n";
      values.clear();
    }
    if (root) {
      process_->sendText(reply);
      if (!values.empty()) process_->sendBytes(values.data(), values.size() * sizeof(double));
    }
  }
}

}  // namespace eis
