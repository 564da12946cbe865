#include "eis/model/elastic_force_fields.hpp"

#include "eis/core/error.hpp"
#include "eis/model/corotational_fem.hpp"
#include "eis/model/hyperelastic_fem.hpp"
#include "eis/model/linear_elastic_fem.hpp"

namespace eis {

std::unique_ptr<ForceField> makeElasticForceField(const Scene& scene,
                                                  const std::vector<std::array<PetscInt, 4>>& cells,
                                                  const std::vector<TetraShape>& shapes,
                                                  std::vector<double> rest) {
  const double E = scene.youngModulus, nu = scene.poissonRatio;
  switch (scene.material) {
    case MaterialModel::Linear:
      return std::make_unique<LinearElasticFEM>(cells, shapes, std::move(rest), E, nu);
    case MaterialModel::Corotational:
      return std::make_unique<CorotationalFEM>(cells, shapes, std::move(rest), E, nu, scene.rotation);
    case MaterialModel::StVenantKirchhoff:
      return std::make_unique<HyperelasticFEM>(cells, shapes, std::move(rest), E, nu,
                                               HyperelasticFEM::Law::StVenantKirchhoff);
    case MaterialModel::NeoHookean:
      return std::make_unique<HyperelasticFEM>(cells, shapes, std::move(rest), E, nu,
                                               HyperelasticFEM::Law::NeoHookean);
  }
  throw Error("unknown material model");
}

}  // namespace eis
