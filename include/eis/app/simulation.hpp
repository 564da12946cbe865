#pragma once
// One run of a scene: set-up (mesh, partition, model, integrator, outputs), the time loop with
// its progress report (app/progress.hpp), and the end summary. main() is this plus the command
// line.
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "eis/app/progress.hpp"
#include "eis/app/run_outcome.hpp"
#include "eis/app/substepping.hpp"
#include "eis/core/scene.hpp"
#include "eis/io/checkpoint_file.hpp"
#include "eis/io/output.hpp"
#include "eis/io/python_controllers.hpp"
#include "eis/io/state_csv.hpp"
#include "eis/io/topology_changes.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/coupled_system.hpp"
#include "eis/model/joint_system.hpp"
#include "eis/model/mechanical_system.hpp"
#include "eis/model/rigid_group.hpp"
#include "eis/ode/time_integrator.hpp"

namespace eis {

struct LinearSolverChoice;

struct RunSummary {
  int steps = 0;
  double setupSeconds = 0, loopSeconds = 0;
  // The loop's seconds by ScopedTimer name ("Forces", "Matrix assembly", "Constraints",
  // "Preconditioner set-up", "KSP solve", "Newton solve"), each second counted once.
  std::map<std::string, double> parts;
  // The same parts and the whole loop in each rank's CPU seconds (core/timer.hpp): the least
  // and the most over the ranks.
  std::map<std::string, double> cpuPartsMin, cpuPartsMax;
  double loopCpuMin = 0, loopCpuMax = 0;
  long totalLinearIterations = 0;
  long preconditionerSetups = 0;
  double peakMemoryMin = 0, peakMemoryMax = 0;  // bytes, over ranks
  int stoppedBy = 0;  // the signal that stopped the run before its last step (app/stop_signals)
};

class Simulation {
public:
  // Collective. One run of the bodies of a scene (each with its resolved scene, in scene order):
  // the bodies of one solver.group are one system (SOFA's states under one ODE solver), every
  // other body a system of its own, the systems integrated one after another each step in the
  // order of their first body, as SOFA's DefaultAnimationLoop does. `log` receives the start-up
  // report, per-step progress and the summary on rank 0 (nullptr: silent). Throws eis::Error on
  // every rank for bad input.
  Simulation(const std::vector<ObjectScene>& objects, MPI_Comm comm, std::FILE* log);
  // A scene of one body.
  Simulation(const Scene& scene, MPI_Comm comm, std::FILE* log);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  // Runs the steps from the starting one (0, or a checkpoint's) to solver.steps, writing the
  // configured outputs. When a step fails, the last good state is written first and the error
  // names the step. A stop signal (app/stop_signals.hpp) ends the loop after the step in
  // progress, with the outputs finished (a checkpoint written when output.checkpoint is set)
  // and summary().stoppedBy set.
  void run();
  const RunSummary& summary() const { return summary_; }

  // Collective, before run(): the scene's Python controllers (io/python_controllers.hpp) get
  // AnimateBeginEvent before each step and AnimateEndEvent after it
  // (app/simulation_controllers.cpp). Nothing happens when `control` names none. With a Python
  // main loop (control.mainLoop), the script's Sofa.Simulation.animate calls drive the steps
  // instead of solver.steps, and it reads and writes between them. `started`: the controllers
  // already started to compute the scene's force fields written in Python (control.forceFields).
  void attachControllers(const SofaControl& control,
                         std::unique_ptr<PythonControllers> started = nullptr);

  // A caller's own loop instead of run() (the Python module, src/python): beginSteps() once,
  // then for each step beginStep(dt) (dt 0: the root's; another for this step only, as
  // SofaPython3's animate(root, dt)), takeStep(), endStep(), the animate events between them,
  // and endSteps() at the end, which finishes the outputs. No step count: as many as it takes.
  // Each collective; takeStep throws eis::Error naming the step.
  void beginSteps();
  void beginStep(double dt);
  void takeStep() { stepOnce(); }
  void endStep() { settleDt(); }
  void endSteps() { endLoop(); }
  // What a controller may read and write (io/python_controllers.hpp); `inEvent`: called from an
  // animate event (a dt written applies from the step after), else between steps (from the next).
  std::unique_ptr<ControllerAccess> controllerAccess(bool inEvent);
  std::size_t bodyCount() const { return bodies_.size(); }
  // Body `body`'s mesh and its positions or velocities (3 per owned node, ownedOffset order).
  const DistributedMesh& meshOf(std::size_t body) const { return *bodies_.at(body)->mesh; }
  Vec stateOf(std::size_t body, bool velocity) const {
    return velocity ? bodies_.at(body)->v : bodies_.at(body)->x;
  }
  const NodalTable* initialOf(std::size_t body) const { return bodies_.at(body)->initial.get(); }
  // Collective only in that every rank must call it: writes this rank's owned rows of body
  // `body`'s positions (or velocities) from `values`, which hold `count` numbers: every node's
  // row in node order, or (`owned`) this rank's owned rows in ownedOffset order. The next step
  // starts from them. Throws eis::Error for a count that fits neither.
  void setState(std::size_t body, bool velocity, const double* values, std::size_t count,
                bool owned);
  int stepIndex() const { return step_; }
  double time() const { return time_; }
  double dt() const { return dt_; }

