#include "eis/app/simulation.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <vector>

#include "eis/app/scene_builder.hpp"
#include "eis/app/stop_signals.hpp"
#include "eis/core/error.hpp"
#include "eis/core/input_file.hpp"
#include "eis/core/memory.hpp"
#include "eis/core/timer.hpp"
#include "eis/io/help.hpp"
#include "eis/linalg/linear_solver.hpp"
#include "eis/ode/free_motion_step.hpp"
#include "eis/ode/time_integrator_component.hpp"

namespace eis {

namespace {

// The timers of the loop, in the order the summary lists them, and how it names them.
constexpr std::pair<const char*, const char*> kParts[] = {
    {"Forces", "forces"},
    {"Matrix assembly", "matrix assembly"},
    {"Block copy set-up", "block copy set-up"},
    {"Constraints", "constraints"},
    {"Preconditioner set-up", "preconditioner set-up"},
    {"Initial guess", "initial guess"},
    {"KSP solve", "KSP solve"},
    {"Solution check", "solution check"},
    {"Newton solve", "Newton solve (set-ups included)"},
    {"Output", "outputs"},
    {"Checkpoint", "checkpoints"}};

// What each timer counted between two readings (of timerTotals or timerCpuTotals, `now`).
std::map<std::string, double> since(const std::map<std::string, double>& before,
                                    std::map<std::string, double> parts = timerTotals()) {
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

namespace {

// A run of several bodies: the keys that are the run's own (its clock, its outputs, the files
// that hold every body's starting state) must agree, refused by name before anything is built.
const Scene& firstScene(const std::vector<ObjectScene>& objects) {
  if (objects.empty()) throw Error("the scene has no body");
  return objects.front().scene;
}

void checkBodies(const std::vector<ObjectScene>& objects) {
  // A body alone solves its own rows; rows across bodies are a group's (its joined system).
  for (const ObjectScene& object : objects)
    for (const auto& pairs : bilateralPairsAcross(object.scene))
      if (!object.scene.given("solver.group"))
        throw Error(object.path + ": lagrange.bilateral = " + pairs.text + ": pairs with " +
                    pairs.body +
                    "'s nodes need both bodies in one solver.group (under one ODE solver)");
  if (objects.size() == 1) return;
  const Scene& first = objects.front().scene;
  for (const char* key :
       {"solver.steps", "solver.dt", "output.final-state", "output.history", "output.every",
        "output.progress-every", "output.vtk", "output.xdmf", "output.checkpoint",
        "output.checkpoint-every", "output.checkpoint-minutes", "initial.restart", "initial.state",
        "output.frames"})
    for (const ObjectScene& object : objects)
      if (object.scene.shown(key) != first.shown(key))
        throw Error(std::string(key) + " differs between the bodies " + objects.front().path +
                    " and " + object.path + ": it is the run's, the same for every body");
}

}  // namespace

Simulation::Body::Body(const ObjectScene& object)
    : path(object.path), scene(object.scene), substepping(object.scene) {}

Simulation::Body::~Body() {
  for (Vec* u : {&x, &v, &restCoordinates, &x0, &v0}) VecDestroy(u);
}

Simulation::Simulation(const Scene& scene, MPI_Comm comm, std::FILE* log)
    : Simulation(std::vector<ObjectScene>{{"", scene}}, comm, log) {}

// Set-up: the whole scene is built here, collectively, so that every bad input (a missing
// group, an unwritable output) fails before the first step rather than after the last.
Simulation::Simulation(const std::vector<ObjectScene>& allObjects, MPI_Comm comm, std::FILE* log)
    : runScene_(firstScene(allObjects)), comm_(comm), failureComm_(comm), log_(log) {
  const double start = MPI_Wtime();
  checkBodies(allObjects);
  checkRigidBodies(allObjects);
  // The bodies of rigid frames are systems of their own (app/rigid_bodies.cpp); the others have
  // meshes.
  std::vector<ObjectScene> objects;
  std::vector<std::size_t> places;  // each mesh body's place in the scene's order of bodies
  for (std::size_t i = 0; i < allObjects.size(); ++i)
    if (!isRigidBody(allObjects[i].scene)) {
      objects.push_back(allObjects[i]);
      places.push_back(i);
    }
  std::vector<std::string> groupWarnings;
  const std::vector<std::vector<std::size_t>> groups = formGroups(objects, groupWarnings);
  for (const std::string& warning : groupWarnings)
    report("euler-implicit: warning: %s\n", warning.c_str());
  for (const ObjectScene& object : objects) bodies_.push_back(std::make_unique<Body>(object));
  for (const auto& members : groups) {
    auto group = std::make_unique<Group>();
    for (std::size_t b : members) group->bodies.push_back(bodies_[b].get());
    group->name = bodies_[members.front()]->scene.optionalText("solver.group");
    group->place = places[members.front()];
    const bool springs = std::any_of(group->bodies.begin(), group->bodies.end(), [](Body* body) {
      return !body->scene.texts("interaction.springs").empty() ||
             !body->scene.texts("interaction.polynomial-springs").empty() ||
             !body->scene.texts("attach.pairs").empty();
    });
    for (Body* body : group->bodies) body->coupled = members.size() > 1 || springs;
    groups_.push_back(std::move(group));
  }
  markJointBodies(allObjects);
  steps_ = scene().integer("solver.steps");
  dt_ = scene().real("solver.dt");
  progress_ = std::make_unique<Progress>(scene());
  // The scenes first, so that a mesh that fails to load is seen against the scene that names it.
  std::vector<const Scene*> scenes;
  for (const auto& body : bodies_) {
    report("euler-implicit %s: scene%s%s\n%s", EIS_VERSION, body->path.empty() ? "" : " of body ",
           body->path.c_str(), describe(body->scene).c_str());
    scenes.push_back(&body->scene);
  }
  std::vector<std::vector<std::string>> warnings(bodies_.size());
  std::vector<std::unique_ptr<DistributedMesh>> meshes = buildMeshes(scenes, comm_, warnings);
  for (std::size_t b = 0; b < bodies_.size(); ++b)
    buildBody(*bodies_[b], std::move(meshes[b]), warnings[b]);
  for (auto& group : groups_)
    if (group->bodies.front()->coupled) buildGroup(*group);
  for (const auto& members : rigidGroups(allObjects)) buildRigid(allObjects, members);
  linkFrames();
  setInitialStates();
  prepareTopologyChanges();
  outputs_ = buildOutputs(scene(), comm_);
  try {
    const std::vector<RunState> all = states();
    for (auto& output : outputs_) output->start(all);
  } catch (const Error& e) {
    throw Error("initial state (step " + std::to_string(step_) + "): " + std::string(e.what()));
  }
  summary_.setupSeconds = MPI_Wtime() - start;
  report("set-up: %.3f s\n", summary_.setupSeconds);
}

Simulation::~Simulation() = default;

// One body on its mesh: its system, integrator and starting state.
void Simulation::buildBody(Body& body, std::unique_ptr<DistributedMesh> mesh,
                           std::vector<std::string>& warnings) {
  body.mesh = std::move(mesh);
  body.system = buildSystem(body.scene, *body.mesh, warnings);
  // With every unknown fixed there is nothing to solve, and a solve of the identity would only
  // make the preconditioner fail: the run goes on without solves (held nodes on a prescribed
  // path still follow it), so that its outputs still come out.
  PetscInt fixedUnknowns = 0;
  if (body.system->constraint().rows())
    EIS_CHECK(ISGetSize(body.system->constraint().rows(), &fixedUnknowns));
  body.motionless = fixedUnknowns == body.mesh->numGlobalVertices() * body.mesh->dofsPerNode();
  if (body.motionless)
    warnings.push_back("every unknown is fixed: nothing moves, and the steps solve nothing");
  reportMesh(body, warnings);

  body.x = body.system->createVector();
  body.v = body.system->createVector();
  // Elasticity's near-nullspace, for a preconditioner built from an assembled matrix.
  const LinearSolverChoice linear = linearSolverFor(body.scene, body.system->constantMatrix());
  if (body.mesh->dofsPerNode() == 3 && linear.op == OperatorMode::Assembled) {
    body.restCoordinates = body.system->createVector();
    body.system->setRestState(body.restCoordinates);
  }
  if (!body.coupled && !body.joint)
    body.integrator = makeTimeIntegrator(readTimeIntegratorParameters(body.scene), linear, comm_,
                                         body.x, body.restCoordinates);
}

LinearSolverChoice Simulation::linearSolverFor(const Scene& scene, bool constantMatrix) const {
  LinearSolverChoice choice = linearSolverOf(readLinearSolverParameters(scene), constantMatrix);
  choice.options.checkpointed = !this->scene().optionalText("output.checkpoint").empty();
  return choice;
}

void Simulation::reportMesh(const Body& body, const std::vector<std::string>& warnings) const {
  int ranks;
  EIS_CHECK_MPI(MPI_Comm_size(comm_, &ranks));
  const DistributedMesh& mesh = *body.mesh;
  const auto& part = mesh.partition();
  // PTScotch (a converted mesh's partitioner) gives no edge cut.
  const std::string edgeCut = part.edgeCut < 0 ? std::string("n/a") : std::to_string(part.edgeCut);
  report(
      "mesh%s%s: %lld nodes, %lld unknowns on %d ranks; cells per rank %lld..%lld, owned nodes "
      "per rank %lld..%lld, ghost nodes per rank %lld..%lld, edge cut %s; %lld fixed nodes\n",
      body.path.empty() ? "" : " of ", body.path.c_str(),
      static_cast<long long>(mesh.numGlobalVertices()),
      static_cast<long long>(mesh.numGlobalVertices() * mesh.dofsPerNode()), ranks,
      static_cast<long long>(part.cellsMin), static_cast<long long>(part.cellsMax),
      static_cast<long long>(part.ownedMin), static_cast<long long>(part.ownedMax),
      static_cast<long long>(part.ghostsMin), static_cast<long long>(part.ghostsMax),
      edgeCut.c_str(), static_cast<long long>(body.system->constraint().numFixedNodes()));
  // A body nothing holds falls or drifts: right for a free body, a surprise where a clamp was
  // expected (a converted box loses the built-in box's default one).
  if (body.system->constraint().numFixedNodes() == 0)
    report("note: no node of %s is fixed (no constraint): it moves freely under its loads\n",
           body.path.empty() ? "the body" : body.path.c_str());
  for (const std::string& warning : warnings)
    report("euler-implicit: warning: %s%s%s\n", body.path.c_str(), body.path.empty() ? "" : ": ",
           warning.c_str());
}

std::vector<RunState> Simulation::states() {
  std::vector<RunState> all;
  const ControllerDt dt{dtChanged_ || nextDt_ > 0 || rootDt_ > 0, dt_, nextDt_, rootDt_};
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    Body* body = bodies_[b].get();
    all.push_back({*body->mesh, *body->system, physicsOf(body->scene), body->x, body->v,
                   body->initial.get(), *body->integrator, step_, time_, resumed_, body->path,
                   &body->scene, clock_, dt, forcedBodies_.count(b) ? loadsText(*body) : "",
                   factorsText(b)});
    all.back().controllers = [this] {
      if (!controllers_ || mainLoop_) return ControllerRecord{};
      return ControllerRecord{true, controllers_->saveState(), controllerPending_};
    };
  }
  return all;
}

double Simulation::timeOf(int step) const {
  // After a controller changed dt: the step done, or the one in progress.
  if (dtChanged_) return step == step_ ? time_ : time_ + dt_;
  if (startTime_ == startStep_ * dt_) return step * dt_;
  return startTime_ + (step - startStep_) * dt_;
}

int Simulation::stopRequested() const {
  int signal = stopSignal();
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &signal, 1, MPI_INT, MPI_MAX, comm_));
  return signal;
}

