// The masses on triangles, quadrangles and edges against SOFA's formulas worked by hand:
// DiagonalMass (rho |T| / 3 a vertex of a triangle, rho |Q| / 4 of a quadrangle, rho L / 2 of an
// edge, rho a mass per area or length) and MeshMatrixMass (triangles: rho |T| / 6 on the diagonal,
// rho |T| / 12 between two vertices; quadrangles: rho |Q| / 8 on the diagonal, rho |Q| / 16 along
// its 4 edges, nothing across), on cells tilted in 3D; and the cells' facts (corners, dimension,
// VTK and XDMF names).
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <vector>

#include "eis/core/error.hpp"
#include "eis/model/mass.hpp"

namespace {

using eis::CellType;
using eis::MassType;
using eis::Vec3;

struct CellMass {
  CellMass(CellType type, std::vector<PetscInt> vertices, std::vector<Vec3> rest, double rho,
           MassType massType)
      : cells(type), points(std::move(rest)), shapes(cells, points) {
    cells.push_back(vertices);
    mass.emplace(cells, shapes, 3, rho, massType);
  }
  // M e: the column of vertex v's y.
  std::vector<double> column(std::size_t v) const {
    std::vector<double> e(3 * points.size(), 0.0), out(e.size(), 0.0);
    e[3 * v + 1] = 1;
    mass->addMDx(e.data(), out.data(), 1.0);
    return out;
  }
  eis::Cells cells;
  std::vector<Vec3> points;
  eis::CellShapes shapes;
  std::optional<eis::Mass> mass;
};

// A right triangle of legs 3 and 4 (area 6), tilted out of the xy plane: legs along (0.6, 0, 0.8)
// and (0, 1, 0).
const std::vector<Vec3> kTriangle = {{1, 2, 3}, {1 + 3 * 0.6, 2, 3 + 3 * 0.8}, {1, 6, 3}};
// A rectangle 2 x 5 (area 10) in the plane x = 1, counter-clockwise.
const std::vector<Vec3> kQuadrangle = {{1, 0, 0}, {1, 2, 0}, {1, 2, 5}, {1, 0, 5}};

TEST(SurfaceMasses, DiagonalMassOnATriangleIsAThirdOfItsAreaEach) {
  const double rho = 0.005;
  const CellMass m(CellType::Triangle, {0, 1, 2}, kTriangle, rho, MassType::Lumped);
  for (std::size_t v = 0; v < 3; ++v) {
    const auto c = m.column(v);
    for (std::size_t i = 0; i < c.size(); ++i)
      EXPECT_NEAR(c[i], i == 3 * v + 1 ? rho * 6 / 3 : 0.0, 1e-16) << v << " " << i;
  }
  EXPECT_NEAR(m.mass->localTotal(), rho * 6, 1e-15);
  std::vector<double> f(9, 0.0);
  const double g[3] = {0, -9.8, 10};
  m.mass->addGravity(f.data(), g);
  EXPECT_NEAR(f[3 * 2 + 1], -9.8 * rho * 2, 1e-15);
  EXPECT_NEAR(f[3 * 2 + 2], 10 * rho * 2, 1e-15);
}

TEST(SurfaceMasses, MeshMatrixMassOnATriangle) {
  const double rho = 2;
  const CellMass m(CellType::Triangle, {0, 1, 2}, kTriangle, rho, MassType::Consistent);
  const auto c = m.column(1);
  EXPECT_NEAR(c[3 * 0 + 1], rho * 6 / 12, 1e-14);
  EXPECT_NEAR(c[3 * 1 + 1], rho * 6 / 6, 1e-14);
  EXPECT_NEAR(c[3 * 2 + 1], rho * 6 / 12, 1e-14);
  EXPECT_EQ(c[3 * 1], 0.0);
  // The element matrix says the same, and its rows sum to DiagonalMass's.
  std::vector<double> k(81, 0.0);
  m.mass->addMToElementMatrices(k.data(), 1.0, {0, 1});
  EXPECT_NEAR(k[(3 * 1 + 1) * 9 + 3 * 0 + 1], rho * 6 / 12, 1e-14);
  EXPECT_NEAR(k[(3 * 1 + 1) * 9 + 3 * 1 + 1], rho * 6 / 6, 1e-14);
  EXPECT_NEAR(m.mass->localTotal(), rho * 6, 1e-13);
}

TEST(SurfaceMasses, QuadrangleMassesAsSofaGivesThem) {
  const double rho = 3;
  const CellMass lumped(CellType::Quadrangle, {0, 1, 2, 3}, kQuadrangle, rho, MassType::Lumped);
  EXPECT_NEAR(lumped.column(2)[3 * 2 + 1], rho * 10 / 4, 1e-14);
  EXPECT_NEAR(lumped.mass->localTotal(), rho * 10, 1e-13);
  const CellMass full(CellType::Quadrangle, {0, 1, 2, 3}, kQuadrangle, rho, MassType::Consistent);
  const auto c = full.column(0);
  EXPECT_NEAR(c[3 * 0 + 1], rho * 10 / 8, 1e-14);
  EXPECT_NEAR(c[3 * 1 + 1], rho * 10 / 16, 1e-14);
  EXPECT_EQ(c[3 * 2 + 1], 0.0);  // across the diagonal
  EXPECT_NEAR(c[3 * 3 + 1], rho * 10 / 16, 1e-14);
}

TEST(SurfaceMasses, EdgeMasses) {
  const std::vector<Vec3> ends = {{0, 0, 0}, {2, 3, 6}};  // length 7
  const CellMass lumped(CellType::Edge, {0, 1}, ends, 0.5, MassType::Lumped);
  EXPECT_NEAR(lumped.column(1)[3 * 1 + 1], 0.5 * 7 / 2, 1e-15);
  EXPECT_EQ(lumped.column(1)[3 * 0 + 1], 0.0);
  EXPECT_THROW(CellMass(CellType::Edge, {0, 1}, ends, 0.5, MassType::Consistent), eis::Error);
  EXPECT_THROW(CellMass(CellType::Triangle, {0, 1, 2}, kTriangle, 1, MassType::HexahedronFem),
               eis::Error);
}

TEST(SurfaceMasses, CellFacts) {
  EXPECT_EQ(eis::cornersOf(CellType::Triangle), 3);
  EXPECT_EQ(eis::cornersOf(CellType::Quadrangle), 4);
  EXPECT_EQ(eis::cornersOf(CellType::Edge), 2);
  EXPECT_EQ(eis::dimensionOf(CellType::Quadrangle), 2);
  EXPECT_EQ(eis::dimensionOf(CellType::Edge), 1);
  EXPECT_EQ(eis::vtkTypeOf(CellType::Triangle), 5);    // VTK_TRIANGLE
  EXPECT_EQ(eis::vtkTypeOf(CellType::Quadrangle), 9);  // VTK_QUAD
  EXPECT_EQ(eis::vtkTypeOf(CellType::Edge), 3);        // VTK_LINE
  EXPECT_STREQ(eis::xdmfTopologyOf(CellType::Quadrangle), "Quadrilateral");
  EXPECT_EQ(eis::faceSize(CellType::Quadrangle, 3), 2);
  EXPECT_EQ(eis::facesOf(CellType::Edge).count, 2);
}

}  // namespace
