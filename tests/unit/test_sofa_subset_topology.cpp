// SOFA's SubsetTopology read as a body's mesh (io/sofa_subset_topology.cpp), on a Gmsh file of
// three tetrahedra written here, its renumbering worked out by hand from SubsetTopology.inl; its
// points and tetrahedra as a rigidly mapped child's, from that file through a MeshTopology and
// from an OBJ file's vertices and faces (MeshOBJLoader.cpp).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "eis/io/sofa_import.hpp"
#include "eis/io/sofa_scene.hpp"
#include "error_of.hpp"

namespace {

namespace fs = std::filesystem;
using eis::SofaScene;
using eis_test::errorOf;

// Points 0 (0 0 0), 1 (1 0 0), 2 (0 1 0), 3 (0 0 1), 4 (2 1 0), 5 (3 0 0); tetrahedra
// T0 = 0 1 2 3, T1 = 1 4 2 3, T2 = 1 5 4 3.
class SubsetTopology : public ::testing::Test {
protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() / ("eis_subset_" + std::to_string(::getpid()));
    fs::create_directories(folder_);
    std::ofstream(folder_ / "three.msh") << "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n6\n"
                                            "1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n5 2 1 0\n"
                                            "6 3 0 0\n$EndNodes\n$Elements\n3\n"
                                            "1 4 2 0 1 1 2 3 4\n2 4 2 0 1 2 5 3 4\n"
                                            "3 4 2 0 1 2 6 5 4\n$EndElements\n";
    // Points 0 (0 0 0), 1 (1 0 0), 2 (0 1 0), 3 (0 0 1), 4 (3 0 0), 5 (3 3 0); a triangle
    // 0 1 2, a quad 3 0 5 4, a pentagon 1 4 5 2 0 (a fan: 1 4 5, 1 5 2, 1 2 0) and an edge 3 4.
    std::ofstream(folder_ / "faces.obj") << "# faces\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"
                                            "v 3 0 0\nv 3 3 0\nvt 0 0\nf 1/1 2/1 3/1\n"
                                            "f 4 1 6 5\nf 2 5 6 3 1\nl 4 5\n";
  }
  void TearDown() override { fs::remove_all(folder_); }

  // The keys of a body whose points are the subset's `points` and tetrahedra its `cells`.
  std::map<std::string, std::string> keys(const std::string& subset, const std::string& points,
                                          const std::string& cells) {
    eis::SofaImportOptions options;
    options.sceneFolder = folder_.string();
    const eis::SofaImport imported = eis::importSofaScene(
        SofaScene("<Node><EulerImplicitSolver/><MeshGmshLoader name='l' filename='three.msh'/>" +
                      subset + "<Node name='b'><MechanicalObject name='m' position='@../s." +
                      points +
                      "'/><TetrahedronSetTopologyContainer position='@m.position' "
                      "tetrahedra='@../s." +
                      cells + "'/><UniformMass totalMass='1'/></Node></Node>",
                  "t.scn"),
        options);
    std::map<std::string, std::string> found;
    for (const eis::SofaKey& k : imported.objects.at(0).keys) found[k.key] = k.value;
    return found;
  }

  // The keys of a frame at `frame` whose mapped child's points are `points` (a link), the scene's
  // `sources` beside the frame, `child` more objects in the child's node.
  std::map<std::string, std::string> mappedKeys(const std::string& sources,
                                                const std::string& points,
                                                const std::string& child = "",
                                                const std::string& frame = "0 0 0 0 0 0 1") {
    eis::SofaImportOptions options;
    options.sceneFolder = folder_.string();
    const eis::SofaImport imported = eis::importSofaScene(
        SofaScene("<Node><Node name='t'>" + sources +
                      "</Node><Node name='r'><EulerImplicitSolver/><MechanicalObject "
                      "template='Rigid3' position='" +
                      frame +
                      "'/><UniformMass totalMass='1'/><Node name='c'><MechanicalObject "
                      "template='Vec3' position='" +
                      points + "'/>" + child +
                      "<UniformMass vertexMass='2'/><RigidMapping/></Node></Node></Node>",
                  "t.scn"),
        options);
    std::map<std::string, std::string> found;
    for (const eis::SofaKey& k : imported.objects.at(0).keys) found[k.key] = k.value;
    return found;
  }
  std::string mappedPoints(const std::string& sources, const std::string& points) {
    return mappedKeys(sources, points)["rigid.mapped-points"];
  }

private:
  fs::path folder_;
};