void Simulation::run() {
  startLoop();
  while (step_ < steps_ && stepOnce()) {
  }
  endLoop();
}

void Simulation::startLoop() {
  // A checkpoint holding the controllers' own state, and no controllers to take it: the script's
  // own process (the euler_implicit module) runs its controllers itself.
  if (restartControllers_.stored && !controllers_)
    throw Error("initial.restart = " + restartPath_ +
                ": the checkpoint holds the Python controllers' own state, which only "
                "euler-implicit --scene gives back to them (restart with it)");
  loopStart_ = MPI_Wtime();
  loopCpuStart_ = threadCpuSeconds();
  timersBefore_ = timerTotals();
  cpuTimersBefore_ = timerCpuTotals();
  firstStep_ = step_;
  progress_->startAfter(firstStep_);
  // A restart from a checkpoint at or past the run's end has nothing to do: said so, with how to
  // go on, instead of a summary of 0 steps alone.
  if (firstStep_ >= steps_)
    report(
        "euler-implicit: the run is already complete: it starts at step %d (t = %g) and "
        "solver.steps = %d is the run's total; give a larger --solver.steps to go on\n",
        firstStep_, time_, steps_);
  // The clock of the prescribed motion advances as SOFA's does, t += dt each step, so that a
  // key time compares with the same number; a checkpoint's start continues its clock.
  clock_ = startClock_;
}

