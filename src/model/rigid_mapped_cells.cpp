// A FEM force field and a mass on rigidly mapped points (model/rigid_mapped_cells.hpp).
#include "eis/model/rigid_mapped_cells.hpp"

#include <string>

#include "eis/core/error.hpp"
#include "eis/model/cell_shapes.hpp"

namespace eis {

RigidMappedCellsField::RigidMappedCellsField(const RigidMappedCells& cells,
                                             const std::vector<Vec3d>& rest)
    : cells_(cells.type), rest_(rest.begin(), rest.end()) {
  const std::size_t corners = std::size_t(cornersOf(cells.type));
  if (cells.corners.empty() || cells.corners.size() % corners != 0)
    throw Error("rigid mapped cells: " + std::to_string(cells.corners.size()) + " indices, not " +
                std::to_string(corners) + " a " + nameOf(cells.type));
  for (long long index : cells.corners)
    if (index < 0 || std::size_t(index) >= rest.size())
      throw Error("rigid mapped cells: point " + std::to_string(index) + " of " +
                  std::to_string(rest.size()) + " mapped points");
  for (std::size_t c = 0; c < cells.corners.size(); c += corners) {
    std::vector<PetscInt> cell(corners);
    for (std::size_t a = 0; a < corners; ++a) cell[a] = PetscInt(cells.corners[c + a]);
    cells_.push_back(cell);
  }
  const CellShapes shapes(cells_, rest_);
  if (cells.youngModulus > 0) {
    // The element a mesh body's elastic-fem makes for SOFA's method: small the linear one, the
    // others the corotational one turned by their frame.
    if (cells.method == MappedFemMethod::Svd && cells.type == CellType::Hexahedron)
      throw Error("rigid mapped cells: SOFA's HexahedronFEMForceField has no method svd");
    material_.model = cells.method == MappedFemMethod::Small ? MaterialModel::Linear
                                                             : MaterialModel::Corotational;
    material_.rotation = cells.method == MappedFemMethod::Polar ? RotationMethod::Polar
                         : cells.method == MappedFemMethod::Svd ? RotationMethod::Svd
                                                                : RotationMethod::Large;
    material_.lame.assign(cells_.size(), lameParameters(cells.youngModulus, cells.poissonRatio));
    std::vector<double> flat;
    for (const Vec3& p : rest_) flat.insert(flat.end(), p.begin(), p.end());
    fem_ = makeElasticForceField(material_, cells_, shapes, std::move(flat));
  }
  double density = cells.density;
  if (cells.totalMass > 0) {
    double volume = 0;
    for (std::size_t c = 0; c < cells_.size(); ++c) volume += shapes.measure(c);
    density = cells.totalMass / volume;
  }
  if (density > 0) mass_ = std::make_unique<Mass>(cells_, shapes, 3, density, cells.massType);
}

void RigidMappedCellsField::addForce(const std::vector<Vec3d>& x, const Vec3d& gravity,
                                     double* fc) {
  std::vector<double> flat;
  flat.reserve(3 * x.size());
  for (const Vec3d& p : x) flat.insert(flat.end(), p.begin(), p.end());
  if (fem_) fem_->addForce(flat.data(), nullptr, fc);
  if (mass_) mass_->addGravity(fc, gravity.data());
}

void RigidMappedCellsField::addMKDx(const double* dxc, double* outc, double mFactor,
                                    double kFactor) const {
  if (fem_ && kFactor != 0) fem_->addDForce(dxc, outc, kFactor);
  if (mass_ && mFactor != 0) mass_->addMDx(dxc, outc, mFactor);
}

void RigidMappedCellsField::addToMatrix(const RigidMapping& mapping, double mFactor, double kFactor,
                                        double* dense, std::size_t frames) const {
  const int corners = cornersOf(cells_.type());
  const int kDofs = 3 * corners;
  const std::size_t n = 6 * frames;
  std::vector<double> element(kDofs * kDofs);
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    std::fill(element.begin(), element.end(), 0.0);
    const CellRange one{c, c + 1};
    if (fem_) fem_->addKToElementMatrices(element.data(), kFactor, one);
    if (mass_) mass_->addMToElementMatrices(element.data(), mFactor, one);
    std::array<std::array<double, 18>, 8> j;
    for (int a = 0; a < corners; ++a) j[a] = mapping.jacobian(std::size_t(cells_[c][a]));
    for (int a = 0; a < corners; ++a) {
      const std::size_t fa = std::size_t(mapping.frameOf(std::size_t(cells_[c][a])));
      for (int b = 0; b < corners; ++b) {
        const std::size_t fb = std::size_t(mapping.frameOf(std::size_t(cells_[c][b])));
        // E_ab J_b (3 x 6), then J_a^T of it (6 x 6) into the frames' block.
        double ej[18] = {};
        for (int p = 0; p < 3; ++p)
          for (int q = 0; q < 3; ++q) {
            const double e = element[std::size_t((3 * a + p) * kDofs + 3 * b + q)];
            if (e == 0) continue;
            for (int k = 0; k < 6; ++k) ej[6 * p + k] += e * j[b][std::size_t(6 * q + k)];
          }
        for (int row = 0; row < 6; ++row)
          for (int column = 0; column < 6; ++column) {
            double sum = 0;
            for (int p = 0; p < 3; ++p) sum += j[a][std::size_t(6 * p + row)] * ej[6 * p + column];
            dense[(6 * fa + std::size_t(row)) * n + 6 * fb + std::size_t(column)] += sum;
          }
      }
    }
  }
}

}  // namespace eis
