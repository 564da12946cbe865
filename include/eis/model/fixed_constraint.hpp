#pragma once
// SOFA's FixedProjectiveConstraint and PartialFixedProjectiveConstraint on a selection: the
// selected nodes never move, or never move along the fixed directions. The projection P zeroes
// those unknowns in right-hand sides and solutions; in the system matrix exactly their rows and
// columns are zeroed but for their diagonal entries (SystemMatrix, across ranks).
#include <petscis.h>
#include <petscvec.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "eis/core/component.hpp"
#include "eis/linalg/system_matrix.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/selection.hpp"

namespace eis {

class FixedConstraint : public Projection {
public:
  // Local vertices (owned and ghost) and which of their unknowns are fixed (the first
  // dofsPerNode directions count; SOFA's fixedDirections, 1 = fixed).
  struct FixedNodes {
    std::vector<PetscInt> vertices;
    std::array<bool, 3> directions{true, true, true};
  };
  // Local vertices (owned and ghost) whose unknowns a 3x3 projector maps (row-major; SOFA's
  // PlaneProjectiveConstraint, LineProjectiveConstraint, PointProjectiveConstraint).
  struct ProjectedNodes {
    std::vector<PetscInt> vertices;
    std::array<double, 9> block;
  };
  // Collective. A node in several sets has every direction any of them fixes. A node under
  // several projectors gets their product, which must not depend on their order (throws
  // eis::Error on every rank otherwise); a product that is zero fixes the node, and a node
  // fixed in every direction ignores its projectors. On a node fixed in some directions only,
  // the projector's product with the mask of its free directions, which must commute with it
  // (an axis along a plane's normal or across a line; throws eis::Error on every rank
  // otherwise), replaces both.
  FixedConstraint(const DistributedMesh& mesh, const std::vector<FixedNodes>& sets,
                  const std::vector<ProjectedNodes>& projected = {});
  ~FixedConstraint() override;
  FixedConstraint(const FixedConstraint&) = delete;
  FixedConstraint& operator=(const FixedConstraint&) = delete;

  void project(Vec v) const override;
  void projectLocal(double* local) const override;
  const std::vector<PetscInt>& ownedDofs() const override { return ownedDofs_; }
  IS rows() const override { return rows_; }
  const std::vector<Block>& ownedBlocks() const override { return ownedBlocks_; }
  std::int64_t numBlockNodes() const override { return numBlockNodes_; }
  // Nodes with at least one fixed unknown (global).
  std::int64_t numFixedNodes() const { return numFixedNodes_; }

private:
  std::vector<PetscInt> ownedDofs_;  // offsets into the local part of a global vector
  std::vector<PetscInt> localDofs_;  // offsets into a local vector
  IS rows_ = nullptr;
  std::int64_t numFixedNodes_ = 0;
  std::vector<Block> ownedBlocks_;
  std::vector<Block> localBlocks_;  // offsets into a local vector
  std::int64_t numBlockNodes_ = 0;
};

// constraint.fixed, constraint.partial-fixed, constraint.fixed-box and constraint.fixed-group;
// the built-in box without any of them is fixed at its x = 0 face.
const ComponentDeclaration& fixedConstraintComponent();

// One value of the fixed-constraint keys: what it selects and the directions it fixes, with its
// key and text (a warning quotes them).
struct FixedSelection {
  std::string key, text;
  Selection selection;
  std::array<bool, 3> directions;
};
// The fixed-constraint component's parameters, read once from a scene by
// readFixedConstraintParameters (the only reader of its keys, beside its declaration): every
// value of constraint.fixed-box, constraint.fixed-group, constraint.fixed and
// constraint.partial-fixed, in that order.
struct FixedConstraintParameters {
  std::vector<FixedSelection> sets;
};
FixedConstraintParameters readFixedConstraintParameters(const Parameters& scene);

// Collective. The nodes the parameters fix; a selection that selects no node adds a warning.
std::vector<FixedConstraint::FixedNodes> fixedNodeSets(const DistributedMesh& mesh,
                                                       const FixedConstraintParameters& parameters,
                                                       std::vector<std::string>& warnings);

}  // namespace eis