bool Simulation::stepOnce() {
  const int step = step_ + 1;
  const double stepStart = MPI_Wtime();
  StepRecord record;
  try {
    if (mainLoop_ && !mainLoopTurn(step)) return false;
    applyTopologyChanges(clock_);
    if (controllers_) {
      controllerPending_ = 2;
      controllerEvent(true, step, clock_);
    }
    advance(step, clock_, record);
  } catch (const Error& e) {
    // The outputs are written by every rank together, so only when every rank failed too: one
    // that did not is still in the step's collective calls, and the writes would wait for it
    // for ever. This rank's failure is then its own, and it ends the job (app/run_outcome).
    if (!allRanksArrive(failureComm_.get(), loneErrorWaitSeconds()))
      throw LoneFailure(stepName(step) + e.what() +
                        "; the other ranks did not fail with it, so no state was written");
    // The step failed before touching x and v: they still hold the last good state.
    finishOutputs(nullptr);
    throw Error(stepName(step) + e.what() + "; the state of step " + std::to_string(step - 1) +
                " was written to the configured outputs");
  }
  clock_ += dt_;
  record.time = timeOf(step);
  record.step = step_ = step;
  time_ = record.time;
  record.wallSeconds = MPI_Wtime() - stepStart;
  record.last = step == steps_;
  summary_.steps = step - firstStep_;
  summary_.totalLinearIterations += record.report.linearIterations;
  summary_.preconditionerSetups += record.report.preconditionerSetups;
  controllerPending_ = controllers_ ? 1 : 0;
  writeOutputs(record);
  if (controllers_) {
    try {
      controllerEvent(false, step, time_);
      controllerPending_ = 0;
    } catch (const Error& e) {
      controllerPending_ = 0;
      finishOutputs(nullptr);
      throw Error(stepName(step) + e.what() + "; the state of step " + std::to_string(step) +
                  " was written to the configured outputs");
    }
  }
  if (progress_->due(step)) {
    std::string details;
    if (scene().text("solver.newton") == "full")
      details += "  Newton iterations " + std::to_string(record.report.nonlinearIterations);
    if (record.report.residualNorm >= 0)
      details += "  residual " + std::to_string(record.report.residualNorm);
    if (record.report.constraintRows > 0) {
      const StepReport& r = record.report;
      char text[200];
      std::snprintf(text, sizeof text,
                    "  constraints %d rows, %d Gauss-Seidel iterations, error %.3g; free motion "
                    "%.3g s, W %.3g s, Gauss-Seidel %.3g s, correction %.3g s",
                    r.constraintRows, r.constraintIterations, r.constraintError,
                    r.freeMotionSeconds, r.complianceSeconds, r.gaussSeidelSeconds,
                    r.correctionSeconds);
      details += text;
    }
    report("%s\n", progress_->line(record, details, MPI_Wtime() - loopStart_).c_str());
  }
  if (step < steps_) summary_.stoppedBy = stopRequested();
  return summary_.stoppedBy == 0;
}

