#include "eis/io/checkpoint_file.hpp"

#include <petscviewerhdf5.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "eis/core/error.hpp"
#include "eis/core/input_file.hpp"
#include "eis/io/hdf5_writer.hpp"
#include "eis/io/output_file.hpp"

namespace eis {

namespace fs = std::filesystem;

namespace {

constexpr PetscInt kFormatVersion = 1;
constexpr const char* kFormatAttribute = "euler_implicit_checkpoint";

// The unused nodes' ids on every rank (the mesh keeps them on rank 0).
std::int64_t countUnused(const DistributedMesh& mesh) {
  std::int64_t unused = std::int64_t(mesh.unusedNodeIds().size());
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &unused, 1, MPI_INT64_T, MPI_SUM, mesh.comm()));
  return unused;
}

}  // namespace

NaturalOrder::NaturalOrder(const DistributedMesh& mesh, Vec like) : mesh_(mesh) {
  const int dofs = mesh.dofsPerNode();
  nodes_ = mesh.numGlobalVertices() + countUnused(mesh);
  EIS_CHECK(VecCreate(mesh.comm(), &natural_));
  EIS_CHECK(VecSetSizes(natural_, PETSC_DECIDE, PetscInt(nodes_ * dofs)));
  EIS_CHECK(VecSetBlockSize(natural_, dofs));
  EIS_CHECK(VecSetType(natural_, VECMPI));
  PetscInt start;
  EIS_CHECK(VecGetOwnershipRange(like, &start, nullptr));
  std::vector<PetscInt> from, to;
  for (PetscInt n = 0; n < PetscInt(mesh.numLocalVertices()); ++n) {
    if (!mesh.owned()[n]) continue;
    for (int d = 0; d < dofs; ++d) {
      from.push_back(start + mesh.ownedOffset(n) + d);
      to.push_back(PetscInt(mesh.nodeIds()[n] * dofs + d));
    }
  }
  IS isFrom, isTo;
  EIS_CHECK(ISCreateGeneral(PETSC_COMM_SELF, PetscInt(from.size()), from.data(), PETSC_COPY_VALUES,
                            &isFrom));
  EIS_CHECK(
      ISCreateGeneral(PETSC_COMM_SELF, PetscInt(to.size()), to.data(), PETSC_COPY_VALUES, &isTo));
  EIS_CHECK(VecScatterCreate(like, isFrom, natural_, isTo, &scatter_));
  EIS_CHECK(ISDestroy(&isFrom));
  EIS_CHECK(ISDestroy(&isTo));
}

NaturalOrder::~NaturalOrder() {
  VecScatterDestroy(&scatter_);
  VecDestroy(&natural_);
}

void NaturalOrder::toNatural(Vec solver, int unusedFrom, const NodalTable* initial) const {
  EIS_CHECK(VecScatterBegin(scatter_, solver, natural_, INSERT_VALUES, SCATTER_FORWARD));
  EIS_CHECK(VecScatterEnd(scatter_, solver, natural_, INSERT_VALUES, SCATTER_FORWARD));
  const int dofs = mesh_.dofsPerNode();
  const auto& unused = mesh_.unusedNodeIds();
  for (std::size_t k = 0; k < unused.size(); ++k) {
    const double* row = initial ? initial->find(unused[k]) : nullptr;
    for (int d = 0; d < dofs; ++d) {
      const bool position = unusedFrom == 0 && dofs == 3;
      const double value = row        ? row[unusedFrom * dofs + d]
                           : position ? mesh_.unusedNodeCoords()[k][d]
                                      : 0.0;
      EIS_CHECK(VecSetValue(natural_, PetscInt(unused[k] * dofs + d), value, INSERT_VALUES));
    }
  }
  EIS_CHECK(VecAssemblyBegin(natural_));
  EIS_CHECK(VecAssemblyEnd(natural_));
}

void NaturalOrder::fromNatural(Vec solver) const {
  EIS_CHECK(VecScatterBegin(scatter_, natural_, solver, INSERT_VALUES, SCATTER_REVERSE));
  EIS_CHECK(VecScatterEnd(scatter_, natural_, solver, INSERT_VALUES, SCATTER_REVERSE));
}

std::int64_t naturalNodeCount(const DistributedMesh& mesh) {
  return mesh.numGlobalVertices() + countUnused(mesh);
}

namespace {

// The group of body `index` in the checkpoint of a run of several bodies.
std::string objectGroup(std::size_t index) {
  return "/objects/" + std::to_string(index);
}

}  // namespace

