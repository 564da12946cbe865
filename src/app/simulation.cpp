#include "eis/app/simulation.hpp"

#include <cstdarg>

#include "eis/app/scene_builder.hpp"
#include "eis/app/stop_signals.hpp"
#include "eis/core/error.hpp"
#include "eis/core/input_file.hpp"
#include "eis/core/memory.hpp"
#include "eis/core/timer.hpp"
#include "eis/io/checkpoint_file.hpp"
#include "eis/io/checkpoint_output.hpp"
#include "eis/io/help.hpp"
#include "eis/io/initial_values.hpp"
#include "eis/linalg/linear_solver.hpp"

namespace eis {

namespace {

// The timers of the loop, in the order the summary lists them, and how it names them.
constexpr std::pair<const char*, const char*> kParts[] = {
    {"Forces", "forces"},
    {"Matrix assembly", "matrix assembly"},
    {"Constraints", "constraints"},
    {"Preconditioner set-up", "preconditioner set-up"},
    {"Initial guess", "initial guess"},
    {"KSP solve", "KSP solve"},
    {"Solution check", "solution check"},
    {"Newton solve", "Newton solve (set-ups included)"},
    {"Checkpoint", "checkpoints"}};

// What each timer counted between two readings.
std::map<std::string, double> since(const std::map<std::string, double>& before) {
  std::map<std::string, double> parts = timerTotals();
  for (auto& [name, seconds] : parts)
    if (auto it = before.find(name); it != before.end()) seconds -= it->second;
  return parts;
}

}  // namespace

void Simulation::report(const char* format, ...) const {
  int rank;
  EIS_CHECK_MPI(MPI_Comm_rank(comm_, &rank));
  if (!log_ || rank != 0) return;
  va_list args;
  va_start(args, format);
  std::vfprintf(log_, format, args);
  va_end(args);
  std::fflush(log_);
}

// Set-up: the whole scene is built here, collectively, so that every bad input (a missing
// group, an unwritable output) fails before the first step rather than after the last.
Simulation::Simulation(const Scene& scene, MPI_Comm comm, std::FILE* log)
    : scene_(scene),
      comm_(comm),
      failureComm_(comm),
      log_(log),
      steps_(scene.integer("solver.steps")),
      dt_(scene.real("solver.dt")),
      progress_(scene),
      substepping_(scene) {
  const double start = MPI_Wtime();
  report("euler-implicit %s: scene\n%s", EIS_VERSION, describe(scene_).c_str());

  std::vector<std::string> warnings;
  mesh_ = buildMesh(scene_, comm_, warnings);
  system_ = buildSystem(scene_, *mesh_, warnings);
  // With every unknown fixed nothing can move, and a solve of the identity would only make the
  // preconditioner fail: the run goes on motionless, so that its outputs still come out.
  PetscInt fixedUnknowns = 0;
  if (system_->constraint().rows())
    EIS_CHECK(ISGetSize(system_->constraint().rows(), &fixedUnknowns));
  motionless_ = fixedUnknowns == mesh_->numGlobalVertices() * mesh_->dofsPerNode();
  if (motionless_)
    warnings.push_back("every unknown is fixed: nothing moves, and the steps solve nothing");
  reportMesh(warnings);

  x_ = system_->createVector();
  v_ = system_->createVector();
  // Elasticity's near-nullspace, for a preconditioner built from an assembled matrix.
  const bool assembled =
      linearSolverOf(scene_, system_->constantMatrix()).op == OperatorMode::Assembled;
  if (mesh_->dofsPerNode() == 3 && assembled) {
    restCoordinates_ = system_->createVector();
    system_->setRestState(restCoordinates_);
  }
  integrator_ = makeTimeIntegrator(scene_, comm_, x_, restCoordinates_, system_->constantMatrix());
  setInitialState();
  outputs_ = buildOutputs(scene_, comm_);
  try {
    for (auto& output : outputs_) output->start(state());
  } catch (const Error& e) {
    throw Error("initial state (step " + std::to_string(step_) + "): " + std::string(e.what()));
  }
  summary_.setupSeconds = MPI_Wtime() - start;
  report("set-up: %.3f s\n", summary_.setupSeconds);
}

Simulation::~Simulation() {
  VecDestroy(&x_);
  VecDestroy(&v_);
  VecDestroy(&restCoordinates_);
}

void Simulation::reportMesh(const std::vector<std::string>& warnings) const {
  int ranks;
  EIS_CHECK_MPI(MPI_Comm_size(comm_, &ranks));
  const auto& part = mesh_->partition();
  // PTScotch (a converted mesh's partitioner) gives no edge cut.
  const std::string edgeCut = part.edgeCut < 0 ? std::string("n/a") : std::to_string(part.edgeCut);
  report(
      "mesh: %lld nodes, %lld unknowns on %d ranks; cells per rank %lld..%lld, owned nodes per "
      "rank %lld..%lld, ghost nodes per rank %lld..%lld, edge cut %s; %lld fixed nodes\n",
      static_cast<long long>(mesh_->numGlobalVertices()),
      static_cast<long long>(mesh_->numGlobalVertices() * mesh_->dofsPerNode()), ranks,
      static_cast<long long>(part.cellsMin), static_cast<long long>(part.cellsMax),
      static_cast<long long>(part.ownedMin), static_cast<long long>(part.ownedMax),
      static_cast<long long>(part.ghostsMin), static_cast<long long>(part.ghostsMax),
      edgeCut.c_str(), static_cast<long long>(system_->constraint().numFixedNodes()));
  for (const std::string& warning : warnings)
    report("euler-implicit: warning: %s\n", warning.c_str());
}

// At rest, or the scene's initial state; fixed nodes never move, so their velocity is zero
// from the start, and SOFA-rule motions take it as their x0 and project it at t = 0. A
// checkpoint (initial.restart, or initial.state naming one) is then taken as it is, with its
// step, time and the integrator's vectors.
void Simulation::setInitialState() {
  system_->setRestState(x_);
  EIS_CHECK(VecZeroEntries(v_));
  const std::string restart = restartCheckpoint(scene_, comm_);
  const std::string initial = scene_.optionalText("initial.state");
  const bool checkpoint = !restart.empty() || (!initial.empty() && isHdf5File(initial, comm_));
  if (!initial.empty() && !checkpoint) {
    initial_ = std::make_unique<NodalTable>(readStateCsv(initial, physicsOf(scene_), comm_));
    applyState(*initial_, initial, *mesh_, x_, v_);
  }
  applyInitialValues(scene_, *mesh_, x_, v_);
  system_->projectResponse(v_);
  system_->setTime(time_);
  system_->startMotion(x_, v_);
  if (!restart.empty()) {
    loadCheckpoint("initial.restart", restart);
    resumed_ = true;
  } else if (checkpoint) {
    loadCheckpoint("initial.state", initial);
  }
}

void Simulation::loadCheckpoint(const std::string& key, const std::string& path) {
  CheckpointReader reader(key, path, *mesh_, x_);
  if (!reader.load("positions", x_) || !reader.load("velocities", v_))
    throw Error(key + " = " + path + ": the checkpoint has no positions or no velocities");
  integrator_->loadCarried(
      [&](const std::string& name, Vec vector) { return reader.load(name, vector); });
  initial_ = std::make_unique<NodalTable>(reader.unusedNodes());
  startStep_ = step_ = reader.clock().step;
  startTime_ = time_ = reader.clock().time;
  report("%s: %s, step %d, t = %g\n", key.c_str(), path.c_str(), step_, time_);
}

RunState Simulation::state() {
  return {*mesh_, *system_, physicsOf(scene_), x_, v_, initial_.get(), *integrator_,
          step_,  time_,    resumed_};
}

double Simulation::timeOf(int step) const {
  if (startTime_ == startStep_ * dt_) return step * dt_;
  return startTime_ + (step - startStep_) * dt_;
}

int Simulation::stopRequested() const {
  int signal = stopSignal();
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &signal, 1, MPI_INT, MPI_MAX, comm_));
  return signal;
}

