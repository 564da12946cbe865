// euler_implicit._engine: the engine as a Python extension module (pybind11), for the
// euler_implicit package (src/io/python/euler_implicit) and, through it, the stand-in Sofa
// package's Sofa.Simulation.init/animate (src/io/python/eis_in_process.py). A Simulation is made
// from euler-implicit's own command line (--scene file.py goes through the same import as the
// executable's: scenesFromSofa) and stepped by the caller; every rank of the job makes the same
// calls (the script runs on every rank). A state read is the owned rows of this rank (no
// communication) or, when asked, a gathered copy of every row on every rank (one gather and one
// broadcast).
#include <hdf5.h>
#include <petscsys.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "eis/app/run_outcome.hpp"
#include "eis/app/scene_builder.hpp"
#include "eis/app/simulation.hpp"
#include "eis/core/error.hpp"
#include "eis/core/mpi_chunks.hpp"
#include "eis/io/petsc_output_paths.hpp"
#include "eis/io/python_controllers.hpp"
#include "eis/io/sofa_import.hpp"
#include "eis/io/state_csv.hpp"
#include "python_force_fields.hpp"

namespace py = pybind11;

namespace {

// PETSc's life in this process: started by the first Simulation (or a failure to report), ended
// at the interpreter's exit (finalize, registered by the package).
struct Engine {
  std::vector<std::string> arguments;  // PetscInitialize keeps pointers into them
  std::vector<char*> argv;
  std::unique_ptr<eis::PetscErrorCapture> capture;
  std::unique_ptr<eis::OwnCommunicator> exitComm;  // the ranks' meeting on a failure
  bool started = false;
};
Engine engine;

class Run;
std::set<Run*> liveRuns;

void startEngine(const std::vector<std::string>& petscArgs) {
  if (engine.started) return;
  engine.arguments = {"python3"};
  engine.arguments.insert(engine.arguments.end(), petscArgs.begin(), petscArgs.end());
  for (std::string& argument : engine.arguments) engine.argv.push_back(argument.data());
  engine.argv.push_back(nullptr);
  int argc = int(engine.argv.size()) - 1;
  char** argv = engine.argv.data();
  if (PetscInitialize(&argc, &argv, nullptr, nullptr) != 0)
    throw eis::Error("PETSc could not start (its message is above)");
  engine.started = true;
  engine.capture = std::make_unique<eis::PetscErrorCapture>();
  engine.exitComm = std::make_unique<eis::OwnCommunicator>(PETSC_COMM_WORLD);
  // HDF5's own error stack would come before our one error line (as in the executable's main).
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

class Run {
public:
  // `forceFields`: the force fields written in Python, by path (eis::python::ForceFieldLookup).
  Run(const std::vector<std::string>& args, py::object forceFields) {
    const eis::python::ForceFieldLookup lookup(std::move(forceFields));
    std::vector<std::string> all{"euler-implicit"};
    all.insert(all.end(), args.begin(), args.end());
    all = eis::expandShortOptions(all);
    std::vector<const char*> argv;
    for (const std::string& argument : all) argv.push_back(argument.c_str());
    const eis::CommandLine commandLine = eis::parseArguments(int(argv.size()), argv.data());
    startEngine(commandLine.petscArgs);
    objects_ =
        commandLine.scene.given("scene.file")
            ? eis::scenesFromSofa(commandLine.scene, PETSC_COMM_WORLD, stdout, nullptr, &control_)
        : !commandLine.objects.empty() ? commandLine.objects
                                       : std::vector<eis::ObjectScene>{{"", commandLine.scene}};
    eis::checkPetscOutputPaths(PETSC_COMM_WORLD);
    simulation_ = std::make_unique<eis::Simulation>(objects_, PETSC_COMM_WORLD, stdout);
    simulation_->beginSteps();
    std::fflush(stdout);
    liveRuns.insert(this);
  }
  ~Run() { liveRuns.erase(this); }

  eis::Simulation& simulation() {
    if (!simulation_) throw eis::Error("the simulation has ended (finish was called)");
    return *simulation_;
  }

  void step(double dt) {
    beginStep(dt);
    takeStep();
    endStep();
  }
  void beginStep(double dt) { simulation().beginStep(dt); }
  void takeStep() {
    eis::Simulation& run = simulation();
    py::gil_scoped_release unlocked;
    try {
      run.takeStep();
    } catch (const eis::Error&) {
      stepFailed_ = true;  // the step said where its last good state went
      throw;
    }
    std::fflush(stdout);
  }
  void endStep() { simulation().endStep(); }

  // Collective: the outputs finished and the run's summary printed.
  void finish() {
    if (!simulation_) return;
    simulation_->endSteps();
    simulation_.reset();
    std::fflush(stdout);
  }
  // At the interpreter's exit, before PETSc ends: the run's objects freed, no output finished.
  void drop() { simulation_.reset(); }

  // Collective over the ranks that failed: with every rank there (none is inside a step), the
  // outputs finished with the current state, the last good one, as the executable does after a
  // failed controller; `message` then says so, else that this rank failed alone (no write).
  void finishAfterFailure(eis::RunOutcome& outcome) {
    if (!simulation_ || stepFailed_) return;
    if (!eis::allRanksArrive(engine.exitComm->get(), eis::loneErrorWaitSeconds())) {
      outcome.message += "; the other ranks did not fail with it, so no state was written";
      outcome.alone = true;
      return;
    }
    const int step = simulation_->stepIndex();
    finish();
    outcome.message +=
        "; the state of step " + std::to_string(step) + " was written to the configured outputs";
  }

  std::size_t body(std::size_t index) {
    if (index >= simulation().bodyCount())
      throw py::index_error("body " + std::to_string(index) + ": the run has " +
                            std::to_string(simulation().bodyCount()));
    return index;
  }

  py::array_t<std::int64_t> ownedIds(std::size_t b) {
    const eis::DistributedMesh& mesh = simulation().meshOf(body(b));
    std::vector<std::int64_t> ids;
    for (std::size_t n = 0; n < mesh.numLocalVertices(); ++n)
      if (mesh.owned()[n]) ids.push_back(mesh.nodeIds()[n]);
    return py::array_t<std::int64_t>(py::ssize_t(ids.size()), ids.data());
  }

  // The owned rows (this rank's, in ownedIds order; no communication) or every row in node-id
  // order on every rank (`gathered`: a gather to rank 0 and a broadcast).
  Array state(std::size_t b, bool velocity, bool gathered) {
    eis::Simulation& run = simulation();
    const eis::DistributedMesh& mesh = run.meshOf(body(b));
    const int half = mesh.dofsPerNode();
    std::vector<double> values;
    if (!gathered) {
      const PetscScalar* xs;
      Vec vector = run.stateOf(b, velocity);
      EIS_CHECK(VecGetArrayRead(vector, &xs));
      for (std::size_t n = 0; n < mesh.numLocalVertices(); ++n)
        if (mesh.owned()[n])
          for (int d = 0; d < half; ++d) values.push_back(xs[mesh.ownedOffset(PetscInt(n)) + d]);
      EIS_CHECK(VecRestoreArrayRead(vector, &xs));
    } else {
      const eis::NodalTable table =
          eis::gatherState(mesh, run.stateOf(b, false), run.stateOf(b, true), run.initialOf(b));
      long long rows = eis::commRank(PETSC_COMM_WORLD) == 0 ? (long long)table.ids.size() : 0;
      EIS_CHECK_MPI(MPI_Bcast(&rows, 1, MPI_LONG_LONG, 0, PETSC_COMM_WORLD));
      values.resize(std::size_t(rows) * std::size_t(half));
      if (eis::commRank(PETSC_COMM_WORLD) == 0)
        for (std::size_t i = 0; i < table.ids.size(); ++i)
          for (int d = 0; d < half; ++d)
            values[i * std::size_t(half) + std::size_t(d)] =
                table.values[i * std::size_t(2 * half) + std::size_t(velocity ? half : 0) +
                             std::size_t(d)];
      EIS_CHECK_MPI(MPI_Bcast(values.data(), int(values.size()), MPI_DOUBLE, 0, PETSC_COMM_WORLD));
    }
    Array out({py::ssize_t(values.size() / std::size_t(half)), py::ssize_t(half)});
    std::copy(values.begin(), values.end(), out.mutable_data());
    return out;
  }

  // The rows of the nodes `ids` (node ids, any order, repeats allowed) on every rank: each rank
  // fills the rows it owns and one Allreduce of ids.size() rows sums them (each row comes from
  // its one owner, the others adding zeros, so the sum is exact). Collective.
  Array rows(std::size_t b, bool velocity, const std::vector<std::int64_t>& ids) {
    eis::Simulation& run = simulation();
    const eis::DistributedMesh& mesh = run.meshOf(body(b));
    const int half = mesh.dofsPerNode();
    std::unordered_map<std::int64_t, PetscInt>& owner = ownedRows_[b];
    if (owner.empty())
      for (std::size_t n = 0; n < mesh.numLocalVertices(); ++n)
        if (mesh.owned()[n]) owner.emplace(mesh.nodeIds()[n], mesh.ownedOffset(PetscInt(n)));
    std::vector<double> values(ids.size() * std::size_t(half), 0.0);
    const PetscScalar* xs;
    Vec vector = run.stateOf(b, velocity);
    EIS_CHECK(VecGetArrayRead(vector, &xs));
    for (std::size_t i = 0; i < ids.size(); ++i)
      if (const auto found = owner.find(ids[i]); found != owner.end())
        for (int d = 0; d < half; ++d)
          values[i * std::size_t(half) + std::size_t(d)] = xs[found->second + d];
    EIS_CHECK(VecRestoreArrayRead(vector, &xs));
    EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, values.data(), int(values.size()), MPI_DOUBLE,
                                MPI_SUM, PETSC_COMM_WORLD));
    Array out({py::ssize_t(ids.size()), py::ssize_t(half)});
    std::copy(values.begin(), values.end(), out.mutable_data());
    return out;
  }

