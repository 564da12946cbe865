// The ParaView time series: two steps of a two-tetrahedron piece, read back byte for byte by a
// small reader of our own (tests/common/vtu_reader.hpp), and the errors for places that cannot be
// written.
#include "eis/core/error.hpp"
#include "eis/io/vtk_output.hpp"
#include "vtu_reader.hpp"

#include <gtest/gtest.h>
#include <petscsys.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

using vtu::attribute;
using vtu::dataArray;
using vtu::openingTags;
using vtu::readText;

std::string errorOf(const std::function<void()>& action) {
  try {
    action();
  } catch (const eis::Error& error) {
    return error.what();
  }
  return "";
}

std::string constructionError(const std::string& prefix) {
  return errorOf([&] { eis::VtkSeriesWriter writer(PETSC_COMM_WORLD, prefix); });
}

// Two tetrahedra sharing the face 1-2-3; point 4 is a ghost copy owned by another rank.
eis::VtkPiece twoTets() {
  eis::VtkPiece piece;
  piece.points = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1};
  piece.tets = {0, 1, 2, 3, 1, 2, 3, 4};
  piece.nodeIds = {7, 3, 9, 0, 12};
  piece.owned = {1, 1, 1, 1, 0};
  return piece;
}

std::vector<eis::VtkField> displacement(int step) {
  std::vector<double> values(15);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = step + 0.1 * double(i) / 3.0;
  return {{"displacement", 3, values}};
}

class VtkOutputTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("eis_vtk_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(VtkOutputTest, WritesSeriesThatReadsBack) {
  const std::vector<eis::VtkField> vonMises = {{"von_mises", 1, {1.5, 1e-300}}};
  eis::VtkSeriesWriter writer(PETSC_COMM_WORLD, (dir_ / "out" / "beam").string());
  EXPECT_EQ(writer.pvdPath(), (dir_ / "out" / "beam.pvd").string());

  writer.write(0, 0.0, twoTets(), displacement(0), vonMises);
  EXPECT_EQ(openingTags(readText(writer.pvdPath()), "DataSet").size(), 1u);
  writer.write(1, 0.1, twoTets(), displacement(1), vonMises);

  // The series lists both steps, with times that read back exactly.
  const std::vector<std::string> dataSets = openingTags(readText(writer.pvdPath()), "DataSet");
  ASSERT_EQ(dataSets.size(), 2u);
  EXPECT_EQ(attribute(dataSets[0], "file"), "beam_000000.pvtu");
  EXPECT_EQ(std::strtod(attribute(dataSets[0], "timestep").c_str(), nullptr), 0.0);
  EXPECT_EQ(attribute(dataSets[1], "file"), "beam_000001.pvtu");
  EXPECT_EQ(std::strtod(attribute(dataSets[1], "timestep").c_str(), nullptr), 0.1);
  EXPECT_FALSE(fs::exists(writer.pvdPath() + ".tmp"));

  // The step's index declares every array and names the one piece.
  const std::string pvtu = readText(dir_ / "out" / "beam_000001.pvtu");
  const std::vector<std::string> pieces = openingTags(pvtu, "Piece");
  ASSERT_EQ(pieces.size(), 1u);
  EXPECT_EQ(attribute(pieces[0], "Source"), "beam_000001/piece_0000.vtu");
  std::vector<std::string> declared;
  for (const std::string& tag : openingTags(pvtu, "PDataArray"))
    declared.push_back(attribute(tag, "Name"));
  EXPECT_EQ(declared, (std::vector<std::string>{"node_id", "vtkGhostType", "displacement", "rank",
                                                "vtkGhostType", "von_mises", "Points"}));
  // One rank: no ghost cells.
  EXPECT_EQ(attribute(openingTags(pvtu, "PUnstructuredGrid").at(0), "GhostLevel"), "0");

  const std::string vtu = readText(dir_ / "out" / "beam_000001" / "piece_0000.vtu");
  const std::vector<std::string> piece = openingTags(vtu, "Piece");
  ASSERT_EQ(piece.size(), 1u);
  EXPECT_EQ(attribute(piece[0], "NumberOfPoints"), "5");
  EXPECT_EQ(attribute(piece[0], "NumberOfCells"), "2");
  const std::string end = "</AppendedData>\n</VTKFile>\n";
  EXPECT_EQ(vtu.substr(vtu.size() - end.size()), end);
  EXPECT_EQ(dataArray<double>(vtu, "Points", "Float64"), twoTets().points);
  EXPECT_EQ(dataArray<std::int64_t>(vtu, "connectivity", "Int64"), twoTets().tets);
  EXPECT_EQ(dataArray<std::int64_t>(vtu, "offsets", "Int64"), (std::vector<std::int64_t>{4, 8}));
  EXPECT_EQ(dataArray<unsigned char>(vtu, "types", "UInt8"), (std::vector<unsigned char>{10, 10}));
  EXPECT_EQ(dataArray<std::int64_t>(vtu, "node_id", "Int64"), twoTets().nodeIds);
  EXPECT_EQ(dataArray<unsigned char>(vtu, "vtkGhostType", "UInt8"),
            (std::vector<unsigned char>{0, 0, 0, 0, 1}));
  EXPECT_EQ(dataArray<std::int32_t>(vtu, "rank", "Int32"), (std::vector<std::int32_t>{0, 0}));
  EXPECT_EQ(vtu::readPiece(dir_ / "out" / "beam_000001" / "piece_0000.vtu").cellGhost,
            (std::vector<unsigned char>{0, 0}));
  EXPECT_EQ(dataArray<double>(vtu, "displacement", "Float64"), displacement(1)[0].values);
  EXPECT_EQ(dataArray<double>(vtu, "von_mises", "Float64"), vonMises[0].values);
}

TEST_F(VtkOutputTest, UnwritablePlacesThrowNamingThePath) {
  // A folder that cannot be created: the constructor fails.
  EXPECT_NE(constructionError("/proc/eis_vtk/beam").find("/proc/eis_vtk"), std::string::npos);

  // A folder that exists but takes no new entries: the first write fails.
  eis::VtkSeriesWriter inProc(PETSC_COMM_WORLD, "/proc/beam");
  EXPECT_NE(errorOf([&] { inProc.write(0, 0.0, twoTets(), {}, {}); }).find("/proc/beam_000000"),
            std::string::npos);

  // A regular file where a folder should be.
  fs::create_directories(dir_);
  std::ofstream(dir_ / "plain").put('x');
  const std::string blocked = (dir_ / "plain" / "beam").string();
  EXPECT_NE(constructionError(blocked).find((dir_ / "plain").string()), std::string::npos);
}

TEST_F(VtkOutputTest, RejectsInconsistentSizes) {
  eis::VtkSeriesWriter writer(PETSC_COMM_WORLD, (dir_ / "beam").string());
  std::vector<eis::VtkField> shortField = displacement(0);
  shortField[0].values.pop_back();
  EXPECT_NE(errorOf([&] { writer.write(0, 0.0, twoTets(), shortField, {}); }).find("displacement"),
            std::string::npos);

  eis::VtkPiece badIndex = twoTets();
  badIndex.tets[7] = 5;
  EXPECT_NE(errorOf([&] { writer.write(0, 0.0, badIndex, {}, {}); }), "");
  EXPECT_NE(constructionError("out/"), "");
}

}  // namespace
