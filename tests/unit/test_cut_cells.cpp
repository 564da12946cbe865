// model/cut_cells: a tetrahedral field on hexahedra cut into tetrahedra. The hexahedra's element
// matrices, assembled, must be the tangent the pieces' own product (addDForce) gives, which does
// not go through the scatter; the pieces are the slots' vertices; an inverted piece names its
// hexahedron.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "eis/core/error.hpp"
#include "eis/model/cut_cells.hpp"
#include "eis/model/linear_elastic_fem.hpp"

namespace eis {
namespace {

// Hexa2TetraTopologicalMapping's two patterns, the second each tetrahedron turned over.
constexpr int kStraight[24] = {0, 5, 1, 6, 0, 1, 3, 6, 1, 3, 6, 2,
                               6, 3, 0, 7, 6, 7, 0, 5, 7, 5, 4, 0};
constexpr int kTurned[24] = {0, 5, 6, 1, 0, 1, 6, 3, 1, 3, 2, 6,
                             6, 3, 7, 0, 6, 7, 5, 0, 7, 5, 0, 4};

// Two hexahedra side by side along x, sharing the face 1 2 6 5, their points moved off the box.
struct TwoHexahedra {
  Cells cells{CellType::Hexahedron, {0, 1, 2, 3, 4, 5, 6, 7, 1, 8, 9, 2, 5, 10, 11, 6}};
  std::vector<Vec3> rest;
  std::vector<int> slots;
  TwoHexahedra() {
    const double box[12][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1},
                               {1, 1, 1}, {0, 1, 1}, {2, 0, 0}, {2, 1, 0}, {2, 0, 1}, {2, 1, 1}};
    for (int v = 0; v < 12; ++v)
      rest.push_back({box[v][0] + 0.07 * std::sin(v), box[v][1] + 0.05 * std::cos(3 * v),
                      box[v][2] + 0.04 * std::sin(2 * v + 1)});
    slots.assign(std::begin(kStraight), std::end(kStraight));
    slots.insert(slots.end(), std::begin(kTurned), std::end(kTurned));
  }
  std::vector<double> flatRest() const {
    std::vector<double> out;
    for (const Vec3& p : rest) out.insert(out.end(), p.begin(), p.end());
    return out;
  }
};

std::unique_ptr<ForceField> linearElastic(const Cells& cells, const CellShapes& shapes,
                                          const std::vector<double>& rest) {
  return std::make_unique<LinearElasticFEM>(
      cells, shapes, rest, std::vector<LameParameters>(cells.size(), {400.0, 250.0}));
}

TEST(CutCells, PiecesAreTheSlotsVertices) {
  const TwoHexahedra mesh;
  const Cells pieces = cutCells(mesh.cells, CellType::Tetrahedron, 6, mesh.slots);
  ASSERT_EQ(pieces.size(), 12u);
  const std::vector<PetscInt> first(pieces[0].begin(), pieces[0].end());
  EXPECT_EQ(first, (std::vector<PetscInt>{0, 5, 1, 6}));
  // Hexahedron 1's slots 0 5 6 1 are its vertices 1 10 11 8.
  const std::vector<PetscInt> seventh(pieces[6].begin(), pieces[6].end());
  EXPECT_EQ(seventh, (std::vector<PetscInt>{1, 10, 11, 8}));
  EXPECT_THROW(cutCells(mesh.cells, CellType::Tetrahedron, 6, {0, 1, 2, 3}), Error);
  std::vector<int> bad = mesh.slots;
  bad[5] = 8;
  EXPECT_THROW(cutCells(mesh.cells, CellType::Tetrahedron, 6, bad), Error);
}

TEST(CutCells, AssembledMatricesAreThePiecesTangent) {
  const TwoHexahedra mesh;
  const std::vector<double> rest = mesh.flatRest();
  CutCellsField field(
      mesh.cells, CellType::Tetrahedron, 6, mesh.slots, mesh.rest, 3,
      [&](const Cells& c, const CellShapes& s) { return linearElastic(c, s, rest); });
  std::vector<double> blocks(2 * 24 * 24, 0.0);
  field.addKToElementMatrices(blocks.data(), 1.0, {0, 2});
  std::vector<double> k(36 * 36, 0.0);
  for (std::size_t c = 0; c < 2; ++c)
    for (int a = 0; a < 24; ++a)
      for (int b = 0; b < 24; ++b)
        k[std::size_t(mesh.cells[c][a / 3] * 3 + a % 3) * 36 +
          std::size_t(mesh.cells[c][b / 3] * 3 + b % 3)] +=
            blocks[c * 576 + std::size_t(a * 24 + b)];
  std::mt19937 random(7);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> dx(36), product(36, 0.0);
  for (double& d : dx) d = u(random);
  field.addDForce(dx.data(), product.data(), 1.0);
  double largest = 0, gap = 0;
  for (int i = 0; i < 36; ++i) {
    double row = 0;
    for (int j = 0; j < 36; ++j) row += k[std::size_t(i * 36 + j)] * dx[std::size_t(j)];
    largest = std::max(largest, std::abs(product[std::size_t(i)]));
    gap = std::max(gap, std::abs(row - product[std::size_t(i)]));
  }
  EXPECT_GT(largest, 1.0);
  EXPECT_LT(gap, 1e-12 * largest);
}

TEST(CutCells, StressIsTheLargestPiecesAndEnergyTheirSum) {
  const TwoHexahedra mesh;
  const std::vector<double> rest = mesh.flatRest();
  CutCellsField field(
      mesh.cells, CellType::Tetrahedron, 6, mesh.slots, mesh.rest, 3,
      [&](const Cells& c, const CellShapes& s) { return linearElastic(c, s, rest); });
  const Cells pieces = cutCells(mesh.cells, CellType::Tetrahedron, 6, mesh.slots);
  const CellShapes shapes(pieces, mesh.rest);
  const auto alone = linearElastic(pieces, shapes, rest);
  std::vector<double> x = rest;
  for (std::size_t i = 0; i < x.size(); ++i) x[i] += 0.01 * std::sin(double(i));
  const std::vector<double> each = alone->vonMisesStress(x.data());
  const std::vector<double> cells = field.vonMisesStress(x.data());
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[0], *std::max_element(each.begin(), each.begin() + 6));
  EXPECT_EQ(cells[1], *std::max_element(each.begin() + 6, each.end()));
  EXPECT_EQ(field.potentialEnergy(x.data()), alone->potentialEnergy(x.data()));
}

