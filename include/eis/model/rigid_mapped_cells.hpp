#pragma once
// A FEM force field and a mass on the cells of points a RigidMapping drives from frames (SOFA's
// "rigidified sections": a HexahedronFEMForceField and a MeshMatrixMass in the child node of a
// Rigid3d state). The child's points x_c = c + R(q) l are a small serial mesh: the existing
// hexahedral element (model/hexahedron_fem) and mass (model/mass) act on them as on any mesh,
// and the frames get f += J^T f_c, K += J^T K_c J and M += J^T M_c J (SOFA's
// MechanicalOperations carrying a mapped node's forces and matrices to its parent). A cell whose
// points belong to several frames couples those frames: the frames' matrix is no longer block
// diagonal. The mapping's geometric stiffness, when chosen, is the body's (model/rigid_body.hpp).
#include <memory>
#include <vector>

#include "eis/core/cells.hpp"
#include "eis/core/component.hpp"
#include "eis/core/parameters.hpp"
#include "eis/model/hexahedron_fem.hpp"
#include "eis/model/mass.hpp"
#include "eis/model/rigid_mapping.hpp"

namespace eis {

// The cells of the mapped points and what acts on them. Empty `hexahedra`: none.
struct RigidMappedCells {
  std::vector<long long> hexahedra;  // 8 point indices each, SOFA's vertex order
  double youngModulus = 0;           // 0: no FEM force field
  double poissonRatio = 0;
  HexahedronMethod method = HexahedronMethod::Large;
  MassType massType = MassType::Consistent;  // consistent (MeshMatrixMass) or lumped
  double density = 0;                        // 0: no cell mass
  double totalMass = 0;  // > 0: the density is totalMass over the cells' volume (SOFA's totalMass)
};

class RigidMappedCellsField {
public:
  // rest: the points' rest positions (the child's points as written). Throws eis::Error for an
  // index past the last point, and InvertedElement for an inverted rest cell.
  RigidMappedCellsField(const RigidMappedCells& cells, const std::vector<Vec3d>& rest);

  // fc (3 per point) += the FEM force at the points x and the cells' weight M g; x is the
  // linearization point of the two below.
  void addForce(const std::vector<Vec3d>& x, const Vec3d& gravity, double* fc);
  // outc += mFactor M_c dxc + kFactor K_c dxc (3 per point).
  void addMKDx(const double* dxc, double* outc, double mFactor, double kFactor) const;
  // dense (6 frames x 6 frames, row-major) += J^T (mFactor M_c + kFactor K_c) J, cell by cell,
  // J of `mapping` as it stands.
  void addToMatrix(const RigidMapping& mapping, double mFactor, double kFactor, double* dense,
                   std::size_t frames) const;

private:
  Cells cells_{CellType::Hexahedron};
  std::vector<Vec3> rest_;
  std::unique_ptr<HexahedronFEM> fem_;
  std::unique_ptr<Mass> mass_;
};

// The rigid-mapped-cells component (rigid.mapped-hexahedra, -young-modulus, -poisson-ratio,
// -fem-method, -cell-mass), declared and read in model/rigid_mapped_cells_component.cpp. Throws
// eis::Error for its keys without rigid.mapped-hexahedra.
const ComponentDeclaration& rigidMappedCellsComponent();
RigidMappedCells readRigidMappedCells(const Parameters& scene);

}  // namespace eis
