// SOFA's SparseGridTopology as a body's mesh, against SOFA master's rules counted by hand: the
// cells the surface crosses (boundary) and those it encloses (inside) kept, boundary first, each
// in the regular grid's order (x fastest); the points those cells use numbered in the order of
// their positions (x, then y, then z: SOFA's std::map of Vec3); the box the surface's, 1% wider,
// when min and max are not given; boundary cells at half stiffness (fillWeighted).
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "eis/core/error.hpp"
#include "eis/core/parameters.hpp"
#include "eis/io/sofa_import.hpp"
#include "eis/io/sofa_scene.hpp"
#include "error_of.hpp"

namespace {

namespace fs = std::filesystem;
using eis_test::errorOf;

struct SparseKeys {
  std::vector<std::array<double, 3>> points;
  std::vector<std::array<long long, 8>> hexahedra;
  std::vector<std::array<long long, 4>> tetrahedra;
  std::vector<double> factors;
  std::vector<double> massFactors;             // mass.cell-factor
  std::map<std::string, std::string> springs;  // the springs.* keys
  std::vector<std::string> transforms;         // the mesh.transform keys, in order
};

std::vector<double> numbers(const std::string& text) {
  std::vector<double> v;
  for (const std::string& t : eis::parse::tokens(text)) v.push_back(std::stod(t));
  return v;
}

// A folder of its own holding the surface `obj` (as surface.obj, and as surface.stl, which SOFA's
// SparseGridTopology cannot read), for the scenes to name.
std::string folderWith(const std::string& obj) {
  const fs::path folder = fs::path(testing::TempDir()) / "eis_sparse_grid";
  fs::create_directories(folder);
  std::ofstream(folder / "surface.obj") << obj;
  std::ofstream(folder / "surface.stl") << obj;
  return folder.string();
}

// The keys of a body whose node holds `grid` and a HexahedronFEMForceField (or `fields`).
SparseKeys importSparse(const std::string& obj, const std::string& grid,
                        const std::string& fields = "<HexahedronFEMForceField/>",
                        const std::string& state = "<MechanicalObject/>") {
  eis::SofaImportOptions options;
  options.sceneFolder = folderWith(obj);
  const std::string text = "<Node><Node name='b'><EulerImplicitSolver/><CGLinearSolver/>" + grid +
                           state + "<UniformMass totalMass='1'/>" + fields + "</Node></Node>";
  const eis::SofaImport imported = eis::importSofaScene(eis::SofaScene(text, "s.scn"), options);
  SparseKeys out;
  for (const eis::SofaKey& k : imported.objects.at(0).keys) {
    if (k.key.rfind("springs.", 0) == 0) out.springs[k.key] = k.value;
    if (k.key == "mesh.transform") out.transforms.push_back(k.value);
    if (k.key != "mesh.nodes" && k.key != "mesh.hexahedra" && k.key != "mesh.tetrahedra" &&
        k.key != "material.cell-stiffness-factor" && k.key != "mass.cell-factor")
      continue;
    const std::vector<double> v = numbers(k.value);
    if (k.key == "mesh.nodes")
      for (std::size_t i = 0; i < v.size(); i += 3)
        out.points.push_back({v[i], v[i + 1], v[i + 2]});
    if (k.key == "mesh.hexahedra")
      for (std::size_t i = 0; i < v.size(); i += 8) {
        std::array<long long, 8> h;
        for (int c = 0; c < 8; ++c) h[c] = (long long)v[i + c];
        out.hexahedra.push_back(h);
      }
    if (k.key == "mesh.tetrahedra")
      for (std::size_t i = 0; i < v.size(); i += 4)
        out.tetrahedra.push_back(
            {(long long)v[i], (long long)v[i + 1], (long long)v[i + 2], (long long)v[i + 3]});
    if (k.key == "material.cell-stiffness-factor") out.factors = v;
    if (k.key == "mass.cell-factor") out.massFactors = v;
  }
  return out;
}

// The unit cube [0, 1]^3: its eight corners and six square faces (quads, as OBJ polygons).
const std::string kCube =
    "# unit cube\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
    "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n";

// An L-shaped prism: [0,2]x[0,1] and [0,1]x[0,2] in x and y, z in [0,1]. Its top and bottom are
// hexagons listed from the reflex corner (1,1), so that their fans stay inside the L.
const std::string kL =
    "v 1 1 0\nv 1 2 0\nv 0 2 0\nv 0 0 0\nv 2 0 0\nv 2 1 0\n"
    "v 1 1 1\nv 1 2 1\nv 0 2 1\nv 0 0 1\nv 2 0 1\nv 2 1 1\n"
    "f 1 2 3 4 5 6\nf 7 8 9 10 11 12\n"
    "f 1 2 8 7/7/7\nf 2 3 9 8\nf 3 4 10 9\nf 4 5 11 10\nf 5 6 12 11\nf 6 1 7 12\n";

TEST(SofaSparseGrid, ACubeKeepsEveryCellAndNumbersPointsByPosition) {
  // n 3 3 3 over the cube's box widened by 1%: each of the 8 cells holds a corner of the cube.
  const SparseKeys k =
      importSparse(kCube, "<SparseGridTopology n='3 3 3' fileTopology='surface.obj'/>");
  ASSERT_EQ(k.points.size(), 27u);
  ASSERT_EQ(k.hexahedra.size(), 8u);
  // Point (i, j, k) of the grid is 9 i + 3 j + k: z varies fastest, unlike a regular grid.
  const double lo = 0 - 1.0 / 100.0, hi = 1 + 1.0 / 100.0, step = (hi - lo) / 2;
  EXPECT_EQ(k.points[1], (std::array<double, 3>{lo, lo, lo + step}));
  EXPECT_EQ(k.points[3], (std::array<double, 3>{lo, lo + step, lo}));
  EXPECT_EQ(k.points[9], (std::array<double, 3>{lo + step, lo, lo}));
  EXPECT_EQ(k.hexahedra[0], (std::array<long long, 8>{0, 9, 12, 3, 1, 10, 13, 4}));
  EXPECT_EQ(k.hexahedra[7], (std::array<long long, 8>{13, 22, 25, 16, 14, 23, 26, 17}));
  EXPECT_EQ(k.factors, std::vector<double>(8, 0.5));  // all on the surface
}

TEST(SofaSparseGrid, AFinerCubeHasAnInsideCore) {
  // 4 x 4 x 4 cells: the surface crosses the outer shell of 56, the core of 8 is inside.
  const SparseKeys k =
      importSparse(kCube, "<SparseGridTopology n='5 5 5' fileTopology='surface.obj'/>");
  ASSERT_EQ(k.hexahedra.size(), 64u);
  EXPECT_EQ(k.points.size(), 125u);
  std::vector<double> factors(56, 0.5);
  factors.resize(64, 1.0);
  EXPECT_EQ(k.factors, factors);
  // The first inside cell is cell (1, 1, 1); its first corner, point (1, 1, 1), is 25 + 5 + 1.
  EXPECT_EQ(k.hexahedra[56], (std::array<long long, 8>{31, 56, 61, 36, 32, 57, 62, 37}));
  // Only the core: its 27 points, numbered among themselves.
  const SparseKeys core = importSparse(
      kCube, "<SparseGridTopology n='5 5 5' onlyInsideCells='1' fileTopology='surface.obj'/>");
  EXPECT_EQ(core.hexahedra.size(), 8u);
  EXPECT_EQ(core.points.size(), 27u);
  EXPECT_EQ(core.hexahedra[0], (std::array<long long, 8>{0, 9, 12, 3, 1, 10, 13, 4}));
  EXPECT_TRUE(core.factors.empty());  // no boundary cell: every factor is 1
  // fillWeighted off: the same cells, all at full stiffness.
  EXPECT_TRUE(importSparse(kCube,
                           "<SparseGridTopology n='5 5 5' fillWeighted='false' "
                           "fileTopology='surface.obj'/>")
                  .factors.empty());
}

TEST(SofaSparseGrid, AnLShapeLeavesItsNotchOutside) {
  // Cells of 0.25 centred on the L's faces: 9 x 9 x 5 cells, of which the notch (x and y cells
  // 5..8) is outside: 405 - 80 = 325 kept. Boundary: the bottom and top layers (65 cells each)
  // and the outline of the three layers between (32 each): 226; inside: 3 x 33 = 99.
  const SparseKeys k = importSparse(kL,
                                    "<SparseGridTopology n='10 10 6' min='-0.125 -0.125 -0.125' "
                                    "max='2.125 2.125 1.125' fileTopology='surface.obj'/>");
  ASSERT_EQ(k.hexahedra.size(), 325u);
  std::size_t half = 0;
  for (double f : k.factors) half += f == 0.5;
  EXPECT_EQ(half, 226u);
  // 10 x 10 x 6 points less the 4 x 4 x 6 that only notch cells use; in the order of x, y, z:
  // 60 per x slab up to x = 5, 36 per slab after.
  ASSERT_EQ(k.points.size(), 504u);
  EXPECT_EQ(k.points[60], (std::array<double, 3>{0.125, -0.125, -0.125}));
  EXPECT_EQ(k.points[396], (std::array<double, 3>{1.625, -0.125, -0.125}));
  EXPECT_EQ(k.points[503], (std::array<double, 3>{2.125, 1.125, 1.125}));
  EXPECT_EQ(k.hexahedra[0], (std::array<long long, 8>{0, 60, 66, 6, 1, 61, 67, 7}));
  // The first inside cell, (1, 1, 1).
  EXPECT_EQ(k.hexahedra[226], (std::array<long long, 8>{67, 127, 133, 73, 68, 128, 134, 74}));
}

TEST(SofaSparseGrid, ASurfaceWrittenInTheScene) {
  // The cube's corners and faces as position and quads on the grid itself, with cellWidth:
  // n = ceil(1.02 / 0.26) + 1 = 5 along each axis.
  const SparseKeys k = importSparse(
      "",
      "<SparseGridTopology cellWidth='0.26' position='0 0 0 1 0 0 1 1 0 0 1 0 0 0 1 1 0 1 "
      "1 1 1 0 1 1' quads='0 3 2 1 4 5 6 7 0 1 5 4 1 2 6 5 2 3 7 6 3 0 4 7'/>");
  EXPECT_EQ(k.hexahedra.size(), 64u);
  EXPECT_EQ(k.points.size(), 125u);
}

TEST(SofaSparseGrid, TetrahedraAreCutAsForAGridOfTwoByOneCells) {
  // TetrahedronFEMForceField::init cuts a topology that is no GridTopology with nx = 2, ny = 1:
  // hexahedron i mirrored along x when i is even, along z when i / 2 is odd; no factor is read.
  const SparseKeys k =
      importSparse(kCube, "<SparseGridTopology n='3 3 3' fileTopology='surface.obj'/>",
                   "<TetrahedronFEMForceField/>");
  ASSERT_EQ(k.tetrahedra.size(), 48u);
  EXPECT_TRUE(k.hexahedra.empty());
  EXPECT_TRUE(k.factors.empty());
  // Hexahedron 0 {0 9 12 3 1 10 13 4} mirrored along x: {9 0 3 12 10 1 4 13}; its first two
  // tetrahedra (c0 c5 c1 c6) and (c0 c1 c3 c6).
  EXPECT_EQ(k.tetrahedra[0], (std::array<long long, 4>{9, 1, 0, 4}));
  EXPECT_EQ(k.tetrahedra[1], (std::array<long long, 4>{9, 0, 12, 4}));
  // Hexahedron 1 {9 18 21 12 10 19 22 13} as it is.
  EXPECT_EQ(k.tetrahedra[6], (std::array<long long, 4>{9, 19, 18, 22}));
  // Hexahedron 2 {3 12 15 6 4 13 16 7} mirrored along x, then z: {13 4 7 16 12 3 6 15}.
  EXPECT_EQ(k.tetrahedra[12], (std::array<long long, 4>{13, 3, 4, 6}));
}

TEST(SofaSparseGrid, AMappingCutsLikewise) {
  // Hexa2TetraTopologicalMapping with swapping, nx = 2 and ny = 1 too: hexahedron 0 mirrored
  // once (x), the second pattern (c0 c5 c6 c1); hexahedron 1 not at all; hexahedron 2 twice
  // (x and z), the first pattern.
  const SparseKeys k =
      importSparse(kCube, "<SparseGridTopology name='g' n='3 3 3' fileTopology='surface.obj'/>",
                   "<TetrahedronSetTopologyContainer name='t'/>"
                   "<Hexa2TetraTopologicalMapping input='@g' output='@t' swapping='true'/>"
                   "<TetrahedronFEMForceField/>");
  ASSERT_EQ(k.tetrahedra.size(), 48u);
  EXPECT_EQ(k.tetrahedra[0], (std::array<long long, 4>{9, 1, 4, 0}));
  EXPECT_EQ(k.tetrahedra[6], (std::array<long long, 4>{9, 19, 18, 22}));
  EXPECT_EQ(k.tetrahedra[12], (std::array<long long, 4>{13, 3, 4, 6}));
}

TEST(SofaSparseGrid, AStateOfOnePointTakesTheGridsPoints) {
  // MechanicalObject::init: a position of one point is the default's size, replaced by the
  // topology's points.
  const std::string grid = "<SparseGridTopology n='3 3 3' fileTopology='surface.obj'/>";
  EXPECT_EQ(importSparse(kCube, grid, "<HexahedronFEMForceField/>",
                         "<MechanicalObject position='0 0 0' velocity='0 0 1'/>")
                .points.size(),
            27u);
}

TEST(SofaSparseGrid, ASeamIsNoHole) {
  // The last face names a copy of vertex 1 (as along a texture seam): open by index, closed by
  // position, and the same grid.
  std::string seam = kCube;
  seam.replace(seam.rfind("f 4 1 5 8"), 9, "v 0 0 0\nf 4 9 5 8");
  EXPECT_EQ(importSparse(seam, "<SparseGridTopology n='5 5 5' fileTopology='surface.obj'/>")
                .hexahedra.size(),
            64u);
}

TEST(SofaSparseGrid, MalformedInputsAreOneLine) {
  const std::string grid = "<SparseGridTopology n='3 3 3' fileTopology='surface.obj'/>";
  EXPECT_NE(errorOf([&] {
              importSparse(kCube, "<SparseGridTopology n='1 3 3' fileTopology='surface.obj'/>");
            }).find("at least 2 points"),
            std::string::npos);
  EXPECT_NE(errorOf([&] {
              importSparse(kCube, "<SparseGridTopology n='3 3 3' fileTopology='none.obj'/>");
            }).find("fileTopology = 'none.obj': no such file"),
            std::string::npos);
  EXPECT_NE(errorOf([&] {
              importSparse(kCube, "<SparseGridTopology n='3 3 3' fileTopology='surface.stl'/>");
            }).find("reads surfaces from .obj files only"),
            std::string::npos);
  EXPECT_NE(errorOf([&] {
              importSparse(kCube,
                           "<SparseGridTopology n='3 3 3' onlyInsideCells='true' "
                           "fileTopology='surface.obj'/>");
            }).find("keeps no cell (none lies wholly inside"),
            std::string::npos);
  EXPECT_NE(errorOf([&] {
              importSparse(kCube,
                           "<SparseGridTopology n='2000 2000 2000' "
                           "fileTopology='surface.obj'/>");
            }).find("beyond SOFA's 32-bit indices"),
            std::string::npos);
  EXPECT_NE(errorOf([&] { importSparse("v 0 0 0\nf 1 2 x\n", grid); }).find("invalid vertex"),
            std::string::npos);
}

// nbVirtualFinerLevels, as SparseGridTopology::buildVirtualFinerLevels and buildFromFiner make
// it: the surface voxelised on (n - 1) 2^L + 1 points, each coarser grid's cell (i, j, k) kept
// when one of its 8 children is, at the mean of their stiffness (a missing child counting 0),
// the cells numbered with x slowest and z fastest.
TEST(SofaSparseGrid, VirtualFinerLevelsGiveTheMeanStiffnessOfTheChildren) {
  // One level: the fine 4 x 4 x 4 grid has a shell of 56 boundary cells (0.5) around a core of 8
  // (1). Each coarse cell holds 7 of the shell and 1 of the core: (7 * 0.5 + 1) / 8 = 0.5625.
  const SparseKeys one = importSparse(
      kCube, "<SparseGridTopology n='3 3 3' nbVirtualFinerLevels='1' fileTopology='surface.obj'/>");
  ASSERT_EQ(one.hexahedra.size(), 8u);
  ASSERT_EQ(one.points.size(), 27u);
  EXPECT_EQ(one.factors, std::vector<double>(8, 0.5625));
  // Point (i, j, k) is 9 i + 3 j + k as without levels; the cells come (0,0,0), (0,0,1),
  // (0,1,0), ...: the second is (0, 0, 1), not (1, 0, 0).
  EXPECT_EQ(one.hexahedra[0], (std::array<long long, 8>{0, 9, 12, 3, 1, 10, 13, 4}));
  EXPECT_EQ(one.hexahedra[1], (std::array<long long, 8>{1, 10, 13, 4, 2, 11, 14, 5}));
  EXPECT_EQ(one.hexahedra[4], (std::array<long long, 8>{9, 18, 21, 12, 10, 19, 22, 13}));
  // The coarse box: min + (3 - 1) * 2.0 * the fine step, which is the surface box's max.
  const double lo = 0 - 1.0 / 100.0, hi = 1 + 1.0 / 100.0;
  const double top = lo + (3 - 1) * 2.0 * ((hi - lo) / 4), step = (top - lo) / 2;
  EXPECT_EQ(one.points[13], (std::array<double, 3>{lo + step, lo + step, lo + step}));
  // Two levels: 8 x 8 x 8 fine cells, a shell of 296 around 216 inside. On 4 x 4 x 4: a corner
  // cell holds 7 shell cells (0.5625), an edge cell 6 (0.625), a face cell 4 (0.75), a core cell
  // none (1). Each of the 2 x 2 x 2 cells holds one corner, 3 edge, 3 face and 1 core cell:
  // (0.5625 + 3 * 0.625 + 3 * 0.75 + 1) / 8 = 0.7109375.
  const SparseKeys two = importSparse(
      kCube, "<SparseGridTopology n='3 3 3' nbVirtualFinerLevels='2' fileTopology='surface.obj'/>");
  ASSERT_EQ(two.hexahedra.size(), 8u);
  EXPECT_EQ(two.factors, std::vector<double>(8, 0.7109375));
  // fillWeighted off: every fine cell at 1, every coarse one full.
  EXPECT_TRUE(importSparse(kCube,
                           "<SparseGridTopology n='3 3 3' nbVirtualFinerLevels='2' "
                           "fillWeighted='0' fileTopology='surface.obj'/>")
                  .factors.empty());
}

TEST(SofaSparseGrid, VirtualFinerLevelsOfAnLShape) {
  // One level over n 6 6 4: the L voxelised on 11 x 11 x 7 points, cells of 0.25 centred on its
  // faces (x and y cells 0, 4, 8 hold x or y = 0, 1, 2; z cells 0 and 4 hold z = 0, 1; x, y cell
  // 9 and z cell 5 lie outside). The 5 x 5 x 3 coarse cells hold fine cells 2i, 2i + 1 along
  // each axis; those whose children all lie in the notch (fine x and y 5..9: coarse x, y 3..4)
  // are left out: 75 - 12.
  const SparseKeys k = importSparse(kL,
                                    "<SparseGridTopology n='6 6 4' nbVirtualFinerLevels='1' "
                                    "min='-0.125 -0.125 -0.125' max='2.375 2.375 1.375' "
                                    "fileTopology='surface.obj'/>");
  ASSERT_EQ(k.hexahedra.size(), 63u);
  // Coarse (0, 0, 0): fine z 0 on the bottom (4 cells), z 1 on the sides x = 0 or y = 0 but
  // for fine (1, 1, 1), inside: (7 * 0.5 + 1) / 8.
  EXPECT_EQ(k.factors[0], 0.5625);
  // Coarse (0, 0, 2), cell 2 (z fastest): fine z 4 on the top (4 halves), z 5 outside.
  EXPECT_EQ(k.factors[2], 4 * 0.5 / 8);
  // Coarse (1, 1, 1), cell 15 + 3 + 1 (no cell left out before it): fine x, y, z 2..3, all
  // inside.
  EXPECT_EQ(k.factors[19], 1.0);
}

// A TransformEngine between the grid and the MechanicalObject (TransformEngine.scn): the grid's
// points scaled, then turned, then translated (TransformEngine::doUpdate), before the
// MechanicalObject's own transform; the cells and their stiffness the grid's.
TEST(SofaSparseGrid, ATransformEngineMovesTheGridsPoints) {
  const std::string grid = "<SparseGridTopology name='g' n='3 3 3' fileTopology='surface.obj'/>";
  const SparseKeys k = importSparse(
      kCube, grid, "<HexahedronFEMForceField/>",
      "<TransformEngine name='t' translation='10 0 0' rotation='0 0 90' scale='0.5 1 2' "
      "input_position='@g.position'/><MechanicalObject position='@[-1].output_position' "
      "dx='1'/>");
  EXPECT_EQ(k.transforms, (std::vector<std::string>{"scale 0.5 1 2", "rotate 0 0 90",
                                                    "translate 10 0 0", "translate 1 0 0"}));
  EXPECT_EQ(k.hexahedra.size(), 8u);
  EXPECT_EQ(k.factors, std::vector<double>(8, 0.5));
  // Neutral operations are left out.
  EXPECT_TRUE(importSparse(kCube, grid, "<HexahedronFEMForceField/>",
                           "<TransformEngine name='t' scale='1 1 1' input_position='@g.position'/>"
                           "<MechanicalObject position='@t.output_position'/>")
                  .transforms.empty());
  EXPECT_NE(errorOf([&] {
              importSparse(kCube, grid, "<HexahedronFEMForceField/>",
                           "<TransformEngine name='t' inverse='1' input_position='@g.position'/>"
                           "<MechanicalObject position='@t.output_position'/>");
            }).find("inverse = '1': the inverse transform is not supported"),
            std::string::npos);
  EXPECT_NE(errorOf([&] {
              importSparse(kCube, grid, "<HexahedronFEMForceField/>",
                           "<TransformEngine name='t' input_position='@g.position'/>"
                           "<MechanicalObject position='@t.input_position'/>");
            }).find("TransformEngine 't': not supported"),
            std::string::npos);
}

TEST(SofaSparseGrid, HexahedronFemAndMassWeighsEachCellsMass) {
  // HexahedronFEMForceFieldAndMass scales each cell's mass by the grid's mass coefficient, the
  // stiffness one: a half on the 8 boundary cells.
  const SparseKeys keys =
      importSparse(kCube, "<SparseGridTopology n='3 3 3' fileTopology='surface.obj'/>",
                   "<HexahedronFEMForceFieldAndMass/>", "<MechanicalObject/>");
  EXPECT_EQ(keys.massFactors, std::vector<double>(8, 0.5));
  EXPECT_EQ(keys.factors, std::vector<double>(8, 0.5));
  // Under a HexahedronFEMForceField no mass reads them.
  EXPECT_TRUE(importSparse(kCube, "<SparseGridTopology n='3 3 3' fileTopology='surface.obj'/>")
                  .massFactors.empty());
}

TEST(SofaSparseGrid, UnsupportedPartsAreRefusedByName) {
  EXPECT_EQ(importSparse(kCube,
                         "<SparseGridTopology n='3 3 3' fillWeighted='0' "
                         "fileTopology='surface.obj'/>",
                         "<HexahedronFEMForceFieldAndMass/>", "<MechanicalObject/>")
                .hexahedra.size(),
            8u);
  EXPECT_NE(errorOf([] {
              importSparse(kCube,
                           "<SparseGridTopology n='3 3 3' nbVirtualFinerLevels='1.5' "
                           "fileTopology='surface.obj'/>");
            }).find("nbVirtualFinerLevels = '1.5': expected an integer"),
            std::string::npos);
  EXPECT_NE(errorOf([] {
              importSparse(kCube,
                           "<VoxelGridLoader/><SparseGridTopology n='3 3 3' "
                           "fileTopology='surface.obj'/>");
            }).find("VoxelGridLoader: gives SparseGridTopology"),
            std::string::npos);
}

// MeshSpringForceField on a sparse grid: its springs are the cubes' (SparseGridTopology builds
// no lines, triangles or quads, so their constants add nothing), every two vertices of a
// hexahedron; `stiffness` and `damping` alias every kind's, and of two names given the later in
// alphabetical order wins, as SOFA's Base::parse reads them: damping beats cubesDamping,
// stiffness beats cubesStiffness. No stiffness factor of the boundary cells: springs read none.
TEST(SofaSparseGrid, MeshSpringsJoinTheCubesPairs) {
  const SparseKeys k = importSparse(
      kCube, "<SparseGridTopology n='5 5 5' fileTopology='surface.obj'/>",
      "<MeshSpringForceField stiffness='50' damping='1' linesStiffness='400' linesDamping='4' "
      "quadsStiffness='400' cubesStiffness='400' cubesDamping='4'/>");
  EXPECT_EQ(k.hexahedra.size(), 64u);
  EXPECT_TRUE(k.tetrahedra.empty());
  EXPECT_TRUE(k.factors.empty());
  EXPECT_EQ(k.springs, (std::map<std::string, std::string>{{"springs.stiffness", "50"},
                                                           {"springs.damping", "1"}}));
  const SparseKeys cubes =
      importSparse(kCube, "<SparseGridTopology n='3 3 3' fileTopology='surface.obj'/>",
                   "<MeshSpringForceField cubesStiffness='7' linesStiffness='3'/>");
  EXPECT_EQ(cubes.springs, (std::map<std::string, std::string>{{"springs.stiffness", "7"}}));
  // Triangles or quads written in the grid stay its own, numbered as the surface's points.
  EXPECT_NE(errorOf([] {
              importSparse("",
                           "<SparseGridTopology cellWidth='0.26' position='0 0 0 1 0 0 1 1 0 0 1 "
                           "0 0 0 1 1 0 1 1 1 1 0 1 1' quads='0 3 2 1 4 5 6 7 0 1 5 4 1 2 6 5 2 "
                           "3 7 6 3 0 4 7'/>",
                           "<MeshSpringForceField stiffness='1'/>");
            }).find("keeps its quads"),
            std::string::npos);
}

}  // namespace
