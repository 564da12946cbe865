#pragma once
// SOFA's BoxROI + FixedProjectiveConstraint: the selected nodes never move. The projection P
// zeroes their unknowns in right-hand sides and solutions; in the system matrix their rows and
// columns become the identity (MatZeroRowsColumns, across ranks).
#include <petscis.h>
#include <petscvec.h>

#include <string>
#include <vector>

#include "eis/core/box.hpp"
#include "eis/core/component.hpp"
#include "eis/linalg/system_matrix.hpp"
#include "eis/mesh/distributed_mesh.hpp"

namespace eis {

class FixedConstraint : public Projection {
public:
  // Collective. Nodes inside any box (inclusive) or in any of the physical groups (given by tag).
  FixedConstraint(const DistributedMesh& mesh, const std::vector<Box>& boxes,
                  const std::vector<int>& groupTags);
  ~FixedConstraint() override;
  FixedConstraint(const FixedConstraint&) = delete;
  FixedConstraint& operator=(const FixedConstraint&) = delete;

  void project(Vec v) const override;
  void projectLocal(double* local) const override;
  const std::vector<PetscInt>& ownedDofs() const override { return ownedDofs_; }
  IS rows() const override { return rows_; }
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

// constraint.fixed-box and constraint.fixed-group; the built-in box without either is fixed at
// its x = 0 face.
const ComponentDeclaration& fixedConstraintComponent();

// Collective. The constraint the scene asks for; a box that selects no node adds a warning.
std::unique_ptr<FixedConstraint> makeFixedConstraint(const DistributedMesh& mesh,
                                                     const Parameters& scene,
                                                     std::vector<std::string>& warnings);

}  // namespace eis
