// Hexahedra in the mesh files: Gmsh type 5 (2.2 and 4.1, ASCII and binary) and VTK types 12 and
// 11 (legacy and .vtu), read as files written by hand here: node ids by position, each cell's
// vertices in the file's order (SOFA's), a voxel turned into that order, and a file mixing
// tetrahedra with hexahedra refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "eis/mesh/gmsh_reader.hpp"
#include "eis/mesh/mesh_file.hpp"
#include "eis/mesh/vtk_reader.hpp"
#include "mesh_file_test.hpp"

namespace {

using eis::SerialMesh;
using eis::test::TempFile;

// Two unit cubes along x: node i + 3 (j + 2 k) at (i, j, k), Gmsh tags 10 + id.
std::vector<std::array<double, 3>> points() {
  std::vector<std::array<double, 3>> p;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 3; ++i) p.push_back({double(i), double(j), double(k)});
  return p;
}
const std::vector<std::int64_t> kHexahedra = {0, 1, 4, 3, 6, 7, 10, 9, 1, 2, 5, 4, 7, 8, 11, 10};

void expectTheMesh(const SerialMesh& mesh) {
  EXPECT_EQ(mesh.nodes, points());
  EXPECT_EQ(mesh.cells.type(), eis::CellType::Hexahedron);
  EXPECT_EQ(mesh.cells.flat(), kHexahedra);
  EXPECT_EQ(mesh.cellTags.size(), 2u);
}

std::string nodes22() {
  std::string text = "$Nodes\n12\n";
  const auto p = points();
  for (std::size_t n = 0; n < p.size(); ++n)
    text += std::to_string(10 + n) + " " + std::to_string(int(p[n][0])) + " " +
            std::to_string(int(p[n][1])) + " " + std::to_string(int(p[n][2])) + "\n";
  return text + "$EndNodes\n";
}

std::string hexLine(std::size_t cell) {
  std::string line;
  for (int a = 0; a < 8; ++a) line += " " + std::to_string(10 + kHexahedra[8 * cell + a]);
  return line + "\n";
}

// `elements` lines after a count of `count`; a hexahedron in physical group 7 and one in none,
// and a quadrangle (a face, skipped).
std::string gmsh22(const std::string& elements, int count) {
  return "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n" + nodes22() + "$Elements\n" +
         std::to_string(count) + "\n" + elements + "$EndElements\n";
}
std::string twoHexahedra22() {
  return gmsh22("1 5 2 7 1" + hexLine(0) + "2 5 2 0 1" + hexLine(1) + "3 3 2 0 2 10 11 14 13\n", 3);
}

std::string binaryInt(std::int32_t v) {
  return std::string(reinterpret_cast<const char*>(&v), sizeof v);
}
std::string binaryDouble(double v) {
  return std::string(reinterpret_cast<const char*>(&v), sizeof v);
}
std::string binarySize(std::uint64_t v) {
  return std::string(reinterpret_cast<const char*>(&v), sizeof v);
}

std::string twoHexahedra22Binary() {
  std::string text = "$MeshFormat\n2.2 1 8\n" + binaryInt(1) + "\n$EndMeshFormat\n$Nodes\n12\n";
  const auto p = points();
  for (std::size_t n = 0; n < p.size(); ++n)
    text += binaryInt(std::int32_t(10 + n)) + binaryDouble(p[n][0]) + binaryDouble(p[n][1]) +
            binaryDouble(p[n][2]);
  text += "\n$EndNodes\n$Elements\n2\n" + binaryInt(5) + binaryInt(2) + binaryInt(2);
  for (int cell = 0; cell < 2; ++cell) {
    text += binaryInt(cell + 1) + binaryInt(cell == 0 ? 7 : 0) + binaryInt(1);
    for (int a = 0; a < 8; ++a) text += binaryInt(std::int32_t(10 + kHexahedra[8 * cell + a]));
  }
  return text + "\n$EndElements\n";
}