// A field whose every state has its piece `inverted` inverted.
class InvertedPiece : public LoadField {
public:
  explicit InvertedPiece(std::size_t inverted) : inverted_(inverted) {}
  void addForce(const double*, const double*, double*) override {
    throw InvertedElement(inverted_, -0.5, "inverted");
  }
  void checkState(const double*) const override {
    throw InvertedElement(inverted_, -0.5, "inverted");
  }

private:
  std::size_t inverted_;
};

TEST(CutCells, AnInvertedPieceNamesItsCell) {
  const TwoHexahedra mesh;
  CutCellsField field(
      mesh.cells, CellType::Tetrahedron, 6, mesh.slots, mesh.rest, 3,
      [](const Cells&, const CellShapes&) { return std::make_unique<InvertedPiece>(8); });
  const std::vector<double> x = mesh.flatRest();
  std::vector<double> f(36, 0.0);
  try {
    field.checkState(x.data());
    FAIL() << "no InvertedElement";
  } catch (const InvertedElement& e) {
    EXPECT_EQ(e.cell, 1u);
    EXPECT_EQ(e.J, -0.5);
  }
  try {
    field.addForce(x.data(), x.data(), f.data());
    FAIL() << "no InvertedElement";
  } catch (const InvertedElement& e) {
    EXPECT_EQ(e.cell, 1u);
  }
}

}  // namespace
}  // namespace eis