  // The number of nodes of a body (no communication).
  std::int64_t nodes(std::size_t b) { return simulation().meshOf(body(b)).numGlobalVertices(); }

  // Writes this rank's owned rows: from `values` in ownedIds order (`owned`), else from every
  // row in node-id order (each rank takes its own rows; no communication either way). The next
  // step starts from them.
  void setState(std::size_t b, bool velocity, const Array& values, bool owned) {
    simulation().setState(body(b), velocity, values.data(), std::size_t(values.size()), owned);
  }

  // A ConstantForceField's forces, totalForce or force, by the object's path in the graph.
  void setForce(const std::string& path, const std::string& field,
                const std::vector<double>& values, bool inEvent) {
    auto access = simulation().controllerAccess(inEvent);
    for (std::size_t b = 0; b < control_.forces.size(); ++b)
      for (const eis::SofaForceLoad& load : control_.forces[b])
        if (load.path == path) {
          access->setForce(b, load, field, values);
          return;
        }
    throw eis::Error(path +
                     " is not a ConstantForceField that gives a force in the scene (one "
                     "needs forces or totalForce set in createScene to be written)");
  }
  // A TetrahedronFEMForceField's localStiffnessFactor, by the object's path in the graph: from
  // the next solve, in an event or between steps alike (io/python_controllers.hpp).
  void setStiffnessFactors(const std::string& path, const std::vector<double>& values) {
    std::size_t b = 0;
    const eis::SofaStiffnessFactors& field = eis::stiffnessFactorsAt(control_, path, b);
    simulation().controllerAccess(true)->setStiffnessFactors(b, field, values);
  }
  void setDt(double dt, bool inEvent) {
    if (!(dt > 0)) throw eis::Error("dt must be one number > 0");
    simulation().controllerAccess(inEvent)->setDt(dt);
  }

