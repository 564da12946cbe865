#pragma once
// Gravity as a force field: f = M g, which for every mass is each element's lumped share on its
// vertices (density |V| / 4, or a uniform mass's share) times g (the row sums of the consistent
// mass agree). Its tangent is zero; its potential is -sum_a m_a g . x_a.
#include <array>

#include "eis/model/force_field_component.hpp"

namespace eis {

class Gravity : public LoadField {
public:
  // `mass` must outlive the field; localVertices: how many the local arrays hold.
  Gravity(const Mass& mass, std::array<double, 3> g, std::size_t localVertices)
      : mass_(mass), g_(g), localVertices_(localVertices) {}

  void addForce(const double* x, const double* v, double* f) override;
  double externalPotential(const double* x) const override;
  bool affine() const override { return true; }

private:
  const Mass& mass_;
  std::array<double, 3> g_;
  std::size_t localVertices_;
};

// The gravity component's parameters, read once from a scene by readGravityParameters.
struct GravityParameters {
  std::array<double, 3> g;  // load.gravity
};
GravityParameters readGravityParameters(const Parameters& scene);
std::unique_ptr<ForceField> makeGravity(const ModelContext& context,
                                        const GravityParameters& parameters);

ForceFieldComponent gravityComponent();

}  // namespace eis
