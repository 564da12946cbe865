// SOFA's SparseGridMultipleTopology with virtual finer levels, against its rules worked by hand:
// the finest cells take the stiffnessCoefs and massCoefs of the surfaces on them (a cell on a
// surface the mean of that surface's and the one before, 0 at first), each coarser cell the sum
// of its children's over 8 (SparseGridRamificationTopology::buildFromFiner), both coefficients
// alike; HexahedronFEMForceFieldAndMass weighs each cell's mass by the grid's mass coefficient,
// and HexahedronCompositeFEMForceFieldAndMass condenses the finer cells' stiffness coefficients
// (SOFA reads them for the finer masses too), which are listed in SOFA's child order.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
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

// The keys of a body on the SparseGridMultipleTopology `grid` of the surfaces one.obj (`one`)
// and two.obj (`two`) with the force field `field`: its coefficient lists ("...factor").
std::map<std::string, std::vector<double>> keysOf(const std::string& one, const std::string& two,
                                                  const std::string& grid,
                                                  const std::string& field) {
  const fs::path folder = fs::path(testing::TempDir()) / "eis_sparse_grid_multiple_levels";
  fs::create_directories(folder);
  std::ofstream(folder / "one.obj") << one;
  std::ofstream(folder / "two.obj") << two;
  eis::SofaImportOptions options;
  options.sceneFolder = folder.string();
  const std::string text =
      "<Node><Node name='b'><EulerImplicitSolver/><CGLinearSolver/>"
      "<SparseGridMultipleTopology fileTopologies='one.obj two.obj' finestConnectivity='0' " +
      grid + "/><MechanicalObject/>" + field + "</Node></Node>";
  const eis::SofaImport imported = eis::importSofaScene(eis::SofaScene(text, "s.scn"), options);
  std::map<std::string, std::vector<double>> out;
  for (const eis::SofaKey& k : imported.objects.at(0).keys)
    if (k.key.find("factor") != std::string::npos) {
      std::vector<double>& v = out[k.key];
      for (const std::string& t : eis::parse::tokens(k.value)) v.push_back(std::stod(t));
    }
  return out;
}

// A cube of 4 x 4 x 4 finest cells of side 1 over [0, 4]^3: surface one the box [0.5, 3.5]^3,
// crossing the 56 outer cells and enclosing the 8 inner ones; surface two a small box inside
// the inner cell (1, 1, 1). With stiffnessCoefs 2 8 and massCoefs 4 6: outer cells (0 + 2) / 2 =
// 1 and (0 + 4) / 2 = 2, inner ones 2 and 4, cell (1, 1, 1) (inside one, on two) (2 + 8) / 2 =
// 5 and (4 + 6) / 2 = 5.
const std::string kOuter = boxes({{{0.5, 0.5, 0.5}, {3.5, 3.5, 3.5}}});
const std::string kInner = boxes({{{1.2, 1.2, 1.2}, {1.8, 1.8, 1.8}}});
const std::string kCoefficients = "stiffnessCoefs='2 8' massCoefs='4 6' min='0 0 0' max='4 4 4' ";

double finestStiffness(int x, int y, int z) {
  if (x == 1 && y == 1 && z == 1) return 5;
  const bool inner = x >= 1 && x <= 2 && y >= 1 && y <= 2 && z >= 1 && z <= 2;
  return inner ? 2 : 1;
}

TEST(SofaSparseGridMultipleLevels, EachCellTakesTheMeanOfItsFinerCellsCoefficients) {
  // One level: the 8 cells of side 2 (numbered x slowest), each 7 outer children and an inner
  // one: (7 + 2) / 8 = 1.125 and (14 + 4) / 8 = 2.25; the first holds cell (1, 1, 1):
  // (7 + 5) / 8 = 1.5 and (14 + 5) / 8 = 2.375.
  const auto one = keysOf(kOuter, kInner, kCoefficients + "n='3 3 3' nbVirtualFinerLevels='1'",
                          "<HexahedronFEMForceFieldAndMass/>");
  const std::vector<double> middle{1.5, 1.125, 1.125, 1.125, 1.125, 1.125, 1.125, 1.125};
  EXPECT_EQ(one.at("material.cell-stiffness-factor"), middle);
  EXPECT_EQ(one.at("mass.cell-factor"),
            (std::vector<double>{2.375, 2.25, 2.25, 2.25, 2.25, 2.25, 2.25, 2.25}));
  // Two levels: the one cell, (1.5 + 7 1.125) / 8 and (2.375 + 7 2.25) / 8.
  const auto two = keysOf(kOuter, kInner, kCoefficients + "n='2 2 2' nbVirtualFinerLevels='2'",
                          "<HexahedronFEMForceFieldAndMass/>");
  EXPECT_EQ(two.at("material.cell-stiffness-factor"), (std::vector<double>{1.171875}));
  EXPECT_EQ(two.at("mass.cell-factor"), (std::vector<double>{2.265625}));
  // massCoefs missing are 1: outer cells 0.5, inner ones (cell (1, 1, 1) too) 1; the cells of
  // side 2 (3.5 + 1) / 8.
  const auto unit = keysOf(kOuter, kInner,
                           "stiffnessCoefs='2 8' min='0 0 0' max='4 4 4' n='3 3 3' "
                           "nbVirtualFinerLevels='1'",
                           "<HexahedronFEMForceFieldAndMass/>");
  EXPECT_EQ(unit.at("mass.cell-factor"), std::vector<double>(8, 0.5625));
}

