#pragma once
// SOFA's RestShapeSpringsForceField: a spring of stiffness k ties each selected node to its rest
// position, f = -k (x - x_rest), K = -k I on those nodes. The force, its product and its energy
// are taken on owned nodes (each node once, whatever the partition); the element matrices carry
// -k / (cells holding the node) on each cell's diagonal, so that assembly sums to -k I.
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "eis/model/force_field_component.hpp"
#include "eis/model/selection.hpp"

namespace eis {

class RestShapeSprings : public ForceField {
public:
  struct Spring {
    Selection selection;
    double stiffness;
    std::string key;  // names the springs in errors
    // When not empty: the stiffness of each node by input id (`stiffness` unused), SOFA's
    // per-point `stiffness`.
    std::map<std::int64_t, double> perNode = {};
  };
  // Collective.
  RestShapeSprings(const DistributedMesh& mesh, const std::vector<Spring>& springs);

  void addForce(const double* x, const double* v, double* f) override;
  void addDForce(const double* dx, double* df, double kFactor) const override;
  void addKToElementMatrices(double* elementMatrices, double kFactor,
                             CellRange range) const override;
  double potentialEnergy(const double* x) const override;
  std::vector<double> vonMisesStress(const double*) const override { return {}; }
  bool isLinear() const override { return true; }

  // The number of mesh nodes each spring set selects (global), in the order given.
  const std::vector<std::int64_t>& nodesPerSet() const { return nodesPerSet_; }

private:
  const DistributedMesh& mesh_;
  std::vector<double> rest_;       // local array of rest positions
  std::vector<double> stiffness_;  // per local vertex: the sum of the springs on it
  std::vector<double> cellShare_;  // per local vertex: stiffness / cells holding it
  std::vector<PetscInt> owned_;    // owned local vertices with a spring
  std::vector<std::int64_t> nodesPerSet_;
};

// The rest-shape-springs component's parameters, read once from a scene by
// readRestShapeSpringsParameters: every value of springs.rest-shape and springs.rest-shape-nodes,
// in that order, with its text (a warning quotes it).
struct RestShapeSpringsParameters {
  std::vector<RestShapeSprings::Spring> springs;
  Texts texts;
};
RestShapeSpringsParameters readRestShapeSpringsParameters(const Parameters& scene);
// nullptr when no spring is given; a set that selects no node adds a warning.
std::unique_ptr<ForceField> makeRestShapeSprings(const ModelContext& context,
                                                 const RestShapeSpringsParameters& parameters);

// springs.rest-shape and springs.rest-shape-nodes.
ForceFieldComponent restShapeSpringsComponent();

}  // namespace eis
