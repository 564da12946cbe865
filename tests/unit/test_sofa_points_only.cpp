// What the SOFA importer makes of a body without cells (io/sofa_import.cpp): points alone become
// mesh.nodes with no cell key (a body of points), and points a topological mapping computes are
// one error naming the cause.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "eis/io/sofa_import.hpp"
#include "eis/io/sofa_scene.hpp"
#include "error_of.hpp"

namespace {

using eis::SofaScene;
using eis_test::errorOf;

// The body's keys, in the importer's order, as "key=value" lines.
std::vector<std::string> bodyKeys(const std::string& body) {
  const eis::SofaImport imported =
      eis::importSofaScene(SofaScene("<Node><EulerImplicitSolver/>" + body + "</Node>", "t.scn"),
                           eis::SofaImportOptions{});
  std::vector<std::string> keys;
  for (const eis::SofaKey& k : imported.objects.at(0).keys) keys.push_back(k.key + "=" + k.value);
  return keys;
}

bool has(const std::vector<std::string>& keys, const std::string& line) {
  for (const std::string& k : keys)
    if (k == line) return true;
  return false;
}

bool hasKey(const std::vector<std::string>& keys, const std::string& key) {
  for (const std::string& k : keys)
    if (k.compare(0, key.size() + 1, key + "=") == 0) return true;
  return false;
}

std::string importError(const std::string& body) {
  return errorOf([&] {
    eis::importSofaScene(SofaScene("<Node><EulerImplicitSolver/>" + body + "</Node>", "t.scn"),
                         eis::SofaImportOptions{});
  });
}

TEST(SofaPointsOnly, PointsWithoutCells) {
  const std::vector<std::string> six = bodyKeys(
      "<MechanicalObject position='0 0 4 1 0 4 2 0 4 3 0 4 4 0 4 5 0 4'/>"
      "<UniformMass totalMass='1'/>"
      "<MeshTopology name='m'/>");
  EXPECT_TRUE(has(six, "mesh.nodes=0 0 4 1 0 4 2 0 4 3 0 4 4 0 4 5 0 4"));
  for (const char* cells :
       {"mesh.tetrahedra", "mesh.hexahedra", "mesh.triangles", "mesh.quadrangles", "mesh.edges"})
    EXPECT_FALSE(hasKey(six, cells)) << cells;
  const std::vector<std::string> one = bodyKeys(
      "<MechanicalObject rest_position='1 2 3' position='4 5 6'/>"
      "<UniformMass totalMass='1'/>");
  EXPECT_TRUE(has(one, "mesh.nodes=1 2 3"));
  EXPECT_TRUE(has(one, "initial.positions=4 5 6"));
  // MechanicalObject's constructor: `size` points (default 1) at the origin.
  EXPECT_TRUE(has(bodyKeys("<MechanicalObject/><UniformMass totalMass='1'/>"), "mesh.nodes=0 0 0"));
  EXPECT_TRUE(has(bodyKeys("<MechanicalObject size='2'/><UniformMass totalMass='1'/>"),
                  "mesh.nodes=0 0 0 0 0 0"));
  EXPECT_NE(importError("<MechanicalObject size='0'/>").find("size = '0'"), std::string::npos);
  // No mass component: SOFA's M = 0 (a quasi-static step), under its CGLinearSolver the plain
  // CG from zero.
  const std::vector<std::string> massless = bodyKeys("<CGLinearSolver/><MechanicalObject/>");
  EXPECT_TRUE(has(massless, "mass.type=none"));
  EXPECT_TRUE(has(massless, "solver.preconditioner=none"));
  EXPECT_TRUE(has(massless, "solver.initial-guess=zero"));
  const std::vector<std::string> direct = bodyKeys("<SparseLDLSolver/><MechanicalObject/>");
  EXPECT_TRUE(has(direct, "mass.type=none"));
  EXPECT_FALSE(hasKey(direct, "solver.preconditioner"));
  // A body whose mass would be its mapped child's: not carried with M = 0.
  EXPECT_NE(importError("<MechanicalObject/><Node name='c'><MechanicalObject/>"
                        "<IdentityMapping/><UniformMass/></Node>")
                .find("no mass component: SOFA's step would have M = 0, which is simulated here "
                      "only for a body with no mapped child"),
            std::string::npos);
}

// Cells a topology links from a component not read here are refused, not dropped: the body
// is no body of points.
TEST(SofaPointsOnly, LinkedCellsAreNotDropped) {
  const std::string points =
      "<MechanicalObject position='0 0 0 1 0 0 0 1 0'/>"
      "<UniformMass totalMass='1'/>";
  EXPECT_NE(
      importError("<MeshOBJLoader name='obj' filename='x.obj'/><MeshTopology src='@obj'/>" + points)
          .find("MeshTopology: its cells would come from MeshOBJLoader 'obj' (t.scn:1) (src)"),
      std::string::npos);
  EXPECT_NE(importError("<MeshOBJLoader name='obj' filename='x.obj'/>"
                        "<MeshTopology triangles='@obj.triangles'/>" +
                        points)
                .find("(triangles), not read here"),
            std::string::npos);
}

TEST(SofaPointsOnly, PointsOfATopologicalMapping) {
  EXPECT_NE(importError("<PointSetTopologyContainer name='p'/><Mesh2PointTopologicalMapping "
                        "output='@p'/><MechanicalObject/><UniformMass/>")
                .find("Mesh2PointTopologicalMapping: gives MechanicalObject"),
            std::string::npos);
}

}  // namespace
