// SOFA's RegularGridTopology (and CylinderGridTopology, SphereGridTopology) as a body's mesh,
// against SOFA master's formulas: point
// i + nx (j + ny k) at p0 + i dx + j dy + k dz (GridTopology::getIndex, getPointInGrid), the
// legacy nx ny nz and xmin .. zmax (single precision), cellWidth, and the hexahedra cut into six
// tetrahedra as Hexa2TetraTopologicalMapping (with and without swapping) or
// TetrahedronFEMForceField itself cuts them.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "eis/core/error.hpp"
#include "eis/core/parameters.hpp"
#include "eis/io/sofa_import.hpp"
#include "eis/io/sofa_scene.hpp"
#include "error_of.hpp"

namespace {

using Points = std::vector<std::array<double, 3>>;
using Tets = std::vector<std::array<long long, 4>>;

struct GridKeys {
  Points points;
  Tets tets;
  std::vector<std::string> notes;
};

// The mesh keys of a body whose node holds `grid`, then `more`, then `last` (by default a
// TetrahedronFEMForceField, which works on the node's last topology).
GridKeys importGrid(const std::string& grid, const std::string& more = "",
                    const std::string& last = "<TetrahedronFEMForceField/>") {
  const std::string text = "<Node><Node name='b'><EulerImplicitSolver/>" + grid +
                           "<MechanicalObject/><UniformMass totalMass='1'/>" + more + last +
                           "</Node></Node>";
  const eis::SofaImport imported = eis::importSofaScene(eis::SofaScene(text, "g.scn"), {});
  GridKeys out;
  out.notes = imported.notes;
  for (const eis::SofaKey& k : imported.objects.at(0).keys) {
    if (k.key != "mesh.nodes" && k.key != "mesh.tetrahedra") continue;
    std::vector<double> v;
    for (const std::string& t : eis::parse::tokens(k.value)) v.push_back(std::stod(t));
    if (k.key == "mesh.nodes")
      for (std::size_t i = 0; i < v.size(); i += 3)
        out.points.push_back({v[i], v[i + 1], v[i + 2]});
    if (k.key == "mesh.tetrahedra")
      for (std::size_t i = 0; i < v.size(); i += 4)
        out.tets.push_back(
            {(long long)v[i], (long long)v[i + 1], (long long)v[i + 2], (long long)v[i + 3]});
  }
  return out;
}

using eis_test::errorOf;

double signedVolume(const Points& p, const std::array<long long, 4>& t) {
  const auto& a = p[t[0]];
  double e[3][3];
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) e[r][c] = p[t[r + 1]][c] - a[c];
  return (e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) -
          e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
          e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0])) /
         6;
}

TEST(SofaGrid, PointsInSofasNumbering) {
  const GridKeys g = importGrid("<RegularGridTopology n='3 4 2' min='-1 0 2' max='1 3 4'/>");
  ASSERT_EQ(g.points.size(), 24u);
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 3; ++i) {
        const auto& p = g.points[i + 3 * (j + 4 * k)];
        EXPECT_EQ(p[0], -1 + 1.0 * i);
        EXPECT_EQ(p[1], 0 + 1.0 * j);
        EXPECT_EQ(p[2], 2 + 2.0 * k);
      }
  // 2 x 3 x 1 hexahedra, six tetrahedra each, filling the box: volume 2 x 3 x 2.
  ASSERT_EQ(g.tets.size(), 36u);
  double volume = 0;
  for (const auto& t : g.tets) volume += std::abs(signedVolume(g.points, t));
  EXPECT_NEAR(volume, 12, 1e-12);
  // Defaults: n 2 2 2, min 0 0 0, max 1 1 1; p0 moves the grid but not its step.
  const GridKeys unit = importGrid("<RegularGridTopology p0='5 0 0'/>");
  ASSERT_EQ(unit.points.size(), 8u);
  EXPECT_EQ(unit.points[7], (std::array<double, 3>{6, 1, 1}));
}

