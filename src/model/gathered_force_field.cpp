#include "eis/model/gathered_force_field.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "eis/core/mpi_chunks.hpp"

namespace eis {

namespace {

GatheredForceFieldMaker& maker() {
  static GatheredForceFieldMaker instance;
  return instance;
}

}  // namespace

void setGatheredForceFieldMaker(GatheredForceFieldMaker m) {
  maker() = std::move(m);
}

bool gatheredForceFieldMakerSet() {
  return bool(maker());
}

GatheredForceField::GatheredForceField(const DistributedMesh& mesh,
                                       std::unique_ptr<NodalForceCallbacks> callbacks,
                                       std::string name, bool askStiffness)
    : mesh_(mesh),
      callbacks_(std::move(callbacks)),
      name_(std::move(name)),
      stiffness_(callbacks_->hasStiffness() && askStiffness),
      dofs_(mesh.dofsPerNode()),
      nodes_(std::size_t(mesh.numGlobalVertices())) {
  std::vector<std::int64_t> ids;
  for (std::size_t n = 0; n < mesh.numLocalVertices(); ++n)
    if (mesh.owned()[n]) {
      ownedLocal_.push_back(PetscInt(n));
      ids.push_back(mesh.nodeIds()[n]);
    }
  gatheredIds_ = allGatherChunks(ids, MPI_INT64_T, mesh.comm());
  // Node ids are 0..nodes-1 (SOFA's indices) on a mesh that refinement did not grow.
  for (std::int64_t id : gatheredIds_)
    if (id < 0 || std::size_t(id) >= nodes_)
      throw Error(name_ + ": a force field written in Python needs the body's nodes numbered 0.." +
                  std::to_string(nodes_ - 1) + " as SOFA's (mesh refinement adds others)");
  offsets_ = chunkOffsets(std::int64_t(ids.size()) * dofs_, mesh.comm());
  x_.resize(nodes_ * std::size_t(dofs_));
  v_.resize(x_.size());
  in_.resize(x_.size());
  out_.resize(x_.size());
}

void GatheredForceField::gather(const double* local, std::vector<double>& whole) const {
  send_.clear();
  for (PetscInt n : ownedLocal_)
    for (int d = 0; d < dofs_; ++d) send_.push_back(local[n * dofs_ + d]);
  received_.resize(whole.size());
  allGatherChunksInto(send_.data(), MPI_DOUBLE, received_.data(), offsets_, mesh_.comm());
  for (std::size_t i = 0; i < gatheredIds_.size(); ++i)
    std::copy_n(received_.data() + i * std::size_t(dofs_), dofs_,
                whole.data() + std::size_t(gatheredIds_[i]) * std::size_t(dofs_));
}

void GatheredForceField::addOwned(const std::vector<double>& whole, double* local) const {
  for (PetscInt n : ownedLocal_) {
    const std::size_t row = std::size_t(mesh_.nodeIds()[std::size_t(n)]) * std::size_t(dofs_);
    for (int d = 0; d < dofs_; ++d) local[n * dofs_ + d] += whole[row + std::size_t(d)];
  }
}

void GatheredForceField::addForce(const double* x, const double* v, double* f) {
  gather(x, x_);
  gather(v, v_);  // given, as usesVelocity says (null where this rank owns no node)
  std::fill(out_.begin(), out_.end(), 0.0);
  std::string failure = callbacks_->addForce(nodes_, dofs_, x_.data(), v_.data(), out_.data());
  std::vector<NodalForceCallbacks::Entry> entries;
  if (failure.empty() && stiffness_) failure = callbacks_->stiffness(nodes_, dofs_, entries);
  throwIfAnyRankFailed(failure, mesh_.comm());
  addOwned(out_, f);
  if (stiffness_) placeStiffness(entries);
}

void GatheredForceField::addDForce(const double* dx, double* df, double kFactor) const {
  gather(dx, in_);
  std::fill(out_.begin(), out_.end(), 0.0);
  const std::string failure =
      callbacks_->addDForce(nodes_, dofs_, in_.data(), out_.data(), kFactor);
  throwIfAnyRankFailed(failure, mesh_.comm());
  addOwned(out_, df);
}

void GatheredForceField::placeStiffness(const std::vector<NodalForceCallbacks::Entry>& entries) {
  // The local cells holding each node pair the entries name (node ids), and their corners.
  const auto& cells = mesh_.cells();
  const int corners = cells.corners();
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::size_t>> cellsOf;
  const std::int64_t size = std::int64_t(nodes_) * dofs_;
  for (const auto& e : entries) {
    if (e.row < 0 || e.row >= size || e.column < 0 || e.column >= size)
      throw Error(name_ + ": addKToMatrix gave the entry (" + std::to_string(e.row) + ", " +
                  std::to_string(e.column) + ") outside the " + std::to_string(size) +
                  " unknowns of the body");
    cellsOf[{e.row / dofs_, e.column / dofs_}];
  }
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const auto vertices = cells[c];
    for (int i = 0; i < corners; ++i)
      for (int j = 0; j < corners; ++j) {
        const auto found = cellsOf.find(
            {mesh_.nodeIds()[std::size_t(vertices[i])], mesh_.nodeIds()[std::size_t(vertices[j])]});
        if (found != cellsOf.end()) found->second.push_back(c);
      }
  }
  std::vector<double> holders;
  std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> ordinal;  // pair -> its holders
  for (const auto& [pair, list] : cellsOf) {
    ordinal.emplace(pair, holders.size());
    holders.push_back(double(list.size()));
  }
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, holders.data(), int(holders.size()), MPI_DOUBLE,
                              MPI_SUM, mesh_.comm()));
  // An entry of nodes that share no cell has no place in an assembled matrix (said when one is
  // assembled); the matrix-free product (addDForce) takes it.
  unplaced_.clear();
  std::size_t k = 0;
  for (const auto& [pair, list] : cellsOf)
    if (holders[k++] == 0 && unplaced_.empty())
      unplaced_ = name_ + ": addKToMatrix couples nodes " + std::to_string(pair.first) + " and " +
                  std::to_string(pair.second) +
                  ", which share no cell, so the assembled matrix has no place for it; use the "
                  "matrix-free operator (solver.operator = matrix-free)";
  places_.clear();
  const std::size_t block = std::size_t(corners * dofs_);
  for (const auto& e : entries) {
    const std::int64_t a = e.row / dofs_, b = e.column / dofs_;
    const auto found = cellsOf.find({a, b});
    const double share = e.value / holders[ordinal.at({a, b})];
    for (std::size_t c : found->second) {
      const auto vertices = cells[c];
      for (int i = 0; i < corners; ++i)
        for (int j = 0; j < corners; ++j)
          if (mesh_.nodeIds()[std::size_t(vertices[i])] == a &&
              mesh_.nodeIds()[std::size_t(vertices[j])] == b)
            places_.push_back({c,
                               (std::size_t(i * dofs_) + std::size_t(e.row % dofs_)) * block +
                                   std::size_t(j * dofs_) + std::size_t(e.column % dofs_),
                               share});
    }
  }
  std::stable_sort(places_.begin(), places_.end(),
                   [](const Place& p, const Place& q) { return p.cell < q.cell; });
}