CheckpointWriter::CheckpointWriter(const std::string& path, MPI_Comm comm)
    : path_(path), comm_(comm) {
  // A .partial left by a run killed mid-write, or a link put there, is removed first: HDF5's
  // create (H5F_ACC_TRUNC) would write through the link into the file it points at.
  const std::string temporary = temporaryPathFor(path);
  clearNameForHdf5("output.checkpoint = " + path, temporary, comm);
  file_ = std::make_unique<Hdf5Writer>(comm, "output.checkpoint = " + path, temporary,
                                       Hdf5Writer::Mode::create);
}

CheckpointWriter::CheckpointWriter(const std::string& path, const DistributedMesh& mesh, Vec like)
    : CheckpointWriter(path, mesh.comm()) {
  body("", mesh, like, "");
}

// A checkpoint left uncommitted (a write failed on some rank, and all of them came here) is closed
// and its .partial removed: it is no checkpoint, and the previous one stays the last.
CheckpointWriter::~CheckpointWriter() {
  if (!file_) return;
  file_.reset();
  int rank = 0;
  MPI_Comm_rank(comm_, &rank);
  if (rank == 0) std::remove(temporaryPathFor(path_).c_str());
}

void CheckpointWriter::body(const std::string& object, const DistributedMesh& mesh, Vec like,
                            const std::string& scene, const std::string& forces,
                            const std::string& factors) {
  order_ = std::make_unique<NaturalOrder>(mesh, like);
  group_ = object.empty() ? "/" : objectGroup(bodies_.size());
  bodies_.push_back({object, order_->nodes(), mesh.dofsPerNode(), scene, forces, factors});
}

void CheckpointWriter::save(const std::string& name, Vec solver, int unusedFrom,
                            const NodalTable* initial) {
  order_->toNatural(solver, unusedFrom, initial);
  const int dofs = bodies_.back().dofs;
  file_->write(group_, name, order_->natural(), dofs, Hdf5Writer::Type::real, dofs > 1);
}

void CheckpointWriter::commit(Clock clock, const ControllerDt& dt,
                              const ControllerRecord& controllers) {
  if (bodies_.empty()) throw Error("output.checkpoint = " + path_ + ": a checkpoint of no body");
  file_->attribute("/", kFormatAttribute, std::int64_t(kFormatVersion));
  file_->attribute("/", "step", std::int64_t(clock.step));
  file_->attribute("/", "time", double(clock.time));
  file_->attribute("/", "clock", double(clock.clock));
  if (dt.stored) {
    file_->attribute("/", "controller_dt", dt.dt);
    file_->attribute("/", "controller_next_dt", dt.next);
    file_->attribute("/", "controller_root_dt", dt.root);
  }
  if (controllers.stored) {
    file_->bytes("controller_state", controllers.state);
    file_->attribute("/", "controller_pending", std::int64_t(controllers.pending));
  }
  // One body keeps the layout every checkpoint had before there were several.
  const bool several = !(bodies_.size() == 1 && bodies_.front().path.empty());
  if (several) file_->attribute("/", "objects", std::int64_t(bodies_.size()));
  for (std::size_t k = 0; k < bodies_.size(); ++k) {
    const std::string group = several ? objectGroup(k) : "/";
    if (several) file_->attribute(group, "path", bodies_[k].path);
    file_->attribute(group, "nodes", std::int64_t(bodies_[k].nodes));
    file_->attribute(group, "dofs_per_node", std::int64_t(bodies_[k].dofs));
    if (!bodies_[k].scene.empty()) file_->attribute(group, "scene", bodies_[k].scene);
    if (!bodies_[k].forces.empty()) file_->attribute(group, "controller_forces", bodies_[k].forces);
    if (!bodies_[k].factors.empty())
      file_->attribute(group, "controller_stiffness_factors", bodies_[k].factors);
  }
  file_->close();
  file_.reset();
  // On disk before the rename: the final name must never point at a partial file.
  commitTemporary("output.checkpoint", temporaryPathFor(path_), path_, comm_);
}

