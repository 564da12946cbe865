// Tests of the SOFA import of bodies that are not a volume mesh from a loader: obstacle nodes that
// no ODE solver integrates (io/sofa_walk.cpp, io/sofa_import.cpp), cells written in a
// MeshTopology and MeshSpringForceField's kinds on them (io/sofa_springs.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
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

// The keys of the first body, each key's values in order.
std::map<std::string, std::vector<std::string>> keysOf(const eis::SofaImport& out) {
  std::map<std::string, std::vector<std::string>> keys;
  for (const eis::SofaKey& k : out.objects.at(0).keys) keys[k.key].push_back(k.value);
  return keys;
}

const char* kCube = "0 0 1  1 0 1  0 1 1  1 1 1  0 0 2  1 0 2  0 1 2  1 1 2";

// A MechanicalObject's positions written in the scene, and its MeshTopology's hexahedra (SOFA's
// field `hexahedra`, alias `hexas`): the body's mesh, as MeshSpringForceField's cubes read it.
TEST(SofaFreeBodies, HexahedraWrittenInTheTopology) {
  for (const char* field : {"hexas", "hexahedra"}) {
    const auto keys =
        keysOf(imported(std::string("<Node><EulerImplicitSolver/>"
                                    "<MechanicalObject position='") +
                        kCube + "'/><MeshTopology " + field +
                        "='0 4 6 2 1 5 7 3'/><UniformMass totalMass='1'/>"
                        "<MeshSpringForceField stiffness='100' damping='1'/></Node>"));
    EXPECT_EQ(keys.at("mesh.nodes"), std::vector<std::string>{kCube});
    EXPECT_EQ(keys.at("mesh.hexahedra"), std::vector<std::string>{"0 4 6 2 1 5 7 3"});
    EXPECT_EQ(keys.count("mesh.tetrahedra"), 0u);
    EXPECT_EQ(keys.at("springs.stiffness"), std::vector<std::string>{"100"});
  }
  EXPECT_NE(errorOf([&] {
              imported(std::string("<Node><EulerImplicitSolver/><MechanicalObject position='") +
                       kCube +
                       "'/><MeshTopology hexas='0 4 6 2 1 5 7 3' tetras='0 1 2 4'/></Node>");
            }).find("both tetrahedra and hexahedra written"),
            std::string::npos);
}

// MeshSpringForceField.inl on a MeshTopology whose cells are written: each pair of vertices
// takes the constants of the first kind (lines, triangles, quads, tetrahedra, cubes) that joins
// it and whose stiffness or damping is not 0; SOFA derives the lines from the cells, the
// triangles from the tetrahedra and the quads from the hexahedra.
TEST(SofaFreeBodies, MeshSpringsEachKindOnWrittenCells) {
  const auto springs = [&](const std::string& cells, const std::string& fields) {
    return keysOf(imported(std::string("<Node><EulerImplicitSolver/><MechanicalObject position='") +
                           kCube + "'/><UniformMass totalMass='1'/><MeshTopology " + cells +
                           "/><MeshSpringForceField " + fields + "/></Node>"));
  };
  using V = std::vector<std::string>;
  const std::string hexa = "hexas='0 4 6 2 1 5 7 3'";
  // Edges, face diagonals, body diagonals.
  auto k = springs(hexa, "linesStiffness='300' quadsStiffness='70' cubesStiffness='20'");
  EXPECT_EQ(k.at("springs.stiffness-by-kind"), V{"300 70 20"});
  EXPECT_EQ(k.at("springs.damping-by-kind"), V{"0 0 0"});
  k = springs(hexa, "linesStiffness='10'");  // PatchTestConstraint.scn's, on written cells
  EXPECT_EQ(k.at("springs.stiffness-by-kind"), V{"10 0 0"});
  // A kind with a damping alone takes the pairs it joins first, with its zero stiffness.
  k = springs(hexa, "linesStiffness='3' cubesDamping='2' quadsStiffness='0'");
  EXPECT_EQ(k.at("springs.stiffness-by-kind"), V{"3 0 0"});
  EXPECT_EQ(k.at("springs.damping-by-kind"), V{"0 2 2"});
  // The alias gives every kind its value: one constant for all (the later name in SOFA's
  // attribute order, `stiffness`, wins over `linesStiffness`).
  k = springs(hexa, "stiffness='5' linesStiffness='7' damping='1'");
  EXPECT_EQ(k.at("springs.stiffness"), V{"5"});
  EXPECT_EQ(k.at("springs.damping"), V{"1"});
  EXPECT_EQ(k.count("springs.stiffness-by-kind"), 0u);
  // Triangles and tetrahedra join no pair of a hexahedron.
  k = springs(hexa, "trianglesStiffness='4' tetrahedraStiffness='6' cubesStiffness='8'");
  EXPECT_EQ(k.at("springs.stiffness"), V{"8"});
  // On tetrahedra every kind joins the edges: lines, then triangles, then tetrahedra.
  const std::string tetra = "tetras='0 1 2 4'";
  k = springs(tetra, "trianglesStiffness='4' tetrahedraStiffness='9' quadsStiffness='1'");
  EXPECT_EQ(k.at("springs.stiffness"), V{"4"});
  k = springs(tetra, "tetrasStiffness='9' tetrasDamping='0.5'");
  EXPECT_EQ(k.at("springs.stiffness"), V{"9"});
  EXPECT_EQ(k.at("springs.damping"), V{"0.5"});
  // A topology with edges of its own: not every cell's, refused.
  EXPECT_NE(errorOf([&] {
              springs(hexa + " edges='0 1'", "linesStiffness='3'");
            }).find("stiffness per kind of spring is not supported"),
            std::string::npos);
}