  // What a controller reads of the component at object path `path` (io/python_controllers):
  // its body's "stiffness", "mass" or linear "system" matrix (the size, then (row, column,
  // value) triples), or the last solve's "rhs" or "solution", on every rank: gathered to rank 0
  // and broadcast. Collective.
  std::vector<double> matrix(const std::string& path, const std::string& kind, bool inEvent) {
    auto access = simulation().controllerAccess(inEvent);
    std::vector<double> values = eis::componentRead(control_, *access, path, kind);
    long long count = (long long)values.size();
    EIS_CHECK_MPI(MPI_Bcast(&count, 1, MPI_LONG_LONG, 0, PETSC_COMM_WORLD));
    values.resize(std::size_t(count));
    eis::broadcastInPieces(values.data(), count, MPI_DOUBLE, 0, PETSC_COMM_WORLD);
    return values;
  }

  // scene.python-timeout: the seconds the controllers' methods for one event may take.
  double pythonTimeout() const { return control_.timeout; }

  // The body whose MechanicalObject lies at node `path` ("/beam"), or -1.
  long bodyOf(const std::string& path) const {
    for (std::size_t i = 0; i < control_.statePaths.size(); ++i)
      if (control_.statePaths[i] == path) return long(i);
    return -1;
  }

private:
  eis::SofaControl control_;
  bool stepFailed_ = false;
  std::vector<eis::ObjectScene> objects_;
  std::unique_ptr<eis::Simulation> simulation_;
  // Per body: node id -> the offset of its row in this rank's part of the state (owned nodes).
  std::map<std::size_t, std::unordered_map<std::int64_t, PetscInt>> ownedRows_;
};

