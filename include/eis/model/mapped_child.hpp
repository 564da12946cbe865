#pragma once
// A mapped child of a body (SOFA: a node whose MechanicalObject an IdentityMapping, SubsetMapping
// or BarycentricMapping drives from the body's) with the masses and force fields that act on its
// points, brought to the body as SOFA's MechanicalOperations bring them through the mapping:
//   x_c = J x,  v_c = J v,  f += J^T f_c,  K += J^T K_c J,  M += J^T M_c J
// (model/child_mapping.hpp: J, one cell per child point). What acts on the child, each per point:
// UniformMass (m on every point; its weight m g), ConstantForceField (one force on every point,
// and forces on listed points), PlaneForceField (model/plane_force_field.hpp's law, on the child's
// positions and velocities) and RestShapeSpringsForceField (-k (x_c - x_c,rest) on every point or
// listed points, the rest being the child's own points as given, else the body's rest positions at
// its nodes). The products and element matrices are the per-point ones carried into the cell, so
// the assembled and matrix-free operators agree.
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "eis/model/child_mapping.hpp"
#include "eis/model/force_field.hpp"
#include "eis/model/force_field_component.hpp"
#include "eis/model/plane_force_field.hpp"

namespace eis {

enum class ChildMappingType { None, Identity, Subset, Barycentric };
inline constexpr Named<ChildMappingType> kChildMappingTypes[] = {
    {"none", ChildMappingType::None},
    {"identity", ChildMappingType::Identity},
    {"subset", ChildMappingType::Subset},
    {"barycentric", ChildMappingType::Barycentric}};

// The mapped-child component's parameters, read once by readMappedChildParameters.
struct MappedChildParameters {
  ChildMappingType mapping = ChildMappingType::None;  // mapped.mapping
  std::vector<std::int64_t> indices;                  // mapped.indices (subset)
  std::vector<Vec3> points;                           // mapped.points (rest; barycentric: J)
  std::vector<std::int64_t> cells;                    // mapped.cells: each point's hexahedron
  std::vector<Vec3> coordinates;                      // and its coordinates there (grid mapper)
  std::optional<double> vertexMass, totalMass;        // mapped.vertex-mass, mapped.total-mass
  Vec3 gravity{0, -9.81, 0};                          // mapped.gravity
  std::optional<Vec3> constantForce;                  // mapped.constant-force
  std::map<std::int64_t, Vec3> nodalForces;           // mapped.nodal-forces, by child point
  std::vector<Plane> planes;                          // mapped.plane
  double restStiffness = 0;                           // mapped.rest-shape-stiffness
  std::map<std::int64_t, double> restStiffnessOf;     // mapped.rest-shape-nodes, by child point
};
MappedChildParameters readMappedChildParameters(const Parameters& scene);
// Collective. The mapping the parameters describe (mapped.mapping none is not one).
ChildMapping childMappingOf(const DistributedMesh& mesh, const MappedChildParameters& parameters);

class MappedChild : public ForceField {
public:
  // Collective.
  MappedChild(const DistributedMesh& mesh, const MappedChildParameters& parameters);

  void addForce(const double* x, const double* v, double* f) override;
  void addDForce(const double* dx, double* df, double kFactor) const override;
  void addKToElementMatrices(double* elementMatrices, double kFactor,
                             CellRange range) const override;
  void addMDx(const double* dx, double* out, double mFactor) const override;
  void addMToElementMatrices(double* elementMatrices, double mFactor,
                             CellRange range) const override;
  double potentialEnergy(const double* x) const override;
  double externalPotential(const double* x) const override;
  std::vector<double> vonMisesStress(const double*) const override { return {}; }
  bool isLinear() const override { return planes_.empty(); }
  bool usesVelocity() const override { return !planes_.empty(); }

private:
  using Block = std::array<double, 9>;
  // Runs work(cell, point) for the carried points of the cells of `range`.
  template <class Work>
  void forPointsOf(CellRange range, Work&& work) const;

  const DistributedMesh& mesh_;
  ChildMapping mapping_;
  double mass_ = 0;
  std::vector<Plane> planes_;
  // Of each carried point: m g and the constant forces, the rest springs' stiffness and rest,
  // and K_c at the last addForce.
  std::vector<Vec3> load_;
  std::vector<double> restStiffness_;
  std::vector<Vec3> rest_;
  std::vector<Block> stiffness_;
  // The carried points by cell: those of local cell c are byCell_[firstOf_[c] .. firstOf_[c+1]-1].
  std::vector<std::size_t> byCell_, firstOf_;
};

std::unique_ptr<ForceField> makeMappedChild(const ModelContext& context,
                                            const MappedChildParameters& parameters);

}  // namespace eis