// EllipsoidForceField.inl: center 0 0 0, stiffness 500, damping 5; vradius has no default (0 0
// 0, which SOFA divides by): required here.
TEST(SofaFreeBodies, EllipsoidForceFieldKeys) {
  const auto ellipsoid = [&](const std::string& fields) {
    return keysOf(
        imported(std::string("<Node><EulerImplicitSolver/><MechanicalObject position='") + kCube +
                 "'/><UniformMass totalMass='1'/><MeshTopology hexas='0 4 6 2 1 5 7 3'/>" +
                 "<EllipsoidForceField " + fields + "/></Node>"));
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(ellipsoid("vradius='1 2 3'").at("obstacle.ellipsoid"), V{"0 0 0 1 2 3 500 5"});
  EXPECT_EQ(ellipsoid("center='1 0 -1' vradius='4 2 3' stiffness='-20' damping='0.5'")
                .at("obstacle.ellipsoid"),
            V{"1 0 -1 4 2 3 -20 0.5"});
  EXPECT_NE(errorOf([&] { ellipsoid(""); }).find("vradius"), std::string::npos);
  EXPECT_NE(errorOf([&] { ellipsoid("vradius='1 0 1'"); }).find("expected three radii > 0"),
            std::string::npos);
}

// An AverageCoord that only a visual component reads (Component/Visual/OglLabel.scn prints the
// cube's centre) is skipped with the visuals; one a mechanical component links to is refused.
TEST(SofaFreeBodies, AnalysisEngineOnlyDrawnIsSkipped) {
  const auto scene = [&](const std::string& reader) {
    return std::string("<Node><EulerImplicitSolver/><MechanicalObject position='") + kCube +
           "'/><UniformMass totalMass='1'/><MeshTopology hexas='0 4 6 2 1 5 7 3'/><AverageCoord name='center'/>" +
           reader + "</Node>";
  };
  const eis::SofaImport out = imported(scene("<OglLabel label='@center.average'/>"));
  EXPECT_TRUE(anyHas(out.notes, "skipped (visual only): AverageCoord, OglLabel"));
  EXPECT_NE(errorOf([&] {
              imported(scene("<ConstantForceField forces='@../center.average'/>"));
            }).find("AverageCoord 'center': not supported"),
            std::string::npos);
}

// MechanicalObject::init: a position and a velocity of at most one point each give way to the
// topology's points (Demos/liverConfiguration.scn: position="0 0 0" beside a loader's topology);
// two points are the body's own.
TEST(SofaFreeBodies, OnePointGivesWayToTheTopologysPoints) {
  const auto keys = keysOf(imported(
      "<Node><EulerImplicitSolver/><MeshGmshLoader name='l' filename='beam_v22_ascii.msh'/>"
      "<TetrahedronSetTopologyContainer src='@l'/>"
      "<MechanicalObject position='0 0 0' velocity='0 0 0'/><UniformMass totalMass='1'/></Node>"));
  ASSERT_EQ(keys.count("mesh.file"), 1u);
  EXPECT_NE(keys.at("mesh.file")[0].find("beam_v22_ascii.msh"), std::string::npos);
  EXPECT_EQ(keys.count("mesh.nodes"), 0u);
  EXPECT_EQ(keys.at("initial.velocities"), std::vector<std::string>{"0 0 0"});
  const auto own = keysOf(imported(
      std::string("<Node><EulerImplicitSolver/><MechanicalObject position='") + kCube +
      "'/><UniformMass totalMass='1'/><MeshTopology position='0 0 0  1 0 0' hexas='0 4 6 2 1 5 7 3'/></Node>"));
  EXPECT_EQ(own.at("mesh.nodes"), std::vector<std::string>{kCube});
}

}  // namespace