TEST(SofaGrid, LegacyAttributesAndCellWidth) {
  // nx ny nz; xmin .. zmax read by strtof: 0.1 is 0.100000001490116..., times scale in double.
  const GridKeys g = importGrid(
      "<RegularGridTopology nx='2' ny='2' nz='3' xmin='0' xmax='0.1' ymin='0' ymax='1' zmin='0' "
      "zmax='2' scale='2'/>");
  ASSERT_EQ(g.points.size(), 12u);
  EXPECT_EQ(g.points[1][0], double(0.1f) * double(2.0f));
  EXPECT_EQ(g.points[11][2], 4.0);
  // cellWidth: n = ceil((max - min) / w) + 1, the step then (max - min) / (n - 1).
  const GridKeys w = importGrid("<RegularGridTopology min='0 0 0' max='1 1 0.5' cellWidth='0.4'/>");
  ASSERT_EQ(w.points.size(), 4u * 4u * 3u);
  EXPECT_EQ(w.points[1][0], 1.0 / 3);
  // A grid flat along an axis has no hexahedra for a tetrahedral force field to read.
  EXPECT_NE(errorOf([] {
              importGrid("<RegularGridTopology n='3 3 1'/>");
            }).find("reads volume cells, and RegularGridTopology"),
            std::string::npos);
  EXPECT_NE(errorOf([] {
              importGrid("<RegularGridTopology n='1 1 1'/>");
            }).find("a grid of one point has no cells"),
            std::string::npos);
}

// The key `key` of a body whose node holds `grid` and `more`.
std::string flatGridKey(const std::string& grid, const std::string& more, const std::string& key) {
  const std::string text = "<Node><Node name='b'><EulerImplicitSolver/>" + grid +
                           "<MechanicalObject/><UniformMass totalMass='1'/>" + more +
                           "</Node></Node>";
  const eis::SofaImport imported = eis::importSofaScene(eis::SofaScene(text, "g.scn"), {});
  for (const eis::SofaKey& k : imported.objects.at(0).keys)
    if (k.key == key) return k.value;
  return "(no " + key + ")";
}

// GridTopology::updateQuads on a grid of one point along an axis: point(x, y, z) =
// x + nx (y + ny z); the XY plane's quads (x,y) (x+1,y) (x+1,y+1) (x,y+1), the XZ plane's and the
// YZ plane's the same with z for y, or with y, z for x, y; updateTriangles cuts each quad
// (q0 q1 q2 q3) into (q0 q1 q2) (q0 q2 q3); updateEdges lists a line's edges.
TEST(SofaGrid, FlatGridsInSofasNumbering) {
  // n = 3 2 1: point(x, y) = x + 3 y.
  EXPECT_EQ(flatGridKey("<RegularGridTopology n='3 2 1'/>", "", "mesh.quadrangles"),
            "0 1 4 3 1 2 5 4");
  // n = 3 1 2: point(x, z) = x + 3 z.
  EXPECT_EQ(flatGridKey("<RegularGridTopology n='3 1 2'/>", "", "mesh.quadrangles"),
            "0 1 4 3 1 2 5 4");
  // n = 1 2 3: point(y, z) = y + 2 z; x = 0 lies midway between min and max.
  EXPECT_EQ(flatGridKey("<RegularGridTopology n='1 2 3'/>", "", "mesh.quadrangles"),
            "0 1 3 2 2 3 5 4");
  EXPECT_EQ(
      flatGridKey("<RegularGridTopology n='1 2 3' min='0 0 0' max='4 1 1'/>", "", "mesh.nodes")
          .substr(0, 12),
      "2 0 0 2 1 0 ");
  EXPECT_EQ(flatGridKey("<RegularGridTopology n='3 1 2'/>",
                        "<TriangularFEMForceField youngModulus='600'/>", "mesh.triangles"),
            "0 1 4 0 4 3 1 2 5 1 5 4");
  EXPECT_EQ(flatGridKey("<RegularGridTopology n='1 1 4'/>", "", "mesh.edges"), "0 1 1 2 2 3");
}