CheckpointReader::CheckpointReader(const std::string& key, const std::string& path, MPI_Comm comm)
    : key_(key), path_(path), comm_(comm) {
  const std::string named = key + " = " + path + ": ";
  std::string problem = commRank(comm) == 0 ? inputFileProblem(path) : "";
  throwIfAnyRankFailed(problem.empty() ? "" : named + problem, comm);
  if (!isHdf5File(path, comm))
    throw Error(named + "not an HDF5 file (a checkpoint written by output.checkpoint is)");
  try {
    EIS_CHECK(PetscViewerHDF5Open(comm, path.c_str(), FILE_MODE_READ, &viewer_));
  } catch (const Error& e) {
    throw Error(named + "cannot be read as HDF5 (truncated or damaged?): " + e.what());
  }
  PetscBool has = PETSC_FALSE;
  EIS_CHECK(PetscViewerHDF5HasAttribute(viewer_, "/", kFormatAttribute, &has));
  if (!has) throw Error(named + "an HDF5 file, but not an euler-implicit checkpoint");
  PetscInt version = 0, step = 0;
  PetscReal time = 0;
  EIS_CHECK(
      PetscViewerHDF5ReadAttribute(viewer_, "/", kFormatAttribute, PETSC_INT, nullptr, &version));
  if (version != kFormatVersion)
    throw Error(named + "checkpoint format " + std::to_string(version) + ", this build reads " +
                std::to_string(kFormatVersion));
  EIS_CHECK(PetscViewerHDF5ReadAttribute(viewer_, "/", "step", PETSC_INT, nullptr, &step));
  EIS_CHECK(PetscViewerHDF5ReadAttribute(viewer_, "/", "time", PETSC_REAL, nullptr, &time));
  // Every rank reads the same attributes: the same verdict everywhere.
  if (step < 0) throw Error(named + "attribute step is " + std::to_string(step) + ", not >= 0");
  if (!std::isfinite(double(time))) throw Error(named + "attribute time is not a finite number");
  // Older checkpoints have no clock: their time stands for it.
  PetscReal clock = time;
  EIS_CHECK(PetscViewerHDF5HasAttribute(viewer_, "/", "clock", &has));
  if (has)
    EIS_CHECK(PetscViewerHDF5ReadAttribute(viewer_, "/", "clock", PETSC_REAL, nullptr, &clock));
  if (!std::isfinite(double(clock))) throw Error(named + "attribute clock is not a finite number");
  clock_ = {int(step), double(time), double(clock)};
  const auto readText = [&](const std::string& group, const char* name) {
    char* text = nullptr;
    EIS_CHECK(
        PetscViewerHDF5ReadAttribute(viewer_, group.c_str(), name, PETSC_STRING, nullptr, &text));
    std::string read = text;
    EIS_CHECK(PetscFree(text));
    return read;
  };
  const auto readBody = [&](const std::string& group, bool withPath) {
    PetscInt nodes = 0, dofs = 0;
    CheckpointBody body;
    if (withPath) body.path = readText(group, "path");
    EIS_CHECK(
        PetscViewerHDF5ReadAttribute(viewer_, group.c_str(), "nodes", PETSC_INT, nullptr, &nodes));
    EIS_CHECK(PetscViewerHDF5ReadAttribute(viewer_, group.c_str(), "dofs_per_node", PETSC_INT,
                                           nullptr, &dofs));
    if (nodes < 0 || (dofs != 1 && dofs != 3))
      throw Error(named + "group " + group + ": attributes nodes = " + std::to_string(nodes) +
                  " and dofs_per_node = " + std::to_string(dofs) +
                  " (expected nodes >= 0, dofs_per_node 1 or 3)");
    body.nodes = nodes;
    body.dofs = int(dofs);
    EIS_CHECK(PetscViewerHDF5HasAttribute(viewer_, group.c_str(), "scene", &has));
    if (has) body.scene = readText(group, "scene");
    EIS_CHECK(PetscViewerHDF5HasAttribute(viewer_, group.c_str(), "controller_forces", &has));
    if (has) body.forces = readText(group, "controller_forces");
    EIS_CHECK(
        PetscViewerHDF5HasAttribute(viewer_, group.c_str(), "controller_stiffness_factors", &has));
    if (has) body.factors = readText(group, "controller_stiffness_factors");
    bodies_.push_back(body);
  };
  EIS_CHECK(PetscViewerHDF5HasAttribute(viewer_, "/", "changed_by_controller", &has));
  if (has) changed_ = readText("/", "changed_by_controller");
  EIS_CHECK(PetscViewerHDF5HasAttribute(viewer_, "/", "controller_dt", &has));
  if (has) {
    dt_.stored = true;
    for (const auto& [name, value] :
         {std::pair{"controller_dt", &dt_.dt}, std::pair{"controller_next_dt", &dt_.next},
          std::pair{"controller_root_dt", &dt_.root}}) {
      PetscReal read = 0;
      EIS_CHECK(PetscViewerHDF5ReadAttribute(viewer_, "/", name, PETSC_REAL, nullptr, &read));
      // dt > 0; the other two 0 for none.
      if (!std::isfinite(double(read)) || read < 0 || (read == 0 && value == &dt_.dt))
        throw Error(named + "attribute " + name + " is not a finite number > 0" +
                    (value == &dt_.dt ? "" : " nor 0"));
      *value = double(read);
    }
  }
  readControllers(named);
  EIS_CHECK(PetscViewerHDF5HasAttribute(viewer_, "/", "objects", &has));
  if (!has) {
    readBody("/", false);
    return;
  }
  PetscInt objects = 0;
  EIS_CHECK(PetscViewerHDF5ReadAttribute(viewer_, "/", "objects", PETSC_INT, nullptr, &objects));
  if (objects < 1)
    throw Error(named + "attribute objects is " + std::to_string(objects) + ", not >= 1");
  for (PetscInt k = 0; k < objects; ++k) readBody(objectGroup(std::size_t(k)), true);
}

