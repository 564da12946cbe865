#include "eis/model/cut_cells.hpp"

#include <algorithm>
#include <string>

#include "eis/core/error.hpp"

namespace eis {

Cells cutCells(const Cells& cells, CellType pieceType, int pieces, const std::vector<int>& slots) {
  const std::size_t perCell = std::size_t(pieces) * std::size_t(cornersOf(pieceType));
  if (slots.size() != cells.size() * perCell)
    throw Error("cut cells: " + std::to_string(slots.size()) + " slots for " +
                std::to_string(cells.size()) + " cells of " + std::to_string(pieces) + " " +
                pluralNameOf(pieceType) + " each");
  Cells out(pieceType);
  out.reserve(cells.size() * std::size_t(pieces));
  std::vector<PetscInt> piece(std::size_t(cornersOf(pieceType)));
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const auto vertices = cells[c];
    for (int p = 0; p < pieces; ++p) {
      for (std::size_t a = 0; a < piece.size(); ++a) {
        const int slot = slots[c * perCell + std::size_t(p) * piece.size() + a];
        if (slot < 0 || slot >= cells.corners())
          throw Error("cut cells: slot " + std::to_string(slot) + " of a cell of " +
                      std::to_string(cells.corners()) + " corners");
        piece[a] = vertices[std::size_t(slot)];
      }
      out.push_back(piece);
    }
  }
  return out;
}

CutCellsField::CutCellsField(const Cells& cells, CellType pieceType, int pieces,
                             const std::vector<int>& slots, std::vector<Vec3> rest, int dofsPerNode,
                             const Maker& make)
    : corners_(cells.corners()),
      pieceCorners_(cornersOf(pieceType)),
      pieces_(pieces),
      dofs_(dofsPerNode),
      slots_(slots),
      cut_(cutCells(cells, pieceType, pieces, slots)),
      rest_(std::move(rest)),
      shapes_(cut_, rest_),
      inner_(make(cut_, shapes_)) {}

void CutCellsField::addForce(const double* x, const double* v, double* f) {
  try {
    inner_->addForce(x, v, f);
  } catch (const InvertedElement& e) {
    throw InvertedElement(e.cell / std::size_t(pieces_), e.J, e.what());
  }
}

void CutCellsField::checkState(const double* x) const {
  try {
    inner_->checkState(x);
  } catch (const InvertedElement& e) {
    throw InvertedElement(e.cell / std::size_t(pieces_), e.J, e.what());
  }
}

void CutCellsField::gather(double* elementMatrices, CellRange range,
                           const std::function<void(double*, CellRange)>& add) const {
  const std::size_t pieceSize = std::size_t(pieceCorners_ * dofs_);
  const std::size_t cellSize = std::size_t(corners_ * dofs_);
  const std::size_t pieceBlock = pieceSize * pieceSize, cellBlock = cellSize * cellSize;
  const CellRange pieces{range.begin * std::size_t(pieces_), range.end * std::size_t(pieces_)};
  scratch_.assign(pieces.size() * pieceBlock, 0.0);
  add(scratch_.data(), pieces);
  for (std::size_t p = pieces.begin; p < pieces.end; ++p) {
    const std::size_t cell = p / std::size_t(pieces_);
    const int* slot = slots_.data() + p * std::size_t(pieceCorners_);
    const double* from = scratch_.data() + (p - pieces.begin) * pieceBlock;
    double* to = elementMatrices + (cell - range.begin) * cellBlock;
    for (int a = 0; a < pieceCorners_; ++a)
      for (int i = 0; i < dofs_; ++i) {
        const std::size_t row = std::size_t(a * dofs_ + i);
        const std::size_t cellRow = std::size_t(slot[a] * dofs_ + i);
        for (int b = 0; b < pieceCorners_; ++b)
          for (int j = 0; j < dofs_; ++j)
            to[cellRow * cellSize + std::size_t(slot[b] * dofs_ + j)] +=
                from[row * pieceSize + std::size_t(b * dofs_ + j)];
      }
  }
}

void CutCellsField::addKToElementMatrices(double* elementMatrices, double kFactor,
                                          CellRange range) const {
  gather(elementMatrices, range,
         [&](double* m, CellRange r) { inner_->addKToElementMatrices(m, kFactor, r); });
}

void CutCellsField::addKToElementDiagonals(double* elementMatrices, double kFactor,
                                           CellRange range) const {
  gather(elementMatrices, range,
         [&](double* m, CellRange r) { inner_->addKToElementDiagonals(m, kFactor, r); });
}

void CutCellsField::addBToElementMatrices(double* elementMatrices, double bFactor,
                                          CellRange range) const {
  gather(elementMatrices, range,
         [&](double* m, CellRange r) { inner_->addBToElementMatrices(m, bFactor, r); });
}

std::vector<double> CutCellsField::vonMisesStress(const double* x) const {
  const std::vector<double> pieces = inner_->vonMisesStress(x);
  if (pieces.empty()) return {};
  std::vector<double> out(pieces.size() / std::size_t(pieces_));
  for (std::size_t c = 0; c < out.size(); ++c)
    out[c] = *std::max_element(pieces.begin() + std::ptrdiff_t(c * std::size_t(pieces_)),
                               pieces.begin() + std::ptrdiff_t((c + 1) * std::size_t(pieces_)));
  return out;
}

}  // namespace eis
