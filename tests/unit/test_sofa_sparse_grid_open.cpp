// SOFA's sparse grids voxelising an open surface, against SOFA master's rules worked by hand
// (SparseGridTopology::voxelizeTriangleMesh, launchPropagationFromSeed, propagateFrom): the cells
// the facets cross are boundary cells, those the fill from the grid's border reaches through
// cells nothing crosses are outside, the rest inside. The box [0, 1]^3 in a grid of 7 x 7 x 7
// cells of side 0.3 from -0.55: a box face at 0 or 1 crosses the cells 1 or 5 along its normal
// (0.05 clear of their sides), so the closed box crosses the 98 cells of the shell of cells
// 1..5 and encloses the 27 cells 2..4. Its top (z = 1) is cut into m x m quads; leaving some out
// opens the box.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "box_surfaces.hpp"
#include "eis/core/parameters.hpp"
#include "eis/io/sofa_import.hpp"
#include "eis/io/sofa_scene.hpp"

namespace {

namespace fs = std::filesystem;
using Cell = std::array<int, 3>;

const std::string kGrid = "n='8 8 8' min='-0.55 -0.55 -0.55' max='1.55 1.55 1.55' ";

// The box's surface: its sides and bottom one quad each, its top m x m quads but those `left`
// says to leave out (by column i along x and row j along y).
std::string openBox(int m, const std::function<bool(int, int)>& left) {
  std::string obj =
      "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
      "f 1 4 3 2\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n";
  for (int j = 0; j <= m; ++j)
    for (int i = 0; i <= m; ++i)
      obj +=
          "v " + eis::parse::text(double(i) / m) + " " + eis::parse::text(double(j) / m) + " 1\n";
  const auto top = [m](int i, int j) { return std::to_string(9 + i + (m + 1) * j); };
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < m; ++i)
      if (!left(i, j))
        obj += "f " + top(i, j) + " " + top(i + 1, j) + " " + top(i + 1, j + 1) + " " +
               top(i, j + 1) + "\n";
  return obj;
}

struct Keys {
  std::vector<std::array<double, 3>> points;
  std::vector<std::array<long long, 8>> hexahedra;
  std::vector<double> factors;
};

// The mesh and stiffness factors of a body on `grid`, the files `files` (name, OBJ text) beside
// the scene.
Keys import(const std::map<std::string, std::string>& files, const std::string& grid) {
  const fs::path folder = fs::path(testing::TempDir()) / "eis_sparse_grid_open";
  fs::create_directories(folder);
  for (const auto& [name, text] : files) std::ofstream(folder / name) << text;
  eis::SofaImportOptions options;
  options.sceneFolder = folder.string();
  const std::string text = "<Node><Node name='b'><EulerImplicitSolver/><CGLinearSolver/>" + grid +
                           "<MechanicalObject/><UniformMass totalMass='1'/>"
                           "<HexahedronFEMForceField/></Node></Node>";
  const eis::SofaImport imported = eis::importSofaScene(eis::SofaScene(text, "s.scn"), options);
  Keys out;
  for (const eis::SofaKey& k : imported.objects.at(0).keys) {
    if (k.key != "mesh.nodes" && k.key != "mesh.hexahedra" &&
        k.key != "material.cell-stiffness-factor")
      continue;
    std::vector<double> v;
    for (const std::string& t : eis::parse::tokens(k.value)) v.push_back(std::stod(t));
    if (k.key == "mesh.nodes")
      for (std::size_t i = 0; i < v.size(); i += 3)
        out.points.push_back({v[i], v[i + 1], v[i + 2]});
    if (k.key == "mesh.hexahedra")
      for (std::size_t i = 0; i < v.size(); i += 8) {
        std::array<long long, 8> h;
        for (int c = 0; c < 8; ++c) h[c] = (long long)v[i + c];
        out.hexahedra.push_back(h);
      }
    if (k.key == "material.cell-stiffness-factor") out.factors = v;
  }
  return out;
}

// The closed box's cells: the shell of cells 1..5 and the 27 it encloses.
bool onShell(const Cell& c) {
  bool within = true, side = false;
  for (int v : c) within = within && v >= 1 && v <= 5, side = side || v == 1 || v == 5;
  return within && side;
}
bool enclosed(const Cell& c) {
  return std::all_of(c.begin(), c.end(), [](int v) { return v >= 2 && v <= 4; });
}

// SOFA's grid of the cells `boundary` then `inside` (each x fastest): corners (x, y, z), (x+1, y,
// z), (x+1, y+1, z), (x, y+1, z), then the same at z + 1, points numbered by position.
void expectGrid(const Keys& got, const std::vector<Cell>& boundary,
                const std::vector<Cell>& inside) {
  std::vector<Cell> cells = boundary;
  cells.insert(cells.end(), inside.begin(), inside.end());
  const int dx[8] = {0, 1, 1, 0, 0, 1, 1, 0}, dy[8] = {0, 0, 1, 1, 0, 0, 1, 1};
  std::map<Cell, long long> number;
  for (const Cell& c : cells)
    for (int k = 0; k < 8; ++k) number[{c[0] + dx[k], c[1] + dy[k], c[2] + k / 4}] = 0;
  long long next = 0;
  for (auto& [corner, n] : number) n = next++;
  ASSERT_EQ(got.hexahedra.size(), cells.size());
  ASSERT_EQ(got.points.size(), number.size());
  for (const auto& [corner, n] : number)
    for (int a = 0; a < 3; ++a)
      EXPECT_NEAR(got.points[std::size_t(n)][a], -0.55 + 0.3 * corner[a], 1e-12);
  for (std::size_t h = 0; h < cells.size(); ++h)
    for (int k = 0; k < 8; ++k)
      EXPECT_EQ(got.hexahedra[h][k],
                number.at({cells[h][0] + dx[k], cells[h][1] + dy[k], cells[h][2] + k / 4}))
          << "hexahedron " << h << " corner " << k;
}

