#pragma once
// Scalar diffusion on linear tetrahedra: f = -L u with L the conductivity Laplacian
// (L_e = k |V| G G^T, G the shape-function gradients), so that K = df/du = -L.
#include <array>
#include <vector>

#include "eis/model/cell_shapes.hpp"
#include "eis/model/force_field_component.hpp"

namespace eis {

class DiffusionFEM : public ForceField {
public:
  DiffusionFEM(const Cells& cells, const CellShapes& shapes, double conductivity);

  void addForce(const double* u, const double* v, double* f) override;
  void addDForce(const double* du, double* df, double kFactor) const override;
  void addKToElementMatrices(double* elementMatrices, double kFactor,
                             CellRange range) const override;
  double potentialEnergy(const double* u) const override;
  std::vector<double> vonMisesStress(const double*) const override { return {}; }
  bool isLinear() const override { return true; }

private:
  // flux . grad N_a weights: out_a += factor * k |V| g_a . grad(u)
  void addElementFlux(std::size_t cell, const double* u, double factor, double* out) const;

  const Cells& cells_;
  const CellShapes shapes_;
  double conductivity_;
};

// The diffusion-fem component's parameters, read once from a scene by
// readDiffusionFemParameters.
struct DiffusionFemParameters {
  double conductivity;  // material.conductivity
};
DiffusionFemParameters readDiffusionFemParameters(const Parameters& scene);
std::unique_ptr<ForceField> makeDiffusionFem(const ModelContext& context,
                                             const DiffusionFemParameters& parameters);

ForceFieldComponent diffusionFemComponent();

}  // namespace eis
