#include "eis/io/checkpoint_output.hpp"

#include <cstdio>
#include <vector>

#include "eis/core/error.hpp"
#include "eis/core/timer.hpp"
#include "eis/io/checkpoint_file.hpp"
#include "eis/io/checkpoint_scene.hpp"
#include "eis/io/output_file.hpp"

namespace eis {

namespace {

class CheckpointOutput : public Output {
public:
  CheckpointOutput(std::string prefix, int every, double minutes, MPI_Comm comm)
      : prefix_(std::move(prefix)), every_(every), seconds_(60 * minutes), comm_(comm) {}

  void start(const RunStates& states) override {
    for (const RunState& state : states)
      scenes_.push_back(state.scene ? checkpointSceneText(*state.scene) : "");
    last_ = states.front().step;
    lastWall_ = MPI_Wtime();
  }
  void write(const StepRecord& step, const RunStates& states) override {
    if (due(step.step)) save(states);
  }
  // At the end (the run's last step or a signal), unless this state is already saved.
  void finish(const RunStates& states) override {
    if (!written_ || last_ != states.front().step) save(states);
  }
  std::string where() const override { return "checkpoint: " + checkpointPath(prefix_, last_); }

private:
  // Rank 0's wall clock decides for all, so that every rank writes the same checkpoints.
  bool due(int step) const {
    int yes = every_ > 0 && step % every_ == 0;
    if (seconds_ > 0) {
      int late = MPI_Wtime() - lastWall_ >= seconds_;
      EIS_CHECK_MPI(MPI_Bcast(&late, 1, MPI_INT, 0, comm_));
      yes = yes || late;
    }
    return yes;
  }
  void save(const RunStates& states);