void CheckpointReader::readControllers(const std::string& named) {
  PetscBool has = PETSC_FALSE;
  EIS_CHECK(PetscViewerHDF5HasDataset(viewer_, "/controller_state", &has));
  if (!has) return;
  controllers_.stored = true;
  PetscInt pending = 0;
  EIS_CHECK(PetscViewerHDF5HasAttribute(viewer_, "/", "controller_pending", &has));
  if (has)
    EIS_CHECK(PetscViewerHDF5ReadAttribute(viewer_, "/", "controller_pending", PETSC_INT, nullptr,
                                           &pending));
  if (!has || pending < 0 || pending > 2)
    throw Error(named + "attribute controller_pending is missing or not 0, 1 or 2");
  controllers_.pending = int(pending);
  hid_t file = -1;
  EIS_CHECK(PetscViewerHDF5GetFileId(viewer_, &file));
  // Every rank reads the whole record; one that cannot is every rank's verdict.
  const hid_t dataset = H5Dopen2(file, "/controller_state", H5P_DEFAULT);
  const hid_t space = dataset < 0 ? -1 : H5Dget_space(dataset);
  const hssize_t size = space < 0 ? -1 : H5Sget_simple_extent_npoints(space);
  bool read = size >= 0;
  if (read) {
    controllers_.state.assign(std::size_t(size), '\0');
    read = size == 0 || H5Dread(dataset, H5T_NATIVE_UCHAR, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                                controllers_.state.data()) >= 0;
  }
  if (space >= 0) H5Sclose(space);
  if (dataset >= 0) H5Dclose(dataset);
  throwIfAnyRankFailed(read ? "" : named + "dataset controller_state cannot be read", comm_);
}

CheckpointReader::CheckpointReader(const std::string& key, const std::string& path,
                                   const DistributedMesh& mesh, Vec like)
    : CheckpointReader(key, path, mesh.comm()) {
  if (bodies_.size() != 1)
    throw Error(key + " = " + path + ": the checkpoint holds " + std::to_string(bodies_.size()) +
                " bodies, the scene one");
  select(0, mesh, like);
}

CheckpointReader::~CheckpointReader() {
  PetscViewerDestroy(&viewer_);
}

void CheckpointReader::select(std::size_t index, const DistributedMesh& mesh, Vec like) {
  const CheckpointBody& body = bodies_.at(index);
  const std::int64_t nodes = naturalNodeCount(mesh);
  if (body.nodes != nodes || body.dofs != mesh.dofsPerNode())
    throw Error(key_ + " = " + path_ + ": " +
                (body.path.empty() ? std::string() : "body " + body.path + " ") + "written for " +
                std::to_string(body.nodes) + " nodes of " + std::to_string(body.dofs) +
                " unknowns, but this mesh has " + std::to_string(nodes) + " of " +
                std::to_string(mesh.dofsPerNode()) + " (another mesh or physics?)");
  if (order_) EIS_CHECK(PetscViewerHDF5PopGroup(viewer_));
  mesh_ = &mesh;
  order_ = std::make_unique<NaturalOrder>(mesh, like);
  group_ = body.path.empty() ? "" : objectGroup(index);
  EIS_CHECK(PetscViewerHDF5PushGroup(viewer_, group_.empty() ? "/" : group_.c_str()));
}