std::string twoHexahedra41() {
  std::string text =
      "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Entities\n0 0 0 1\n1 0 0 0 2 1 1 1 7 0\n"
      "$EndEntities\n$Nodes\n1 12 10 21\n3 1 0 12\n";
  for (int n = 0; n < 12; ++n) text += std::to_string(10 + n) + "\n";
  for (const auto& q : points())
    text += std::to_string(int(q[0])) + " " + std::to_string(int(q[1])) + " " +
            std::to_string(int(q[2])) + "\n";
  return text + "$EndNodes\n$Elements\n1 2 1 2\n3 1 5 2\n1" + hexLine(0) + "2" + hexLine(1) +
         "$EndElements\n";
}

std::string twoHexahedra41Binary() {
  std::string text = "$MeshFormat\n4.1 1 8\n" + binaryInt(1) + "\n$EndMeshFormat\n$Entities\n" +
                     binarySize(0) + binarySize(0) + binarySize(0) + binarySize(1) + binaryInt(1);
  for (double bound : {0, 0, 0, 2, 1, 1}) text += binaryDouble(bound);
  text += binarySize(1) + binaryInt(7) + binarySize(0) + "\n$EndEntities\n$Nodes\n" +
          binarySize(1) + binarySize(12) + binarySize(10) + binarySize(21) + binaryInt(3) +
          binaryInt(1) + binaryInt(0) + binarySize(12);
  for (int n = 0; n < 12; ++n) text += binarySize(10 + n);
  for (const auto& q : points())
    text += binaryDouble(q[0]) + binaryDouble(q[1]) + binaryDouble(q[2]);
  text += "\n$EndNodes\n$Elements\n" + binarySize(1) + binarySize(2) + binarySize(1) +
          binarySize(2) + binaryInt(3) + binaryInt(1) + binaryInt(5) + binarySize(2);
  for (int cell = 0; cell < 2; ++cell) {
    text += binarySize(cell + 1);
    for (int a = 0; a < 8; ++a) text += binarySize(10 + kHexahedra[8 * cell + a]);
  }
  return text + "\n$EndElements\n";
}

TEST(HexahedralMeshFiles, GmshInEveryFlavour) {
  for (const auto& [name, text] : {std::pair<std::string, std::string>{"a22.msh", twoHexahedra22()},
                                   {"b22.msh", twoHexahedra22Binary()},
                                   {"a41.msh", twoHexahedra41()},
                                   {"b41.msh", twoHexahedra41Binary()}}) {
    SCOPED_TRACE(name);
    const TempFile file(name, text);
    const SerialMesh mesh = eis::readMeshFile(file.path());
    expectTheMesh(mesh);
    EXPECT_EQ(mesh.cellTags[0], 7);
    ASSERT_EQ(mesh.groupNodes.count(7), 1u);
    // In 4.1 the group is the volume entity's, which holds both cells.
    const std::vector<std::int64_t> first = {0, 1, 3, 4, 6, 7, 9, 10};
    const std::vector<std::int64_t> both = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    EXPECT_EQ(mesh.groupNodes.at(7), name.find("41") != std::string::npos ? both : first);
  }
  const TempFile file("q.msh", twoHexahedra22());
  EXPECT_EQ(eis::readGmsh(file.path()).skippedElements.at("quadrangle"), 1);
}

