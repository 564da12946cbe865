#include "eis/model/gravity.hpp"

namespace eis {

void Gravity::addForce(const double*, const double*, double* f) {
  mass_.addGravity(f, g_.data());
}

double Gravity::externalPotential(const double* x) const {
  // -sum over elements of (their share of M g) . x: the potential whose gradient is -M g.
  std::vector<double> weight(3 * localVertices_, 0.0);
  mass_.addGravity(weight.data(), g_.data());
  double energy = 0;
  for (std::size_t i = 0; i < weight.size(); ++i) energy -= weight[i] * x[i];
  return energy;
}

ForceFieldComponent gravityComponent() {
  return {{"gravity", "force field", "gravity f = M g (SOFA's root gravity)",
           ParameterSpec().add({"load.gravity", "\"GX GY GZ\"",
                                "gravity g, applied as the force f = M g (M: the mass above)",
                                "0 -9.81 0", "length/time^2", false, check::reals(3)}),
           nullptr},
          Physics::Elasticity,
          forceFieldMaker(readGravityParameters, makeGravity)};
}

GravityParameters readGravityParameters(const Parameters& scene) {
  return {scene.real3("load.gravity")};
}

std::unique_ptr<ForceField> makeGravity(const ModelContext& context,
                                        const GravityParameters& parameters) {
  return std::make_unique<Gravity>(context.mass, parameters.g, context.mesh.numLocalVertices());
}

const RegisterForceField registered(440, gravityComponent);

}  // namespace eis
