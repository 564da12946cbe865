#include "eis/model/mass.hpp"

#include "eis/model/physics.hpp"

namespace eis {

Mass::Mass(const std::vector<std::array<PetscInt, 4>>& cells, const std::vector<TetraShape>& shapes,
           int dofsPerNode, double density, MassType type)
    : cells_(cells), shapes_(shapes), dofs_(dofsPerNode), density_(density), type_(type) {}

void Mass::addMDx(const double* dx, double* out, double factor) const {
  if (type_ == MassType::Lumped) {
    // Element by element, like the consistent case, so ghost vertices get this rank's share
    // only and the local-to-global sum counts each element once.
    for (std::size_t c = 0; c < cells_.size(); ++c) {
      const double m = factor * density_ * shapes_[c].volume / 4;
      for (auto v : cells_[c])
        for (int d = 0; d < dofs_; ++d) out[dofs_ * v + d] += m * dx[dofs_ * v + d];
    }
    return;
  }
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    const double offDiagonal = factor * density_ * shapes_[c].volume / 20;
    for (int d = 0; d < dofs_; ++d) {
      double sum = 0;
      for (auto v : cells_[c]) sum += dx[dofs_ * v + d];
      // (V/20)(1 + delta_ab): the diagonal gets one extra share of its own value.
      for (auto v : cells_[c]) out[dofs_ * v + d] += offDiagonal * (sum + dx[dofs_ * v + d]);
    }
  }
}

void Mass::addMToElementMatrices(double* elementMatrices, double factor, CellRange range) const {
  const int n = 4 * dofs_;
  for (std::size_t c = range.begin; c < range.end; ++c) {
    double* block = elementMatrices + (c - range.begin) * n * n;
    const double share = factor * density_ * shapes_[c].volume;
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) {
        double value = 0;
        if (type_ == MassType::Lumped)
          value = a == b ? share / 4 : 0;
        else
          value = a == b ? share / 10 : share / 20;
        for (int d = 0; d < dofs_; ++d) block[(dofs_ * a + d) * n + dofs_ * b + d] += value;
      }
  }
}

void Mass::addGravity(double* f, const double* g) const {
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    const double m = density_ * shapes_[c].volume / 4;
    for (auto v : cells_[c])
      for (int d = 0; d < dofs_; ++d) f[dofs_ * v + d] += m * g[d];
  }
}

double Mass::localTotal() const {
  double total = 0;
  for (const auto& shape : shapes_) total += density_ * shape.volume;
  return total;
}

const ComponentDeclaration& massComponent() {
  static const ComponentDeclaration component{
      "mass", "mass", "SOFA DiagonalMass (lumped) or MeshMatrixMass (consistent)",
      ParameterSpec()
          .add({"mass.type", "lumped|consistent",
                "lumped: SOFA DiagonalMass, density*volume/4 on each node of a tetrahedron;\n"
                "consistent: SOFA MeshMatrixMass, the full P1 mass matrix",
                "lumped", "", false, check::choice(kMassTypes)})
          .add({"material.density", "RHO", "mass per volume, > 0", "1", "mass/volume", false,
                check::positive()})
          .add({"material.capacity", "C", "diffusion: capacity c, the coefficient of du/dt, > 0",
                "1", "", false, check::positive()}),
      nullptr};
  return component;
}

MassType massTypeOf(const Parameters& scene) {
  return scene.choice("mass.type", kMassTypes);
}

double massDensityOf(const Parameters& scene) {
  return physicsOf(scene) == Physics::Elasticity ? scene.real("material.density")
                                                 : scene.real("material.capacity");
}

}  // namespace eis
