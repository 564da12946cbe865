// SOFA's BarycentricMapperRegularGridTopology as the importer gives it (io/sofa_mapped_child.cpp):
// each child point's cube by the grid's index and its trilinear coordinates there, against values
// worked out by hand.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "eis/io/sofa_import.hpp"
#include "eis/io/sofa_scene.hpp"
#include "error_of.hpp"

namespace {

// mapped.cells of a body on a 3 x 3 x 2 point grid from (1, -1, 0), steps 0.5, 2 and 4 (cubes
// i + 2 (j + 2 k)), under a HexahedronFEMForceField, with a child at `points`.
std::string cellsOf(const std::string& points, const std::string& fem = "HexahedronFEMForceField") {
  const std::string text =
      "<Node name='root'><Node name='body'><EulerImplicitSolver/>"
      "<RegularGridTopology name='grid' n='3 3 2' min='1 -1 0' max='2 3 4'/>"
      "<MechanicalObject/><UniformMass totalMass='1'/><" +
      fem + "/><Node name='child'><MechanicalObject position='" + points +
      "'/><UniformMass totalMass='1'/><BarycentricMapping/></Node></Node></Node>";
  const eis::SofaImport imported = eis::importSofaScene(eis::SofaScene(text, "t.scn"), {});
  for (const eis::SofaKey& k : imported.objects.at(0).keys)
    if (k.key == "mapped.cells") return k.value;
  return "(absent)";
}

// "C FX FY FZ ..." as numbers.
std::vector<double> numbers(const std::string& text) {
  std::istringstream in(text);
  std::vector<double> out;
  for (double x; in >> x;) out.push_back(x);
  return out;
}

void expectCells(const std::string& points, const std::vector<double>& expected) {
  const std::vector<double> got = numbers(cellsOf(points));
  ASSERT_EQ(got.size(), expected.size()) << cellsOf(points);
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected[i], 1e-15) << i;
}

TEST(SofaGridMapper, CubeByTheGridIndexAndTrilinearCoordinates) {
  // (1.2, 2, 1): x = 0.2 / 0.5 = 0.4 -> i 0; y = 3 / 2 = 1.5 -> j 1; z = 1 / 4 = 0.25 -> k 0.
  expectCells("1.2 2 1", {2, 0.4, 0.5, 0.25});
  // (1.75, -1, 4): x = 1.5 -> i 1, fx 0.5; y = 0 -> j 0; z = 1, past the last cube: clamped to
  // k 0, fz 1 (findNearestCube).
  expectCells("1.75 -1 4", {1, 0.5, 0, 1});
  // A point on the face between cubes takes the upper one (floor): x = 1 -> i 1, fx 0.
  expectCells("1.5 0 2", {1, 0, 0.5, 0.5});
  // Outside: x = -1 -> i 0, fx -1; y = 2.5 -> j 1, fy 1.5 (extrapolated, as SOFA does).
  expectCells("0.5 4 3", {2, -1, 1.5, 0.75});
  // Two points, one a line each.
  expectCells("1.2 2 1  1.5 0 2", {2, 0.4, 0.5, 0.25, 1, 0, 0.5, 0.5});
}

// mapped.cells of a body on the sparse grid of the unit cube's surface, n = 3 3 3: SOFA widens
// the box by 1%, so the regular grid runs from -0.01 by 0.51; every cell is kept (on the surface),
// numbered i + 2 (j + 2 k) as the regular grid's.
std::string sparseCellsOf(const std::string& points) {
  const std::string text =
      "<Node name='root'><Node name='body'><EulerImplicitSolver/>"
      "<SparseGridTopology n='3 3 3' position='0 0 0 1 0 0 1 1 0 0 1 0 0 0 1 1 0 1 1 1 1 0 1 1' "
      "triangles='0 2 1 0 3 2 4 5 6 4 6 7 0 1 5 0 5 4 3 7 6 3 6 2 0 4 7 0 7 3 1 2 6 1 6 5'/>"
      "<MechanicalObject/><UniformMass totalMass='1'/><HexahedronFEMForceField/>"
      "<Node name='child'><MechanicalObject position='" +
      points + "'/><UniformMass totalMass='1'/><BarycentricMapping/></Node></Node></Node>";
  const eis::SofaImport imported = eis::importSofaScene(eis::SofaScene(text, "t.scn"), {});
  for (const eis::SofaKey& k : imported.objects.at(0).keys)
    if (k.key == "mapped.cells") return k.value;
  return "(absent)";
}

