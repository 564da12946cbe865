#pragma once
// Constant total forces, each shared equally by the mesh nodes inside a box (SOFA's
// ConstantForceField with totalForce on a BoxROI). Every rank counts its owned nodes in each
// box, and the global count decides the share.
#include <array>
#include <cstdint>
#include <vector>

#include "eis/core/box.hpp"
#include "eis/model/force_field_component.hpp"

namespace eis {

class ForceBoxes : public LoadField {
public:
  struct Load {
    Box box;
    std::array<double, 3> force;  // the total, shared by the nodes inside
  };
  // Collective.
  ForceBoxes(const DistributedMesh& mesh, const std::vector<Load>& loads);

  void addForce(const double*, const double*, double*) override {}
  void addNodalForce(double* fOwned) const override;

  // The number of mesh nodes each box selects (global), in the order given.
  const std::vector<std::int64_t>& nodesPerBox() const { return nodesPerBox_; }

private:
  struct NodalLoad {
    PetscInt offset;  // of the node's first unknown in the local part of a global vector
    std::array<double, 3> force;
  };
  std::vector<NodalLoad> nodalLoads_;
  std::vector<std::int64_t> nodesPerBox_;
};

ForceFieldComponent forceBoxComponent();

}  // namespace eis
