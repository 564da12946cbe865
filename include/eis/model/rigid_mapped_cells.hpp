#pragma once
// A FEM force field and a mass on the cells of points a RigidMapping drives from frames (SOFA's
// "rigidified sections": a HexahedronFEMForceField or TetrahedronFEMForceField and a
// MeshMatrixMass in the child node of a Rigid3d state). The child's points x_c = c + R(q) l are a
// small serial mesh: the existing elements (model/hexahedron_fem, model/linear_elastic_fem,
// model/corotational_fem, as model/elastic_force_fields makes them for a mesh body) and mass
// (model/mass) act on them as on any mesh, and the frames get f += J^T f_c, K += J^T K_c J and
// M += J^T M_c J (SOFA's MechanicalOperations carrying a mapped node's forces and matrices to its
// parent). A cell whose points belong to several frames couples those frames: the frames' matrix
// is no longer block diagonal. The mapping's geometric stiffness, when chosen, is the body's
// (model/rigid_body.hpp).
#include <memory>
#include <vector>

#include "eis/core/cells.hpp"
#include "eis/core/component.hpp"
#include "eis/core/parameters.hpp"
#include "eis/model/elastic_force_fields.hpp"
#include "eis/model/mass.hpp"
#include "eis/model/rigid_mapping.hpp"

namespace eis {

// The FEM's method (SOFA's HexahedronFEMForceField and TetrahedronFEMForceField `method`; svd
// on tetrahedra only).
enum class MappedFemMethod { Small, Large, Polar, Svd };
inline constexpr Named<MappedFemMethod> kMappedFemMethods[] = {{"small", MappedFemMethod::Small},
                                                               {"large", MappedFemMethod::Large},
                                                               {"polar", MappedFemMethod::Polar},
                                                               {"svd", MappedFemMethod::Svd}};

// The cells of the mapped points and what acts on them. Empty `corners`: none.
struct RigidMappedCells {
  CellType type = CellType::Hexahedron;  // hexahedra or tetrahedra
  std::vector<long long> corners;        // 8 (4) point indices a cell, SOFA's vertex order
  double youngModulus = 0;               // 0: no FEM force field
  double poissonRatio = 0;
  MappedFemMethod method = MappedFemMethod::Large;
  MassType massType = MassType::Consistent;  // consistent (MeshMatrixMass) or lumped
  double density = 0;                        // 0: no cell mass
  double totalMass = 0;  // > 0: the density is totalMass over the cells' volume (SOFA's totalMass)
};

class RigidMappedCellsField {
public:
  // rest: the points' rest positions (the child's points as written). Throws eis::Error for an
  // index past the last point or svd on hexahedra, and InvertedElement for an inverted rest
  // hexahedron. The field holds views of its own members: it is neither copied nor moved.
  RigidMappedCellsField(const RigidMappedCells& cells, const std::vector<Vec3d>& rest);
  RigidMappedCellsField(const RigidMappedCellsField&) = delete;
  RigidMappedCellsField& operator=(const RigidMappedCellsField&) = delete;

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
  Cells cells_;
  std::vector<Vec3> rest_;
  ElasticMaterial material_;  // the FEM's, as a mesh body's elastic-fem gives it
  std::unique_ptr<ForceField> fem_;
  std::unique_ptr<Mass> mass_;
};

// The rigid-mapped-cells component (rigid.mapped-hexahedra or -tetrahedra, -young-modulus,
// -poisson-ratio, -fem-method, -cell-mass), declared and read in
// model/rigid_mapped_cells_component.cpp. Throws eis::Error for its keys without cells, for both
// kinds of cells, and for svd on hexahedra.
const ComponentDeclaration& rigidMappedCellsComponent();
RigidMappedCells readRigidMappedCells(const Parameters& scene);

}  // namespace eis
