// SOFA's EdgePressureForceField (io/sofa_edge_pressure.cpp) on a GridMeshCreator of 3 x 2
// points (pattern 1): worked by hand from GridMeshCreator.cpp, its triangles are (0 1 4),
// (0 4 3), (1 2 4), (2 5 4), its edges in their std::set order (0 1) (1 2) (1 4) (2 4) (2 5)
// (3 0) (4 0) (4 3) (5 4), and those of one triangle, the boundary container's, (0 1) (1 2)
// (2 5) (3 0) (4 3) (5 4): lengths 0.5 0.5 1 1 0.5 0.5. A box around x = 1 holds edge 2, (2 5).
// With p_intensity SOFA scales it by the length of the container's edge 0 (0.5), with pressure
// by its own (1). Edge 4 of the container is (4 3).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "eis/core/error.hpp"
#include "eis/io/sofa_import.hpp"
#include "eis/io/sofa_scene.hpp"
#include "error_of.hpp"

namespace {

std::vector<std::string> edgeKeys(const std::string& field) {
  const std::string text =
      "<Node name='root'><Node name='sheet'><EulerImplicitSolver/><CGLinearSolver/>"
      "<GridMeshCreator name='loader' resolution='3 2' trianglePattern='1'/>"
      "<MechanicalObject name='dofs' position='@loader.position'/>"
      "<TriangleSetTopologyContainer name='Container' position='@loader.position'"
      " edges='@loader.edges' triangles='@loader.triangles'/>"
      "<UniformMass totalMass='1'/><MeshSpringForceField trianglesStiffness='10'/>"
      "<Node name='boundary'><EdgeSetTopologyContainer name='Container'/>"
      "<Triangle2EdgeTopologicalMapping input='@../Container' output='@Container'/>"
      "<BoxROI name='box' box='0.9 -0.1 -0.1 1.1 1.1 0.1' position='@../dofs.rest_position'"
      " edges='@Container.edges'/>"
      "<EdgePressureForceField " +
      field + "/></Node></Node></Node>";
  eis::SofaImportOptions options;
  const eis::SofaImport imported = eis::importSofaScene(eis::SofaScene(text, "t.scn"), options);
  std::vector<std::string> values;
  for (const eis::SofaKey& k : imported.objects.at(0).keys)
    if (k.key == "load.edge-pressure") values.push_back(k.value);
  return values;
}

TEST(SofaEdgePressure, FollowerTakesTheLengthOfTheContainersIthEdge) {
  EXPECT_EQ(edgeKeys("edgeIndices='@box.edgeIndices' p_intensity='-10' binormal='0 0 1'"),
            std::vector<std::string>{"follower -10 0 0 1 edges 2 5 0.5"});
}

TEST(SofaEdgePressure, PressureTakesTheLengthOfItsEdge) {
  EXPECT_EQ(edgeKeys("edgeIndices='@box.edgeIndices' pressure='1 0 0' p_intensity='-10' "
                     "binormal='0 0 1'"),
            std::vector<std::string>{"constant 1 0 0 edges 2 5 1"});
}

TEST(SofaEdgePressure, SelectsAlongAPlaneOrByEnds) {
  const std::vector<std::string> expected{"follower -10 0 0 1 edges 2 5 0.5"};
  // 0.9 < x < 1.1 holds the edge (2 5); `edges` finds it by its ends in the topology's order.
  EXPECT_EQ(edgeKeys("normal='1 0 0' dmin='0.9' dmax='1.1' p_intensity='-10' binormal='0 0 1'"),
            expected);
  EXPECT_EQ(edgeKeys("edges='2 5' p_intensity='-10' binormal='0 0 1'"), expected);
  // Reversed, it is none of the topology's: SOFA's index stays 0, the edge (0 1).
  EXPECT_EQ(edgeKeys("edges='5 2' p_intensity='-10' binormal='0 0 1'"),
            std::vector<std::string>{"follower -10 0 0 1 edges 0 1 0.5"});
  // edgeIndices replace the plane's edges.
  EXPECT_EQ(edgeKeys("edgeIndices='4' normal='1 0 0' dmin='0.9' dmax='1.1' pressure='0 2 0'"),
            std::vector<std::string>{"constant 0 2 0 edges 4 3 0.5"});
}

TEST(SofaEdgePressure, RefusesAnIntensityWithoutBinormal) {
  EXPECT_NE(eis_test::errorOf([] {
              edgeKeys("edgeIndices='@box.edgeIndices' p_intensity='-10'");
            }).find("binormal"),
            std::string::npos);
}

}  // namespace
