#pragma once
// A constant traction t (force per unit rest area) on the faces of the volume cells whose
// vertices a node selection picks at rest, every distinct face once, interior ones included:
// SOFA's QuadPressureForceField on a hexahedral body's quads (a HexahedronSetTopologyContainer's
// createQuadArray, a grid's quads) and TrianglePressureForceField on a tetrahedral body's
// triangles (a TetrahedronSetTopologyContainer's createTriangleArray), selected by a ROI's
// quadIndices or triangleIndices (its strict test: every vertex in it). Each vertex of a face
// gets t A / n, n its vertex count; a triangle's A is its area, a quadrangle's
// |T(q0, q1, q2)| + |T(q0, q2, q3)| (SOFA's Quad::area) with q0 its vertex of smallest input id,
// so that a face shared by two cells has one area. K = 0 (SOFA's addDForce adds nothing). The
// selected faces are gathered on every rank once, at set-up, so each counts once whatever the
// partition.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "eis/model/force_field_component.hpp"
#include "eis/model/selection.hpp"

namespace eis {

class FaceTraction : public LoadField {
public:
  struct Load {
    std::array<double, 3> traction;
    Selection selection;
    std::string key, text;
  };
  // Collective. Throws eis::Error on every rank when the mesh's cells are not tetrahedra or
  // hexahedra.
  FaceTraction(const DistributedMesh& mesh, const std::vector<Load>& loads);

  void addForce(const double*, const double*, double*) override {}
  void addNodalForce(double* fOwned) const override;

  // Each load's selected faces over all ranks, in the order given.
  const std::vector<std::int64_t>& facesPerLoad() const { return facesPerLoad_; }

private:
  struct NodalForce {
    PetscInt offset;  // of the node's first unknown in the owned part of a global vector
    std::array<double, 3> force;
  };
  std::vector<NodalForce> forces_;
  std::vector<std::int64_t> facesPerLoad_;
};

struct FaceTractionParameters {
  std::vector<FaceTraction::Load> loads;
};
FaceTractionParameters readFaceTractionParameters(const Parameters& scene);
// Collective. nullptr when no load is given; a load that selects no face is a warning.
std::unique_ptr<ForceField> makeFaceTraction(const ModelContext& context,
                                             const FaceTractionParameters& parameters);

// load.face-traction.
ForceFieldComponent faceTractionComponent();

}  // namespace eis
