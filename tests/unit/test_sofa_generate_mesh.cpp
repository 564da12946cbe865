// SOFA's GenerateGrid and GenerateCylinder read as a body's mesh (io/sofa_generate_mesh.cpp):
// node and cell numbering worked out by hand from GenerateGrid.inl and GenerateCylinder.inl, and
// the cells' volumes summed against the box's and the polygonal prism's.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "eis/io/sofa_import.hpp"
#include "eis/io/sofa_scene.hpp"
#include "error_of.hpp"

namespace {

using eis::SofaScene;
using eis_test::errorOf;

// The body's keys for an engine and a container linking `cells` and output_position to it.
std::map<std::string, std::string> keys(const std::string& engine, const std::string& container,
                                        const std::string& cells) {
  const eis::SofaImport imported = eis::importSofaScene(
      SofaScene("<Node><EulerImplicitSolver/>" + engine + "<Node name='b'><" + container +
                    " position='@../g.output_position' " + cells + "='@../g." + cells +
                    "'/><MechanicalObject/><UniformMass totalMass='1'/></Node></Node>",
                "t.scn"),
      eis::SofaImportOptions{});
  std::map<std::string, std::string> found;
  for (const eis::SofaKey& k : imported.objects.at(0).keys) found[k.key] = k.value;
  return found;
}

template <class T>
std::vector<T> numbers(const std::string& text) {
  std::istringstream in(text);
  std::vector<T> v;
  for (T x; in >> x;) v.push_back(x);
  return v;
}

// The sum of the tetrahedra's volumes, each taken positive.
double volume(const std::string& nodes, const std::string& tetrahedra) {
  const std::vector<double> x = numbers<double>(nodes);
  const std::vector<long long> t = numbers<long long>(tetrahedra);
  double sum = 0;
  for (std::size_t c = 0; c + 3 < t.size(); c += 4) {
    std::array<std::array<double, 3>, 3> e;
    for (int i = 0; i < 3; ++i)
      for (int d = 0; d < 3; ++d) e[i][d] = x[3 * t[c + 1 + i] + d] - x[3 * t[c] + d];
    sum += std::abs(e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) -
                    e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
                    e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0])) /
           6;
  }
  return sum;
}

const char* const kTetrahedra = "TetrahedronSetTopologyContainer";

// Points x fastest, then y, then z; hexahedra x slowest, z fastest; each cut into 6 tetrahedra
// (h0 h5 h1 h6, h0 h1 h3 h6, h1 h3 h6 h2, h6 h3 h0 h7, h6 h7 h0 h5, h7 h5 h4 h0).
TEST(SofaGenerateGrid, NumberingAsSofa) {
  const std::string two = "<GenerateGrid name='g' min='0 0 0' max='2 1 1' resolution='2 1 1'/>";
  auto k = keys(two, "HexahedronSetTopologyContainer", "hexahedra");
  EXPECT_EQ(k["mesh.nodes"],
            "0 0 0 1 0 0 2 0 0 0 1 0 1 1 0 2 1 0 0 0 1 1 0 1 2 0 1 0 1 1 1 1 1 2 1 1");
  EXPECT_EQ(k["mesh.hexahedra"], "0 1 4 3 6 7 10 9 1 2 5 4 7 8 11 10");
  k = keys(two, kTetrahedra, "tetrahedra");
  const std::vector<long long> tets = numbers<long long>(k["mesh.tetrahedra"]);
  ASSERT_EQ(tets.size(), 48u);
  EXPECT_EQ(std::vector<long long>(tets.begin(), tets.begin() + 24),
            (std::vector<long long>{0,  7, 1, 10, 0,  1, 3, 10, 1, 3, 10, 4,
                                    10, 3, 0, 9,  10, 9, 0, 7,  9, 7, 6,  0}));
  EXPECT_DOUBLE_EQ(volume(k["mesh.nodes"], k["mesh.tetrahedra"]), 2.0);
  // Cells z fastest: the second hexahedron of a 1 x 2 x 2 grid is the one above the first.
  k = keys("<GenerateGrid name='g' max='1 2 2' resolution='1 2 2'/>",
           "HexahedronSetTopologyContainer", "hexahedra");
  EXPECT_EQ(numbers<long long>(k["mesh.hexahedra"]).size(), 32u);
  EXPECT_EQ(k["mesh.hexahedra"].substr(0, 40), "0 1 3 2 6 7 9 8 6 7 9 8 12 13 15 14 2 3 ");
  // A box of 5 x 3 x 4 cubes (GenerateGrid.scn's): 6 * 4 * 5 points, 60 * 6 tetrahedra filling
  // it.
  k = keys("<GenerateGrid name='g' max='0.5 1.5 1' resolution='5 3 4'/>", kTetrahedra,
           "tetrahedra");
  EXPECT_EQ(numbers<double>(k["mesh.nodes"]).size(), 3u * 120);
  EXPECT_EQ(numbers<long long>(k["mesh.tetrahedra"]).size(), 4u * 360);
  EXPECT_NEAR(volume(k["mesh.nodes"], k["mesh.tetrahedra"]), 0.75, 1e-14);
}

