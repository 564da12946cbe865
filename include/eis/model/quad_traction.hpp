#pragma once
// SOFA's QuadPressureForceField on a mesh of hexahedra: a constant traction t (force per unit
// rest area, SOFA's `pressure` vector) on the quadrangles whose four vertices a node selection
// picks at rest. SOFA's quadrangles are the distinct faces of the hexahedra (a
// HexahedronSetTopologyContainer's createQuadArray, a grid's quads), interior faces included;
// each gets t A / 4 on each of its vertices, A = |T(q0, q1, q2)| + |T(q0, q2, q3)| (SOFA's
// Quad::area) with q0 its vertex of smallest input id, so that a face shared by two hexahedra has
// one area. K = 0 (SOFA's addDForce adds nothing). The selected faces are gathered on every rank
// once, at set-up, so each counts once whatever the partition.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "eis/model/force_field_component.hpp"
#include "eis/model/selection.hpp"

namespace eis {

class QuadTraction : public LoadField {
public:
  struct Load {
    std::array<double, 3> traction;
    Selection selection;
    std::string key, text;
  };
  // Collective. Throws eis::Error on every rank when the mesh's cells are not hexahedra.
  QuadTraction(const DistributedMesh& mesh, const std::vector<Load>& loads);

  void addForce(const double*, const double*, double*) override {}
  void addNodalForce(double* fOwned) const override;

  // Each load's selected faces over all ranks, in the order given.
  const std::vector<std::int64_t>& quadsPerLoad() const { return quadsPerLoad_; }

private:
  struct NodalForce {
    PetscInt offset;  // of the node's first unknown in the owned part of a global vector
    std::array<double, 3> force;
  };
  std::vector<NodalForce> forces_;
  std::vector<std::int64_t> quadsPerLoad_;
};

struct QuadTractionParameters {
  std::vector<QuadTraction::Load> loads;
};
QuadTractionParameters readQuadTractionParameters(const Parameters& scene);
// Collective. nullptr when no load is given; a load that selects no quadrangle is a warning.
std::unique_ptr<ForceField> makeQuadTraction(const ModelContext& context,
                                             const QuadTractionParameters& parameters);

// load.quad-traction.
ForceFieldComponent quadTractionComponent();

}  // namespace eis
