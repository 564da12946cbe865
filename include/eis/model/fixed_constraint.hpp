#pragma once
// SOFA's BoxROI + FixedProjectiveConstraint: the selected nodes never move. The projection P
// zeroes their unknowns in right-hand sides and solutions; in the system matrix their rows and
// columns become the identity (MatZeroRowsColumns, across ranks).
#include <petscis.h>
#include <petscvec.h>

#include <vector>

#include "eis/io/scene.hpp"
#include "eis/mesh/distributed_mesh.hpp"

namespace eis {

class FixedConstraint {
public:
  // Nodes inside any box (inclusive) or in any of the physical groups (given by tag).
  FixedConstraint(const DistributedMesh& mesh, const std::vector<Box>& boxes,
                  const std::vector<int>& groupTags);
  ~FixedConstraint();
  FixedConstraint(const FixedConstraint&) = delete;
  FixedConstraint& operator=(const FixedConstraint&) = delete;

  // Zero the fixed unknowns of a global vector.
  void project(Vec v) const;
  // Zero the fixed unknowns of a local array (owned and ghost).
  void projectLocal(double* local) const;
  // Offsets, in the local part of a global vector, of the fixed unknowns this rank owns.
  const std::vector<PetscInt>& ownedDofs() const { return ownedDofs_; }
  // Global row numbers of the fixed unknowns this rank owns.
  IS rows() const { return rows_; }
  // Number of mesh nodes each box selects (global), in the order given.
  const std::vector<std::int64_t>& nodesPerBox() const { return nodesPerBox_; }
  std::int64_t numFixedNodes() const { return numFixedNodes_; }

private:
  std::vector<PetscInt> ownedDofs_;  // offsets into the local part of a global vector
  std::vector<PetscInt> localDofs_;  // offsets into a local vector
  IS rows_ = nullptr;
  std::vector<std::int64_t> nodesPerBox_;
  std::int64_t numFixedNodes_ = 0;
};

}  // namespace eis
