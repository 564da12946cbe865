// output.multipliers: the Lagrange multipliers of every step, one CSV row per constraint row
// (ode/free_motion_step.hpp keeps them; every rank holds the same values, rank 0 writes them).
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <vector>

#include "eis/core/error.hpp"
#include "eis/io/output.hpp"
#include "eis/io/output_file.hpp"
#include "eis/ode/free_motion_step.hpp"

namespace eis {

namespace {

constexpr const char* kKey = "output.multipliers";
constexpr const char* kHeader = "step,time,object,row,force\n";

// A field of the CSV: quoted as RFC 4180 when it holds a comma or a quote.
std::string csvField(const std::string& text) {
  if (text.find_first_of(",\"") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

class MultipliersOutput : public Output {
public:
  MultipliersOutput(std::string path, MPI_Comm comm) : path_(std::move(path)), comm_(comm) {}
  ~MultipliersOutput() override {
    if (file_) std::fclose(file_);
  }
  MultipliersOutput(const MultipliersOutput&) = delete;
  MultipliersOutput& operator=(const MultipliersOutput&) = delete;

  // A restart continues the file of the run it restarts: its rows up to the checkpoint's step.
  void start(const RunStates& states) override {
    std::string failure;
    if (commRank(comm_) == 0) {
      const RunState& state = states.front();
      bool continued = false;
      if (state.resumed) {
        std::ifstream in(path_);
        std::string line;
        if (in && std::getline(in, line) && line + "\n" == kHeader) {
          std::vector<std::string> rows;
          while (std::getline(in, line))
            if (!line.empty() && std::atoi(line.c_str()) <= state.step) rows.push_back(line);
          failure = replaceFile(kKey, path_, [&](std::FILE* file) {
            std::fputs(kHeader, file);
            for (const std::string& row : rows) std::fprintf(file, "%s\n", row.c_str());
          });
          continued = true;
        }
      }
      if (failure.empty()) {
        file_ = std::fopen(path_.c_str(), continued ? "a" : "w");
        if (!file_)
          failure = std::string(kKey) + " = " + path_ +
                    ": cannot open the file for writing: " + std::strerror(errno);
        else if (!continued && std::fputs(kHeader, file_) < 0)
          failure = fail("write");
      }
    }
    throwIfAnyRankFailed(failure, comm_);
  }

  // Each integrator's multipliers once, under the node path of the first body it steps.
  void write(const StepRecord& step, const RunStates& states) override {
    std::string failure;
    if (file_) {
      std::vector<const TimeIntegrator*> seen;
      for (const RunState& state : states) {
        if (std::find(seen.begin(), seen.end(), &state.integrator) != seen.end()) continue;
        seen.push_back(&state.integrator);
        const auto* free = dynamic_cast<const FreeMotionStep*>(&state.integrator);
        if (!free) continue;
        const std::string object = csvField(state.object);
        const std::vector<double>& forces = free->forces();
        for (std::size_t row = 0; row < forces.size() && failure.empty(); ++row)
          if (std::fprintf(file_, "%d,%.17g,%s,%zu,%.17g\n", step.step, step.time, object.c_str(),
                           row, forces[row]) < 0)
            failure = fail("write");
      }
      if (failure.empty() && file_ && std::fflush(file_) != 0) failure = fail("write");
    }
    throwIfAnyRankFailed(failure, comm_);
  }

  void finish(const RunStates&) override {
    std::string failure;
    if (file_ && std::fclose(file_) != 0)
      failure = std::string(kKey) + " = " + path_ + ": close failed: " + std::strerror(errno);
    file_ = nullptr;
    throwIfAnyRankFailed(failure, comm_);
  }
  std::string where() const override { return "multipliers: " + path_; }

private:
  // Rank 0: closes the file and returns the error for `what` failing (errno's reason).
  std::string fail(const char* what) {
    const int reason = errno;
    std::fclose(file_);
    file_ = nullptr;
    return std::string(kKey) + " = " + path_ + ": " + what + " failed: " + std::strerror(reason);
  }

  std::string path_;
  MPI_Comm comm_;
  std::FILE* file_ = nullptr;
};

OutputComponent multipliersOutputComponent() {
  return {
      {"multipliers", "output", "the Lagrange multipliers of every step as CSV",
       ParameterSpec().add(
           {kKey, "PATH",
            "CSV of the Lagrangian constraints' multipliers (the constraint forces, see\n"
            "lagrange.solver): a header step,time,object,row,force, then after every step one\n"
            "row per constraint row of each system (object: the node path of its first body in\n"
            "a scene of several bodies, else empty; row: 0-based, in the order of the\n"
            "lagrange.* keys), the same for any rank count, 17 significant digits. Missing\n"
            "folders are created before the first step; a restart keeps the rows up to its\n"
            "checkpoint's step.",
            std::nullopt, "", false, check::anyText()}),
       nullptr},
      [](const Parameters& scene, MPI_Comm comm) -> std::unique_ptr<Output> {
        const std::string path = scene.optionalText(kKey);
        if (path.empty()) return nullptr;
        prepareOutputFile(kKey, path, FileWrite::InPlace, comm);
        return std::make_unique<MultipliersOutput>(path, comm);
      }};
}

// After the history (940), before the checkpoint (950).
const RegisterOutput registered(945, multipliersOutputComponent);

}  // namespace

}  // namespace eis
