#include "eis/io/history_csv.hpp"

#include "eis/core/error.hpp"

namespace eis {

HistoryWriter::HistoryWriter(const std::string& path, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::string failure;
  if (rank == 0) {
    file_ = std::fopen(path.c_str(), "w");
    if (!file_)
      failure = "output.history = " + path + ": cannot open the file for writing";
    else
      std::fprintf(file_,
                   "step,time,wall_seconds,linear_iterations,nonlinear_iterations,"
                   "residual,kinetic_energy,elastic_energy,pc_rebuilt\n");
  }
  throwIfAnyRankFailed(failure, comm);
}

HistoryWriter::~HistoryWriter() {
  if (file_) std::fclose(file_);
}

void HistoryWriter::write(const HistoryRow& row) {
  if (!file_) return;
  std::fprintf(file_, "%d,%.17g,%.9g,%d,%d,", row.step, row.time, row.wallSeconds,
               row.linearIterations, row.nonlinearIterations);
  if (row.residual >= 0) std::fprintf(file_, "%.17g", row.residual);
  std::fprintf(file_, ",%.17g,%.17g,%d\n", row.kineticEnergy, row.elasticEnergy, row.pcRebuilt);
  std::fflush(file_);
}

namespace {

class HistoryOutput : public Output {
public:
  HistoryOutput(const std::string& path, MPI_Comm comm) : path_(path), writer_(path, comm) {}
  void write(const StepRecord& step, const RunState& state) override {
    HistoryRow row;
    row.step = step.step;
    row.time = step.time;
    row.wallSeconds = step.wallSeconds;
    row.linearIterations = step.report.linearIterations;
    row.nonlinearIterations = step.report.nonlinearIterations;
    row.residual = step.report.residualNorm;
    row.pcRebuilt = step.report.preconditionerSetups;
    row.kineticEnergy = state.system.kineticEnergy(state.v);
    row.elasticEnergy = state.system.potentialEnergy(state.x);
    writer_.write(row);
  }
  std::string where() const override { return "history: " + path_; }

private:
  std::string path_;
  HistoryWriter writer_;
};

}  // namespace

OutputComponent historyOutputComponent() {
  return {
      {"history", "output", "one CSV row per step",
       ParameterSpec().add(
           {"output.history", "PATH",
            "CSV, one row per step, with the columns step,time,wall_seconds,linear_iterations,\n"
            "nonlinear_iterations,residual,kinetic_energy,elastic_energy,pc_rebuilt (pc_rebuilt: how\n"
            "many times the preconditioner was set up in the step, see solver.pc-lag)",
            std::nullopt, "", false, check::anyText()}),
       nullptr},
      [](const Parameters& scene, MPI_Comm comm) -> std::unique_ptr<Output> {
        const std::string path = scene.optionalText("output.history");
        if (path.empty()) return nullptr;
        return std::make_unique<HistoryOutput>(path, comm);
      }};
}

}  // namespace eis