void Simulation::run() {
  const double loopStart = MPI_Wtime();
  const auto timersBefore = timerTotals();
  const int first = step_;
  progress_.startAfter(first);
  // The clock of the prescribed motion advances as SOFA's does, t += dt each step, so that a
  // key time compares with the same number.
  double clock = time_;
  for (int step = first + 1; step <= steps_; ++step) {
    const double stepStart = MPI_Wtime();
    StepRecord record;
    try {
      if (!motionless_)
        record.report = substepping_.advance(
            x_, v_, dt_,
            [&](double offset, double h) {
              system_->setTime(clock + offset);
              const StepReport report = integrator_->step(*system_, x_, v_, h);
              system_->projectMotion(x_, v_);
              return report;
            },
            [&](const std::string& warning) {
              report("euler-implicit: warning: %s%s\n", stepName(step).c_str(), warning.c_str());
            },
            record.substeps);
    } catch (const Error& e) {
      // The outputs are written by every rank together, so only when every rank failed too: one
      // that did not is still in the step's collective calls, and the writes would wait for it
      // for ever. This rank's failure is then its own, and it ends the job (app/run_outcome).
      if (!allRanksArrive(failureComm_.get(), kLoneErrorWaitSeconds))
        throw LoneFailure(stepName(step) + e.what() +
                          "; the other ranks did not fail with it, so no state was written");
      // The step failed before touching x and v: they still hold the last good state.
      finishOutputs(nullptr);
      throw Error(stepName(step) + e.what() + "; the state of step " + std::to_string(step - 1) +
                  " was written to the configured outputs");
    }
    clock += dt_;
    record.step = step_ = step;
    record.time = time_ = timeOf(step);
    record.wallSeconds = MPI_Wtime() - stepStart;
    record.last = step == steps_;
    summary_.steps = step - first;
    summary_.totalLinearIterations += record.report.linearIterations;
    summary_.preconditionerSetups += record.report.preconditionerSetups;
    writeOutputs(record);
    if (progress_.due(step)) {
      std::string details;
      if (scene_.text("solver.newton") == "full")
        details += "  Newton iterations " + std::to_string(record.report.nonlinearIterations);
      if (record.report.residualNorm >= 0)
        details += "  residual " + std::to_string(record.report.residualNorm);
      report("%s\n", progress_.line(record, details, MPI_Wtime() - loopStart).c_str());
    }
    if (step < steps_) summary_.stoppedBy = stopRequested();
    if (summary_.stoppedBy) break;
  }
  summary_.loopSeconds = MPI_Wtime() - loopStart;
  summary_.parts = since(timersBefore);
  finishOutputs(nullptr);
  if (summary_.stoppedBy)
    report(
        "euler-implicit: stopped by %s after step %d (t = %g) of %d; the outputs hold that "
        "step%s\n",
        stopSignalName(summary_.stoppedBy), step_, time_, steps_,
        scene_.optionalText("output.checkpoint").empty() ? " (no output.checkpoint to restart from)"
                                                         : ", --restart=auto continues the run");
  double peak = peakResidentBytes(), peakMin = peak, peakMax = peak;
  EIS_CHECK_MPI(MPI_Allreduce(&peak, &peakMin, 1, MPI_DOUBLE, MPI_MIN, comm_));
  EIS_CHECK_MPI(MPI_Allreduce(&peak, &peakMax, 1, MPI_DOUBLE, MPI_MAX, comm_));
  summary_.peakMemoryMin = peakMin;
  summary_.peakMemoryMax = peakMax;
  printSummary();
}

