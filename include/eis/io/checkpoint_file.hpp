#pragma once
// Checkpoints: a run's state in one HDF5 file, written by io/hdf5_writer.hpp and read through
// PETSc's HDF5 viewer.
// Every vector is stored in the input's node order (dataset row = node id, one column per
// unknown of the node), so a checkpoint loads on any rank count. The file's root group carries
// the attributes euler_implicit_checkpoint (the format version, 1), step, time, nodes and
// dofs_per_node (and scene, io/checkpoint_scene's record of the body's scene); the datasets are
// "positions" and "velocities" (u and du for diffusion) and the vectors the integrator carries from
// step to step (TimeIntegrator::saveCarried). A run of several bodies writes the root attribute
// objects (their count) instead of nodes and dofs_per_node, and each body's datasets in the group
// /objects/<index, scene order> with the attributes path (its node path), nodes, dofs_per_node and
// scene. A reader refuses a file whose attributes cannot be a run's (a negative step, a time or
// value that is not finite).
#include <petscvec.h>
#include <petscviewer.h>

#include <memory>
#include <string>
#include <vector>

#include "eis/io/state_csv.hpp"
#include "eis/mesh/distributed_mesh.hpp"

namespace eis {

class Hdf5Writer;

// The step a state belongs to, its time, and the clock the steps' physics read: t += dt from
// the run's start, as SOFA's, which ends in other last bits than step * dt (a restart must
// continue it, not start it again from `time`).
struct Clock {
  int step = 0;
  double time = 0;
  double clock = 0;
};

// The root's dt as Python controllers (or a main loop's animate(root, dt)) left it
// (app/simulation_controllers): the dt of the next step, the one a controller set during the
// step for the steps after it (0: none), and the root's own while an animate(root, dt) step takes
// another (0: none). `stored` false: nothing changed it, and a checkpoint holds none of it
// (attributes controller_dt, controller_next_dt, controller_root_dt).
struct ControllerDt {
  bool stored = false;
  double dt = 0, next = 0, root = 0;
};

// The Python controllers' own state (src/io/python/eis_controller_state.py: their attributes
// that are plain data, pickled, and what could not be held), and the event the controllers had
// been sent past the checkpoint's state: `pending` 0 none; 1 its step's AnimateEndEvent not yet
// (written with the step's outputs), which a restart then sends again; 2 the next step's
// AnimateBeginEvent, that step then failed (its changes are in the state). `stored` false: no
// controller (dataset controller_state, attribute controller_pending).
struct ControllerRecord {
  bool stored = false;
  std::string state;
  int pending = 0;
};

// The scatter between a vector of the solver's layout (the mesh's owned unknowns) and the same
// values in the input's node order (row = node id, every node of the input, those no tetrahedron
// uses included). Checkpoints and the XDMF output write their nodal datasets through it.
class NaturalOrder {
public:
  // Collective. `like`: a vector of the solver's layout.
  NaturalOrder(const DistributedMesh& mesh, Vec like);
  ~NaturalOrder();
  NaturalOrder(const NaturalOrder&) = delete;
  NaturalOrder& operator=(const NaturalOrder&) = delete;
  Vec natural() const { return natural_; }
  std::int64_t nodes() const { return nodes_; }
  // Fills natural() from `solver`. Nodes no cell uses are not in the solver's vectors: rank 0
  // sets them as gatherState does, from `initial` (`unusedFrom`: the half of a node's row the
  // vector holds, 0 positions, 1 velocities), else at rest (positions) or zero.
  void toNatural(Vec solver, int unusedFrom, const NodalTable* initial) const;
  void fromNatural(Vec solver) const;

private:
  const DistributedMesh& mesh_;
  std::int64_t nodes_ = 0;
  Vec natural_ = nullptr;
  VecScatter scatter_ = nullptr;
};

// Collective: the nodes of the input `mesh` was built from (those no tetrahedron uses included):
// the rows of its datasets in a checkpoint.
std::int64_t naturalNodeCount(const DistributedMesh& mesh);

// One body of a checkpoint: its node path ("" in the file of a run of one body), its rows, the
// unknowns per row and the record of its scene (io/checkpoint_scene; "" in a checkpoint written
// before checkpoints had one).
struct CheckpointBody {
  std::string path;
  std::int64_t nodes = 0;
  int dofs = 0;
  std::string scene;
  // The body's ConstantForceField loads once a Python controller wrote one (attribute
  // controller_forces, app/simulation_controllers loadsText), and the localStiffnessFactor it
  // last applied (controller_stiffness_factors: their count, then each), "" for none.
  std::string forces, factors;
};

// Collective. Writes a checkpoint: `path`.partial first (a leftover or link there removed, never
// written through: core/new_file), then (all of it on disk) renamed to `path`, so `path` is
// always a complete checkpoint or absent. Call body() for each body, save() for each of its
// vectors, then commit(). Nodes no tetrahedron uses are written from `initial` (else at rest,
// zero rate).
class CheckpointWriter {
public:
  CheckpointWriter(const std::string& path, MPI_Comm comm);
  // A run of one body: body("", mesh, like, "") done (no record of its scene).
  CheckpointWriter(const std::string& path, const DistributedMesh& mesh, Vec like);
  ~CheckpointWriter();
  CheckpointWriter(const CheckpointWriter&) = delete;
  CheckpointWriter& operator=(const CheckpointWriter&) = delete;
  // The body the next save() calls write: `object` "" (a run of one body) writes in the root
  // group, as the format always has; a node path writes in /objects/<its index>. `scene`: the
  // record of the body's scene (checkpointSceneText), "" for none; `forces` and `factors`,
  // CheckpointBody's.
  void body(const std::string& object, const DistributedMesh& mesh, Vec like,
            const std::string& scene, const std::string& forces = "",
            const std::string& factors = "");
  // `unusedFrom`: the half of a node's row the vector holds (0 positions, 1 velocities).
  void save(const std::string& name, Vec solver, int unusedFrom, const NodalTable* initial);
  // `dt`: the root's dt a controller changed, which it holds; `controllers`, their own state.
  void commit(Clock clock, const ControllerDt& dt = {}, const ControllerRecord& controllers = {});

private:
  std::string path_;
  MPI_Comm comm_;
  std::unique_ptr<NaturalOrder> order_;
  std::vector<CheckpointBody> bodies_;
  std::string group_;  // the body save() writes: "/" or /objects/<index>
  std::unique_ptr<Hdf5Writer> file_;
};

// Collective. Opens a checkpoint and checks, with the same verdict on every rank, that it is one
// (a clean error naming `key` and `path` for a missing, truncated or foreign file), and reads the
// bodies it holds; select() then checks one against a mesh.
class CheckpointReader {
public:
  CheckpointReader(const std::string& key, const std::string& path, MPI_Comm comm);
  // A run of one body: the checkpoint must hold one, and select(0, mesh, like) is done.
  CheckpointReader(const std::string& key, const std::string& path, const DistributedMesh& mesh,
                   Vec like);
  ~CheckpointReader();
  CheckpointReader(const CheckpointReader&) = delete;
  CheckpointReader& operator=(const CheckpointReader&) = delete;
  Clock clock() const { return clock_; }
  const std::vector<CheckpointBody>& bodies() const { return bodies_; }
  // What a Python controller changed that a checkpoint of an older build did not hold
  // (attribute changed_by_controller: a force, stiffness factors, the root's dt), "" for none.
  const std::string& changed() const { return changed_; }
  // commit()'s `dt` (not stored for a checkpoint whose run changed no dt, or written before it
  // was recorded).
  const ControllerDt& controllerDt() const { return dt_; }
  // commit()'s `controllers` (not stored for a run without Python controllers, or a checkpoint
  // written before they were held).
  const ControllerRecord& controllerRecord() const { return controllers_; }
  // Collective: load() and unusedNodes() read the body `index` of bodies() next, into `mesh`'s
  // layout; an error when it was written for a mesh of another size.
  void select(std::size_t index, const DistributedMesh& mesh, Vec like);
  // Loads the dataset `name` into a vector of the solver's layout; false when the file has none,
  // an error when a value is not finite.
  bool load(const std::string& name, Vec solver);
  // Positions and velocities of the nodes no tetrahedron uses (on rank 0; empty elsewhere).
  NodalTable unusedNodes();

private:
  // Reads controllerRecord(); `named` starts its errors.
  void readControllers(const std::string& named);
  std::string key_, path_;
  MPI_Comm comm_;
  const DistributedMesh* mesh_ = nullptr;
  std::unique_ptr<NaturalOrder> order_;
  std::string group_;  // of the selected body, "" for the root
  PetscViewer viewer_ = nullptr;
  Clock clock_;
  std::vector<CheckpointBody> bodies_;
  std::string changed_;
  ControllerDt dt_;
  ControllerRecord controllers_;
};

// The checkpoint of `step` for output.checkpoint = `prefix`: PREFIX_<step, 6 digits or more>.h5.
std::string checkpointPath(const std::string& prefix, int step);
// Rank-local: the steps of the complete checkpoints of `prefix` on disk, ascending.
std::vector<int> checkpointSteps(const std::string& prefix);

}  // namespace eis
