// Tests of the SOFA import of bodies that are not a volume mesh from a loader: obstacle nodes that
// no ODE solver integrates (io/sofa_walk.cpp, io/sofa_import.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "eis/io/sofa_import.hpp"
#include "eis/io/sofa_scene.hpp"
#include "error_of.hpp"

namespace {

using eis::SofaScene;
using eis_test::errorOf;

// A beam an EulerImplicitSolver integrates, beside the node `other`.
std::string withBeam(const std::string& other) {
  return "<Node name='root'><DefaultAnimationLoop/><CollisionPipeline/>"
         " <Node name='beam'><EulerImplicitSolver/><CGLinearSolver/>"
         "  <MeshGmshLoader name='l' filename='beam_v22_ascii.msh'/><MechanicalObject "
         "name='dofs' src='@l'/>"
         "  <UniformMass totalMass='1'/></Node>" +
         other + "</Node>";
}

eis::SofaImport imported(const std::string& text) {
  eis::SofaImportOptions options;
  options.sceneFolder = EIS_MESH_DIR;
  return eis::importSofaScene(SofaScene(text, "t.scn"), options);
}

bool anyHas(const std::vector<std::string>& lines, const std::string& part) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& l) { return l.find(part) != std::string::npos; });
}

// The node of SOFA's obstacles: a surface from a loader, its state, collision models and a
// mapped visual child, with no ODE solver in it or above (SOFA's SolveVisitor runs the solvers
// of a node only, so nothing moves it).
const char* kObstacle =
    "<Node name='floor'><MeshOBJLoader name='surface' filename='no-such-file.obj'/>"
    " <MeshTopology src='@surface'/><MechanicalObject src='@surface'/>"
    " <TriangleCollisionModel simulated='0' moving='0'/>"
    " <Node name='visual'><OglModel name='v'/><IdentityMapping input='@..' output='@v'/></Node>"
    "</Node>";

TEST(SofaFreeBodies, UnsolvedObstacleIsSkippedAsCollision) {
  const eis::SofaImport out = imported(withBeam(kObstacle));
  ASSERT_EQ(out.objects.size(), 1u);
  EXPECT_EQ(out.objects[0].path, "/beam");
  EXPECT_TRUE(anyHas(out.warnings, "MechanicalObject without an ODE solver"));
  EXPECT_TRUE(anyHas(out.notes, "in /floor: no ODE solver integrates it and nothing acts on it"));
}

TEST(SofaFreeBodies, UnsolvedStateThatSomethingActsOnIsRefused) {
  // A mass on it.
  std::string node = kObstacle;
  node.insert(node.find("</Node>", node.find("visual")) + 7, "<UniformMass totalMass='2'/>");
  EXPECT_NE(errorOf([&] {
              imported(withBeam(node));
            }).find("no EulerImplicitSolver in its node or above integrates it, yet UniformMass"),
            std::string::npos);
  // A spring from the solved beam to it.
  EXPECT_NE(errorOf([&] {
              imported(withBeam(std::string(kObstacle) +
                                "<SpringForceField object1='@beam/dofs' object2='@floor' "
                                "spring='0 0 1 1 0'/>"));
            }).find("different ODE solvers"),
            std::string::npos);
  // A mapping an ODE solver runs reads it.
  EXPECT_NE(errorOf([&] {
              imported(withBeam(std::string(kObstacle) +
                                "<Node name='m'><EulerImplicitSolver/><Node name='c'>"
                                "<MechanicalObject name='out'/>"
                                "<IdentityMapping input='@/floor' output='@out'/></Node></Node>"));
            }).find("a mapping under an ODE solver reads it"),
            std::string::npos);
  // Nothing else to simulate.
  EXPECT_NE(errorOf([&] {
              imported(std::string("<Node name='root'>") + kObstacle + "</Node>");
            }).find("nor any other MechanicalObject of the scene"),
            std::string::npos);
}

}  // namespace
