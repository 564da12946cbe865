#include "eis/io/history_csv.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <vector>

#include "eis/core/error.hpp"
#include "eis/io/output_file.hpp"
#include "eis/ode/free_motion_step.hpp"

namespace eis {

namespace {

constexpr const char* kHeader =
    "step,time,wall_seconds,linear_iterations,nonlinear_iterations,residual,kinetic_energy,"
    "elastic_energy,pc_rebuilt,substeps,constraint_rows,constraint_iterations,constraint_error,"
    "constraint_force_norm\n";

// Rank 0, a restart: the rows of an existing history up to `keepThrough` kept (the file
// replaced whole, so a kill here loses nothing); whether there was a history to continue.
bool keepRowsThrough(const std::string& path, int keepThrough, std::string& failure) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line) || line + "\n" != kHeader) return false;
  std::vector<std::string> rows;
  while (std::getline(in, line))
    if (!line.empty() && std::atoi(line.c_str()) <= keepThrough) rows.push_back(line);
  failure = replaceFile("output.history", path, [&](std::FILE* file) {
    std::fputs(kHeader, file);
    for (const std::string& row : rows) std::fprintf(file, "%s\n", row.c_str());
  });
  return true;
}

}  // namespace

HistoryWriter::HistoryWriter(const std::string& path, MPI_Comm comm, int keepThrough)
    : path_(path), comm_(comm) {
  prepareOutputFile("output.history", path, FileWrite::InPlace, comm);
  std::string failure;
  if (commRank(comm) == 0) {
    const bool continued = keepThrough >= 0 && keepRowsThrough(path, keepThrough, failure);
    if (failure.empty()) {
      file_ = std::fopen(path.c_str(), continued ? "a" : "w");
      if (!file_)
        failure = "output.history = " + path +
                  ": cannot open the file for writing: " + std::strerror(errno);
      else if (!continued && std::fputs(kHeader, file_) < 0)
        failure = fail("write");
    }
  }
  throwIfAnyRankFailed(failure, comm);
}

HistoryWriter::~HistoryWriter() {
  if (file_) std::fclose(file_);
}

std::string HistoryWriter::fail(const char* what) {
  const int reason = errno;
  std::fclose(file_);
  file_ = nullptr;
  return "output.history = " + path_ + ": " + what + " failed: " + std::strerror(reason);
}

void HistoryWriter::write(const HistoryRow& row) {
  std::string failure;
  if (file_) {
    char residual[32] = "", constraintError[32] = "", forceNorm[32] = "";
    if (row.residual >= 0) std::snprintf(residual, sizeof residual, "%.17g", row.residual);
    if (row.constraintError >= 0)
      std::snprintf(constraintError, sizeof constraintError, "%.17g", row.constraintError);
    if (row.constraintForceNorm >= 0)
      std::snprintf(forceNorm, sizeof forceNorm, "%.17g", row.constraintForceNorm);
    if (std::fprintf(file_, "%d,%.17g,%.9g,%d,%d,%s,%.17g,%.17g,%d,%d,%d,%d,%s,%s\n", row.step,
                     row.time, row.wallSeconds, row.linearIterations, row.nonlinearIterations,
                     residual, row.kineticEnergy, row.elasticEnergy, row.pcRebuilt, row.substeps,
                     row.constraintRows, row.constraintIterations, constraintError, forceNorm) < 0)
      failure = fail("write");
    else if (std::fflush(file_) != 0)
      failure = fail("write");
  }
  throwIfAnyRankFailed(failure, comm_);
}

void HistoryWriter::close() {
  std::string failure;
  if (file_ && std::fclose(file_) != 0)
    failure = "output.history = " + path_ + ": close failed: " + std::strerror(errno);
  file_ = nullptr;
  throwIfAnyRankFailed(failure, comm_);
}

namespace {

// The 2-norm of every multiplier of the step: each integrator's forces once (the bodies of a
// group share theirs); -1 when no integrator solved a constraint row.
double constraintForceNorm(const RunStates& states) {
  std::vector<const TimeIntegrator*> seen;
  double sum = 0;
  bool any = false;
  for (const RunState& state : states) {
    if (std::find(seen.begin(), seen.end(), &state.integrator) != seen.end()) continue;
    seen.push_back(&state.integrator);
    const auto* step = dynamic_cast<const FreeMotionStep*>(&state.integrator);
    if (!step || step->forces().empty()) continue;
    any = true;
    for (double f : step->forces()) sum += f * f;
  }
  return any ? std::sqrt(sum) : -1;
}

class HistoryOutput : public Output {
public:
  HistoryOutput(const std::string& path, MPI_Comm comm) : path_(path), comm_(comm) {}
  // A restart continues the history of the run it restarts, from the checkpoint's step.
  void start(const RunStates& states) override {
    const RunState& state = states.front();
    writer_ = std::make_unique<HistoryWriter>(path_, comm_, state.resumed ? state.step : -1);
  }
  // The energies are summed over the bodies, as the iterations are.
  void write(const StepRecord& step, const RunStates& states) override {
    HistoryRow row;
    row.step = step.step;
    row.time = step.time;
    row.wallSeconds = step.wallSeconds;
    row.linearIterations = step.report.linearIterations;
    row.nonlinearIterations = step.report.nonlinearIterations;
    row.residual = step.report.residualNorm;
    row.pcRebuilt = step.report.preconditionerSetups;
    row.substeps = step.substeps;
    row.constraintRows = step.report.constraintRows;
    row.constraintIterations = step.report.constraintIterations;
    row.constraintError = step.report.constraintError;
    row.constraintForceNorm = constraintForceNorm(states);
    row.kineticEnergy = row.elasticEnergy = 0;
    for (const RunState& state : states) {
      row.kineticEnergy += state.system.kineticEnergy(state.v);
      row.elasticEnergy += state.system.potentialEnergy(state.x);
    }
    writer_->write(row);
  }
  void finish(const RunStates&) override { writer_->close(); }
  std::string where() const override { return "history: " + path_; }

private:
  std::string path_;
  MPI_Comm comm_;
  std::unique_ptr<HistoryWriter> writer_;
};

}  // namespace

OutputComponent historyOutputComponent() {
  return {
      {"history", "output", "one CSV row per step",
       ParameterSpec().add(
           {"output.history", "PATH",
            "CSV, one row per step, with the columns step,time,wall_seconds,linear_iterations,\n"
            "nonlinear_iterations,residual,kinetic_energy,elastic_energy,pc_rebuilt,substeps,\n"
            "constraint_rows,constraint_iterations,constraint_error,constraint_force_norm\n"
            "(pc_rebuilt: how many times\n"
            "the preconditioner was set up in the step, see solver.pc-lag; substeps: the\n"
            "sub-steps it took, see solver.on-failure; constraint_*: the Lagrangian constraint\n"
            "rows, the Gauss-Seidel's iterations and its last error, empty when none, see\n"
            "lagrange.solver; constraint_force_norm: the 2-norm of the step's multipliers,\n"
            "empty when none).\n"
            "Missing folders are created before the first step; a failed write stops the run.",
            std::nullopt, "", false, check::anyText()}),
       nullptr},
      [](const Parameters& scene, MPI_Comm comm) -> std::unique_ptr<Output> {
        const std::string path = scene.optionalText("output.history");
        if (path.empty()) return nullptr;
        prepareOutputFile("output.history", path, FileWrite::InPlace, comm);
        return std::make_unique<HistoryOutput>(path, comm);
      }};
}

const RegisterOutput registered(940, historyOutputComponent);

}  // namespace eis
