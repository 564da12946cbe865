// SOFA's SparseGridRamificationTopology as a body's mesh, against SOFA master's rules counted by
// hand on surfaces of small boxes: a coarse cell whose children hold pieces of matter not joined
// face to face becomes one hexahedron per piece, each with points of its own, joined to its
// neighbours' only across faces its children share; hexahedron h's corner w starts as point
// 8 h + w, a piece joined to its neighbour at -z, -y or -x takes the neighbour's numbers there,
// and the numbers left are made consecutive in their order. With finestConnectivity and no finer
// level, two boundary cells are joined only where an edge of the surface crosses their face.
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "box_surfaces.hpp"
#include "eis/core/parameters.hpp"
#include "eis/io/sofa_import.hpp"
#include "eis/io/sofa_scene.hpp"
#include "error_of.hpp"

namespace {

namespace fs = std::filesystem;
using eis_test::boxes;
using eis_test::errorOf;
using Point = std::array<double, 3>;
using Hexahedron = std::array<long long, 8>;

struct Grid {
  std::vector<Point> points;
  std::vector<Hexahedron> hexahedra;
  std::vector<double> factors;
  std::string cells;  // a mapped child's mapped.cells
};

std::vector<double> numbers(const std::string& text) {
  std::vector<double> v;
  for (const std::string& t : eis::parse::tokens(text)) v.push_back(std::stod(t));
  return v;
}

// The keys of a body on `grid` (a surface.obj of `obj` beside the scene) with a
// HexahedronFEMForceField, and a child of `child` points mapped onto it.
Grid import(const std::string& obj, const std::string& grid, const std::string& child = "") {
  const fs::path folder = fs::path(testing::TempDir()) / "eis_sparse_grid_ramification";
  fs::create_directories(folder);
  std::ofstream(folder / "surface.obj") << obj;
  eis::SofaImportOptions options;
  options.sceneFolder = folder.string();
  const std::string mapped =
      child.empty() ? ""
                    : "<Node name='c'><MechanicalObject position='" + child +
                          "'/><UniformMass totalMass='1'/><BarycentricMapping/></Node>";
  const std::string text = "<Node><Node name='b'><EulerImplicitSolver/><CGLinearSolver/>" + grid +
                           "<MechanicalObject/><UniformMass totalMass='1'/>"
                           "<HexahedronFEMForceField/>" +
                           mapped + "</Node></Node>";
  const eis::SofaImport imported = eis::importSofaScene(eis::SofaScene(text, "s.scn"), options);
  Grid out;
  for (const auto& object : imported.objects)
    for (const eis::SofaKey& k : object.keys) {
      if (k.key == "mapped.cells") out.cells = k.value;
      const std::vector<double> v = k.key == "mesh.nodes" || k.key == "mesh.hexahedra" ||
                                            k.key == "material.cell-stiffness-factor"
                                        ? numbers(k.value)
                                        : std::vector<double>{};
      if (k.key == "mesh.nodes")
        for (std::size_t i = 0; i < v.size(); i += 3)
          out.points.push_back({v[i], v[i + 1], v[i + 2]});
      if (k.key == "mesh.hexahedra")
        for (std::size_t i = 0; i < v.size(); i += 8) {
          Hexahedron h;
          for (int c = 0; c < 8; ++c) h[std::size_t(c)] = (long long)v[i + std::size_t(c)];
          out.hexahedra.push_back(h);
        }
      if (k.key == "material.cell-stiffness-factor") out.factors = v;
    }
  return out;
}

// The corners of the cube [lo, lo + size], in SOFA's hexahedron order.
std::array<Point, 8> corners(const Point& lo, double size) {
  std::array<Point, 8> c;
  for (int w = 0; w < 8; ++w) {
    const int x = (w == 1 || w == 2 || w == 5 || w == 6),
              y = (w == 2 || w == 3 || w == 6 || w == 7);
    c[std::size_t(w)] = {lo[0] + size * x, lo[1] + size * y, lo[2] + size * (w >= 4)};
  }
  return c;
}

// Two bars in a grid of 2 x 1 x 1 coarse cells of side 2, one finer level (cells of side 1):
// bar A crosses both coarse cells in the row of fine cells y = 0, z = 0; bar B lies in the first
// coarse cell only, in the row y = 1, z = 1, touching bar A's fine cells along an edge at most.
const std::string kTwoBars =
    boxes({{{0.2, 0.2, 0.2}, {3.8, 0.8, 0.8}}, {{0.2, 1.2, 1.2}, {1.8, 1.8, 1.8}}});
const std::string kTwoBarsGrid =
    "<SparseGridRamificationTopology n='3 2 2' min='0 0 0' max='4 2 2' "
    "nbVirtualFinerLevels='1' finestConnectivity='0' fileTopology='surface.obj'/>";

TEST(SofaSparseGridRamification, ACoarseCellOfTwoPiecesBecomesTwoHexahedra) {
  const Grid g = import(kTwoBars, kTwoBarsGrid);
  // The fine cells kept (all on the surface): A's (0..3, 0, 0), then B's (0, 1, 1), (1, 1, 1).
  // Coarse cell 0 holds A's first two and B's two, not joined: pieces A0 (hexahedron 0) and B
  // (hexahedron 1); coarse cell 1 holds A's last two: piece A1 (hexahedron 2), joined to A0
  // across x = 2. Points 0..7 are A0's, 8..15 B's; A1's corners 0, 4, 7, 3 take A0's 1, 5, 6, 2
  // and its own 17, 18, 21, 22 (labels 8 * 2 + 1, 2, 5, 6) become 16..19.
  ASSERT_EQ(g.hexahedra.size(), 3u);
  ASSERT_EQ(g.points.size(), 20u);
  EXPECT_EQ(g.hexahedra[0], (Hexahedron{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(g.hexahedra[1], (Hexahedron{8, 9, 10, 11, 12, 13, 14, 15}));
  EXPECT_EQ(g.hexahedra[2], (Hexahedron{1, 16, 17, 2, 5, 18, 19, 6}));
  const auto first = corners({0, 0, 0}, 2), second = corners({2, 0, 0}, 2);
  for (int h = 0; h < 3; ++h)
    for (int w = 0; w < 8; ++w)
      EXPECT_EQ(g.points[std::size_t(g.hexahedra[std::size_t(h)][std::size_t(w)])],
                (h < 2 ? first : second)[std::size_t(w)])
          << "hexahedron " << h << " corner " << w;
  // Stiffness: the fine cells at a half (boundary, fillWeighted); a piece of a split cell counts,
  // as SOFA counts it, only its last child (A0: the fine cell at place 1; B: place 7), over 8; A1
  // both its children.
  EXPECT_EQ(g.factors, (std::vector<double>{0.0625, 0.0625, 0.125}));
}

TEST(SofaSparseGridRamification, PlainSparseGridKeepsOneHexahedronPerCell) {
  // The same surface and grid as SparseGridTopology: 2 hexahedra sharing 4 of their 12 points.
  std::string grid = kTwoBarsGrid;
  grid.replace(0, 31, "<SparseGridTopology");
  grid.erase(grid.find("finestConnectivity='0' "), 23);
  const Grid g = import(kTwoBars, grid);
  EXPECT_EQ(g.hexahedra.size(), 2u);
  EXPECT_EQ(g.points.size(), 12u);
}

TEST(SofaSparseGridRamification, DiagonalChildrenMakeTwoPiecesWithNoSharedPoint) {
  // One coarse cell, its children (0, 0, 0) and (1, 1, 1) kept, touching at a corner only.
  const Grid g =
      import(boxes({{{0.2, 0.2, 0.2}, {0.8, 0.8, 0.8}}, {{1.2, 1.2, 1.2}, {1.8, 1.8, 1.8}}}),
             "<SparseGridRamificationTopology n='2 2 2' min='0 0 0' max='2 2 2' "
             "nbVirtualFinerLevels='1' finestConnectivity='0' "
             "fileTopology='surface.obj'/>");
  ASSERT_EQ(g.hexahedra.size(), 2u);
  EXPECT_EQ(g.points.size(), 16u);
  EXPECT_EQ(g.hexahedra[1], (Hexahedron{8, 9, 10, 11, 12, 13, 14, 15}));
}

TEST(SofaSparseGridRamification, AMappedPointFollowsThePieceOfItsFineCell) {
  // findCube: the fine cell of the point, the hexahedron its piece became, the coordinates in the
  // coarse regular cell. (1.5, 1.5, 1.5) is in B's fine cell (1, 1, 1): hexahedron 1; (3.5, 0.5,
  // 0.5) in A's (3, 0, 0): hexahedron 2; (0.5, 1.5, 0.5) in no kept fine cell: the nearest
  // boundary cell's centre, (0.5, 0.5, 0.5) (A's first, of the two at distance 1): hexahedron 0.
  const Grid g = import(kTwoBars, kTwoBarsGrid, "1.5 1.5 1.5 3.5 0.5 0.5 0.5 1.5 0.5");
  EXPECT_EQ(numbers(g.cells),
            (std::vector<double>{1, 0.75, 0.75, 0.75, 2, 0.75, 0.25, 0.25, 0, 0.25, 0.75, 0.25}));
}

TEST(SofaSparseGridRamification, FinestConnectivityJoinsBoundaryCellsOnlyWhereTheSurfaceCrosses) {
  const std::string grid =
      "<SparseGridRamificationTopology n='3 2 2' min='0 0 0' max='2 1 1' "
      "fileTopology='surface.obj'/>";
  // One bar through both cells: its edges along x cross the face x = 1. Cell 1's corners 0, 4,
  // 7, 3 take cell 0's 1, 5, 6, 2; its own 9, 10, 13, 14 become 8..11.
  const Grid joined = import(boxes({{{0.2, 0.2, 0.2}, {1.8, 0.8, 0.8}}}), grid);
  ASSERT_EQ(joined.hexahedra.size(), 2u);
  EXPECT_EQ(joined.points.size(), 12u);
  EXPECT_EQ(joined.hexahedra[1], (Hexahedron{1, 8, 9, 2, 5, 10, 11, 6}));
  // A thin box in each cell, far from the face: no edge reaches it; both cells on the surface:
  // not joined, 16 points.
  const std::string apart =
      boxes({{{0.1, 0.2, 0.2}, {0.3, 0.8, 0.8}}, {{1.7, 0.2, 0.2}, {1.9, 0.8, 0.8}}});
  const Grid split = import(apart, grid);
  ASSERT_EQ(split.hexahedra.size(), 2u);
  EXPECT_EQ(split.points.size(), 16u);
  EXPECT_EQ(split.hexahedra[1], (Hexahedron{8, 9, 10, 11, 12, 13, 14, 15}));
  // Boxes nearer the face: SOFA tests an edge from a to b over a distance |b - a| either side of
  // a, so the edge from x = 0.8 back to 0.2 (a quad's third edge) reaches x = 1: joined.
  const Grid near =
      import(boxes({{{0.2, 0.2, 0.2}, {0.8, 0.8, 0.8}}, {{1.2, 0.2, 0.2}, {1.8, 0.8, 0.8}}}), grid);
  EXPECT_EQ(near.points.size(), 12u);
  // Without finestConnectivity: SparseGridTopology's cells and numbering (by position).
  const Grid plain = import(apart,
                            "<SparseGridRamificationTopology n='3 2 2' min='0 0 0' max='2 1 1' "
                            "finestConnectivity='0' fileTopology='surface.obj'/>");
  EXPECT_EQ(plain.points.size(), 12u);
  EXPECT_EQ(plain.hexahedra[0], (Hexahedron{0, 4, 6, 2, 1, 5, 7, 3}));
}

TEST(SofaSparseGridRamification, MalformedInputIsOneClearError) {
  EXPECT_NE(errorOf([&] {
              import(kTwoBars,
                     "<SparseGridRamificationTopology n='3 2 2' min='0 0 0' max='4 2 2' "
                     "finestConnectivity='maybe' fileTopology='surface.obj'/>");
            }).find("finestConnectivity"),
            std::string::npos);
}

}  // namespace

namespace {

// SparseGridMultipleTopology over two cells of side 2: surface 1 a box through both, surface 2 a
// box in the second only; each cell's coefficient assembled as SOFA's assembleRegularGrids does.
Grid importMultiple(const std::string& fields) {
  const fs::path folder = fs::path(testing::TempDir()) / "eis_sparse_grid_multiple";
  fs::create_directories(folder);
  std::ofstream(folder / "one.obj") << boxes({{{0.5, 0.5, 0.5}, {3.5, 1.5, 1.5}}});
  std::ofstream(folder / "two.obj") << boxes({{{2.5, 0.5, 0.5}, {3.5, 1.5, 1.5}}});
  eis::SofaImportOptions options;
  options.sceneFolder = folder.string();
  const std::string text =
      "<Node><Node name='b'><EulerImplicitSolver/><CGLinearSolver/>"
      "<SparseGridMultipleTopology n='3 2 2' min='0 0 0' max='4 2 2' "
      "fileTopologies='one.obj two.obj' " +
      fields +
      "/><MechanicalObject/><UniformMass totalMass='1'/><HexahedronFEMForceField/></Node></Node>";
  const eis::SofaImport imported = eis::importSofaScene(eis::SofaScene(text, "s.scn"), options);
  Grid out;
  for (const eis::SofaKey& k : imported.objects.at(0).keys) {
    if (k.key == "material.cell-stiffness-factor") out.factors = numbers(k.value);
    if (k.key == "mesh.hexahedra") out.hexahedra.resize(numbers(k.value).size() / 8);
    if (k.key == "mesh.nodes") out.points.resize(numbers(k.value).size() / 3);
  }
  return out;
}

TEST(SofaSparseGridMultiple, EachCellTakesTheCoefficientsOfTheSurfacesOnIt) {
  // Both cells on surface 1: (0 + 2) / 2 = 1; the second on surface 2 too: (1 + 8) / 2.
  const Grid blended = importMultiple("finestConnectivity='0' stiffnessCoefs='2 8'");
  EXPECT_EQ(blended.hexahedra.size(), 2u);
  EXPECT_EQ(blended.points.size(), 12u);
  EXPECT_EQ(blended.factors, (std::vector<double>{1, 4.5}));
  // erasePreviousCoef: the last surface's alone.
  EXPECT_EQ(
      importMultiple("finestConnectivity='0' stiffnessCoefs='2 8' erasePreviousCoef='1'").factors,
      (std::vector<double>{2, 8}));
  // Without fillWeighted a cell on a surface counts as inside it: its coefficient, unblended.
  EXPECT_EQ(importMultiple("finestConnectivity='0' stiffnessCoefs='2 3' fillWeighted='0'").factors,
            (std::vector<double>{2, 3}));
  // A coefficient missing is 1: (0 + 2) / 2, then (1 + 1) / 2: all 1, no factor written.
  EXPECT_TRUE(importMultiple("finestConnectivity='0' stiffnessCoefs='2'").factors.empty());
}

TEST(SofaSparseGridMultiple, WhatSofaCannotBuildIsRefused) {
  EXPECT_NE(
      errorOf([] {
        importMultiple("finestConnectivity='0' nbVirtualFinerLevels='1' computeRamifications='0'");
      }).find("computeRamifications"),
      std::string::npos);
  // finestConnectivity (true by default) tests fileTopology's edges, and none is given.
  EXPECT_NE(errorOf([] { importMultiple(""); }).find("finestConnectivity"), std::string::npos);
}

}  // namespace

namespace {

TEST(SofaSparseGridRamification, AnInnerWallIsNoHole) {
  // The box [0, 2] x [0, 1] x [0, 1], its four long sides split at x = 1, and a wall there: the
  // wall's edges border three facets each (as in SOFA's mesh/c.obj), no edge one.
  const std::string walled =
      "v 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 1 0\nv 1 1 0\nv 2 1 0\n"
      "v 0 0 1\nv 1 0 1\nv 2 0 1\nv 0 1 1\nv 1 1 1\nv 2 1 1\n"
      "f 1 4 10 7\nf 3 9 12 6\n"                          // the ends, x = 0 and 2
      "f 1 2 8 7\nf 2 3 9 8\nf 4 10 11 5\nf 5 11 12 6\n"  // y = 0 and 1
      "f 1 4 5 2\nf 2 5 6 3\nf 7 8 11 10\nf 8 9 12 11\n"  // z = 0 and 1
      "f 2 5 11 8\n";                                     // the wall
  const Grid g = import(walled,
                        "<SparseGridRamificationTopology n='3 2 2' min='-0.5 -0.5 -0.5' "
                        "max='2.5 1.5 1.5' finestConnectivity='0' fileTopology='surface.obj'/>");
  EXPECT_EQ(g.hexahedra.size(), 2u);
  // Without an end the surface is open (SOFA voxelises it all the same): both cells still
  // crossed.
  const std::string open =
      walled.substr(0, walled.find("f 1 4 10 7")) + walled.substr(walled.find("f 3 9 12 6"));
  EXPECT_EQ(import(open,
                   "<SparseGridRamificationTopology n='3 2 2' finestConnectivity='0' "
                   "fileTopology='surface.obj'/>")
                .hexahedra.size(),
            2u);
}

}  // namespace
