#pragma once
// Outputs as plug-ins: the ParaView series, the history CSV and the final state are each one
// Output, made by its component from the scene's parameters. A run calls start() once, write()
// after every step and finish() at the end (also after a failed step, with the last good
// state), so a new format touches only its own file, which registers it (RegisterOutput).
#include <petscvec.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "eis/core/component.hpp"
#include "eis/core/component_registry.hpp"
#include "eis/io/checkpoint_file.hpp"
#include "eis/io/state_csv.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/mechanical_system.hpp"
#include "eis/model/physics.hpp"
#include "eis/ode/time_integrator.hpp"

namespace eis {

// What an output sees of one body of a run at one instant. Outputs get every body's, in scene
// order, and write them all: the final state and the series one after another with the body's
// node path or index beside each row, a checkpoint one group per body.
struct RunState {
  const DistributedMesh& mesh;
  MechanicalSystem& system;
  Physics physics;
  Vec x, v;
  const NodalTable* initial;  // the initial state read, for nodes no cell uses; may be null
  const TimeIntegrator& integrator;
  int step = 0;          // the step x and v belong to (before the first: the starting one)
  double time = 0;       // and its time
  bool resumed = false;  // a restart (initial.restart): outputs continue what they had written
  std::string object;    // the body's node path in a scene of several bodies, else ""
  const Parameters* scene = nullptr;  // the body's resolved scene (a checkpoint records it)
  double clock = 0;  // the physics' clock after `step` (io/checkpoint_file.hpp, Clock)
  // The root's dt as controllers left it, which a checkpoint holds (the same for every body).
  ControllerDt dt;
  // The body's ConstantForceField loads once a controller wrote one, and the stiffness factors
  // it last applied (CheckpointBody::forces and factors).
  std::string forces, factors;
  // Collective (the same on every body): the Python controllers' own state, which a checkpoint
  // holds; empty without controllers.
  std::function<ControllerRecord()> controllers = nullptr;
};

using RunStates = std::vector<RunState>;

// The nodal fields the bodies' integrators show beside x and v (TimeIntegrator::saveShown), for
// the ParaView outputs: every name some body's integrator shows, in the order first shown. A
// body whose integrator shows none of them shows zeros, so that every body has the same fields.
std::vector<std::string> shownFieldNames(const RunStates& states);
// Collective: calls `use(k, vector)` for each k of `names`, with the integrator's vector of the
// state's layout while it lives, or nullptr where the integrator does not show names[k].
void useShownFields(const RunState& state, const std::vector<std::string>& names,
                    const std::function<void(std::size_t k, Vec vector)>& use);

// One step just taken.
struct StepRecord {
  int step = 0;
  double time = 0, wallSeconds = 0;
  bool last = false;  // the run's last step
  int substeps = 1;   // sub-steps the step took (solver.on-failure = retry)
  StepReport report;
};

class Output {
public:
  virtual ~Output() = default;
  // Collective: the state before the first step.
  virtual void start(const RunStates& states) { (void)states; }
  // Collective: after each step.
  virtual void write(const StepRecord& step, const RunStates& states) = 0;
  // Collective: the run is over; `states` is its last good state.
  virtual void finish(const RunStates& states) { (void)states; }
  // What rank 0 says at the end, such as "final state: out/state.csv".
  virtual std::string where() const = 0;
};

struct OutputComponent {
  ComponentDeclaration declaration;
  // Collective. The output the scene asks for, or nullptr when it asks for none; an unusable
  // path is an error on every rank, before the first step.
  std::function<std::unique_ptr<Output>(const Parameters& scene, MPI_Comm comm)> make;
};

// Every output this build knows, in the order they finish: their ranks (900-999,
// eis/core/component_registry.hpp).
const std::vector<OutputComponent>& outputComponents();
ComponentRegistry<OutputComponent>& outputRegistry();

// A static object of this type at the end of an output's file registers it.
struct RegisterOutput {
  RegisterOutput(int rank, OutputComponent (*component)());
};

}  // namespace eis