  // The current state of every node of the first body on rank 0 (empty elsewhere), in node-id
  // order; the first body's system, mesh and vectors.
  NodalTable gatherState() const;
  MechanicalSystem& system() { return *bodies_.front()->system; }
  const DistributedMesh& mesh() const { return *bodies_.front()->mesh; }
  Vec positions() const { return bodies_.front()->x; }
  Vec velocities() const { return bodies_.front()->v; }

private:
  // One body: its scene, mesh, mechanical system, integrator and state.
  struct Body {
    explicit Body(const ObjectScene& object);
    ~Body();
    Body(const Body&) = delete;
    Body& operator=(const Body&) = delete;
    std::string path;  // "" for a scene of one body
    Scene scene;
    Substepping substepping;
    std::unique_ptr<DistributedMesh> mesh;
    std::unique_ptr<MechanicalSystem> system;
    // Its own, or (a body of a coupled group) a view of its part of the group's carried vectors.
    std::unique_ptr<TimeIntegrator> integrator;
    std::unique_ptr<NodalTable> initial;
    bool motionless = false;  // every unknown fixed: its steps are skipped
    bool coupled = false;     // stepped by its coupled group's integrator
    bool joint = false;       // stepped with rigid frames (RigidRun::joint)
    Vec x = nullptr, v = nullptr, restCoordinates = nullptr;
    Vec x0 = nullptr, v0 = nullptr;  // x and v before the step (several bodies only)
    // topology.changes: the events still to come (app/topology_changes.cpp); null without.
    std::unique_ptr<TopologySchedule> topology;
  };

  // The bodies one integrator steps: one body alone (system null: stepped as it always was), or
  // a coupled group (app/coupled_groups.cpp): several bodies of one solver.group, or bodies
  // with interaction.springs, as one CoupledSystem with joined x and v.
  struct Group {
    ~Group();
    std::string name;
    std::vector<Body*> bodies;
    std::size_t place = 0;  // its first body's place in the scene's order of bodies
    std::unique_ptr<CoupledSystem> system;
    std::unique_ptr<TimeIntegrator> integrator;
    std::unique_ptr<Substepping> substepping;
    Vec x = nullptr, v = nullptr, restCoordinates = nullptr;
  };

  // Bodies of rigid frames (rigid.frames; app/rigid_bodies.cpp) that springs join, or one alone:
  // no mesh, their own system and integrator, stepped in the scene's order among the mesh
  // bodies' groups (SOFA's solver nodes); their frames are written by output.frames alone. With
  // rigid.mapped-springs to a mesh body, the group lives on the run's communicator and is stepped
  // with that body as one JointSystem, at the frames' place.
  struct RigidRun {
    explicit RigidRun(const ObjectScene& first) : scene(first.scene) {}
    ~RigidRun();
    RigidRun(const RigidRun&) = delete;
    RigidRun& operator=(const RigidRun&) = delete;
    std::vector<std::string> paths;   // each member's, in the group's order
    std::vector<std::size_t> places;  // each member's place in the scene's order of bodies
    Scene scene;                      // the first member's: its step and linear solver
    std::unique_ptr<RigidGroup> body;
    std::unique_ptr<TimeIntegrator> integrator;
    Vec x = nullptr, v = nullptr, x0 = nullptr, v0 = nullptr;
    Body* mesh = nullptr;                // the mesh body springs join, if any
    std::unique_ptr<JointSystem> joint;  // the frames and that body as one system
    Vec jointX = nullptr, jointV = nullptr;
  };
  // Collective: refuses what a scene with rigid bodies cannot do yet, by name, before anything is
  // built; then builds each rigid body.
  static void checkRigidBodies(const std::vector<ObjectScene>& objects);
  // The rigid bodies that interaction springs join (their indices in objects), each group in
  // scene order.
  static std::vector<std::vector<std::size_t>> rigidGroups(const std::vector<ObjectScene>& objects);
  void buildRigid(const std::vector<ObjectScene>& objects, const std::vector<std::size_t>& members);
  // Marks the mesh bodies that rigid.mapped-springs join to frames (Body::joint), before they
  // are built; refuses one in a coupled group.
  void markJointBodies(const std::vector<ObjectScene>& objects);
  // The frames an InteractionEllipsoidForceField of a mesh body reads, linked to its rigid run;
  // refuses a frame that is no body's, and an assembled operator for such a body.
  void linkFrames();
  // Steps one rigid run (a joint with a mesh body from `clock`); saveRigids keeps every run's
  // state before the step (x0, v0), restoreRigids puts it back after a failed step.
  void saveRigids();
  void advanceRigid(RigidRun& rigid, StepRecord& record, double clock);
  void restoreRigids();
  // output.frames, when given: every rigid body's frames.
  void writeFrames();

