#pragma once
// Uniform viscous damping: f = -c M v, so B = df/dv = -c M enters the step matrix.
#include "eis/model/force_field_component.hpp"

namespace eis {

class UniformDamping : public LoadField {
public:
  // `mass` must outlive the field; c >= 0.
  UniformDamping(const Mass& mass, double c) : mass_(mass), c_(c) {}

  void addForce(const double* x, const double* v, double* f) override;

  bool usesVelocity() const override { return true; }
  void addBDv(const double* dv, double* df, double bFactor) const override;
  void addBToElementMatrices(double* elementMatrices, double bFactor,
                             CellRange range) const override;

private:
  const Mass& mass_;
  double c_;
};

// The uniform-damping component's parameters, read once from a scene by
// readUniformDampingParameters.
struct UniformDampingParameters {
  double coefficient;  // damping.coefficient
};
UniformDampingParameters readUniformDampingParameters(const Parameters& scene);
// nullptr for a zero coefficient.
std::unique_ptr<ForceField> makeUniformDamping(const ModelContext& context,
                                               const UniformDampingParameters& parameters);

ForceFieldComponent uniformDampingComponent();

}  // namespace eis
