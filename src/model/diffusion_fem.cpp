#include "eis/model/diffusion_fem.hpp"

namespace eis {

DiffusionFEM::DiffusionFEM(const Cells& cells, const CellShapes& shapes, double conductivity)
    : cells_(cells), shapes_(shapes), conductivity_(conductivity) {
  requireTetrahedra(cells, "diffusion (SOFA's TetrahedronDiffusionFEMForceField)");
}

void DiffusionFEM::addElementFlux(std::size_t cell, const double* u, double factor,
                                  double* out) const {
  const TetraShape shape = shapes_[cell];
  const auto& g = shape.gradients;
  double grad[3] = {0, 0, 0};
  for (int a = 0; a < 4; ++a)
    for (int d = 0; d < 3; ++d) grad[d] += g[a][d] * u[cells_[cell][a]];
  const double w = factor * conductivity_ * shape.volume;
  for (int a = 0; a < 4; ++a)
    out[cells_[cell][a]] += w * (g[a][0] * grad[0] + g[a][1] * grad[1] + g[a][2] * grad[2]);
}

void DiffusionFEM::addForce(const double* u, const double*, double* f) {
  for (std::size_t c = 0; c < cells_.size(); ++c) addElementFlux(c, u, -1.0, f);
}

void DiffusionFEM::addDForce(const double* du, double* df, double kFactor) const {
  for (std::size_t c = 0; c < cells_.size(); ++c) addElementFlux(c, du, -kFactor, df);
}

void DiffusionFEM::addKToElementMatrices(double* elementMatrices, double kFactor,
                                         CellRange range) const {
  for (std::size_t c = range.begin; c < range.end; ++c) {
    const TetraShape shape = shapes_[c];
    const auto& g = shape.gradients;
    const double w = -kFactor * conductivity_ * shape.volume;
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b)
        elementMatrices[16 * (c - range.begin) + 4 * a + b] +=
            w * (g[a][0] * g[b][0] + g[a][1] * g[b][1] + g[a][2] * g[b][2]);
  }
}

double DiffusionFEM::potentialEnergy(const double* u) const {
  double energy = 0;
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    const TetraShape shape = shapes_[c];
    const auto& g = shape.gradients;
    double grad[3] = {0, 0, 0};
    for (int a = 0; a < 4; ++a)
      for (int d = 0; d < 3; ++d) grad[d] += g[a][d] * u[cells_[c][a]];
    energy += 0.5 * conductivity_ * shape.volume *
              (grad[0] * grad[0] + grad[1] * grad[1] + grad[2] * grad[2]);
  }
  return energy;
}

ForceFieldComponent diffusionFemComponent() {
  return {{"diffusion-fem", "force field", "linear P1 diffusion, f = -L u",
           ParameterSpec().add({"material.conductivity", "K", "diffusion: conductivity k, > 0", "1",
                                "", false, check::positive()}),
           nullptr},
          Physics::Diffusion,
          forceFieldMaker(readDiffusionFemParameters, makeDiffusionFem)};
}

DiffusionFemParameters readDiffusionFemParameters(const Parameters& scene) {
  return {scene.real("material.conductivity")};
}

std::unique_ptr<ForceField> makeDiffusionFem(const ModelContext& context,
                                             const DiffusionFemParameters& parameters) {
  return std::make_unique<DiffusionFEM>(context.mesh.cells(), context.shapes,
                                        parameters.conductivity);
}

const RegisterForceField registered(420, diffusionFemComponent);

}  // namespace eis