// The box holds 0 1 2 3: T0 is in; T1 and T2 have points out, so 1 2 3 are on the border and
// come first in both lists (local ids 0 1 2), then 0 in pointsInROI (3), 4 and 5 in pointsOutROI
// (3, 4).
TEST_F(SubsetTopology, LocalIndicesAsSofa) {
  const std::string subset =
      "<SubsetTopology name='s' src='@l' rest_position='@l.position' box='1.5 1.5 1.5 -0.5 -0.5 "
      "-0.5' localIndices='1'/>";
  auto k = keys(subset, "pointsInROI", "tetrahedraInROI");
  EXPECT_EQ(k["mesh.nodes"], "1 0 0 0 1 0 0 0 1 0 0 0");
  EXPECT_EQ(k["mesh.tetrahedra"], "3 0 1 2");
  k = keys(subset, "pointsOutROI", "tetrahedraOutROI");
  EXPECT_EQ(k["mesh.nodes"], "1 0 0 0 1 0 0 0 1 2 1 0 3 0 0");
  EXPECT_EQ(k["mesh.tetrahedra"], "0 3 1 2 0 4 3 2");
}

// Spheres instead of boxes: the point 0 alone is within 0.5 of the origin, no tetrahedron is in;
// the border is 0 (of T0), first in both lists. A cell is in only when one region holds it all.
TEST_F(SubsetTopology, SpheresAndRegions) {
  auto k = keys(
      "<SubsetTopology name='s' src='@l' rest_position='@l.position' centers='0 0 0' "
      "radii='0.5' localIndices='1'/>",
      "pointsOutROI", "tetrahedraOutROI");
  EXPECT_EQ(k["mesh.nodes"], "0 0 0 1 0 0 0 1 0 0 0 1 2 1 0 3 0 0");
  EXPECT_EQ(k["mesh.tetrahedra"], "0 1 2 3 1 4 2 3 1 5 4 3");
  // Two boxes, each holding part of T1 (1 2 3 | 4): T1 is in neither.
  k = keys(
      "<SubsetTopology name='s' src='@l' rest_position='@l.position' box='-0.5 -0.5 -0.5 1.5 1.5 "
      "1.5  1.5 0.5 -0.5 2.5 1.5 0.5' localIndices='1'/>",
      "pointsInROI", "tetrahedraInROI");
  EXPECT_EQ(k["mesh.tetrahedra"], "3 0 1 2");
}

TEST_F(SubsetTopology, Refusals) {
  const auto error = [&](const std::string& subset, const std::string& points,
                         const std::string& cells) {
    return errorOf([&] { keys(subset, points, cells); });
  };
  const std::string box = "<SubsetTopology name='s' src='@l' rest_position='@l.position' ";
  EXPECT_NE(error(box + "/>", "pointsInROI", "tetrahedraInROI").find("localIndices"),
            std::string::npos);
  EXPECT_NE(
      error(box + "localIndices='1'/>", "pointsInROI", "tetrahedraOutROI").find("tetrahedraInROI"),
      std::string::npos);
  EXPECT_NE(error(box + "localIndices='1' tetrahedraInput='0'/>", "pointsInROI", "tetrahedraInROI")
                .find("tetrahedraInput"),
            std::string::npos);
  EXPECT_NE(error("<SubsetTopology name='s' rest_position='0 0 0' localIndices='1'/>",
                  "pointsInROI", "tetrahedraInROI")
                .find("rest_position"),
            std::string::npos);
  EXPECT_NE(error(box + "localIndices='1' box='5 5 5 6 6 6'/>", "pointsInROI", "tetrahedraInROI")
                .find("no tetrahedra in"),
            std::string::npos);
}

// SubsetTopology_subsetbehaviormodel.scn's links: the rigidly mapped child's points are the
// subset's pointsInROI, which reads the Gmsh file through a MeshTopology (1 2 3 on the border,
// then 0, as in LocalIndicesAsSofa), each on frame 0 at its place.
TEST_F(SubsetTopology, PointsOfARigidlyMappedChild) {
  const std::string topology =
      "<MeshGmshLoader name='l' filename='three.msh'/><MeshTopology name='m' src='@l'/>"
      "<SubsetTopology name='s' box='-0.5 -0.5 -0.5 1.5 1.5 1.5' rest_position='@m.position' "
      "tetrahedra='@m.tetrahedra' triangles='@m.triangles' localIndices='1'/>";
  EXPECT_EQ(mappedPoints(topology, "@../../t/s.pointsInROI"), "0 1 0 0 0 0 1 0 0 0 0 1 0 0 0 0");
  EXPECT_EQ(mappedPoints(topology, "@../../t/s.pointsOutROI"),
            "0 1 0 0 0 0 1 0 0 0 0 1 0 2 1 0 0 3 0 0");
}