TEST(SofaSparseGridMultipleLevels, TheCompositeFieldCondensesTheFinerCellsInChildOrder) {
  // The 64 finest cells under the one cell: its child w (bit 0: x, bit 1: y, bit 2: z), then
  // that child's child v.
  std::vector<double> finest;
  for (int w = 0; w < 8; ++w)
    for (int v = 0; v < 8; ++v)
      finest.push_back(finestStiffness(2 * (w & 1) + (v & 1), 2 * (w >> 1 & 1) + (v >> 1 & 1),
                                       2 * (w >> 2 & 1) + (v >> 2 & 1)));
  const std::string field =
      "<HexahedronCompositeFEMForceFieldAndMass nbVirtualFinerLevels='2' youngModulus='100'/>";
  const auto k =
      keysOf(kOuter, kInner, kCoefficients + "n='2 2 2' nbVirtualFinerLevels='2'", field);
  EXPECT_EQ(k.at("material.cell-finer-stiffness-factor"), finest);
  EXPECT_EQ(k.at("mass.cell-finer-factor"), finest);
  EXPECT_EQ(k.at("mass.cell-factor"), (std::vector<double>{2.265625}));
  EXPECT_EQ(k.count("material.cell-stiffness-factor"), 0u);
  // One level of the field's on the grid's two: the level between, the grid's finest unread.
  std::string oneLevel = field;
  oneLevel.replace(oneLevel.find("'2'"), 3, "'1'");
  EXPECT_EQ(keysOf(kOuter, kInner, kCoefficients + "n='2 2 2' nbVirtualFinerLevels='2'", oneLevel)
                .at("material.cell-finer-stiffness-factor"),
            (std::vector<double>{1.5, 1.125, 1.125, 1.125, 1.125, 1.125, 1.125, 1.125}));
}

TEST(SofaSparseGridMultipleLevels, RamificationsTheCompositeFieldCannotCondenseAreRefused) {
  // Finest cells (1, 1, 0) and (1, 0, 1), touching along an edge in the first child of the one
  // cell, are two pieces of it, joined through (2, 1, 0), (2, 0, 0) and (2, 0, 1) of the
  // second: one place holds two pieces.
  std::vector<std::pair<std::array<double, 3>, std::array<double, 3>>> cells;
  for (const auto& c : {std::array<double, 3>{1, 1, 0}, {1, 0, 1}, {2, 1, 0}, {2, 0, 0}, {2, 0, 1}})
    cells.push_back({{c[0] + 0.2, c[1] + 0.2, c[2] + 0.2}, {c[0] + 0.8, c[1] + 0.8, c[2] + 0.8}});
  const std::string grid = "min='0 0 0' max='4 4 4' n='2 2 2' nbVirtualFinerLevels='2' ";
  const std::string field = "<HexahedronCompositeFEMForceFieldAndMass nbVirtualFinerLevels='2'/>";
  const std::string error = errorOf([&] { keysOf(boxes(cells), boxes(cells), grid, field); });
  EXPECT_NE(error.find("nbVirtualFinerLevels"), std::string::npos) << error;
  EXPECT_NE(error.find("ramified homogenisation of split cells is not supported"),
            std::string::npos)
      << error;
  // Full blocks of 2 x 2 x 2 finest cells in the one cell's children 0, 4, 6, 7 and 3 (a ring
  // joined face to face): children 0 and 3 meet along an edge whose lower end no joined face
  // shares, two points at one position.
  std::vector<std::pair<std::array<double, 3>, std::array<double, 3>>> blocks;
  for (int w : {0, 4, 6, 7, 3}) {
    const double x = 2 * (w & 1), y = 2 * (w >> 1 & 1), z = 2 * (w >> 2 & 1);
    blocks.push_back({{x + 0.2, y + 0.2, z + 0.2}, {x + 1.8, y + 1.8, z + 1.8}});
  }
  const std::string apart = errorOf([&] { keysOf(boxes(blocks), boxes(blocks), grid, field); });
  EXPECT_NE(apart.find("has two points at one place"), std::string::npos) << apart;
  // Without useRamification SOFA reads another hierarchy: refused.
  std::string plain = field;
  plain.insert(plain.find("/>"), " useRamification='0'");
  EXPECT_NE(errorOf([&] { keysOf(kOuter, kInner, grid, plain); }).find("useRamification"),
            std::string::npos);
  // NonUniformHexahedronFEMForceFieldAndMass's levels on a ramified grid: refused.
  EXPECT_NE(errorOf([&] {
              keysOf(kOuter, kInner, grid,
                     "<NonUniformHexahedronFEMForceFieldAndMass nbVirtualFinerLevels='2'/>");
            }).find("on a SparseGridMultipleTopology: not supported"),
            std::string::npos);
}

}  // namespace
