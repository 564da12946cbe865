// Every force field this build knows, one line each, in the order a mechanical system sums
// their forces (the elastic or diffusion field first: von Mises stress is the first stress
// field's).
#include "eis/model/constant_force.hpp"
#include "eis/model/diffusion_fem.hpp"
#include "eis/model/elastic_force_fields.hpp"
#include "eis/model/gravity.hpp"
#include "eis/model/mesh_springs.hpp"
#include "eis/model/rest_shape_springs.hpp"
#include "eis/model/surface_pressure.hpp"
#include "eis/model/uniform_damping.hpp"

namespace eis {

const std::vector<ForceFieldComponent>& forceFieldComponents() {
  static const std::vector<ForceFieldComponent> all = {
      elasticFemComponent(),       diffusionFemComponent(),    meshSpringsComponent(),
      gravityComponent(),          uniformDampingComponent(),  constantForceComponent(),
      restShapeSpringsComponent(), surfacePressureComponent(),
  };
  return all;
}

std::vector<double> restArray(const DistributedMesh& mesh) {
  std::vector<double> rest;
  rest.reserve(3 * mesh.numLocalVertices());
  for (const auto& p : mesh.restCoords()) rest.insert(rest.end(), p.begin(), p.end());
  return rest;
}

}  // namespace eis