TEST(HexahedralMeshFiles, GmshRefusesMixedCellsAndDegenerateHexahedra) {
  const std::string tet = "9 4 2 0 1 10 11 13 16\n";
  const auto read = [](const std::string& path) { eis::readGmsh(path); };
  eis::test::expectReadError(read, "mixed.msh", gmsh22("1 5 2 0 1" + hexLine(0) + tet, 2),
                             {"tetrahedron 1", "follows hexahedra", "one type"});
  eis::test::expectReadError(read, "mixed2.msh", gmsh22(tet + "1 5 2 0 1" + hexLine(0), 2),
                             {"hexahedron 1", "follows tetrahedra"});
  eis::test::expectReadError(read, "flat.msh", gmsh22("1 5 2 0 1 10 11 14 13 10 17 20 19\n", 1),
                             {"hexahedron 0", "degenerate", "repeated"});
  // Vertices 0, 1, 3 and 4 (nodes 0, 1, 3, 4) all lie in z = 0: a flat corner.
  eis::test::expectReadError(read, "flat2.msh", gmsh22("1 5 2 0 1 10 11 12 13 14 15 16 17\n", 1),
                             {"hexahedron 0", "zero volume"});
}

// The first cell as a hexahedron, the second as a voxel: x fastest, then y, then z.
std::string legacyVtk(const std::string& secondType) {
  std::string text =
      "# vtk DataFile Version 3.0\nhand-written\nASCII\nDATASET UNSTRUCTURED_GRID\n"
      "POINTS 12 double\n";
  for (const auto& q : points())
    text += std::to_string(int(q[0])) + " " + std::to_string(int(q[1])) + " " +
            std::to_string(int(q[2])) + "\n";
  return text + "CELLS 2 18\n8 0 1 4 3 6 7 10 9\n8 1 2 4 5 7 8 10 11\nCELL_TYPES 2\n12\n" +
         secondType + "\n";
}

std::string vtu(const std::string& connectivity, const std::string& offsets,
                const std::string& types) {
  std::string xyz;
  for (const auto& q : points())
    xyz += std::to_string(int(q[0])) + " " + std::to_string(int(q[1])) + " " +
           std::to_string(int(q[2])) + " ";
  const auto array = [](const std::string& type, const std::string& name, const std::string& values,
                        const std::string& extra = "") {
    return "<DataArray type=\"" + type + "\" Name=\"" + name + "\" format=\"ascii\"" + extra + ">" +
           values + "</DataArray>\n";
  };
  return "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" "
         "byte_order=\"LittleEndian\">\n<UnstructuredGrid>\n<Piece NumberOfPoints=\"12\" "
         "NumberOfCells=\"2\">\n<Points>\n" +
         array("Float64", "Points", xyz, " NumberOfComponents=\"3\"") + "</Points>\n<Cells>\n" +
         array("Int64", "connectivity", connectivity) + array("Int64", "offsets", offsets) +
         array("UInt8", "types", types) + "</Cells>\n</Piece>\n</UnstructuredGrid>\n</VTKFile>\n";
}

TEST(HexahedralMeshFiles, VtkHexahedraAndVoxels) {
  const TempFile legacy("hex.vtk", legacyVtk("11"));
  expectTheMesh(eis::readMeshFile(legacy.path()));
  const TempFile xml("hex.vtu", vtu("0 1 4 3 6 7 10 9 1 2 5 4 7 8 11 10", "8 16", "12 12"));
  expectTheMesh(eis::readMeshFile(xml.path()));
}

TEST(HexahedralMeshFiles, VtkRefusesMixedCellsAndWrongSizes) {
  const auto legacy = [](const std::string& path) { eis::readVtkLegacy(path); };
  const auto xml = [](const std::string& path) { eis::readVtu(path); };
  eis::test::expectReadError(xml, "mixed.vtu", vtu("0 1 4 3 6 7 10 9 1 2 4 7", "8 12", "12 10"),
                             {"tetrahedron 1", "follows hexahedra", "one type"});
  eis::test::expectReadError(xml, "short.vtu", vtu("0 1 4 3 6 7 10 9 1 2 4 7", "8 12", "12 12"),
                             {"cell 1", "4 points, not 8"});
  std::string text = legacyVtk("12");
  text.replace(text.find("8 1 2 4 5"), 9, "8 1 2 4 4");
  eis::test::expectReadError(legacy, "repeat.vtk", text, {"hexahedron 1", "repeated"});
}

}  // namespace
