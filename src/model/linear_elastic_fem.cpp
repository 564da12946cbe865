#include "eis/model/linear_elastic_fem.hpp"

#include <cmath>

namespace eis {

LinearElasticFEM::LinearElasticFEM(const Cells& cells, const CellShapes& shapes,
                                   std::vector<double> rest, std::vector<LameParameters> lame)
    : cells_(cells), shapes_(shapes), rest_(std::move(rest)), lame_(std::move(lame)) {
  requireTetrahedra(cells, "the linear tetrahedron (SOFA's TetrahedronFEMForceField)");
}

// Strain of the displacement u - origin (origin may be null for a plain increment).
LinearElasticFEM::Strain LinearElasticFEM::strain(std::size_t cell, const TetraShape& shape,
                                                  const double* u, const double* origin) const {
  Strain e{};
  const auto& g = shape.gradients;
  for (int a = 0; a < 4; ++a) {
    const int base = 3 * cells_[cell][a];
    double d[3];
    for (int c = 0; c < 3; ++c) d[c] = u[base + c] - (origin ? origin[base + c] : 0.0);
    addVertexStrain(e, g[a].data(), d);
  }
  return e;
}

// f += factor * |V| B^T s for the cell's four vertices.
void LinearElasticFEM::addElementForce(std::size_t cell, const TetraShape& shape, const Strain& s,
                                       double factor, double* f) const {
  const auto& g = shape.gradients;
  const double w = factor * shape.volume;
  for (int a = 0; a < 4; ++a) {
    const int base = 3 * cells_[cell][a];
    f[base + 0] += w * (g[a][0] * s[0] + g[a][1] * s[3] + g[a][2] * s[5]);
    f[base + 1] += w * (g[a][1] * s[1] + g[a][0] * s[3] + g[a][2] * s[4]);
    f[base + 2] += w * (g[a][2] * s[2] + g[a][1] * s[4] + g[a][0] * s[5]);
  }
}

void LinearElasticFEM::addForce(const double* x, const double*, double* f) {
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    const TetraShape shape = shapes_[c];
    addElementForce(c, shape, hookeStress(lame_[c], strain(c, shape, x, rest_.data())), -1.0, f);
  }
}

void LinearElasticFEM::addDForce(const double* dx, double* df, double kFactor) const {
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    const TetraShape shape = shapes_[c];
    addElementForce(c, shape, hookeStress(lame_[c], strain(c, shape, dx, nullptr)), -kFactor, df);
  }
}

void LinearElasticFEM::addKToElementMatrices(double* elementMatrices, double kFactor,
                                             CellRange range) const {
  // Column j of K_e is the force of a unit displacement of dof j; build it with the same
  // strain/stress path as addForce so the two can never disagree.
  for (std::size_t c = range.begin; c < range.end; ++c) {
    double* block = elementMatrices + (c - range.begin) * 144;
    const TetraShape shape = shapes_[c];
    const auto& g = shape.gradients;
    const double w = -kFactor * shape.volume;
    for (int b = 0; b < 4; ++b)
      for (int d = 0; d < 3; ++d) {
        Strain e{};
        const auto& gb = g[b];
        if (d == 0) e = {gb[0], 0, 0, gb[1], 0, gb[2]};
        if (d == 1) e = {0, gb[1], 0, gb[0], gb[2], 0};
        if (d == 2) e = {0, 0, gb[2], 0, gb[1], gb[0]};
        const Strain s = hookeStress(lame_[c], e);
        const int col = 3 * b + d;
        for (int a = 0; a < 4; ++a) {
          block[(3 * a + 0) * 12 + col] += w * (g[a][0] * s[0] + g[a][1] * s[3] + g[a][2] * s[5]);
          block[(3 * a + 1) * 12 + col] += w * (g[a][1] * s[1] + g[a][0] * s[3] + g[a][2] * s[4]);
          block[(3 * a + 2) * 12 + col] += w * (g[a][2] * s[2] + g[a][1] * s[4] + g[a][0] * s[5]);
        }
      }
  }
}

double LinearElasticFEM::potentialEnergy(const double* x) const {
  double energy = 0;
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    const TetraShape shape = shapes_[c];
    const Strain e = strain(c, shape, x, rest_.data()), s = hookeStress(lame_[c], e);
    double density = 0;
    for (int i = 0; i < 6; ++i) density += e[i] * s[i];
    energy += 0.5 * shape.volume * density;
  }
  return energy;
}

std::vector<double> LinearElasticFEM::vonMisesStress(const double* x) const {
  std::vector<double> result(cells_.size());
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    const Strain s = hookeStress(lame_[c], strain(c, shapes_[c], x, rest_.data()));
    result[c] = vonMises(s);
  }
  return result;
}

}  // namespace eis