TEST(SofaGrid, HexahedraCutAsSofaCutsThem) {
  // Hexahedron (x, y, z) of a grid: SOFA's vertex order v0..v7, the cutting patterns of
  // Hexa2TetraTopologicalMapping. Without swapping every hexahedron takes the first pattern
  // with its own vertex order.
  const std::string grid = "<RegularGridTopology name='g' n='3 3 3'/>";
  const GridKeys plain = importGrid(grid,
                                    "<TetrahedronSetTopologyContainer name='t'/>"
                                    "<Hexa2TetraTopologicalMapping input='@g' output='@t'/>");
  // Hexahedron 0: v = 0 1 4 3 9 10 13 12; pattern (0 5 1 6) (0 1 3 6) ...
  EXPECT_EQ(plain.tets[0], (std::array<long long, 4>{0, 10, 1, 13}));
  EXPECT_EQ(plain.tets[1], (std::array<long long, 4>{0, 1, 3, 13}));
  EXPECT_EQ(plain.tets[5], (std::array<long long, 4>{12, 10, 9, 0}));
  EXPECT_NE(plain.notes[0].find("cut into 6 tetrahedra each by Hexa2TetraTopologicalMapping"),
            std::string::npos);
  // With swapping: hexahedron 0 (even x) is mirrored along x (v0 <-> v1 ...): one mirroring,
  // the second pattern. Hexahedron 1 (odd x, y 0, z 0): no mirroring, the first pattern.
  const GridKeys swapped =
      importGrid(grid,
                 "<TetrahedronSetTopologyContainer name='t'/>"
                 "<Hexa2TetraTopologicalMapping input='@g' output='@t' swapping='true'/>");
  EXPECT_EQ(swapped.tets[0], (std::array<long long, 4>{1, 9, 12, 0}));
  EXPECT_EQ(swapped.tets[6], (std::array<long long, 4>{1, 11, 2, 14}));
  // TetrahedronFEMForceField's own cut: mirrored as with swapping, always the first pattern.
  const GridKeys own = importGrid(grid);
  EXPECT_EQ(own.tets[0], (std::array<long long, 4>{1, 9, 0, 12}));
  EXPECT_NE(own.notes[0].find("as TetrahedronFEMForceField cuts them"), std::string::npos);
  // Every cut fills the hexahedra: each tetrahedron one sixth of a unit cell of 0.5^3.
  for (const GridKeys* g : {&plain, &swapped, &own}) {
    ASSERT_EQ(g->tets.size(), 48u);
    for (const auto& t : g->tets)
      EXPECT_NEAR(std::abs(signedVolume(g->points, t)), 0.125 / 6, 1e-15);
  }
  // The mapping and the force field in a child node without a state of its own: the force field
  // works on the child's tetrahedra, on the body's points.
  const GridKeys child = importGrid(
      grid,
      "<Node name='tetras'><TetrahedronSetTopologyContainer name='t'/>"
      "<Hexa2TetraTopologicalMapping input='@../g' output='@t'/><TetrahedronFEMForceField/></Node>",
      "");
  EXPECT_EQ(child.tets, plain.tets);
  // A mapping in a child for other uses (a collision surface) while the force field works on the
  // grid itself (SOFA's RemovingHexa2TetraProcess.scn): the force field's own cut.
  const GridKeys beside =
      importGrid(grid,
                 "<Node name='tetras'><TetrahedronSetTopologyContainer name='t'/>"
                 "<Hexa2TetraTopologicalMapping input='@../g' output='@t'/></Node>");
  EXPECT_EQ(beside.tets, own.tets);
}

