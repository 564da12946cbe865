// SOFA's DeformableOnRigidFrameMapping with a BarycentricMapping child under a PlaneForceField
// (io/sofa_carried_points): the body's carried.* keys, the points' cube and weights worked out
// here from the grid SOFA builds over the unit cube (one cube over its box widened by 1%).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "eis/core/parameters.hpp"
#include "eis/io/sofa_import.hpp"
#include "eis/io/sofa_scene.hpp"
#include "error_of.hpp"

namespace {

namespace fs = std::filesystem;
using eis_test::errorOf;

// The scene: frames at /carrier, the cube on a 2 x 2 x 2 sparse grid below them, the mapping
// (`mapping` its extra fields) and a child of `points` with `child`'s components.
std::map<std::string, std::string> carriedKeys(const std::string& mapping,
                                               const std::string& points,
                                               const std::string& child) {
  const fs::path folder = fs::path(testing::TempDir()) / "eis_carried_points";
  fs::create_directories(folder);
  std::ofstream(folder / "cube.obj")
      << "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
         "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n";
  const std::string text =
      "<Node><Node name='carrier'><EulerImplicitSolver/>"
      "<CGLinearSolver iterations='100' tolerance='1e-12' threshold='1e-30'/>"
      "<MechanicalObject name='frame' template='Rigid3' position='0 0 0 0 0 0 1  1 2 3 0 0 0 1'/>"
      "<UniformMass totalMass='2'/><Node name='block'>"
      "<SparseGridTopology n='2 2 2' fileTopology='cube.obj'/><MechanicalObject/>"
      "<HexahedronFEMForceField/><Node name='placed'><MechanicalObject name='world'/>"
      "<DeformableOnRigidFrameMapping input1='@..' input2='@../../frame' output='@world' " +
      mapping + "/><Node name='skin'><MechanicalObject position='" + points +
      "'/><BarycentricMapping/>" + child + "</Node></Node></Node></Node></Node>";
  eis::SofaImportOptions options;
  options.sceneFolder = folder.string();
  const eis::SofaImport imported = eis::importSofaScene(eis::SofaScene(text, "c.scn"), options);
  std::map<std::string, std::string> keys;
  for (const eis::SofaObjectKeys& object : imported.objects)
    if (object.path == "/carrier/block")
      for (const eis::SofaKey& k : object.keys) keys[k.key] = k.value;
  return keys;
}

const std::string kPlane = "<PlaneForceField normal='0 1 0' d='-4' stiffness='100' damping='1'/>";

TEST(SofaCarriedPoints, PointsInTheGridsCubeUnderTheFramesPlane) {
  // The cube's box widened by 1% runs from -0.01 to 1.01: its middle has coordinates 1/2, every
  // corner weight 1/8; a point at -0.01 + 1.02 (1/4, 1/2, 3/4) weighs its corners by the
  // trilinear products of those.
  const auto keys = carriedKeys("index='1'", "0.5 0.5 0.5  0.245 0.5 0.755", kPlane);
  EXPECT_EQ(keys.at("carried.frames"), "/carrier 1");
  EXPECT_EQ(keys.at("carried.plane"), "0 1 0 -4 100 1 0");
  const eis::Texts points = eis::parse::tokens(keys.at("carried.points"));
  ASSERT_EQ(points.size(), 2u);
  std::map<int, double> first, second;
  for (const auto& [word, weights] : {std::pair{points[0], &first}, {points[1], &second}}) {
    std::size_t start = 0;
    while (start < word.size()) {
      const std::size_t end = std::min(word.find('/', start), word.size());
      const std::string part = word.substr(start, end - start);
      (*weights)[std::stoi(part.substr(0, part.find(':')))] =
          std::stod(part.substr(part.find(':') + 1));
      start = end + 1;
    }
  }
  ASSERT_EQ(first.size(), 8u);
  for (const auto& [node, weight] : first) EXPECT_DOUBLE_EQ(weight, 0.125) << node;
  ASSERT_EQ(second.size(), 8u);
  double sum = 0, largest = 0;
  for (const auto& [node, weight] : second) {
    sum += weight;
    largest = std::max(largest, weight);
  }
  EXPECT_NEAR(sum, 1, 1e-15);
  // The corner at (0, y, 1) of the x = 1/4, z = 3/4 point: (3/4)(1/2)(3/4).
  EXPECT_NEAR(largest, 0.75 * 0.5 * 0.75, 1e-12);
  // The body has no mass of its own: under the CG it is solved with the frame, not as a massless
  // body alone (no preconditioner, a start at 0).
  EXPECT_EQ(keys.count("solver.initial-guess"), 0u);
}

TEST(SofaCarriedPoints, WhatIsNotCarriedIsRefused) {
  const std::string mass =
      errorOf([] { carriedKeys("", "0.5 0.5 0.5", "<UniformMass totalMass='1'/>" + kPlane); });
  EXPECT_NE(mass.find("only PlaneForceField is carried there"), std::string::npos) << mass;
  const std::string spread =
      errorOf([] { carriedKeys("repartition='1 0'", "0.5 0.5 0.5", kPlane); });
  EXPECT_NE(spread.find("points spread over several frames"), std::string::npos) << spread;
  const std::string fromEnd =
      errorOf([] { carriedKeys("indexFromEnd='1'", "0.5 0.5 0.5", kPlane); });
  EXPECT_NE(fromEnd.find("write the frame's index from the start"), std::string::npos) << fromEnd;
  const std::string unknown = errorOf([] { carriedKeys("offset='1'", "0.5 0.5 0.5", kPlane); });
  EXPECT_NE(unknown.find("unknown data field 'offset'"), std::string::npos) << unknown;
}

}  // namespace
