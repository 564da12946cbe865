// SOFA's SubsetTopology read as a body's mesh (io/sofa_subset_topology.cpp), on a Gmsh file of
// three tetrahedra written here, its renumbering worked out by hand from SubsetTopology.inl.
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

}  // namespace