  void report(const char* format, ...) const;
  // The bodies' groups, by index, in the order of their first body, checked before any mesh is
  // read (app/coupled_groups.cpp): what one system of several bodies cannot do yet is refused
  // by name where springs couple them, else its bodies are solved one by one (a warning).
  static std::vector<std::vector<std::size_t>> formGroups(const std::vector<ObjectScene>& objects,
                                                          std::vector<std::string>& warnings);
  // Collective. Each coupled group's system, integrator and joined vectors, once its bodies are
  // built; each of its bodies' integrator a view of the group's.
  void buildGroup(Group& group);
  // One step of a coupled group: its bodies' x and v joined, stepped, split back.
  StepReport advanceGroup(Group& group, int step, double clock, int& substeps);
  void buildBody(Body& body, std::unique_ptr<DistributedMesh> mesh,
                 std::vector<std::string>& warnings);
  // The linear solver a system with this scene solves with; it keeps what a checkpoint carries
  // only when the run writes checkpoints.
  LinearSolverChoice linearSolverFor(const Scene& scene, bool constantMatrix) const;
  void reportMesh(const Body& body, const std::vector<std::string>& warnings) const;
  // Collective (app/topology_changes.cpp). At set-up, once the starting state is set: reads
  // each body's topology.changes, refuses what the body cannot carry through a change when the
  // run reaches one, and applies the run's events in advance on rank 0 (a removal that empties
  // the body fails here). At a step's start (SOFA's AnimateBeginEvent,
  // `clock` its time): each body's due removal applied and the body rebuilt on what is left,
  // its state carried by SOFA's renumbering.
  void prepareTopologyChanges();
  void applyTopologyChanges(double clock);
  // Every body's starting state (app/simulation_start.cpp): at rest, initial.state's rows of it,
  // its initial.positions and initial.velocities, or a checkpoint's.
  void setInitialStates();
  // `table`: the body's rows of initial.state = `path` (nullptr: none).
  void setInitialState(Body& body, const NodalTable* table, const std::string& path);
  // initial.state = `path` for a scene of several bodies: each body's rows, in scene order.
  std::vector<NodalTable> readObjectStates(const std::string& path);
  // A checkpoint (key: the key that named it) as every body's state to start from, with its
  // clock; with `apply` false, every dataset is read into scratch vectors and no state changes.
  void readCheckpoint(const std::string& key, const std::string& path, bool apply);
  // Collective, the same verdict on every rank: the error readCheckpoint("initial.restart",
  // path, true) would raise, "" when it would load. Changes no state.
  std::string checkpointProblem(const std::string& path);
  // Collective: what differs between the bodies of a checkpoint and the scene's, "" if nothing.
  std::string bodiesDiffer(const std::vector<CheckpointBody>& file) const;
  // The time of a step: step * dt when the starting state is on that grid (a restart of the
  // same run, bit for bit the uninterrupted run's time), else from the starting state's time.
  double timeOf(int step) const;
  // Collective: whether any rank received a stop signal; which one.
  int stopRequested() const;
  // Advances every body by one step from `clock`, in scene order; the reports summed.
  void advance(int step, double clock, StepRecord& record);
  std::vector<RunState> states();
  std::string stepName(int step) const;
  void writeOutputs(const StepRecord& record);
  // The controllers' event of `step` at `time`; a dt they set applies from the next step.
  class ControllerAccessOf;
  void controllerEvent(bool begin, int step, double time);
  // run()'s parts: before the first step, one step (false when the run stops there: a stop
  // signal, or a Python main loop's end), after the last.
  void startLoop();
  bool stepOnce();
  void endLoop();
  // A dt for the coming step only (0: none), the root's kept to come back after it.
  void takeStepDt(double stepDt);
  // After a step's end event: a dt a controller wrote, or the root's after a step's own.
  void settleDt();
  // A Python main loop's turn before step `step`: false when the script ends the run.
  bool mainLoopTurn(int step);
  // Finishes every output but `failed` (nullptr: all) with the current state.
  void finishOutputs(const Output* failed);
  // Each rank's CPU seconds of the loop's parts and of the whole loop, least and most over the
  // ranks, into summary_. Collective.
  void reduceCpuTimes(const std::map<std::string, double>& parts, double loop);
  void printSummary() const;