bool CheckpointReader::load(const std::string& name, Vec solver) {
  PetscBool has = PETSC_FALSE;
  EIS_CHECK(PetscViewerHDF5HasDataset(viewer_, (group_ + "/" + name).c_str(), &has));
  if (!has) return false;
  const Vec natural = order_->natural();
  EIS_CHECK(PetscObjectSetName(reinterpret_cast<PetscObject>(natural), name.c_str()));
  try {
    EIS_CHECK(VecLoad(natural, viewer_));
  } catch (const Error& e) {
    throw Error(key_ + " = " + path_ + ": dataset " + name + " cannot be read: " + e.what());
  }
  // A NaN or an infinity makes the 1-norm one too, on every rank: a state no step continues.
  PetscReal norm = 0;
  EIS_CHECK(VecNorm(natural, NORM_1, &norm));
  if (!std::isfinite(double(norm)))
    throw Error(key_ + " = " + path_ + ": dataset " + name +
                (group_.empty() ? std::string() : " of " + group_) +
                " holds a value that is not finite (NaN or infinite)");
  order_->fromNatural(solver);
  return true;
}

NodalTable CheckpointReader::unusedNodes() {
  const int dofs = mesh_->dofsPerNode();
  const auto& unused = mesh_->unusedNodeIds();
  NodalTable table;
  table.width = 2 * dofs;
  std::vector<PetscInt> rows;
  for (auto id : unused)
    for (int d = 0; d < dofs; ++d) rows.push_back(PetscInt(id * dofs + d));
  IS is;
  Vec local;
  VecScatter scatter;
  EIS_CHECK(
      ISCreateGeneral(PETSC_COMM_SELF, PetscInt(rows.size()), rows.data(), PETSC_COPY_VALUES, &is));
  EIS_CHECK(VecCreateSeq(PETSC_COMM_SELF, PetscInt(rows.size()), &local));
  EIS_CHECK(VecScatterCreate(order_->natural(), is, local, nullptr, &scatter));
  table.ids = unused;
  table.values.assign(unused.size() * table.width, 0.0);
  for (int half = 0; half < 2; ++half) {
    const Vec natural = order_->natural();
    EIS_CHECK(PetscObjectSetName(reinterpret_cast<PetscObject>(natural),
                                 half == 0 ? "positions" : "velocities"));
    EIS_CHECK(VecLoad(natural, viewer_));
    EIS_CHECK(VecScatterBegin(scatter, natural, local, INSERT_VALUES, SCATTER_FORWARD));
    EIS_CHECK(VecScatterEnd(scatter, natural, local, INSERT_VALUES, SCATTER_FORWARD));
    const PetscScalar* values;
    EIS_CHECK(VecGetArrayRead(local, &values));
    for (std::size_t k = 0; k < unused.size(); ++k)
      for (int d = 0; d < dofs; ++d)
        table.values[k * table.width + half * dofs + d] = values[k * dofs + d];
    EIS_CHECK(VecRestoreArrayRead(local, &values));
  }
  EIS_CHECK(VecScatterDestroy(&scatter));
  EIS_CHECK(VecDestroy(&local));
  EIS_CHECK(ISDestroy(&is));
  // Sorted by id, as NodalTable::find expects.
  std::vector<std::size_t> order(table.ids.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return table.ids[a] < table.ids[b]; });
  NodalTable sorted;
  sorted.width = table.width;
  for (auto k : order) {
    sorted.ids.push_back(table.ids[k]);
    const double* row = &table.values[k * table.width];
    sorted.values.insert(sorted.values.end(), row, row + table.width);
  }
  return sorted;
}

std::string checkpointPath(const std::string& prefix, int step) {
  char number[32];
  std::snprintf(number, sizeof number, "_%06d.h5", step);
  return prefix + number;
}

std::vector<int> checkpointSteps(const std::string& prefix) {
  const fs::path path(prefix);
  const fs::path folder = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  const std::string name = path.filename().string();
  std::vector<int> steps;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    const std::string file = entry.path().filename().string();
    if (file.size() <= name.size() + 4 || file.compare(0, name.size() + 1, name + "_") != 0 ||
        file.compare(file.size() - 3, 3, ".h5") != 0)
      continue;
    const std::string digits = file.substr(name.size() + 1, file.size() - name.size() - 4);
    if (digits.size() < 6 || digits.size() > 9 ||
        !std::all_of(digits.begin(), digits.end(), ::isdigit))
      continue;
    steps.push_back(std::stoi(digits));
  }
  std::sort(steps.begin(), steps.end());
  return steps;
}

}  // namespace eis