// Collective: a failure ends the job with one line, "euler-implicit: error: MESSAGE", printed
// once when every rank fails alike (rank 0), else by the failing rank, which then aborts the job
// (app/run_outcome.hpp: it waits loneErrorWaitSeconds() for the others); a live run's outputs are
// first finished with its last good state when every rank failed. Returns the exit status.
int failRun(const std::string& message) {
  std::fflush(stdout);
  try {
    startEngine({});
  } catch (const std::exception& e) {
    std::fprintf(stderr, "euler-implicit: error: %s\n", message.c_str());
    return 1;
  }
  py::gil_scoped_release unlocked;
  eis::RunOutcome outcome{true, message};
  for (Run* run : liveRuns) run->finishAfterFailure(outcome);
  std::fflush(stdout);
  return eis::finishRun(engine.exitComm->get(), outcome, eis::loneErrorWaitSeconds(), stderr);
}

void finalize() {
  if (!engine.started) return;
  for (Run* run : liveRuns) run->drop();
  engine.exitComm.reset();
  engine.capture.reset();
  PetscFinalize();
  engine.started = false;
}

}  // namespace

PYBIND11_MODULE(_engine, m) {
  m.doc() = "euler-implicit's engine in this process (import euler_implicit)";
  py::register_exception<eis::Error>(m, "Error", PyExc_RuntimeError);
  py::class_<Run>(m, "Simulation")
      .def(py::init<const std::vector<std::string>&, py::object>(), py::arg("args"),
           py::arg("force_fields") = py::none())
      .def("step", &Run::step, py::arg("dt") = 0.0)
      .def("begin_step", &Run::beginStep, py::arg("dt") = 0.0)
      .def("take_step", &Run::takeStep)
      .def("end_step", &Run::endStep)
      .def("finish", &Run::finish)
      .def("owned_ids", &Run::ownedIds, py::arg("body") = 0)
      .def("state", &Run::state, py::arg("body"), py::arg("velocity"), py::arg("gathered"))
      .def("rows", &Run::rows, py::arg("body"), py::arg("velocity"), py::arg("ids"))
      .def("nodes", &Run::nodes, py::arg("body"))
      .def("set_state", &Run::setState, py::arg("body"), py::arg("velocity"), py::arg("values"),
           py::arg("owned"))
      .def("set_force", &Run::setForce, py::arg("path"), py::arg("field"), py::arg("values"),
           py::arg("in_event"))
      .def("set_stiffness_factors", &Run::setStiffnessFactors, py::arg("path"), py::arg("values"))
      .def("set_dt", &Run::setDt, py::arg("dt"), py::arg("in_event"))
      .def("matrix", &Run::matrix, py::arg("path"), py::arg("kind"), py::arg("in_event"))
      .def("body_of", &Run::bodyOf, py::arg("path"))
      .def_property_readonly("bodies", [](Run& r) { return r.simulation().bodyCount(); })
      .def_property_readonly("step_index", [](Run& r) { return r.simulation().stepIndex(); })
      .def_property_readonly("time", [](Run& r) { return r.simulation().time(); })
      .def_property_readonly("dt", [](Run& r) { return r.simulation().dt(); })
      .def_property_readonly("python_timeout", &Run::pythonTimeout);
  m.def("fail", &failRun, py::arg("message"));
  m.def("finalize", &finalize);
  m.def("rank", [] {
    startEngine({});
    return eis::commRank(PETSC_COMM_WORLD);
  });
  m.def("size", [] {
    startEngine({});
    int size = 1;
    EIS_CHECK_MPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
    return size;
  });
}
