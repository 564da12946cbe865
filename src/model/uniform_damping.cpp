#include "eis/model/uniform_damping.hpp"

namespace eis {

void UniformDamping::addForce(const double*, const double* v, double* f) {
  mass_.addMDx(v, f, -c_);
}

void UniformDamping::addBDv(const double* dv, double* df, double bFactor) const {
  mass_.addMDx(dv, df, -bFactor * c_);
}

void UniformDamping::addBToElementMatrices(double* elementMatrices, double bFactor,
                                           CellRange range) const {
  mass_.addMToElementMatrices(elementMatrices, -bFactor * c_, range);
}

ForceFieldComponent uniformDampingComponent() {
  return {
      {"uniform-damping", "force field", "uniform viscous damping f = -c M v",
       ParameterSpec().add(
           {"damping.coefficient", "C",
            "uniform viscous damping, the force f = -C M v (M: the mass above), so B = df/dv = -C M\n"
            "enters the step matrix; >= 0",
            "0", "1/time", false, check::nonNegative()}),
       nullptr},
      Physics::Elasticity,
      forceFieldMaker(readUniformDampingParameters, makeUniformDamping)};
}

UniformDampingParameters readUniformDampingParameters(const Parameters& scene) {
  return {scene.real("damping.coefficient")};
}

std::unique_ptr<ForceField> makeUniformDamping(const ModelContext& context,
                                               const UniformDampingParameters& parameters) {
  if (parameters.coefficient == 0) return nullptr;
  return std::make_unique<UniformDamping>(context.mass, parameters.coefficient);
}

const RegisterForceField registered(450, uniformDampingComponent);

}  // namespace eis