// A mass on the grid beside a tetrahedral FEM keeps the hexahedra (the FEM reads them cut); a
// mass on the cut beside springs on the hexahedra, or two cuts in one body, is refused by name.
TEST(SofaGrid, HexahedralReadersAndTwoCutsAreRefused) {
  const std::string grid = "<RegularGridTopology name='g' n='3 3 3'/>";
  const GridKeys beside = importGrid(grid, "<DiagonalMass/>");
  EXPECT_TRUE(beside.tets.empty());
  EXPECT_TRUE(std::any_of(beside.notes.begin(), beside.notes.end(), [](const std::string& n) {
    return n.find("cut into 6 tetrahedra each for TetrahedronFEMForceField") != std::string::npos &&
           n.find("whole for DiagonalMass") != std::string::npos;
  }));
  const std::string twoMeshes = errorOf([&] {
    importGrid(grid,
               "<MeshSpringForceField stiffness='1'/><Node name='c'>"
               "<TetrahedronSetTopologyContainer name='t'/>"
               "<Hexa2TetraTopologicalMapping input='@../g' output='@t'/><DiagonalMass/></Node>",
               "");
  });
  EXPECT_NE(twoMeshes.find("DiagonalMass"), std::string::npos) << twoMeshes;
  EXPECT_NE(twoMeshes.find("a body of two meshes"), std::string::npos) << twoMeshes;
  // Springs alone on the grid join its hexahedra's vertices: the body keeps them, uncut.
  EXPECT_TRUE(importGrid(grid, "<MeshSpringForceField stiffness='1'/>", "").tets.empty());
  EXPECT_NE(errorOf([&] {
              importGrid(grid,
                         "<Node name='c'><TetrahedronSetTopologyContainer name='t'/>"
                         "<Hexa2TetraTopologicalMapping input='@../g' output='@t'/>"
                         "<TetrahedronFEMForceField/></Node>");
            }).find("cut otherwise than"),
            std::string::npos);
}

// MechanicalObject position="@grid.position" takes the grid's points as one without any does.
TEST(SofaGrid, APositionLinkedToTheGrid) {
  const std::string text =
      "<Node><Node name='b'><EulerImplicitSolver/>"
      "<RegularGridTopology name='loader' nx='3' ny='2' nz='2' xmin='0' xmax='1' ymin='0' "
      "ymax='1' zmin='0' zmax='1'/><MechanicalObject position='@loader.position'/>"
      "<UniformMass totalMass='1'/><TetrahedronFEMForceField/></Node></Node>";
  const eis::SofaImport imported = eis::importSofaScene(eis::SofaScene(text, "g.scn"), {});
  std::string nodes;
  for (const eis::SofaKey& k : imported.objects.at(0).keys)
    if (k.key == "mesh.nodes") nodes = k.value;
  EXPECT_EQ(nodes.substr(0, 15), "0 0 0 0.5 0 0 1");
  EXPECT_EQ(eis::parse::tokens(nodes).size(), 36u);
}

// A body's topology that copies another node's cut (its tetrahedra linked to the output of a
// Hexa2TetraTopologicalMapping, its positions to the grid's) holds the cut's tetrahedra.
TEST(SofaGrid, TetrahedraLinkedFromAnotherNodesCut) {
  const std::string text =
      "<Node><Node name='volume'><RegularGridTopology name='g' n='3 3 3'/>"
      "<TetrahedronSetTopologyContainer name='cut'/>"
      "<Hexa2TetraTopologicalMapping input='@g' output='@cut' swapping='true'/></Node>"
      "<Node name='b'><EulerImplicitSolver/>"
      "<TetrahedronSetTopologyContainer name='t' position='@../volume/g.position' "
      "tetrahedra='@../volume/cut.tetrahedra'/><MechanicalObject src='@t'/>"
      "<UniformMass totalMass='1'/><TetrahedronFEMForceField/></Node></Node>";
  const eis::SofaImport imported = eis::importSofaScene(eis::SofaScene(text, "g.scn"), {});
  std::string tets;
  for (const eis::SofaKey& k : imported.objects.at(0).keys)
    if (k.key == "mesh.tetrahedra") tets = k.value;
  const GridKeys swapped =
      importGrid("<RegularGridTopology name='g' n='3 3 3'/>",
                 "<TetrahedronSetTopologyContainer name='t'/>"
                 "<Hexa2TetraTopologicalMapping input='@g' output='@t' swapping='true'/>");
  ASSERT_EQ(eis::parse::tokens(tets).size(), 4 * swapped.tets.size());
  std::string expected;
  for (const auto& t : swapped.tets)
    for (long long v : t) expected += (expected.empty() ? "" : " ") + std::to_string(v);
  std::string got;
  for (const std::string& v : eis::parse::tokens(tets)) got += (got.empty() ? "" : " ") + v;
  EXPECT_EQ(got, expected);
}