void GatheredForceField::addKToElementMatrices(double* elementMatrices, double kFactor,
                                               CellRange range) const {
  if (!callbacks_->hasStiffness())
    throw Error(name_ +
                ": a force field written in Python without addKToMatrix has no matrix; define "
                "it or use the matrix-free operator (solver.operator = matrix-free)");
  if (!stiffness_)
    throw Error(name_ +
                ": python.add-k-to-matrix = false: its addKToMatrix is not called (as SOFA's "
                "CGLinearSolver never calls it), so it has no matrix; use the matrix-free "
                "operator (solver.operator = matrix-free)");
  if (!unplaced_.empty()) throw Error(unplaced_);
  addKToElementDiagonals(elementMatrices, kFactor, range);
}

void GatheredForceField::addKToElementDiagonals(double* elementMatrices, double kFactor,
                                                CellRange range) const {
  const std::size_t block = std::size_t(mesh_.cells().corners() * dofs_);
  auto p = std::lower_bound(places_.begin(), places_.end(), range.begin,
                            [](const Place& place, std::size_t cell) { return place.cell < cell; });
  for (; p != places_.end() && p->cell < range.end; ++p)
    elementMatrices[(p->cell - range.begin) * block * block + p->offset] += kFactor * p->value;
}

ForceFieldComponent gatheredForceFieldComponent() {
  return {
      {"python-force-field", "force field",
       "a force field written in Python (SofaPython3 Sofa.Core.ForceFieldVec3d)",
       ParameterSpec().add(
           {"python.force-field", "OBJECT",
            "the scene path of a Sofa.Core.ForceFieldVec3d object whose addForce, addDForce and\n"
            "addKToMatrix the script's process computes on every node (python3 scene.py with\n"
            "the euler_implicit module, or the controllers' python3 under --scene FILE.py);\n"
            "repeatable",
            std::nullopt, "", true, [](const std::string&, const std::string&) {}})
           .add({"python.add-k-to-matrix", "BOOL",
                 "whether the field's addKToMatrix is called (once per addForce: its matrix, for\n"
                 "the assembled operator and the Jacobi diagonal); false: never, as SOFA's\n"
                 "CGLinearSolver never calls it (the importer's choice under one), and the field\n"
                 "then runs matrix-free only",
                 "true", "", false, check::boolean()}),
       nullptr},
      Physics::Elasticity,
      [](const ModelContext& context, const Parameters& scene) -> std::unique_ptr<ForceField> {
        const Texts paths = scene.texts("python.force-field");
        if (paths.empty()) return nullptr;
        if (paths.size() > 1)
          throw Error(
              "python.force-field: one force field written in Python per body is "
              "supported (" +
              paths[0] + ", " + paths[1] + ")");
        if (!maker())
          throw Error(paths[0] +
                      ": a force field written in Python runs only with the .py scene that made "
                      "it (python3 scene.py with the euler_implicit module, or euler-implicit "
                      "--scene scene.py)");
        std::unique_ptr<NodalForceCallbacks> callbacks = maker()(paths[0]);
        if (!callbacks)
          throw Error(paths[0] + ": no force field written in Python at this path of the graph");
        return std::make_unique<GatheredForceField>(context.mesh, std::move(callbacks), paths[0],
                                                    scene.boolean("python.add-k-to-matrix"));
      }};
}

namespace {
const RegisterForceField registered(498, gatheredForceFieldComponent);
}

}  // namespace eis
