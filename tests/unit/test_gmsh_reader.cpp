// Tests of the Gmsh reader: the shipped meshes in all four flavours, tag handling, and every
// kind of bad input ending in an eis::Error that says what and where.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cell_lists.hpp"
#include "eis/core/error.hpp"
#include "eis/mesh/gmsh_reader.hpp"
#include "mesh_file_test.hpp"

namespace {

using eis::SerialMesh;
using Tet = std::array<std::int64_t, 4>;

std::string meshPath(const std::string& name) {
  return std::string(EIS_MESH_DIR) + "/" + name;
}

std::string fileText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A file in the test's temporary folder, removed when the test ends.
using eis::test::TempFile;

void expectError(const std::string& name, const std::string& text,
                 const std::vector<std::string>& fragments) {
  eis::test::expectReadError([](const std::string& path) { eis::readGmsh(path); }, name, text,
                             fragments);
}

// A one-tetrahedron 2.2 ASCII file; the tests swap in bad nodes or elements.
const std::string kNodes =
    "1 0 0 0\n"
    "2 1 0 0\n"
    "3 0 1 0\n"
    "4 0 0 1\n";
const std::string kTet = "1 4 2 1 1 1 2 3 4\n";

std::string oneTet22(const std::string& nodes = kNodes, const std::string& elements = kTet,
                     int elementCount = 1) {
  return "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n" + nodes + "$EndNodes\n$Elements\n" +
         std::to_string(elementCount) + "\n" + elements + "$EndElements\n";
}

// Builds binary payloads in either byte order, with 4.1's size_t as wide as asked.
class BinaryWriter {
public:
  BinaryWriter(bool bigEndian, int sizeWidth) : bigEndian_(bigEndian), sizeWidth_(sizeWidth) {}
  BinaryWriter& text(const std::string& s) {
    out_ += s;
    return *this;
  }
  BinaryWriter& i32(std::int32_t v) { return bytes(&v, sizeof v); }
  BinaryWriter& f64(double v) { return bytes(&v, sizeof v); }
  BinaryWriter& size(std::uint64_t v) {
    if (sizeWidth_ == 8) return bytes(&v, sizeof v);
    const auto narrow = static_cast<std::uint32_t>(v);
    return bytes(&narrow, sizeof narrow);
  }
  const std::string& str() const { return out_; }

private:
  BinaryWriter& bytes(const void* value, std::size_t count) {
    std::string raw(static_cast<const char*>(value), count);
    if (bigEndian_) std::reverse(raw.begin(), raw.end());  // the test machine is little-endian
    out_ += raw;
    return *this;
  }
  bool bigEndian_;
  int sizeWidth_;
  std::string out_;
};

const double kCorners[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};

std::string oneTet22Binary(bool bigEndian) {
  BinaryWriter w(bigEndian, 8);
  w.text("$MeshFormat\n2.2 1 8\n").i32(1).text("\n$EndMeshFormat\n$Nodes\n4\n");
  for (int i = 0; i < 4; ++i)
    w.i32(10 + i).f64(kCorners[i][0]).f64(kCorners[i][1]).f64(kCorners[i][2]);
  w.text("\n$EndNodes\n$Elements\n1\n").i32(4).i32(1).i32(2);  // type, count, ntags
  w.i32(1).i32(8).i32(1).i32(10).i32(11).i32(12).i32(13);      // tag, tags, nodes
  return w.text("\n$EndElements\n").str();
}

std::string oneTet41Binary(bool bigEndian, int sizeWidth) {
  BinaryWriter w(bigEndian, sizeWidth);
  w.text("$MeshFormat\n4.1 1 " + std::to_string(sizeWidth) + "\n")
      .i32(1)
      .text("\n$EndMeshFormat\n");
  w.text("$Entities\n").size(0).size(0).size(0).size(1);
  w.i32(1).f64(0).f64(0).f64(0).f64(1).f64(1).f64(1).size(1).i32(8).size(0);
  w.text("\n$EndEntities\n$Nodes\n").size(1).size(4).size(10).size(13);
  w.i32(3).i32(1).i32(0).size(4);
  for (int i = 0; i < 4; ++i) w.size(10 + i);
  for (const auto& corner : kCorners) w.f64(corner[0]).f64(corner[1]).f64(corner[2]);
  w.text("\n$EndNodes\n$Elements\n").size(1).size(1).size(1).size(1);
  w.i32(3).i32(1).i32(4).size(1).size(1).size(10).size(11).size(12).size(13);
  return w.text("\n$EndElements\n").str();
}

// --- The shipped beam -------------------------------------------------------------------------

TEST(GmshReader, BeamFlavoursAreTheSameMesh) {
  const SerialMesh reference = eis::readGmsh(meshPath("beam_v22_ascii.msh"));
  // Pinned to the shipped files (meshes/README.md).
  EXPECT_EQ(reference.nodes.size(), 190u);
  EXPECT_EQ(reference.cells.size(), 434u);
  // Its 28 triangles, 14 in "clamp" (tag 1) and 14 in "tip" (tag 2), are kept, not ignored.
  EXPECT_TRUE(reference.skippedElements.empty());
  ASSERT_EQ(reference.triangles.size(), 28u);
  EXPECT_EQ(std::count(reference.triangleTags.begin(), reference.triangleTags.end(), 1), 14);
  EXPECT_EQ(std::count(reference.triangleTags.begin(), reference.triangleTags.end(), 2), 14);
  for (std::size_t t = 0; t < reference.triangles.size(); ++t)
    for (const std::int64_t node : reference.triangles[t])
      EXPECT_EQ(reference.nodes[node][0], reference.triangleTags[t] == 1 ? 0.0 : 10.0);
  for (const char* name : {"beam_v22_binary.msh", "beam_v41_ascii.msh", "beam_v41_binary.msh"}) {
    SCOPED_TRACE(name);
    const SerialMesh mesh = eis::readGmsh(meshPath(name));
    ASSERT_EQ(mesh.nodes.size(), reference.nodes.size());
    for (std::size_t i = 0; i < mesh.nodes.size(); ++i)
      for (int c = 0; c < 3; ++c) ASSERT_NEAR(mesh.nodes[i][c], reference.nodes[i][c], 1e-12) << i;
    EXPECT_EQ(mesh.cells, reference.cells);
    EXPECT_EQ(mesh.cellTags, reference.cellTags);
    EXPECT_EQ(mesh.groupNames, reference.groupNames);
    EXPECT_EQ(mesh.groupNodes, reference.groupNodes);
    EXPECT_EQ(mesh.skippedElements, reference.skippedElements);
    EXPECT_EQ(mesh.triangles, reference.triangles);
    EXPECT_EQ(mesh.triangleTags, reference.triangleTags);
  }
}

// Gmsh's own format 1.0 output of the beam: the same mesh, without group names.
TEST(GmshReader, BeamInFormat10IsTheSameMesh) {
  const SerialMesh reference = eis::readGmsh(meshPath("beam_v22_ascii.msh"));
  const SerialMesh mesh = eis::readGmsh(meshPath("beam_v1.msh"));
  EXPECT_EQ(mesh.nodes, reference.nodes);
  EXPECT_EQ(mesh.cells, reference.cells);
  EXPECT_EQ(mesh.cellTags, reference.cellTags);
  EXPECT_EQ(mesh.triangles, reference.triangles);
  EXPECT_EQ(mesh.triangleTags, reference.triangleTags);
  EXPECT_EQ(mesh.groupNodes, reference.groupNodes);
  EXPECT_TRUE(mesh.skippedElements.empty());
  EXPECT_TRUE(mesh.groupNames.empty());
}

TEST(GmshReader, BeamGroups) {
  const SerialMesh mesh = eis::readGmsh(meshPath("beam_v41_binary.msh"));
  const std::map<std::string, int> names = {{"clamp", 1}, {"tip", 2}, {"beam", 3}};
  EXPECT_EQ(mesh.groupNames, names);
  // Every node of the x = 0 (x = 10) face, and only those, is in "clamp" ("tip").
  for (const auto& [name, x] : {std::pair<std::string, double>{"clamp", 0.0}, {"tip", 10.0}}) {
    SCOPED_TRACE(name);
    std::vector<std::int64_t> onFace;
    for (std::size_t i = 0; i < mesh.nodes.size(); ++i)
      if (mesh.nodes[i][0] == x) onFace.push_back(static_cast<std::int64_t>(i));
    EXPECT_GE(onFace.size(), 4u);
    EXPECT_EQ(mesh.groupNodes.at(names.at(name)), onFace);
  }
  std::vector<std::int64_t> all(mesh.nodes.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::int64_t>(i);
  EXPECT_EQ(mesh.groupNodes.at(3), all);
  EXPECT_EQ(mesh.cellTags, std::vector<int>(mesh.cells.size(), 3));
  for (const auto& node : mesh.nodes) {
    EXPECT_TRUE(node[0] >= 0 && node[0] <= 10 && node[1] >= 0 && node[1] <= 1 && node[2] >= 0 &&
                node[2] <= 1);
  }
}

// --- Tags, positions, groups ------------------------------------------------------------------

TEST(GmshReader, TagsWithGapsMapToPositions) {
  const SerialMesh mesh = eis::readGmsh(meshPath("cube_tags_gaps_v22_ascii.msh"));
  ASSERT_EQ(mesh.nodes.size(), 8u);
  EXPECT_EQ(mesh.nodes[0], (std::array<double, 3>{1, 1, 1}));  // tag 40, listed first
  EXPECT_EQ(mesh.nodes[1], (std::array<double, 3>{0, 0, 0}));  // tag 3
  EXPECT_EQ(mesh.nodes[7], (std::array<double, 3>{0, 1, 1}));  // tag 1000000
  const std::vector<Tet> tets = {{1, 2, 3, 0}, {1, 3, 4, 0}, {1, 4, 7, 0},
                                 {1, 7, 5, 0}, {1, 5, 6, 0}, {1, 6, 2, 0}};
  EXPECT_EQ(eis_test::tetrahedraOf(mesh.cells), tets);
  EXPECT_EQ(mesh.cellTags, (std::vector<int>{7, 7, 7, 7, 7, 0}));
  EXPECT_EQ(mesh.groupNames,
            (std::map<std::string, int>{{"edge", 2}, {"bottom", 3}, {"solid", 7}}));
  EXPECT_EQ(mesh.groupNodes.at(2), (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(mesh.groupNodes.at(3), (std::vector<std::int64_t>{1, 2, 3}));
  EXPECT_EQ(mesh.groupNodes.at(7), (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(mesh.groupNodes.size(), 3u);
  EXPECT_TRUE(mesh.skippedElements.empty());  // the line and the triangle are in groups
  EXPECT_EQ(mesh.triangles, (std::vector<std::array<std::int64_t, 3>>{{1, 2, 3}}));
  EXPECT_EQ(mesh.triangleTags, std::vector<int>{3});
}

// Node tags from 0 (SOFA's share/mesh/cubeDof.msh; its MeshGmshLoader maps a tag to the node's
// place in the file) read as the same file numbered from 1; a negative tag is refused.
TEST(GmshReader, NodeTagsFromZeroReadAsFromOne) {
  const TempFile one("from1.msh", oneTet22(kNodes, "1 4 2 1 1 4 2 3 1\n"));
  const TempFile zero("from0.msh",
                      oneTet22("0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n", "1 4 2 1 1 3 1 2 0\n"));
  const SerialMesh expected = eis::readGmsh(one.path()), mesh = eis::readGmsh(zero.path());
  EXPECT_EQ(eis_test::tetrahedraOf(mesh.cells), (std::vector<Tet>{{3, 1, 2, 0}}));
  EXPECT_EQ(mesh.nodes, expected.nodes);
  EXPECT_EQ(mesh.cells, expected.cells);
  EXPECT_EQ(mesh.cellTags, expected.cellTags);
  EXPECT_EQ(mesh.groupNodes, expected.groupNodes);
  expectError("negative.msh", oneTet22("-1 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n"),
              {"node 0 (tag -1)", "must not be negative"});
}

// Triangles are kept, in the file's vertex order, with their physical tag (0 when none); only
// elements that are neither tetrahedra, nor triangles, nor in a physical group are ignored (and
// warned of).
TEST(GmshReader, TrianglesAreKeptAndUngroupedOthersSkipped) {
  const TempFile file("skipped.msh", oneTet22(kNodes,
                                              kTet + "2 2 0 1 2 3\n"      // triangle, no tags
                                                     "3 2 2 0 1 1 2 4\n"  // triangle, group 0
                                                     "4 2 2 5 1 4 3 1\n"  // triangle, group 5
                                                     "5 1 2 6 1 1 2\n"    // line, group 6
                                                     "6 1 0 2 3\n"        // line, no tags
                                                     "7 15 0 4\n",        // point, no tags
                                              7));
  const SerialMesh mesh = eis::readGmsh(file.path());
  EXPECT_EQ(mesh.triangles,
            (std::vector<std::array<std::int64_t, 3>>{{0, 1, 2}, {0, 1, 3}, {3, 2, 0}}));
  EXPECT_EQ(mesh.triangleTags, (std::vector<int>{0, 0, 5}));
  EXPECT_EQ(mesh.skippedElements, (std::map<std::string, std::int64_t>{{"line", 1}, {"point", 1}}));
  EXPECT_EQ(mesh.groupNodes.at(5), (std::vector<std::int64_t>{0, 2, 3}));
  EXPECT_EQ(mesh.groupNodes.at(6), (std::vector<std::int64_t>{0, 1}));
}

// A file of triangles and no tetrahedra or hexahedra (SOFA's mesh/square3.msh) is a body of
// triangles: they are its cells, in the file's vertex order with their tags; a triangle with a
// repeated node or no area is refused.
TEST(GmshReader, TrianglesWithoutVolumeCellsAreTheCells) {
  const TempFile file("sheet.msh", oneTet22(kNodes,
                                            "1 1 2 6 1 1 2\n"    // line, group 6
                                            "2 2 2 5 1 1 2 3\n"  // triangle, group 5
                                            "3 2 0 4 3 1\n",     // triangle, no tags
                                            3));
  const SerialMesh mesh = eis::readGmsh(file.path());
  EXPECT_EQ(mesh.cells.type(), eis::CellType::Triangle);
  EXPECT_EQ(mesh.cells.flat(), (std::vector<std::int64_t>{0, 1, 2, 3, 2, 0}));
  EXPECT_EQ(mesh.cellTags, (std::vector<int>{5, 0}));
  EXPECT_TRUE(mesh.triangles.empty());
  EXPECT_TRUE(mesh.skippedElements.empty());  // the line is in group 6
  expectError("flat_triangle.msh", oneTet22(kNodes, "1 2 0 1 2 1\n"), {"triangle 0 is degenerate"});
}

// Without volume cells or triangles, the quadrangles are the cells (SOFA's mesh/nine_quads.msh),
// else the lines; what is not a cell stays a skipped element.
TEST(GmshReader, QuadranglesOrLinesWithoutLargerCellsAreTheCells) {
  const std::string square = "1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n";
  const TempFile quads("quads.msh", oneTet22(square,
                                             "1 1 0 1 2\n"          // line, no tags
                                             "2 3 2 7 1 1 2 3 4\n"  // quadrangle, group 7
                                             "3 15 0 4\n",          // point
                                             3));
  const SerialMesh q = eis::readGmsh(quads.path());
  EXPECT_EQ(q.cells.type(), eis::CellType::Quadrangle);
  EXPECT_EQ(q.cells.flat(), (std::vector<std::int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(q.cellTags, std::vector<int>{7});
  EXPECT_EQ(q.skippedElements, (std::map<std::string, std::int64_t>{{"line", 1}, {"point", 1}}));
  const TempFile lines("lines.msh", oneTet22(square, "1 1 0 1 2\n2 1 0 2 3\n", 2));
  const SerialMesh l = eis::readGmsh(lines.path());
  EXPECT_EQ(l.cells.type(), eis::CellType::Edge);
  EXPECT_EQ(l.cells.flat(), (std::vector<std::int64_t>{0, 1, 1, 2}));
  EXPECT_TRUE(l.skippedElements.empty());
  expectError("flat_quad.msh", oneTet22(square, "1 3 0 1 2 2 4\n"), {"quadrangle 0 is degenerate"});
}

TEST(GmshReader, NegativeOrientationKeptAsListed) {
  const TempFile file("inverted.msh", oneTet22(kNodes, "1 4 2 1 1 1 3 2 4\n"));
  const SerialMesh mesh = eis::readGmsh(file.path());
  EXPECT_EQ(eis_test::tetrahedraOf(mesh.cells), (std::vector<Tet>{{0, 2, 1, 3}}));
}

TEST(GmshReader, EntityWithSeveralPhysicalTagsJoinsEachGroup) {
  const std::string text =
      "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
      "$PhysicalNames\n2\n3 5 \"a\"\n3 6 \"b c\"\n$EndPhysicalNames\n"
      "$Entities\n0 0 0 1\n1 0 0 0 1 1 1 2 5 6 0\n$EndEntities\n"
      "$Nodes\n1 4 1 4\n3 1 0 4\n1\n2\n3\n4\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n$EndNodes\n"
      "$Elements\n1 1 1 1\n3 1 4 1\n1 1 2 3 4\n$EndElements\n";
  const TempFile file("two_groups.msh", text);
  const SerialMesh mesh = eis::readGmsh(file.path());
  EXPECT_EQ(mesh.cellTags, std::vector<int>{5});
  EXPECT_EQ(mesh.groupNames, (std::map<std::string, int>{{"a", 5}, {"b c", 6}}));
  const std::vector<std::int64_t> all = {0, 1, 2, 3};
  EXPECT_EQ(mesh.groupNodes, (std::map<int, std::vector<std::int64_t>>{{5, all}, {6, all}}));
}

TEST(GmshReader, BinaryInEitherByteOrderAndSizeWidth) {
  const std::vector<std::pair<std::string, std::string>> files = {
      {"le22.msh", oneTet22Binary(false)},      {"be22.msh", oneTet22Binary(true)},
      {"le41.msh", oneTet41Binary(false, 8)},   {"be41.msh", oneTet41Binary(true, 8)},
      {"le41_4.msh", oneTet41Binary(false, 4)}, {"be41_4.msh", oneTet41Binary(true, 4)}};
  for (const auto& [name, text] : files) {
    SCOPED_TRACE(name);
    const TempFile file(name, text);
    const SerialMesh mesh = eis::readGmsh(file.path());
    ASSERT_EQ(mesh.nodes.size(), 4u);
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(mesh.nodes[i],
                (std::array<double, 3>{kCorners[i][0], kCorners[i][1], kCorners[i][2]}));
    EXPECT_EQ(eis_test::tetrahedraOf(mesh.cells), (std::vector<Tet>{{0, 1, 2, 3}}));
    EXPECT_EQ(mesh.cellTags, std::vector<int>{8});
  }
}

// --- Format 1.0 (SOFA's mesh/liver.msh) -------------------------------------------------------

// Node numbers are labels in any order, with gaps; ids are positions in $NOD, and a node no
// element uses (the fifth) is kept, as SOFA's MeshGmsh keeps it.
const std::string kV1 =
    "$NOD\n6\n"
    "10 0 0 0\n"
    "3 1 0 0\n"
    "7 0 1 0\n"
    "5 0 0 1\n"
    "99 5 5 5\n"
    "4 1 1 1\n"
    "$ENDNOD\n"
    "$ELM\n5\n"
    "1 4 7 1 4 10 3 7 5\n"  // tetrahedron, physical 7
    "2 4 0 1 4 3 7 5 4\n"   // tetrahedron, no physical
    "3 2 2 9 3 5 3 10\n"    // triangle, physical 2
    "4 2 0 9 3 7 3 4\n"     // triangle, no physical
    "5 1 0 4 2 10 3\n"      // line, no physical: skipped
    "$ENDELM\n";

TEST(GmshReaderV1, NodeNumbersAreLabelsAndIdsArePositions) {
  const TempFile file("v1.msh", kV1);
  const SerialMesh mesh = eis::readGmsh(file.path());
  ASSERT_EQ(mesh.nodes.size(), 6u);
  EXPECT_EQ(mesh.nodes[0], (std::array<double, 3>{0, 0, 0}));
  EXPECT_EQ(mesh.nodes[4], (std::array<double, 3>{5, 5, 5}));
  EXPECT_EQ(mesh.nodes[5], (std::array<double, 3>{1, 1, 1}));
  EXPECT_EQ(eis_test::tetrahedraOf(mesh.cells), (std::vector<Tet>{{0, 1, 2, 3}, {1, 2, 3, 5}}));
  EXPECT_EQ(mesh.cellTags, (std::vector<int>{7, 0}));
  EXPECT_EQ(mesh.triangles, (std::vector<std::array<std::int64_t, 3>>{{3, 1, 0}, {2, 1, 5}}));
  EXPECT_EQ(mesh.triangleTags, (std::vector<int>{2, 0}));
  EXPECT_EQ(mesh.skippedElements, (std::map<std::string, std::int64_t>{{"line", 1}}));
  EXPECT_TRUE(mesh.groupNames.empty());
  EXPECT_EQ(mesh.groupNodes.at(7), (std::vector<std::int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(mesh.groupNodes.at(2), (std::vector<std::int64_t>{0, 1, 3}));
  EXPECT_EQ(mesh.groupNodes.size(), 2u);
}

// The same mesh written as 2.2 reads the same.
TEST(GmshReaderV1, SameMeshAsVersion22) {
  const std::string v22 =
      "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n6\n10 0 0 0\n3 1 0 0\n7 0 1 0\n"
      "5 0 0 1\n99 5 5 5\n4 1 1 1\n$EndNodes\n$Elements\n5\n1 4 2 7 1 10 3 7 5\n"
      "2 4 2 0 1 3 7 5 4\n3 2 2 2 9 5 3 10\n4 2 2 0 9 7 3 4\n5 1 1 0 10 3\n$EndElements\n";
  const TempFile a("v1.msh", kV1), b("v22.msh", v22);
  const SerialMesh one = eis::readGmsh(a.path()), two = eis::readGmsh(b.path());
  EXPECT_EQ(one.nodes, two.nodes);
  EXPECT_EQ(one.cells, two.cells);
  EXPECT_EQ(one.cellTags, two.cellTags);
  EXPECT_EQ(one.triangles, two.triangles);
  EXPECT_EQ(one.triangleTags, two.triangleTags);
  EXPECT_EQ(one.groupNodes, two.groupNodes);
  EXPECT_EQ(one.skippedElements, two.skippedElements);
}

TEST(GmshReaderV1, MalformedFiles) {
  const auto replaced = [](const std::string& from, const std::string& to) {
    std::string text = kV1;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  expectError("v1_label.msh", replaced("1 4 7 1 4 10 3 7 5", "1 4 7 1 4 10 3 7 6"),
              {":12:", "$ELM", "element 0 (tag 1)", "node tag 6", "out of range"});
  expectError("v1_count.msh", replaced("1 4 7 1 4 10", "1 4 7 1 3 10"),
              {":12:", "element 0 (number 1) of type 4 lists 3 nodes, not 4"});
  expectError("v1_no_elm.msh", kV1.substr(0, kV1.find("$ELM")) + "$Elements\n",
              {":10:", "expected $ELM"});
  expectError("v1_cut.msh", kV1.substr(0, kV1.find("3\n$ENDELM")), {"truncated", "before $ENDELM"});
  expectError("v1_repeat.msh", replaced("99 5 5 5", "3 5 5 5"), {"node 4", "repeats the tag 3"});
  expectError("v1_garbled.msh", replaced("7 0 1 0", "7 0 x 0"), {":5:", "$NOD", "'x'"});
  expectError("v1_no_tets.msh",
              "$NOD\n3\n1 0 0 0\n2 1 0 0\n3 0 1 0\n$ENDNOD\n$ELM\n1\n"
              "1 15 0 1 1 1\n$ENDELM\n",
              {"no tetrahedra, hexahedra, triangles, quadrangles or lines"});
}

// --- Bad input --------------------------------------------------------------------------------

TEST(GmshReaderErrors, TheTemplateItselfIsGood) {
  const TempFile file("good.msh", oneTet22());
  EXPECT_EQ(eis::readGmsh(file.path()).cells.size(), 1u);
}

TEST(GmshReaderErrors, MissingFile) {
  try {
    eis::readGmsh("/nonexistent/dir/absent.msh");
    ADD_FAILURE() << "no error";
  } catch (const eis::Error& error) {
    EXPECT_NE(std::string(error.what()).find("/nonexistent/dir/absent.msh"), std::string::npos);
  }
  EXPECT_THROW(eis::readGmsh(testing::TempDir()), eis::Error);  // a folder, not a file
}

// Versions 2.0 and 2.1 (written "2" by older Gmsh, as SOFA's share/mesh/cubeDof.msh) lay out
// ASCII sections as 2.2 does: the same mesh; binary ones are refused.
TEST(GmshReader, Versions20And21InAsciiReadAs22) {
  const TempFile reference("v22.msh", oneTet22());
  const SerialMesh expected = eis::readGmsh(reference.path());
  for (const std::string version : {"2", "2.0", "2.1"}) {
    SCOPED_TRACE(version);
    std::string text = oneTet22();
    text.replace(text.find("2.2"), 3, version);
    const TempFile file("v" + version + ".msh", text);
    const SerialMesh mesh = eis::readGmsh(file.path());
    EXPECT_EQ(mesh.nodes, expected.nodes);
    EXPECT_EQ(mesh.cells, expected.cells);
    EXPECT_EQ(mesh.cellTags, expected.cellTags);
  }
  std::string binary = oneTet22();
  binary.replace(binary.find("2.2 0 8"), 7, "2 1 8");
  expectError("v2bin.msh", binary, {"binary Gmsh files of version 2"});
}

TEST(GmshReaderErrors, NotAMeshOrWrongVersion) {
  expectError("empty.msh", "", {"missing $MeshFormat"});
  expectError("text.msh", "hello world\n", {"missing $MeshFormat"});
  std::string v30 = oneTet22();
  v30.replace(v30.find("2.2"), 3, "3.0");
  expectError("v30.msh", v30, {"unsupported", "3.0"});
}

// Counts and tags of 18 digits and fewer are read by hand; longer ones by std::from_chars, which
// refuses what exceeds 64 bits (the hand loop stops before it could overflow, as UBSan checks).
TEST(GmshReaderErrors, IntegersPastSixtyFourBitsAreTooLarge) {
  const std::string header = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n";
  expectError("count19.msh", header + "9999999999999999999\n", {"too large"});
  expectError("count25.msh", header + "1234567890123456789012345\n", {"too large"});
  expectError("tag19.msh", oneTet22("9999999999999999999 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n"),
              {"too large"});
}

TEST(GmshReaderErrors, NodeTagOutOfRange) {
  expectError("range.msh", oneTet22(kNodes, "7 4 2 1 1 1 2 3 5\n"),
              {":13:", "element 0", "tag 7", "node tag 5", "out of range"});
}

TEST(GmshReaderErrors, NonFiniteCoordinates) {
  for (const std::string bad : {"nan", "inf", "-inf"}) {
    const std::string nodes = "1 0 0 0\n2 1 0 0\n3 0 " + bad + " 0\n4 0 0 1\n";
    expectError("nonfinite.msh", oneTet22(nodes), {"node 2 (tag 3)", "not finite", "NaN"});
  }
}

TEST(GmshReaderErrors, DegenerateTetrahedra) {
  const std::string flat = "1 0 0 0\n2 1 0 0\n3 0 1 0\n4 1 1 0\n";
  expectError("flat.msh", oneTet22(flat),
              {"tetrahedron 0", "element tag 1", "degenerate", "zero volume"});
  // The test is relative to the element's size: a tiny but sound tetrahedron passes.
  const std::string tiny = "1 0 0 0\n2 1e-9 0 0\n3 0 1e-9 0\n4 0 0 1e-9\n";
  const TempFile file("tiny.msh", oneTet22(tiny));
  EXPECT_EQ(eis::readGmsh(file.path()).cells.size(), 1u);
  // So do sound tetrahedra in 1e-200 and 1e200 units (their volumes under- and overflow), and
  // a flat one at 1e200 is zero volume, not "6V = inf".
  for (const char* unit : {"1e-200", "1e200"}) {
    SCOPED_TRACE(unit);
    const std::string u(unit);
    const TempFile scaled("scaled.msh",
                          oneTet22("1 0 0 0\n2 " + u + " 0 0\n3 0 " + u + " 0\n4 0 0 " + u + "\n"));
    EXPECT_EQ(eis::readGmsh(scaled.path()).cells.size(), 1u);
  }
  expectError("flat_huge.msh", oneTet22("1 0 0 0\n2 1e200 0 0\n3 0 1e200 0\n4 1e200 1e200 0\n"),
              {"degenerate", "zero volume"});
  const std::string elements = kTet + "9 4 2 1 1 1 2 3 3\n";
  expectError("repeated.msh", oneTet22(kNodes, elements, 2),
              {"tetrahedron 1", "element tag 9", "degenerate", "repeated"});
}

TEST(GmshReaderErrors, GarbledNumbers) {
  const std::string nodes = "1 0 0 0\n2 1.0x 0 0\n3 0 1 0\n4 0 0 1\n";
  expectError("garbled.msh", oneTet22(nodes), {":7:", "expected a number", "1.0x"});
  expectError("garbled_tag.msh", oneTet22(kNodes, "1 4 2 1 1 1 2 three 4\n"),
              {":13:", "expected an integer", "three"});
}

TEST(GmshReaderErrors, NoTetrahedra) {
  expectError("no_tets.msh", oneTet22(kNodes, "1 15 2 1 1 1\n"),
              {"no tetrahedra, hexahedra, triangles, quadrangles or lines"});
  expectError("no_elements.msh",
              "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n" + kNodes + "$EndNodes\n",
              {"no tetrahedra"});
}

TEST(GmshReaderErrors, Truncated) {
  const std::string whole = oneTet22();
  expectError("cut_nodes.msh", whole.substr(0, whole.find("3 0 1 0")), {"truncated", "$Nodes"});
  expectError("cut_elements.msh", whole.substr(0, whole.find("3 4\n$EndElements")),
              {"truncated", "$Elements"});
  const std::string binary = fileText(meshPath("beam_v41_binary.msh"));
  expectError("cut_binary.msh", binary.substr(0, binary.size() / 2), {"truncated", "byte"});
}

TEST(GmshReaderErrors, AbsurdCountsAndUnknownTypes) {
  std::string huge = oneTet22();
  huge.replace(huge.find("$Nodes\n4"), 8, "$Nodes\n2000000000");
  expectError("huge.msh", huge, {"count of nodes", "cannot fit"});
  expectError("type99.msh", oneTet22(kNodes, "1 99 0 1 2 3 4\n"), {"unsupported element type 99"});
  std::string marker = oneTet22Binary(false);
  marker[marker.find("2.2 1 8\n") + 8] = 7;
  expectError("marker.msh", marker, {"endianness"});
}

// Every prefix and many random corruptions of the shipped files either read or end in
// eis::Error: never a crash, a hang or another exception (bad_alloc from a wild count).
TEST(GmshReaderErrors, CorruptFilesFailCleanly) {
  std::mt19937 generator(12345);
  for (const char* name : {"beam_v22_ascii.msh", "beam_v22_binary.msh", "beam_v41_ascii.msh",
                           "beam_v41_binary.msh", "cube_tags_gaps_v22_ascii.msh", "beam_v1.msh"}) {
    SCOPED_TRACE(name);
    const std::string text = fileText(meshPath(name));
    ASSERT_FALSE(text.empty());
    std::vector<std::string> variants;
    for (std::size_t length = 0; length < text.size(); length += 1 + text.size() / 150)
      variants.push_back(text.substr(0, length));
    for (int trial = 0; trial < 150; ++trial) {
      std::string corrupt = text;
      for (int flips = 0; flips < 3; ++flips)
        corrupt[generator() % corrupt.size()] = static_cast<char>(generator() % 256);
      variants.push_back(corrupt);
    }
    for (std::size_t i = 0; i < variants.size(); ++i) {
      const TempFile file("corrupt.msh", variants[i]);
      try {
        eis::readGmsh(file.path());
      } catch (const eis::Error&) {
      } catch (const std::exception& other) {
        ADD_FAILURE() << "variant " << i << ": " << other.what();
      }
    }
  }
}

}  // namespace
