#include "eis/model/elastic_force_fields.hpp"

#include "eis/core/error.hpp"
#include "eis/model/hyperelastic_fem.hpp"
#include "eis/model/linear_elastic_fem.hpp"

namespace eis {

std::unique_ptr<ForceField> makeElasticForceField(const ElasticMaterial& material,
                                                  const std::vector<std::array<PetscInt, 4>>& cells,
                                                  const std::vector<TetraShape>& shapes,
                                                  std::vector<double> rest) {
  const double E = material.youngModulus, nu = material.poissonRatio;
  switch (material.model) {
    case MaterialModel::Linear:
      return std::make_unique<LinearElasticFEM>(cells, shapes, std::move(rest), E, nu);
    case MaterialModel::Corotational:
      return std::make_unique<CorotationalFEM>(cells, shapes, std::move(rest), E, nu,
                                               material.rotation);
    case MaterialModel::StVenantKirchhoff:
      return std::make_unique<HyperelasticFEM>(cells, shapes, std::move(rest), E, nu,
                                               HyperelasticFEM::Law::StVenantKirchhoff);
    case MaterialModel::NeoHookean:
      return std::make_unique<HyperelasticFEM>(cells, shapes, std::move(rest), E, nu,
                                               HyperelasticFEM::Law::NeoHookean);
  }
  throw Error("unknown material model");
}

namespace {
ParameterSpec elasticParameters() {
  return ParameterSpec()
      .add(
          {"material.model", "linear|corotational|stvk|neohookean",
           "linear: small-strain linear elasticity (SOFA TetrahedronFEMForceField method=\"small\");\n"
           "corotational: SOFA's method=\"large\" or \"polar\" (material.rotation), the linear element\n"
           "stiffness rotated with each element, with SOFA's tangent R K0 R^T (no derivative of R);\n"
           "stvk: St Venant-Kirchhoff, psi = lambda/2 (tr E)^2 + mu tr(E^2); neohookean:\n"
           "psi = mu/2 (tr C - 3) - mu ln J + lambda/2 (ln J)^2 (an inverted element is an error); both\n"
           "with their exact tangent. Nonlinear models are re-assembled every step.",
           "linear", "", false, check::choice(kMaterialModels)})
      .add(
          {"material.rotation", "large|polar",
           "corotational frame, as SOFA's TetrahedronFEMForceField method: large builds it from the\n"
           "element's vertices 0, 1, 2 in the mesh file's order; polar is the rotation of the polar\n"
           "decomposition of the matrix of edges 0->1, 0->2, 0->3 (so it too depends on the order)",
           "large", "", false, check::choice(kRotationMethods)})
      .add({"material.young-modulus", "E", "Young's modulus, > 0", "1e5", "force/area", false,
            check::positive()})
      .add({"material.poisson-ratio", "NU", "Poisson's ratio, in (-1, 0.5)", "0.3", "", false,
            check::within(-1, 0.5)});
}
}  // namespace

ForceFieldComponent elasticFemComponent() {
  return {{"elastic-fem", "force field",
           "linear, corotational or hyperelastic tetrahedra (SOFA TetrahedronFEMForceField, "
           "TetrahedronHyperelasticityFEMForceField)",
           elasticParameters(),
           [](Scene& scene) {
             const MaterialModel model = scene.choice("material.model", kMaterialModels);
             if (physicsOf(scene) == Physics::Diffusion && model != MaterialModel::Linear)
               throw Error("material.model = " + scene.text("material.model") +
                           " is an elastic model; physics.type = diffusion takes none");
           }},
          Physics::Elasticity,
          [](const ModelContext& context, const Parameters& scene) {
            ElasticMaterial material;
            material.model = scene.choice("material.model", kMaterialModels);
            material.rotation = scene.choice("material.rotation", kRotationMethods);
            material.youngModulus = scene.real("material.young-modulus");
            material.poissonRatio = scene.real("material.poisson-ratio");
            return makeElasticForceField(material, context.mesh.cells(), context.shapes,
                                         restArray(context.mesh));
          }};
}

}  // namespace eis