  std::string prefix_;
  int every_;
  double seconds_;
  MPI_Comm comm_;
  int last_ = 0;  // the step of the last checkpoint written (or of the starting state)
  bool written_ = false;
  double lastWall_ = 0;
  std::vector<std::string> scenes_;  // each body's record (io/checkpoint_scene), scene order
};

// PREFIX_<step>.h5 through a temporary and a rename; then the checkpoints but this one and the
// one before it are removed (and any of later steps, left by a run that was restarted from an
// earlier one), so a kill at any instant leaves a complete checkpoint on disk. Every body is in
// the one file, so that a restart finds them all at the same step.
void CheckpointOutput::save(const RunStates& states) {
  const ScopedTimer timer("Checkpoint");
  const RunState& state = states.front();
  const std::string path = checkpointPath(prefix_, state.step);
  CheckpointWriter writer(path, comm_);
  for (std::size_t b = 0; b < states.size(); ++b) {
    const RunState& body = states[b];
    writer.body(body.object, body.mesh, body.x, scenes_.at(b), body.forces, body.factors);
    writer.save("positions", body.x, 0, body.initial);
    writer.save("velocities", body.v, 1, body.initial);
    body.integrator.saveCarried(
        [&](const std::string& name, Vec vector) { writer.save(name, vector, 0, nullptr); });
  }
  writer.commit({state.step, state.time, state.clock}, state.dt,
                state.controllers ? state.controllers() : ControllerRecord{});
  if (commRank(comm_) == 0) {
    const auto steps = checkpointSteps(prefix_);
    int previous = -1;
    for (int step : steps)
      if (step < state.step) previous = step;
    for (int step : steps)
      if (step != state.step && step != previous)
        std::remove(checkpointPath(prefix_, step).c_str());
  }
  written_ = true;
  last_ = state.step;
  lastWall_ = MPI_Wtime();
}

}  // namespace

std::string restartCheckpoint(const Parameters& scene, MPI_Comm comm,
                              const std::function<std::string(const std::string&)>& problem,
                              const std::function<void(const std::string&)>& warn) {
  const std::string restart = scene.optionalText("initial.restart");
  if (restart != "auto") return restart;
  const std::string prefix = scene.optionalText("output.checkpoint");
  if (prefix.empty())
    throw Error("initial.restart = auto: needs output.checkpoint, the prefix of the checkpoints");
  // Rank 0 lists the folder, so that every rank tries the same files in the same order.
  std::vector<int> steps;
  int count = 0;
  if (commRank(comm) == 0) {
    steps = checkpointSteps(prefix);
    count = int(steps.size());
  }
  EIS_CHECK_MPI(MPI_Bcast(&count, 1, MPI_INT, 0, comm));
  steps.resize(std::size_t(count));
  EIS_CHECK_MPI(MPI_Bcast(steps.data(), count, MPI_INT, 0, comm));
  // Newest first. A chain job's last checkpoint may have been cut by a node failure after its
  // rename (the file system had not written it all): the one before it, which the checkpoint
  // output keeps for this, still carries the run. problem() gives every rank the same verdict.
  std::string newest;
  for (auto step = steps.rbegin(); step != steps.rend(); ++step) {
    const std::string path = checkpointPath(prefix, *step);
    std::string why = problem(path);
    if (why.empty()) return path;
    // The reason without the reader's own "initial.restart = PATH: ", which the warning says.
    const std::string named = "initial.restart = " + path + ": ";
    if (why.compare(0, named.size(), named) == 0) why.erase(0, named.size());
    warn("initial.restart = auto: skipped " + path + ": " + why);
    if (newest.empty()) newest = path + ": " + why;
  }
  if (steps.empty()) return "";
  throw Error("initial.restart = auto: none of the " + std::to_string(steps.size()) +
              " checkpoints of output.checkpoint = " + prefix + " can be read; the newest, " +
              newest);
}

OutputComponent checkpointOutputComponent() {
  return {
      {"checkpoint", "output", "checkpoints (HDF5) a run restarts from",
       ParameterSpec()
           .add(
               {"output.checkpoint", "PREFIX",
                "checkpoints PREFIX_<step>.h5 (HDF5, written by all ranks together): positions, velocities,\n"
                "step, time and the vectors the integrator carries, of every body (a restart checks\n"
                "that the bodies are the scene's), in the input's node order, so they\n"
                "load on any rank count. Written every output.checkpoint-every steps and/or\n"
                "output.checkpoint-minutes of wall time, at the end of the run and when a signal stops\n"
                "it; each through PREFIX_<step>.h5.partial and a rename, the previous one kept",
                std::nullopt, "", false, check::anyText()})
           .add({"output.checkpoint-every", "N",
                 "write a checkpoint every N steps (0: not by step count), >= 0", "0", "", false,
                 check::integerAtLeast(0)})
           .add({"output.checkpoint-minutes", "M",
                 "write a checkpoint once M minutes of wall time have passed since the last one\n"
                 "(0: not by time), >= 0",
                 "0", "min", false, check::nonNegative()})
           .add(
               {"initial.restart", "auto|PATH",
                "continue a run from a checkpoint (--restart=auto|PATH is the same): its state, step,\n"
                "time and integrator vectors; solver.steps stays the run's total, the history is\n"
                "continued (rows after the checkpoint's step dropped) and so is the ParaView series.\n"
                "auto: the newest checkpoint of output.checkpoint that can be read (one that cannot, cut\n"
                "by a failure, is skipped with a warning for the one before it), or a fresh start when\n"
                "there is none (then initial.state applies); an error when none can be read. PATH: that\n"
                "checkpoint, an error when it cannot be read. A relative PATH starts at the working\n"
                "directory. A checkpoint written by another scene (a key that changes the answer\n"
                "differs: README.md, \"Restart\") is refused, naming the key",
                std::nullopt, "", false, check::anyText()})
           .add({"initial.restart-force", "BOOL",
                 "load initial.restart's checkpoint even when another scene wrote it, with a\n"
                 "warning naming the key that differs, or when a Python controller held an\n"
                 "attribute the checkpoint could not (--restart-force is the same)",
                 "false", "", false, check::boolean()}),
       nullptr},
      [](const Parameters& scene, MPI_Comm comm) -> std::unique_ptr<Output> {
        const std::string prefix = scene.optionalText("output.checkpoint");
        if (prefix.empty()) return nullptr;
        prepareOutputFile("output.checkpoint", checkpointPath(prefix, 0), FileWrite::Replaced,
                          comm);
        return std::make_unique<CheckpointOutput>(prefix, scene.integer("output.checkpoint-every"),
                                                  scene.real("output.checkpoint-minutes"), comm);
      }};
}

const RegisterOutput registered(950, checkpointOutputComponent);

}  // namespace eis
