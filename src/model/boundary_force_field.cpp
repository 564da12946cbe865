#include "eis/model/boundary_force_field.hpp"

#include <algorithm>
#include <numeric>

namespace eis {

BoundaryForceField::BoundaryForceField(std::unique_ptr<ForceField> inner,
                                       std::vector<BoundaryFace> faces, int faceCorners,
                                       int cellCorners)
    : inner_(std::move(inner)),
      faces_(std::move(faces)),
      byCell_(faces_.size()),
      faceCorners_(faceCorners),
      cellCorners_(cellCorners) {
  std::iota(byCell_.begin(), byCell_.end(), std::size_t(0));
  std::stable_sort(byCell_.begin(), byCell_.end(),
                   [&](std::size_t a, std::size_t b) { return faces_[a].cell < faces_[b].cell; });
}

template <class Blocks>
void BoundaryForceField::place(double* elementMatrices, CellRange range, Blocks blocks) const {
  const int faceSize = 3 * faceCorners_, cellSize = 3 * cellCorners_;
  std::vector<double> block(std::size_t(faceSize * faceSize));
  auto first = std::lower_bound(
      byCell_.begin(), byCell_.end(), range.begin,
      [&](std::size_t f, std::size_t cell) { return std::size_t(faces_[f].cell) < cell; });
  for (auto it = first; it != byCell_.end() && std::size_t(faces_[*it].cell) < range.end; ++it) {
    const BoundaryFace& face = faces_[*it];
    std::fill(block.begin(), block.end(), 0.0);
    blocks(block.data(), CellRange{*it, *it + 1});
    double* cell =
        elementMatrices + std::size_t(cellSize * cellSize) * (std::size_t(face.cell) - range.begin);
    for (int r = 0; r < faceSize; ++r)
      for (int c = 0; c < faceSize; ++c) {
        const int row = 3 * face.slots[r / 3] + r % 3, col = 3 * face.slots[c / 3] + c % 3;
        cell[row * cellSize + col] += block[std::size_t(r * faceSize + c)];
      }
  }
}

void BoundaryForceField::addKToElementMatrices(double* elementMatrices, double kFactor,
                                               CellRange range) const {
  place(elementMatrices, range, [&](double* block, CellRange face) {
    inner_->addKToElementMatrices(block, kFactor, face);
  });
}

void BoundaryForceField::addKToElementDiagonals(double* elementMatrices, double kFactor,
                                                CellRange range) const {
  place(elementMatrices, range, [&](double* block, CellRange face) {
    inner_->addKToElementDiagonals(block, kFactor, face);
  });
}

void BoundaryForceField::addBToElementMatrices(double* elementMatrices, double bFactor,
                                               CellRange range) const {
  place(elementMatrices, range, [&](double* block, CellRange face) {
    inner_->addBToElementMatrices(block, bFactor, face);
  });
}

}  // namespace eis