void expectSparseCells(const std::string& points, const std::vector<double>& expected) {
  const std::vector<double> got = numbers(sparseCellsOf(points));
  ASSERT_EQ(got.size(), expected.size()) << sparseCellsOf(points);
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected[i], 1e-14) << i;
}

TEST(SofaGridMapper, SparseGridCubeByIndexElseNearestBoundaryCube) {
  const double h = 0.51;
  // Inside: (0.3, 0.3, 0.3) is 0.31 / 0.51 from the first corner along each axis, cube 0.
  expectSparseCells("0.3 0.3 0.3", {0, 0.31 / h, 0.31 / h, 0.31 / h});
  // Inside: (0.9, 0.8, 0.1): x 0.91 / 0.51 -> i 1, y 0.81 / 0.51 -> j 1, z 0.11 / 0.51 -> k 0.
  expectSparseCells("0.9 0.8 0.1", {3, 0.91 / h - 1, 0.81 / h - 1, 0.11 / h});
  // Outside: the cube of the nearest centre (centres at 0.245 and 0.755 along each axis):
  // (1, 0, 1), cube 5, its first corner (0.5, -0.01, 0.5); the coordinates (p - corner) / 0.51.
  expectSparseCells("2 0.4 0.7", {5, 1.5 / h, 0.41 / h, 0.2 / h});
}

TEST(SofaGridMapper, SparseGridNearestCubeIsABoundaryOneWithFinerLevels) {
  // n = 4 4 4 with one finer level: the cube's surface voxelised on 7 x 7 x 7 points (cells of
  // 0.17 from -0.01), coarsened to 3 x 3 x 3 cells of 0.34 numbered i 9 + j 3 + k; the middle one
  // (13) inside, the other 26 on the surface. (3, 3, 3) lies outside: the nearest boundary centre
  // is the last cell's, (0.84, 0.84, 0.84), whose first corner is 0.67.
  const std::string text =
      "<Node name='root'><Node name='body'><EulerImplicitSolver/>"
      "<SparseGridTopology n='4 4 4' nbVirtualFinerLevels='1' "
      "position='0 0 0 1 0 0 1 1 0 0 1 0 0 0 1 1 0 1 1 1 1 0 1 1' "
      "triangles='0 2 1 0 3 2 4 5 6 4 6 7 0 1 5 0 5 4 3 7 6 3 6 2 0 4 7 0 7 3 1 2 6 1 6 5'/>"
      "<MechanicalObject/><UniformMass totalMass='1'/><HexahedronFEMForceField/>"
      "<Node name='child'><MechanicalObject position='3 3 3'/><UniformMass totalMass='1'/>"
      "<BarycentricMapping/></Node></Node></Node>";
  const eis::SofaImport imported = eis::importSofaScene(eis::SofaScene(text, "t.scn"), {});
  std::vector<double> got;
  for (const eis::SofaKey& k : imported.objects.at(0).keys)
    if (k.key == "mapped.cells") got = numbers(k.value);
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0], 26);
  for (int a = 1; a < 4; ++a) EXPECT_NEAR(got[std::size_t(a)], (3 - 0.67) / 0.34, 1e-12);
}

TEST(SofaGridMapper, NeedsTheGridsHexahedra) {
  // A TetrahedronFEMForceField cuts the grid into tetrahedra: a cube's corners are not one cell.
  EXPECT_NE(eis_test::errorOf([] {
              cellsOf("1.2 2 1", "TetrahedronFEMForceField");
            }).find("whose hexahedra are the body's"),
            std::string::npos);
}

}  // namespace