void Simulation::endLoop() {
  summary_.loopSeconds = MPI_Wtime() - loopStart_;
  summary_.parts = since(timersBefore_);
  reduceCpuTimes(since(cpuTimersBefore_, timerCpuTotals()), threadCpuSeconds() - loopCpuStart_);
  finishOutputs(nullptr);
  if (summary_.stoppedBy)
    report(
        "euler-implicit: stopped by %s after step %d (t = %g) of %d; the outputs hold that "
        "step%s\n",
        stopSignalName(summary_.stoppedBy), step_, time_, steps_,
        scene().optionalText("output.checkpoint").empty()
            ? " (no output.checkpoint to restart from)"
            : ", --restart=auto continues the run");
  double peak = peakResidentBytes(), peakMin = peak, peakMax = peak;
  EIS_CHECK_MPI(MPI_Allreduce(&peak, &peakMin, 1, MPI_DOUBLE, MPI_MIN, comm_));
  EIS_CHECK_MPI(MPI_Allreduce(&peak, &peakMax, 1, MPI_DOUBLE, MPI_MAX, comm_));
  summary_.peakMemoryMin = peakMin;
  summary_.peakMemoryMax = peakMax;
  printSummary();
}

// Each system in turn (a body alone or a coupled group), from the same clock, as SOFA's
// DefaultAnimationLoop integrates its solver nodes. A system that fails leaves the step undone
// for all: the bodies are put back (from copies made before the step, kept between steps), so
// that the outputs' last good state is one step of every body.
void Simulation::advance(int step, double clock, StepRecord& record) {
  if (bodies_.size() > 1 || !rigids_.empty())
    for (auto& body : bodies_) {
      if (!body->x0) EIS_CHECK(VecDuplicate(body->x, &body->x0));
      if (!body->v0) EIS_CHECK(VecDuplicate(body->v, &body->v0));
      EIS_CHECK(VecCopy(body->x, body->x0));
      EIS_CHECK(VecCopy(body->v, body->v0));
    }
  saveRigids();
  bool reported = false;
  const auto add = [&](const StepReport& report, int substeps) {
    record.report.linearIterations += report.linearIterations;
    record.report.nonlinearIterations =
        (reported ? record.report.nonlinearIterations : 0) + report.nonlinearIterations;
    reported = true;
    record.report.preconditionerSetups += report.preconditionerSetups;
    record.report.residualNorm = std::max(record.report.residualNorm, report.residualNorm);
    // Each body solves its own Lagrangian constraints: the rows and seconds add up, the
    // Gauss-Seidel's iterations and error are the largest of any body's.
    record.report.constraintRows += report.constraintRows;
    record.report.constraintIterations =
        std::max(record.report.constraintIterations, report.constraintIterations);
    record.report.constraintError = std::max(record.report.constraintError, report.constraintError);
    record.report.freeMotionSeconds += report.freeMotionSeconds;
    record.report.complianceSeconds += report.complianceSeconds;
    record.report.gaussSeidelSeconds += report.gaussSeidelSeconds;
    record.report.correctionSeconds += report.correctionSeconds;
    record.substeps = std::max(record.substeps, substeps);
  };
  // SOFA's SolveVisitor runs the solver nodes in the scene's order: a body of frames before a
  // group that comes after it in the scene, so that a field reading its frames (an
  // InteractionEllipsoidForceField) sees them after their step, as SOFA's does.
  std::size_t rigidsDone = 0;
  const auto advanceRigidsBefore = [&](std::size_t place) {
    for (; rigidsDone < rigids_.size() && rigids_[rigidsDone]->places.front() < place; ++rigidsDone)
      advanceRigid(*rigids_[rigidsDone], record, clock);
  };
  try {
    for (auto& group : groups_) {
      advanceRigidsBefore(group->place);
      if (group->system) {
        int substeps = 1;
        const bool still = std::all_of(group->bodies.begin(), group->bodies.end(),
                                       [](const Body* body) { return body->motionless; });
        if (!still) add(advanceGroup(*group, step, clock, substeps), substeps);
        continue;
      }
      Body* body = group->bodies.front();
      if (body->joint) continue;  // stepped with its frames, in advanceRigid
      if (body->motionless) {
        // Nothing to solve; the nodes a prescribed motion or a projector holds still follow it.
        body->system->setTime(clock, dt_);
        body->system->projectMotion(body->x, body->v);
        continue;
      }
      int substeps = 1;
      const StepReport report = body->substepping.advance(
          body->x, body->v, dt_,
          [&](double offset, double h) {
            body->system->setTime(clock + offset, dt_);
            const StepReport stepReport =
                body->integrator->step(*body->system, body->x, body->v, h);
            body->system->projectMotion(body->x, body->v);
            // A state that is not finite, or that a material law is not defined at, fails the
            // step instead of being written as its result.
            body->system->checkState(body->x, body->v);
            return stepReport;
          },
          [&](const std::string& warning) {
            this->report("euler-implicit: warning: %s%s%s%s\n", stepName(step).c_str(),
                         body->path.c_str(), body->path.empty() ? "" : ": ", warning.c_str());
          },
          substeps);
      add(report, substeps);
    }
    advanceRigidsBefore(SIZE_MAX);
  } catch (const Error&) {
    if (bodies_.size() > 1 || !rigids_.empty())
      for (auto& body : bodies_) {
        EIS_CHECK(VecCopy(body->x0, body->x));
        EIS_CHECK(VecCopy(body->v0, body->v));
      }
    restoreRigids();
    throw;
  }
}

