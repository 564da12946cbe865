// SOFA's GIDMeshLoader read as a body's mesh (io/sofa_gid_mesh.cpp), on GiD files written here:
// the points in file order (their ids ignored, as GIDMeshLoader::readGID does), the cells' 1-based
// point numbers made 0-based, a 2D file's points at z = 0, and a malformed file one error.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "eis/io/sofa_import.hpp"
#include "eis/io/sofa_scene.hpp"
#include "error_of.hpp"

namespace {

namespace fs = std::filesystem;
using eis::SofaScene;
using eis_test::errorOf;

class GidMesh : public ::testing::Test {
protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() / ("eis_gid_" + std::to_string(::getpid()));
    fs::create_directories(folder_);
  }
  void TearDown() override { fs::remove_all(folder_); }

  // The keys of a body whose MeshTopology takes the GiD file `text` with src.
  std::map<std::string, std::string> keys(const std::string& text, const std::string& loader = "") {
    std::ofstream(folder_ / "m.gidmsh") << text;
    eis::SofaImportOptions options;
    options.sceneFolder = folder_.string();
    const eis::SofaImport imported = eis::importSofaScene(
        SofaScene("<Node><EulerImplicitSolver/><GIDMeshLoader name='l' filename='m.gidmsh' " +
                      loader +
                      "/><MeshTopology src='@l'/><MechanicalObject/><UniformMass "
                      "totalMass='1'/></Node>",
                  "t.scn"),
        options);
    std::map<std::string, std::string> found;
    for (const eis::SofaKey& k : imported.objects.at(0).keys) found[k.key] = k.value;
    return found;
  }

private:
  fs::path folder_;
};

const char* const kTwoTetrahedra =
    "MESH \"box\" dimension 3 ElemType Tetrahedra Nnode 4\n"
    "Coordinates\n"
    "    7 0 0 0\n    3 1 0 0\n    9 0 1 0\n    1 0 0 1\n    2 1 1 1\n"
    "End Coordinates\n\n"
    "Elements\n"
    "  10 1 2 3 4\n  11 2 5 3 4\n"
    "end elements\n";

TEST_F(GidMesh, PointsAndCellsAsSofa) {
  auto k = keys(kTwoTetrahedra);
  EXPECT_EQ(k["mesh.nodes"], "0 0 0 1 0 0 0 1 0 0 0 1 1 1 1");
  EXPECT_EQ(k["mesh.tetrahedra"], "0 1 2 3 1 4 2 3");
  // The loader's transform applies as a MeshGmshLoader's.
  EXPECT_EQ(keys(kTwoTetrahedra, "translation='1 2 3'")["mesh.transform"], "translate 1 2 3");
  // A 2D file of quadrilaterals (Nnode 8: the first 4 points of each, as SOFA reads them).
  k = keys(
      "MESH dimension 2 ElemType Quadrilateral Nnode 8\ncoordinates\n1 0 0\n2 1 0\n3 1 1\n"
      "4 0 1\nEND COORDINATES\nELEMENTS\n1 1 2 3 4 9 9 9 9\nEnd Elements\n");
  EXPECT_EQ(k["mesh.nodes"], "0 0 0 1 0 0 1 1 0 0 1 0");
  EXPECT_EQ(k["mesh.quadrangles"], "0 1 2 3");
}

TEST_F(GidMesh, MalformedFiles) {
  const auto error = [&](const std::string& text) { return errorOf([&] { keys(text); }); };
  EXPECT_NE(error("MESH dimension 3 ElemType Prism Nnode 6\n").find("Prism"), std::string::npos);
  EXPECT_NE(error("MESH dimension 3 ElemType Tetrahedra Nnode 5\n").find("Nnode"),
            std::string::npos);
  EXPECT_NE(error("mesh dimension 3 ElemType Tetrahedra Nnode 4\n").find("MESH"),
            std::string::npos);
  EXPECT_NE(error("MESH dimension 3 ElemType Tetrahedra Nnode 4\n1 0 0 0\n").find("coordinates"),
            std::string::npos);
  std::string outOfRange = kTwoTetrahedra;
  outOfRange.replace(outOfRange.find("2 5 3 4"), 7, "2 6 3 4");
  EXPECT_NE(error(outOfRange).find("point 6 of 5"), std::string::npos);
}

}  // namespace
