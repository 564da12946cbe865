// What the SOFA importer says of a body without cells (io/sofa_import.cpp): points alone, which
// the distributed mesh cannot hold, and points a topological mapping computes, each one error
// naming the cause.
#include <gtest/gtest.h>

#include <string>

#include "eis/io/sofa_import.hpp"
#include "eis/io/sofa_scene.hpp"
#include "error_of.hpp"

namespace {

using eis::SofaScene;
using eis_test::errorOf;

std::string importError(const std::string& body) {
  return errorOf([&] {
    eis::importSofaScene(SofaScene("<Node><EulerImplicitSolver/>" + body + "</Node>", "t.scn"),
                         eis::SofaImportOptions{});
  });
}

TEST(SofaPointsOnly, PointsWithoutCells) {
  const std::string six =
      "<MechanicalObject position='0 0 4 1 0 4 2 0 4 3 0 4 4 0 4 5 0 4'/><UniformMass/>";
  EXPECT_NE(importError(six + "<MeshTopology name='m'/>")
                .find("6 points and no cells (no tetrahedra, hexahedra, triangles, quads or "
                      "edges in MeshTopology 'm'"),
            std::string::npos);
  EXPECT_NE(importError("<MechanicalObject rest_position='0 0 0' position='0 0 0'/><UniformMass/>")
                .find("1 point and no cells"),
            std::string::npos);
  EXPECT_NE(importError("<MechanicalObject/><UniformMass/>").find("no mesh"), std::string::npos);
}

TEST(SofaPointsOnly, PointsOfATopologicalMapping) {
  EXPECT_NE(importError("<PointSetTopologyContainer name='p'/><Mesh2PointTopologicalMapping "
                        "output='@p'/><MechanicalObject/><UniformMass/>")
                .find("Mesh2PointTopologicalMapping: gives MechanicalObject"),
            std::string::npos);
}

}  // namespace
