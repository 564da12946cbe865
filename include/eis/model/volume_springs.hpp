#pragma once
// A spring on the signed volume of each tetrahedron: SOFA's VolumeMapping (a Vec1 child, one
// value per tetrahedron, V = (v1 - v0).((v2 - v0) x (v3 - v0)) / 6 in the cell's vertex order)
// carrying a RestShapeSpringsForceField<Vec1> of stiffness k, its rest the rest volumes
// (applyRestPosition). The child's force f_c = -k (V - V0) reaches the body through J^T: f_a =
// f_c dV/dx_a; its stiffness is J^T (-k) J = -k g g^T plus, the mapping being nonlinear, the
// geometric stiffness f_c d2V/dx2 (VolumeMapping::computeSecondDerivativeVolume: the blocks
// (a, b) = [v_c - v_d]_x / 6 for the other two vertices in order, zero on the diagonal), taken
// always (Exact), only where f_c < 0 (Stabilized, SOFA's default) or never (None). Each term lies
// in its cell: the element matrices and products are the FEM's, on any partition.
#include <array>
#include <memory>
#include <vector>

#include "eis/model/force_field_component.hpp"

namespace eis {

enum class GeometricStiffness { None, Exact, Stabilized };

class VolumeSprings : public ForceField {
public:
  // On tetrahedra (`cells`, which must outlive the field) of local vertices at `rest` (3 each).
  VolumeSprings(const Cells& cells, std::vector<double> rest, double stiffness,
                GeometricStiffness geometric);

  void addForce(const double* x, const double* v, double* f) override;
  void addDForce(const double* dx, double* df, double kFactor) const override;
  void addKToElementMatrices(double* elementMatrices, double kFactor,
                             CellRange range) const override;
  double potentialEnergy(const double* x) const override;
  std::vector<double> vonMisesStress(const double*) const override { return {}; }
  bool isLinear() const override { return false; }

  // The signed volume of a tetrahedron of corners p, and its gradient (3 per corner).
  static double volume(const std::array<const double*, 4>& p, double* gradient);

private:
  // K_e (12 x 12, row major) of cell c at the linearization point.
  void elementMatrix(std::size_t c, double* k) const;

  const Cells& cells_;
  double stiffness_;
  GeometricStiffness geometric_;
  std::vector<double> restVolume_;  // per local cell
  std::vector<double> x_;           // the linearization point (local array)
  std::vector<double> childForce_;  // per local cell, f_c at the linearization point
};

struct VolumeSpringsParameters {
  std::optional<double> stiffness;  // volume.stiffness; none: no field
  GeometricStiffness geometric = GeometricStiffness::Stabilized;
};
VolumeSpringsParameters readVolumeSpringsParameters(const Parameters& scene);
// nullptr without volume.stiffness; throws eis::Error on a body of other cells than tetrahedra.
std::unique_ptr<ForceField> makeVolumeSprings(const ModelContext& context,
                                              const VolumeSpringsParameters& parameters);

}  // namespace eis