std::string Simulation::stepName(int step) const {
  char name[64];
  std::snprintf(name, sizeof name, "step %d (t = %g): ", step, timeOf(step));
  return name;
}

// A failed write (a full disk) ends the run; the step itself succeeded, so the other outputs
// still finish with its state.
void Simulation::writeOutputs(const StepRecord& record) {
  // Writing is a part of the summary and a -log_view stage of its own, not "other".
  const ScopedTimer timer("Output");
  for (auto& output : outputs_) {
    try {
      output->write(record, states());
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
    output->finish(states());
    report("%s\n", output->where().c_str());
  }
  writeFrames();
}

NodalTable Simulation::gatherState() const {
  const Body& body = *bodies_.front();
  return eis::gatherState(*body.mesh, body.x, body.v, body.initial.get());
}

void Simulation::reduceCpuTimes(const std::map<std::string, double>& parts, double loop) {
  // The same list on every rank, a part a rank did not time counted as 0 there.
  std::vector<double> seconds;
  for (const auto& [name, label] : kParts) {
    const auto it = parts.find(name);
    seconds.push_back(it == parts.end() ? 0.0 : it->second);
  }
  seconds.push_back(loop);
  std::vector<double> least(seconds.size()), most(seconds.size());
  EIS_CHECK_MPI(
      MPI_Allreduce(seconds.data(), least.data(), int(seconds.size()), MPI_DOUBLE, MPI_MIN, comm_));
  EIS_CHECK_MPI(
      MPI_Allreduce(seconds.data(), most.data(), int(seconds.size()), MPI_DOUBLE, MPI_MAX, comm_));
  for (std::size_t k = 0; k < std::size(kParts); ++k)
    if (parts.count(kParts[k].first)) {
      summary_.cpuPartsMin[kParts[k].first] = least[k];
      summary_.cpuPartsMax[kParts[k].first] = most[k];
    }
  summary_.loopCpuMin = least.back();
  summary_.loopCpuMax = most.back();
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
  // The same parts in CPU time, which the other jobs of a shared machine disturb less; a rank
  // that waits for another in MPI still counts its polling.
  std::string cpu;
  for (const auto& [name, label] : kParts) {
    const auto it = s.cpuPartsMin.find(name);
    if (it == s.cpuPartsMin.end()) continue;
    char text[112];
    std::snprintf(text, sizeof text, "%s %.3f..%.3f s, ", label, it->second,
                  s.cpuPartsMax.at(name));
    cpu += text;
  }
  report("cpu time per rank: %sloop %.3f..%.3f s (least..most over the ranks)\n", cpu.c_str(),
         s.loopCpuMin, s.loopCpuMax);
}

}  // namespace eis