// resolution z = 0: a flat grid, quads x slowest, each cut into (q0 q1 q3) and (q3 q1 q2).
TEST(SofaGenerateGrid, FlatGrid) {
  const std::string flat = "<GenerateGrid name='g' min='0 0 5' max='2 1 9' resolution='2 1 0'/>";
  auto k = keys(flat, "QuadSetTopologyContainer", "quads");
  EXPECT_EQ(k["mesh.nodes"], "0 0 5 1 0 5 2 0 5 0 1 5 1 1 5 2 1 5");
  EXPECT_EQ(k["mesh.quadrangles"], "0 1 4 3 1 2 5 4");
  EXPECT_EQ(keys(flat, "TriangleSetTopologyContainer", "triangles")["mesh.triangles"],
            "0 1 3 3 1 4 1 2 4 4 2 5");
  EXPECT_NE(errorOf([&] { keys(flat, kTetrahedra, "tetrahedra"); }).find("flat grid"),
            std::string::npos);
  EXPECT_NE(errorOf([] {
              keys("<GenerateGrid name='g' resolution='2 -1 1'/>", kTetrahedra, "tetrahedra");
            }).find("resolution"),
            std::string::npos);
}

// Per level the axis point, then the rings; a prism (3 tetrahedra) per sector about the axis, 6
// tetrahedra per sector of every outer ring.
TEST(SofaGenerateCylinder, NumberingAsSofa) {
  auto k = keys(
      "<GenerateCylinder name='g' radius='1' height='2' origin='1 0 0' resCircumferential='4' "
      "resRadial='2' resHeight='2'/>",
      kTetrahedra, "tetrahedra");
  const std::vector<double> x = numbers<double>(k["mesh.nodes"]);
  ASSERT_EQ(x.size(), 3u * 18);
  const double c = std::cos(M_PI / 2), s = std::sin(M_PI);
  // Level 0: the axis, ring 1 (radius 0.5) at 0, 90, 180, 270 degrees, then ring 2 (radius 1).
  const std::vector<double> level0 = {1, 0, 0, 1.5, 0, 0, 0.5 * c + 1, 0.5, 0, 0.5, 0.5 * s, 0};
  EXPECT_EQ(std::vector<double>(x.begin(), x.begin() + 12), level0);
  EXPECT_EQ(std::vector<double>(x.begin() + 15, x.begin() + 18), (std::vector<double>{2, 0, 0}));
  EXPECT_EQ(std::vector<double>(x.begin() + 27, x.begin() + 30), (std::vector<double>{1, 0, 2}));
  const std::vector<long long> t = numbers<long long>(k["mesh.tetrahedra"]);
  ASSERT_EQ(t.size(), 4u * (3 * 4 + 6 * 4));
  // The first prism (axis 9, 0; sector from point 4 to point 1 of ring 1).
  EXPECT_EQ(std::vector<long long>(t.begin(), t.begin() + 12),
            (std::vector<long long>{13, 9, 10, 0, 13, 10, 4, 0, 0, 4, 1, 10}));
  // The first hexahedron of ring 2: h = 10 13 14 17 1 4 5 8.
  EXPECT_EQ(std::vector<long long>(t.begin() + 48, t.begin() + 72),
            (std::vector<long long>{10, 4,  1, 8,  10, 13, 4,  17, 4, 10, 17, 8,
                                    10, 17, 8, 14, 8,  10, 14, 1,  5, 8,  14, 1}));
  // GenerateCylinder.scn's cylinder fills the prism on the 7-gon of radius 0.2, height 1.
  k = keys(
      "<GenerateCylinder name='g' radius='0.2' height='1' resHeight='7' resCircumferential='7' "
      "resRadial='3'/>",
      kTetrahedra, "tetrahedra");
  EXPECT_EQ(numbers<double>(k["mesh.nodes"]).size(), 3u * 7 * 22);
  EXPECT_EQ(numbers<long long>(k["mesh.tetrahedra"]).size(), 4u * (3 * 7 * 6 + 6 * 2 * 7 * 6));
  EXPECT_NEAR(volume(k["mesh.nodes"], k["mesh.tetrahedra"]),
              3.5 * 0.04 * std::sin(2 * M_PI / 7) * 1, 1e-14);
}

TEST(SofaGenerateCylinder, Refusals) {
  EXPECT_NE(errorOf([] {
              keys("<GenerateCylinder name='g' resHeight='1'/>", kTetrahedra, "tetrahedra");
            }).find(">= 2"),
            std::string::npos);
  EXPECT_NE(errorOf([] {
              keys("<GenerateCylinder name='g'/>", "TriangleSetTopologyContainer", "triangles");
            }).find("not supported yet"),
            std::string::npos);
  EXPECT_NE(errorOf([] {
              keys("<GenerateCylinder name='g' BezierTetrahedronDegree='2'/>", kTetrahedra,
                   "tetrahedra");
            }).find("Bezier"),
            std::string::npos);
}

}  // namespace

namespace {

// MergePoints (Component/Engine/Generate) whose points only a visual model reads is drawn, not
// simulated: skipped as visual; read by a MechanicalObject it stays refused.
TEST(SofaMergePoints, OnlyDrawn) {
  const auto import = [](const std::string& reader) {
    return eis::importSofaScene(
        SofaScene(
            "<Node><EulerImplicitSolver/><MergePoints name='merge' position1='0 0 0' "
            "position2='1 0 0'/><Node name='b'><MechanicalObject position='0 0 0 1 0 0 0 1 "
            "0 0 0 1'/><MeshTopology tetrahedra='0 1 2 3'/><UniformMass totalMass='1'/></Node>" +
                reader + "</Node>",
            "t.scn"),
        eis::SofaImportOptions{});
  };
  const eis::SofaImport drawn = import("<OglModel position='@merge.points'/>");
  EXPECT_EQ(drawn.objects.size(), 1u);
  EXPECT_NE(errorOf([&] {
              import(
                  "<Node><EulerImplicitSolver/><MechanicalObject position='@../merge.points'/>"
                  "</Node>");
            }).find("MergePoints 'merge': not supported"),
            std::string::npos);
}

}  // namespace