std::string Simulation::stepName(int step) const {
  char name[64];
  std::snprintf(name, sizeof name, "step %d (t = %g): ", step, timeOf(step));
  return name;
}

// A failed write (a full disk) ends the run; the step itself succeeded, so the other outputs
// still finish with its state.
void Simulation::writeOutputs(const StepRecord& record) {
  for (auto& output : outputs_) {
    try {
      output->write(record, state());
    } catch (const Error& e) {
      finishOutputs(output.get());
      throw Error(stepName(record.step) + e.what() + "; the state of step " +
                  std::to_string(record.step) + " was written to the other outputs");
    }
  }
}

void Simulation::finishOutputs(const Output* failed) {
  for (auto& output : outputs_) {
    if (output.get() == failed) continue;
    output->finish(state());
    report("%s\n", output->where().c_str());
  }
}

NodalTable Simulation::gatherState() const {
  return eis::gatherState(*mesh_, x_, v_, initial_.get());
}

void Simulation::printSummary() const {
  const auto& s = summary_;
  const double perStep = s.steps ? s.loopSeconds / s.steps : 0.0;
  std::string parts;
  double other = s.loopSeconds;
  for (const auto& [name, label] : kParts) {
    const auto it = s.parts.find(name);
    if (it == s.parts.end()) continue;
    char text[96];
    std::snprintf(text, sizeof text, "%s %.3f s, ", label, it->second);
    parts += text;
    other -= it->second;
  }
  report(
      "summary: %d steps in %.3f s (%.4f s per step; set-up %.3f s); %sother %.3f s; %.1f "
      "linear iterations per step, %ld PC set-ups; peak memory per rank %.1f..%.1f MiB\n",
      s.steps, s.loopSeconds, perStep, s.setupSeconds, parts.c_str(), other,
      s.steps ? double(s.totalLinearIterations) / s.steps : 0.0, s.preconditionerSetups,
      s.peakMemoryMin / 1048576.0, s.peakMemoryMax / 1048576.0);
}

}  // namespace eis
