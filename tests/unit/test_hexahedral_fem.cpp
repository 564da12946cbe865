// SOFA's HexahedralFEMForceField (model/hexahedral_fem.hpp): on a cube its closed-form stiffness
// is the trilinear hexahedron's (to single precision, to which SOFA rounds its entries); on
// another box its diagonal blocks take SOFA's scale, by hand; rigid motions give no force (to
// that precision); at a rigidly moved state the tangent is the derivative of the force, and the
// matrix-free product the element matrices'; a diagonal with a zero component is refused.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "eis/core/error.hpp"
#include "eis/model/hexahedral_fem.hpp"
#include "hexahedra.hpp"
#include "max_norms.hpp"

using testing_norms::largestDifference;
using testing_norms::largestMagnitude;

namespace {

using eis::HexahedralFEM;
using eis::HexahedronMethod;
using eis_test::force;
using eis_test::HexGrid;
using eis_test::kHexDofs;
using eis_test::stiffness;
using eis_test::Vec3;

constexpr double E = 1234.0, nu = 0.31;

std::array<Vec3, 8> corners(const HexGrid& g, std::size_t cell) {
  std::array<Vec3, 8> p;
  for (int a = 0; a < 8; ++a) p[a] = g.points[g.cells[cell][a]];
  return p;
}

HexahedralFEM hexahedralField(const HexGrid& g, HexahedronMethod method,
                              const std::vector<double>& rest) {
  g.cellList = eis::Cells(eis::CellType::Hexahedron);
  for (const auto& cell : g.cells) g.cellList.push_back(cell);
  return {g.cellList, rest,
          std::vector<eis::LameParameters>(g.cells.size(), eis::lameParameters(E, nu)), method};
}

TEST(HexahedralFEM, CubeStiffnessIsTheTrilinearOneInSinglePrecision) {
  // A cube of side 2: j = 1 and V / 8 = 1, so K's entries are SOFA's single-precision numbers.
  const HexGrid cube(1, 1, 1, {2, 2, 2});
  const HexahedralFEM::Stiffness k =
      HexahedralFEM::stiffness(corners(cube, 0), eis::lameParameters(E, nu));
  auto gauss = cube.field(HexahedronMethod::Small, E, nu);
  force(gauss, cube.rest());
  const std::vector<double> exact = stiffness(gauss, 1);
  const std::vector<double> closed(k.begin(), k.end());
  // -df/dx of the field is K: the same sign as the Gauss element's K.
  EXPECT_LE(largestDifference(closed, exact), 1e-7 * largestMagnitude(exact));
  bool allSingle = true, gaussSingle = true;
  for (std::size_t i = 0; i < closed.size(); ++i) {
    allSingle = allSingle && double(float(closed[i])) == closed[i];
    gaussSingle = gaussSingle && double(float(exact[i])) == exact[i];
  }
  EXPECT_TRUE(allSingle);
  EXPECT_FALSE(gaussSingle);  // the Gauss element's are not: the rounding is SOFA's own
  for (int i = 0; i < kHexDofs; ++i)
    for (int j = 0; j < kHexDofs; ++j) EXPECT_EQ(k[i * kHexDofs + j], k[j * kHexDofs + i]);
}

TEST(HexahedralFEM, OtherBoxesTakeSofasScaleOnTheDiagonalBlocks) {
  // A box 1 x 2 x 3: j = (2, 1, 2/3), V / 8 = 6 / 8. Vertex 0 (signs -1 -1 -1) with itself:
  // I_xx = I_yy = I_zz = (1/8)(4/3)(4/3) = 2/9 and I_xy = I_yx = (1/8)(4/3) = 1/6, so
  //   K(0,0) = j0^2 (U 2/9 + W 4/9) V/8 = (2U + 4W) / 3,
  //   K(1,1) = j1^2 (U 2/9 + W 4/9) V/8 = (2U + 4W) / 12,
  //   K(0,1) = j0 j1 (V' + W) / 6 V/8 = (V' + W) / 4,
  // with U = lambda + 2 mu, V' = lambda, W = mu. (The integral of the true element has
  // j1^2 and j2^2 on W in K(0,0): SOFA's is exact on cubes only.)
  const HexGrid box(1, 1, 1, {1, 2, 3});
  const eis::LameParameters lame = eis::lameParameters(E, nu);
  const double u = lame.lambda + 2 * lame.mu, v = lame.lambda, w = lame.mu;
  const HexahedralFEM::Stiffness k = HexahedralFEM::stiffness(corners(box, 0), lame);
  const double tolerance = 1e-7 * u;
  EXPECT_NEAR(k[0], (2 * u + 4 * w) / 3, tolerance);
  EXPECT_NEAR(k[kHexDofs + 1], (2 * u + 4 * w) / 12, tolerance);
  EXPECT_NEAR(k[1], (v + w) / 4, tolerance);
}

TEST(HexahedralFEM, RigidMotionsGiveNoForce) {
  const HexGrid grid(2, 1, 1, {1, 0.5, 0.7});
  const auto q = eis_test::rotation({1, 2, 3}, 0.6);
  for (HexahedronMethod method : {HexahedronMethod::Large, HexahedronMethod::Polar}) {
    auto field = hexahedralField(grid, method, grid.rest());
    EXPECT_LE(largestMagnitude(force(field, grid.rest())), 1e-9 * E);
    const std::vector<double> moved = grid.rigidlyMoved(q, {0.3, -0.2, 0.1});
    // K0 is rounded to single precision, so it maps a translation to about 1e-7 K0 |x|.
    EXPECT_LE(largestMagnitude(force(field, moved)), 1e-6 * E);
    const std::vector<double> stretched = grid.moved([](const Vec3& p) {
      return Vec3{p[0] * 1.01, p[1], p[2]};
    });
    EXPECT_GT(field.potentialEnergy(stretched.data()), 0);
  }
}

TEST(HexahedralFEM, TangentAtARigidMotionIsTheForcesDerivative) {
  // At a rigidly moved state the frame's own derivative multiplies a zero displacement: the
  // tangent R^T K0 R is then the exact derivative of the force.
  const HexGrid cube(1, 1, 1, {1, 1, 1});
  const std::vector<double> x =
      cube.rigidlyMoved(eis_test::rotation({0, 1, 1}, 0.4), {0.2, 0.1, -0.3});
  for (HexahedronMethod method : {HexahedronMethod::Large, HexahedronMethod::Polar}) {
    auto field = hexahedralField(cube, method, cube.rest());
    const std::vector<double> differenced =
        eis_test::differencedStiffness(field, cube.cells[0], x, 1e-6);
    const std::vector<double> tangent = stiffness(field, 1);
    EXPECT_LE(largestDifference(tangent, differenced), 1e-6 * largestMagnitude(tangent));
    // The matrix-free product is the element matrix's.
    std::vector<double> dx(x.size()), df(x.size(), 0.0), kdx(x.size(), 0.0);
    for (std::size_t i = 0; i < dx.size(); ++i) dx[i] = std::sin(1.0 + i);
    field.addDForce(dx.data(), df.data(), 2.0);
    const auto& cell = cube.cells[0];  // element row 3 a + i is unknown 3 cell[a] + i
    for (int r = 0; r < kHexDofs; ++r)
      for (int c = 0; c < kHexDofs; ++c)
        kdx[3 * cell[r / 3] + r % 3] +=
            -2.0 * tangent[r * kHexDofs + c] * dx[3 * cell[c / 3] + c % 3];
    EXPECT_LE(largestDifference(df, kdx), 1e-12 * largestMagnitude(kdx));
  }
}

TEST(HexahedralFEM, AZeroDiagonalComponentAndSmallAreRefused) {
  HexGrid sheared(1, 1, 1, {1, 1, 1});
  // The cell's vertex 6 (node 7) moved above vertex 0 in x: SOFA divides by 0.
  sheared.points[sheared.cells[0][6]] = {0, 1.2, 1.1};
  EXPECT_THROW(hexahedralField(sheared, HexahedronMethod::Large, sheared.rest()), eis::Error);
  const HexGrid cube(1, 1, 1, {1, 1, 1});
  EXPECT_THROW(hexahedralField(cube, HexahedronMethod::Small, cube.rest()), eis::Error);
}

}  // namespace
