#pragma once
// The elastic force field of an elasticity scene: SOFA's TetrahedronFEMForceField (small, large,
// polar) or a hyperelastic law (material.model, material.rotation, Young's modulus, Poisson's
// ratio).
#include <array>
#include <memory>
#include <vector>

#include "eis/core/tetra_geometry.hpp"
#include "eis/model/corotational_fem.hpp"
#include "eis/model/force_field_component.hpp"

namespace eis {

enum class MaterialModel { Linear, Corotational, StVenantKirchhoff, NeoHookean };
inline constexpr Named<MaterialModel> kMaterialModels[] = {
    {"linear", MaterialModel::Linear},
    {"corotational", MaterialModel::Corotational},
    {"stvk", MaterialModel::StVenantKirchhoff},
    {"neohookean", MaterialModel::NeoHookean}};

struct ElasticMaterial {
  MaterialModel model = MaterialModel::Linear;
  RotationMethod rotation = RotationMethod::Large;
  double youngModulus = 1e5, poissonRatio = 0.3;
};

// cells: four local vertex indices each (input vertex order); shapes: their rest geometry,
// which must outlive the field; rest: rest positions as a local array, 3 per local vertex.
std::unique_ptr<ForceField> makeElasticForceField(const ElasticMaterial& material,
                                                  const std::vector<std::array<PetscInt, 4>>& cells,
                                                  const std::vector<TetraShape>& shapes,
                                                  std::vector<double> rest);

ForceFieldComponent elasticFemComponent();

}  // namespace eis