  // The run's own keys (steps, dt, outputs) are read from the first body's scene.
  const Scene& scene() const { return runScene_; }

  Scene runScene_;
  std::vector<std::unique_ptr<Body>> bodies_;
  // The bodies of rigid frames, in scene order.
  std::vector<std::unique_ptr<RigidRun>> rigids_;
  std::vector<std::unique_ptr<Group>> groups_;  // in the order of their first body
  MPI_Comm comm_;
  // The ranks' meeting after a failed step, on a communicator the run never uses otherwise.
  OwnCommunicator failureComm_;
  std::FILE* log_;
  int steps_ = 0;
  double dt_ = 0;
  std::unique_ptr<Progress> progress_;
  std::vector<std::unique_ptr<Output>> outputs_;
  int startStep_ = 0, step_ = 0;  // the starting state's step, and the step x and v hold
  double startTime_ = 0, time_ = 0;
  double startClock_ = 0;  // clock_ at the first step: 0, or a checkpoint's
  bool resumed_ = false;   // initial.restart found a checkpoint: the outputs continue
  RunSummary summary_;
  double loopStart_ = 0, clock_ = 0;  // the loop's start (wall) and prescribed-motion clock
  double loopCpuStart_ = 0;           // the loop's start in this thread's CPU seconds
  std::map<std::string, double> timersBefore_, cpuTimersBefore_;
  int firstStep_ = 0;
  std::unique_ptr<PythonControllers> controllers_;
  double nextDt_ = 0;       // a dt a controller set, for the next step (0: none)
  bool dtChanged_ = false;  // the time is then the sum of the steps' dt, not step * dt
  bool mainLoop_ = false;   // a Python main loop drives the steps (control.mainLoop)
  double rootDt_ = 0;       // the root's dt while one animate(root, dt) step takes another
  // The controllers' event past the state x and v hold (ControllerRecord::pending): 1 while a
  // step's outputs are written before its AnimateEndEvent, 2 from a step's AnimateBeginEvent
  // until it is taken; a checkpoint written then says so.
  int controllerPending_ = 0;
  // A restart's checkpoint (its path), the controllers' state and the root's dt it holds, which
  // attachControllers gives back to the controllers (restoreControllers).
  std::string restartPath_;
  ControllerRecord restartControllers_;
  ControllerDt restartDt_;
  void restoreControllers();
  // The TetrahedronFEMForceFields without updateStiffness whose localStiffnessFactor a
  // controller wrote (to no effect, as in SOFA): each noted once.
  std::set<std::string> unappliedFactors_;
  // The bodies whose ConstantForceField loads a controller wrote, which a checkpoint holds: as
  // text (app/simulation_controllers, one line a load: its index, total, force, then per-node
  // forces, %.17g), and set back from it at a restart (eis::Error naming `where` for text that
  // does not fit the body's loads).
  std::set<std::size_t> forcedBodies_;
  static std::string loadsText(const Body& body);
  void restoreLoads(std::size_t body, const std::string& text, const std::string& where);
  // The localStiffnessFactor a controller last applied to each body, which a checkpoint holds
  // (as text: their count, then each, %.17g; "" for a body with none) and a restart applies.
  std::map<std::size_t, std::vector<double>> writtenFactors_;
  std::string factorsText(std::size_t body) const;
  void restoreFactors(std::size_t body, const std::string& text, const std::string& where);
};

}  // namespace eis