// The cells of the 7 x 7 x 7 grid in its order (x fastest) that `keep` keeps.
std::vector<Cell> cellsWhere(const std::function<bool(const Cell&)>& keep) {
  std::vector<Cell> out;
  for (int z = 0; z < 7; ++z)
    for (int y = 0; y < 7; ++y)
      for (int x = 0; x < 7; ++x)
        if (keep({x, y, z})) out.push_back({x, y, z});
  return out;
}

TEST(SofaSparseGridOpen, TheFillRunsInThroughAHoleAndKeepsTheCrossedCells) {
  const std::string grid = "<SparseGridTopology " + kGrid + "fileTopology='box.obj'/>";
  // Closed (3 x 3 top quads, none left out): the shell crossed, the 27 cells within it inside.
  expectGrid(import({{"box.obj", openBox(3, [](int, int) { return false; })}}, grid),
             cellsWhere(onShell), cellsWhere(enclosed));
  // No top: the top's 9 cells (2..4, 2..4, 5) are crossed by nothing (the sides lie in cells 1
  // and 5 along x and y); the fill from the grid's top layer runs through them and the 27 below:
  // 89 crossed cells, none inside, each at half stiffness.
  const auto topMiddle = [](const Cell& c) { return c[2] == 5 && enclosed({c[0], c[1], 3}); };
  const Keys open = import({{"box.obj", openBox(1, [](int, int) { return true; })}}, grid);
  expectGrid(open, cellsWhere([&](const Cell& c) { return onShell(c) && !topMiddle(c); }), {});
  EXPECT_EQ(open.factors, std::vector<double>(89, 0.5));
  // The top's middle third left out: cell (3, 3, 5) = [0.35, 0.65]^2 x [0.95, 1.25] is crossed
  // by none of the 8 quads left (they reach 1/3 and 2/3): the fill runs in through it alone.
  const Cell gap{3, 3, 5};
  expectGrid(import({{"box.obj", openBox(3, [](int i, int j) { return i == 1 && j == 1; })}}, grid),
             cellsWhere([&](const Cell& c) { return onShell(c) && c != gap; }), {});
  // The top's middle fifth left out: the quads beside it reach 0.4 and 0.6, into cell (3, 3, 5),
  // which they cross: nothing leaks, the grid is the closed box's.
  expectGrid(import({{"box.obj", openBox(5, [](int i, int j) { return i == 2 && j == 2; })}}, grid),
             cellsWhere(onShell), cellsWhere(enclosed));
}

TEST(SofaSparseGridOpen, AFileOfVerticesAloneKeepsTheCellsHoldingThem) {
  // The box's 8 corners and no facet: each corner's cell crossed, nothing enclosed.
  const std::string box = eis_test::boxes({{{0, 0, 0}, {1, 1, 1}}});
  const std::string corners = box.substr(0, box.find("f "));
  expectGrid(import({{"corners.obj", corners}},
                    "<SparseGridTopology " + kGrid + "fileTopology='corners.obj'/>"),
             cellsWhere([](const Cell& c) {
               return std::all_of(c.begin(), c.end(), [](int v) { return v == 1 || v == 5; });
             }),
             {});
}

TEST(SofaSparseGridOpen, AMultipleGridAssemblesAnOpenSurfaceAsSofaVoxelisesIt) {
  // Surface 1 the closed box (stiffness 2), surface 2 the box without its top (8): the shell
  // cells are on 1: (0 + 2) / 2 = 1, and all but the top's middle 9 on 2 too: (1 + 8) / 2 = 4.5;
  // the 27 within are inside 1 (2) and outside 2, which the fill reaches through its open top.
  const std::string closed = eis_test::boxes({{{0, 0, 0}, {1, 1, 1}}});
  const std::string open = openBox(1, [](int, int) { return true; });
  const Keys got = import({{"closed.obj", closed}, {"open.obj", open}},
                          "<SparseGridMultipleTopology " + kGrid +
                              "fileTopologies='closed.obj open.obj' stiffnessCoefs='2 8' "
                              "finestConnectivity='0'/>");
  const std::vector<Cell> shell = cellsWhere(onShell);
  expectGrid(got, shell, cellsWhere(enclosed));
  std::vector<double> factors;
  for (const Cell& c : shell) factors.push_back(c[2] == 5 && enclosed({c[0], c[1], 3}) ? 1 : 4.5);
  factors.resize(factors.size() + 27, 2.0);
  EXPECT_EQ(got.factors, factors);
}

TEST(SofaSparseGridOpen, ARamifiedGridVoxelisesAnOpenSurfaceAlike) {
  // SparseGridRamificationTopology's finest level is SparseGridTopology's voxelisation; without
  // finestConnectivity its cells and numbering are the plain grid's.
  const Keys got = import({{"box.obj", openBox(3, [](int i, int j) { return i == 1 && j == 1; })}},
                          "<SparseGridRamificationTopology " + kGrid +
                              "finestConnectivity='0' fileTopology='box.obj'/>");
  const Cell gap{3, 3, 5};
  expectGrid(got, cellsWhere([&](const Cell& c) { return onShell(c) && c != gap; }), {});
}

}  // namespace
