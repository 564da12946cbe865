#include "eis/model/fixed_constraint.hpp"

#include "eis/core/error.hpp"

namespace eis {

FixedConstraint::FixedConstraint(const DistributedMesh& mesh, const std::vector<Box>& boxes,
                                 const std::vector<int>& groupTags) {
  const auto& coords = mesh.restCoords();
  const auto& owned = mesh.owned();
  std::vector<char> fixed(mesh.numLocalVertices(), 0);
  nodesPerBox_.assign(boxes.size(), 0);
  for (std::size_t v = 0; v < coords.size(); ++v)
    for (std::size_t b = 0; b < boxes.size(); ++b)
      if (boxes[b].contains(coords[v])) {
        fixed[v] = 1;
        nodesPerBox_[b] += owned[v];
      }
  for (int tag : groupTags)
    for (auto v : mesh.groupVertices(tag)) fixed[v] = 1;

  const int dofs = mesh.dofsPerNode();
  Vec probe;
  EIS_CHECK(DMGetGlobalVector(mesh.dm(), &probe));
  PetscInt rowStart;
  EIS_CHECK(VecGetOwnershipRange(probe, &rowStart, nullptr));
  EIS_CHECK(DMRestoreGlobalVector(mesh.dm(), &probe));
  std::vector<PetscInt> rows;
  for (PetscInt v = 0; v < PetscInt(fixed.size()); ++v) {
    if (!fixed[v]) continue;
    for (int d = 0; d < dofs; ++d) localDofs_.push_back(mesh.localOffset(v) + d);
    if (!owned[v]) continue;
    ++numFixedNodes_;
    for (int d = 0; d < dofs; ++d) {
      ownedDofs_.push_back(mesh.ownedOffset(v) + d);
      rows.push_back(rowStart + mesh.ownedOffset(v) + d);
    }
  }
  EIS_CHECK(ISCreateGeneral(mesh.comm(), PetscInt(rows.size()), rows.data(), PETSC_COPY_VALUES, &rows_));
  MPI_Allreduce(MPI_IN_PLACE, nodesPerBox_.data(), int(nodesPerBox_.size()), MPI_INT64_T, MPI_SUM,
                mesh.comm());
  MPI_Allreduce(MPI_IN_PLACE, &numFixedNodes_, 1, MPI_INT64_T, MPI_SUM, mesh.comm());
}

FixedConstraint::~FixedConstraint() { ISDestroy(&rows_); }

void FixedConstraint::project(Vec v) const {
  PetscScalar* values;
  EIS_CHECK(VecGetArray(v, &values));
  for (auto i : ownedDofs_) values[i] = 0;
  EIS_CHECK(VecRestoreArray(v, &values));
}

void FixedConstraint::projectLocal(double* local) const {
  for (auto i : localDofs_) local[i] = 0;
}

}  // namespace eis