// The same child's TetrahedronFEMForceField on the subset's tetrahedraInROI (or OutROI) through
// a TetrahedronSetTopologyContainer, as LocalIndicesAsSofa numbers them; on the tetrahedra of the
// loader itself through a MeshTopology's src, the points the loader's; on tetrahedra written.
TEST_F(SubsetTopology, TetrahedraOfARigidlyMappedChild) {
  const std::string topology =
      "<MeshGmshLoader name='l' filename='three.msh'/><MeshTopology name='m' src='@l'/>"
      "<SubsetTopology name='s' box='-0.5 -0.5 -0.5 1.5 1.5 1.5' rest_position='@m.position' "
      "tetrahedra='@m.tetrahedra' localIndices='1'/>";
  const auto fem = [](const std::string& container) {
    return container + "<TetrahedronFEMForceField youngModulus='100' method='polar'/>";
  };
  auto k =
      mappedKeys(topology, "@../../t/s.pointsInROI",
                 fem("<TetrahedronSetTopologyContainer tetrahedra='@../../t/s.tetrahedraInROI'/>"));
  EXPECT_EQ(k["rigid.mapped-tetrahedra"], "3 0 1 2");
  EXPECT_EQ(k["rigid.mapped-young-modulus"], "100");
  EXPECT_EQ(k["rigid.mapped-poisson-ratio"], "0.45");
  EXPECT_EQ(k["rigid.mapped-fem-method"], "polar");
  k = mappedKeys(
      topology, "@../../t/s.pointsOutROI",
      fem("<TetrahedronSetTopologyContainer tetrahedra='@../../t/s.tetrahedraOutROI'/>"));
  EXPECT_EQ(k["rigid.mapped-tetrahedra"], "0 3 1 2 0 4 3 2");
  k = mappedKeys(topology, "@../../t/l.position", fem("<MeshTopology src='@../../t/l'/>"));
  EXPECT_EQ(k["rigid.mapped-points"], "0 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1 0 2 1 0 0 3 0 0");
  EXPECT_EQ(k["rigid.mapped-tetrahedra"], "0 1 2 3 1 4 2 3 1 5 4 3");
  k = mappedKeys(topology, "@../../t/s.pointsInROI",
                 "<MeshTopology tetrahedra='0 1 2 3'/><TetrahedronFEMForceField method='small'/>");
  EXPECT_EQ(k["rigid.mapped-tetrahedra"], "0 1 2 3");
  EXPECT_EQ(k["rigid.mapped-fem-method"], "small");
  EXPECT_EQ(k["rigid.mapped-young-modulus"], "5000");
  // SOFA's small element measures from the points as written, local to a frame that is moved.
  EXPECT_NE(errorOf([&] {
              mappedKeys(topology, "@../../t/s.pointsInROI",
                         "<MeshTopology tetrahedra='0 1 2 3'/><TetrahedronFEMForceField "
                         "method='small'/>",
                         "0 0 1 0 0 0 1");
            }).find("method = 'small'"),
            std::string::npos);
  const auto refused = [&](const std::string& child) {
    return errorOf([&] { mappedKeys(topology, "@../../t/s.pointsInROI", child); });
  };
  EXPECT_NE(refused(fem("<MeshTopology tetrahedra='0 1 2 4'/>")).find("point 4 of 4"),
            std::string::npos);
  EXPECT_NE(
      refused(fem("<TetrahedronSetTopologyContainer tetrahedra='@../../t/s.tetrahedraOutROI'/>"))
          .find("5 points in"),
      std::string::npos);
  EXPECT_NE(refused("<TetrahedronFEMForceField/>")
                .find("TetrahedronSetTopologyContainer or "
                      "MeshTopology in its node"),
            std::string::npos);
  EXPECT_NE(refused(fem("<MeshTopology tetrahedra='0 1 2 3'/>") + "<HexahedronFEMForceField/>")
                .find("one kind"),
            std::string::npos);
  EXPECT_NE(refused("<MeshTopology tetrahedra='0 1 2 3'/><TetrahedronFEMForceField "
                    "localStiffnessFactor='2'/>")
                .find("not supported in a rigidly mapped child"),
            std::string::npos);
}

// MergePoints.scn's subset reads a MeshOBJLoader: its vertices, and the triangles of its faces
// (a quad kept whole, a polygon cut into a fan, an edge left out). The box holds 0 1 2 3; the
// fan's 1 4 5 and 1 5 2 have points in and out, so 1 and 2 are on the border and come first
// with localIndices; the quad 3 0 5 4, not a triangle, puts no point there.
TEST_F(SubsetTopology, PointsOfAnObjLoader) {
  const std::string subset =
      "<MeshOBJLoader name='l' filename='faces.obj'/><SubsetTopology name='s' src='@l' "
      "rest_position='@l.position' box='-0.5 -0.5 -0.5 1.5 1.5 1.5'";
  EXPECT_EQ(mappedPoints(subset + " localIndices='1'/>", "@../../t/s.pointsInROI"),
            "0 1 0 0 0 0 1 0 0 0 0 0 0 0 0 1");
  EXPECT_EQ(mappedPoints(subset + "/>", "@../../t/s.pointsInROI"),
            "0 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1");
  EXPECT_EQ(mappedPoints(subset + " localIndices='1'/>", "@../../t/s.pointsOutROI"),
            "0 1 0 0 0 0 1 0 0 3 0 0 0 3 3 0");
  EXPECT_NE(errorOf([&] {
              mappedPoints(
                  "<MeshOBJLoader name='l' filename='faces.obj' handleSeams='1'/><SubsetTopology "
                  "name='s' src='@l' rest_position='@l.position'/>",
                  "@../../t/s.pointsInROI");
            }).find("handleSeams"),
            std::string::npos);
}

}  // namespace
