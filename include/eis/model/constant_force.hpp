#pragma once
// SOFA's ConstantForceField on a selection: a constant force on every selected node (`force`),
// a total force shared equally by the selected nodes (`totalForce`: each gets totalForce / n,
// n counted over all ranks), or a force of its own on each listed node (`indices` + `forces`). The
// loads are on nodes, so every node gets its load exactly once whatever the partition.
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "eis/model/force_field_component.hpp"
#include "eis/model/selection.hpp"

namespace eis {

class ConstantForces : public LoadField {
public:
  struct Load {
    Selection selection;
    std::array<double, 3> force;
    bool total;  // force is shared by the selected nodes, rather than on each of them
    std::string key;
    // When not empty: the force of each node by input id (`force` unused), SOFA's `forces`.
    std::map<std::int64_t, std::array<double, 3>> perNode = {};
  };
  // Collective.
  ConstantForces(const DistributedMesh& mesh, const std::vector<Load>& loads);

  void addForce(const double*, const double*, double*) override {}
  void addNodalForce(double* fOwned) const override;

  // The number of mesh nodes each load selects (global), in the order given.
  const std::vector<std::int64_t>& nodesPerLoad() const { return nodesPerLoad_; }

  // The loads as given, or as changed since (a Python controller's writes).
  const std::vector<Load>& loads() const { return loads_; }
  // Load `i`'s force (total or on each node) or, `perNode` not empty, the force of each node by
  // input id, from the next addNodalForce on; a node the selection lacks is ignored (callers
  // check). Every rank alike, no communication.
  void setLoad(std::size_t i, const std::array<double, 3>& force, bool total,
               std::map<std::int64_t, std::array<double, 3>> perNode);

private:
  struct NodalLoad {
    PetscInt offset;  // of the node's first unknown in the local part of a global vector
    std::int64_t id;  // its input node id
  };
  struct NodalForce {
    PetscInt offset;
    std::array<double, 3> force;
  };
  // The loads' forces on the nodes this rank owns, worked out once (and again after setLoad),
  // so that each force evaluation is one pass over a flat list.
  void resolveNodalForces();

  std::vector<Load> loads_;
  std::vector<std::vector<NodalLoad>> nodalLoads_;  // per load, its nodes this rank owns
  std::vector<std::int64_t> nodesPerLoad_;
  std::vector<NodalForce> nodalForces_;
};

// The constant-force component's parameters, read once from a scene by
// readConstantForceParameters: every value of load.force-box, load.constant-force,
// load.total-force and load.nodal-forces, in that order, with its text (a warning quotes it).
struct ConstantForceParameters {
  std::vector<ConstantForces::Load> loads;
  Texts texts;
};
ConstantForceParameters readConstantForceParameters(const Parameters& scene);
// nullptr when no load is given; a load that selects no node adds a warning.
std::unique_ptr<ForceField> makeConstantForce(const ModelContext& context,
                                              const ConstantForceParameters& parameters);

// load.force-box, load.constant-force, load.total-force and load.nodal-forces.
ForceFieldComponent constantForceComponent();

}  // namespace eis