// CylinderGridTopology and SphereGridTopology: the regular grid's points and cells, each point
// of the square (cube) of side 2 r pushed out to the circle (sphere) of radius its largest
// coordinate, in the frame SOFA builds around the axis (x = global x unless the axis is x).
TEST(SofaGrid, CylinderAndSpherePoints) {
  const double s = std::sqrt(0.5);
  // Axis y: the frame x = (1 0 0), y = z cross x = (0 0 -1); point = center + (p0, p2, -p1).
  const GridKeys c = importGrid(
      "<CylinderGridTopology nx='3' ny='3' nz='2' radius='2' length='4' axis='0 1 0' "
      "center='1 2 3'/>");
  ASSERT_EQ(c.points.size(), 18u);
  ASSERT_EQ(c.tets.size(), 4u * 6u);
  const auto near = [](const std::array<double, 3>& p, const std::array<double, 3>& q) {
    for (int a = 0; a < 3; ++a) EXPECT_NEAR(p[a], q[a], 1e-14) << a;
  };
  // (i, j, k) is point i + 3 (j + 3 k); the square's corner (-2, -2) goes to (-2 s, -2 s).
  near(c.points[0], {1 - 2 * s, 2, 3 + 2 * s});
  near(c.points[9 + 8], {1 + 2 * s, 6, 3 - 2 * s});
  EXPECT_EQ(c.points[4], (std::array<double, 3>{1, 2, 3}));   // the axis
  EXPECT_EQ(c.points[5], (std::array<double, 3>{3, 2, 3}));   // (2, 0) stays
  EXPECT_EQ(c.points[16], (std::array<double, 3>{1, 6, 1}));  // (0, 2) at k = 1
  // Axis x: the frame x = (0 1 0), y = (0 0 1); point = (p2, p0, p1).
  const GridKeys x =
      importGrid("<CylinderGridTopology n='2 2 3' radius='3' length='6' axis='2 0 0'/>");
  near(x.points[1 + 2 * (0 + 2 * 2)], {6, 3 * s, -3 * s});
  near(x.points[0], {0, -3 * s, -3 * s});
  // Defaults: n 2 2 2, radius 1, length 1, axis z.
  const GridKeys unit = importGrid("<CylinderGridTopology/>");
  near(unit.points[7], {s, s, 1});
  // The sphere: the cube [-1, 1]^3 (3 points a side), axis z (frame = global axes).
  const GridKeys b = importGrid("<SphereGridTopology n='3 3 3' center='0 0 5'/>");
  ASSERT_EQ(b.points.size(), 27u);
  const double t = 1 / std::sqrt(3.0);
  near(b.points[0], {-t, -t, 5 - t});
  EXPECT_EQ(b.points[13], (std::array<double, 3>{0, 0, 5}));
  EXPECT_EQ(b.points[14], (std::array<double, 3>{1, 0, 5}));
  near(b.points[2 + 3 * 2 + 9], {s, s, 5});
  // Every point of the sphere's surface layer lies at distance 1 from the center.
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) {
        if (i == 1 && j == 1 && k == 1) continue;
        const auto& p = b.points[i + 3 * (j + 3 * k)];
        const double largest = std::max({std::abs(i - 1), std::abs(j - 1), std::abs(k - 1)});
        EXPECT_NEAR(std::hypot(p[0], p[1], p[2] - 5), largest, 1e-15);
      }
  // Fields of a RegularGridTopology are not a cylinder's.
  EXPECT_NE(errorOf([] { importGrid("<CylinderGridTopology min='0 0 0'/>"); }).find("min"),
            std::string::npos);
}

}  // namespace
