// Tests of the VTK readers (legacy .vtk, XML .vtu) and of readMeshFile's dispatch: one small
// mesh written by hand in every layout and encoding, read back node for node, and malformed
// files ending in an eis::Error that names the file and the place.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#ifdef EIS_HAVE_ZLIB
#include <zlib.h>
#endif

#include "cell_lists.hpp"
#include "eis/core/error.hpp"
#include "eis/mesh/mesh_file.hpp"
#include "eis/mesh/vtk_reader.hpp"
#include "mesh_file_test.hpp"

namespace {

using eis::SerialMesh;
using Tet = std::array<std::int64_t, 4>;
using Triangle = std::array<std::int64_t, 3>;

using eis::test::TempFile;

// The mesh every test writes: two tetrahedra, a triangle, a line and a vertex (skipped), and a
// point (5) that only the vertex uses.
const std::vector<std::array<double, 3>> kPoints = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0},
                                                    {0, 0, 1}, {1, 1, 1}, {5, 5, 5}};
const std::vector<std::vector<std::int64_t>> kCells = {
    {0, 1, 2, 3}, {1, 2, 3, 4}, {3, 1, 0}, {0, 1}, {5}};
const std::vector<std::int64_t> kTypes = {10, 10, 5, 3, 1};

void expectTheMesh(const SerialMesh& mesh) {
  EXPECT_EQ(mesh.nodes, kPoints);
  EXPECT_EQ(eis_test::tetrahedraOf(mesh.cells), (std::vector<Tet>{{0, 1, 2, 3}, {1, 2, 3, 4}}));
  EXPECT_EQ(mesh.cellTags, (std::vector<int>{0, 0}));
  EXPECT_EQ(mesh.triangles, (std::vector<Triangle>{{3, 1, 0}}));
  EXPECT_EQ(mesh.triangleTags, std::vector<int>{0});
  EXPECT_EQ(mesh.skippedElements,
            (std::map<std::string, std::int64_t>{{"line", 1}, {"vertex", 1}}));
  EXPECT_TRUE(mesh.groupNames.empty());
  EXPECT_TRUE(mesh.groupNodes.empty());
}

void expectError(const std::string& name, const std::string& text,
                 const std::vector<std::string>& fragments) {
  eis::test::expectReadError([](const std::string& path) { eis::readMeshFile(path); }, name, text,
                             fragments);
}

// Raw bytes of a value, in big-endian order when asked (the test machine is little-endian).
template <class T>
std::string bytesOf(T value, bool bigEndian) {
  std::string raw(sizeof(T), '\0');
  std::memcpy(raw.data(), &value, sizeof(T));
  if (bigEndian) std::reverse(raw.begin(), raw.end());
  return raw;
}

// --- Legacy .vtk ------------------------------------------------------------------------------

std::string legacyAscii(bool newLayout, const std::string& pointType = "double") {
  std::string text = "# vtk DataFile Version " + std::string(newLayout ? "5.1" : "3.0") +
                     "\nhand-written\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 6 " + pointType +
                     "\n0 0 0 1 0 0 0 1 0\n0 0 1 1 1 1 5 5 5\n";
  if (newLayout) {
    text += "METADATA\nINFORMATION 0\n\n";
    text +=
        "CELLS 6 14\nOFFSETS vtktypeint64\n0 4 8 11 13 14\nCONNECTIVITY vtktypeint64\n"
        "0 1 2 3 1 2 3 4 3 1 0 0 1 5\n";
  } else {
    text += "CELLS 5 19\n4 0 1 2 3\n4 1 2 3 4\n3 3 1 0\n2 0 1\n1 5\n";
  }
  text += "CELL_TYPES 5\n10\n10\n5\n3\n1\n";
  text += "POINT_DATA 6\nSCALARS s float 1\nLOOKUP_TABLE default\n0 1 2 3 4 5\n";
  return text;
}

std::string legacyBinary(bool newLayout, bool singlePoints) {
  std::string text =
      "# vtk DataFile Version 4.2\nhand-written\nBINARY\nDATASET UNSTRUCTURED_GRID\n";
  text += "FIELD FieldData 1\nTIME 1 1 double\n" + bytesOf(0.5, true) + "\n";
  text += std::string("POINTS 6 ") + (singlePoints ? "float" : "double") + "\n";
  for (const auto& point : kPoints)
    for (double x : point)
      text += singlePoints ? bytesOf(static_cast<float>(x), true) : bytesOf(x, true);
  text += "\n";
  if (newLayout) {
    text += "CELLS 6 14\nOFFSETS vtktypeint64\n";
    for (std::int64_t offset : {0, 4, 8, 11, 13, 14}) text += bytesOf(offset, true);
    text += "\nCONNECTIVITY vtktypeint32\n";
    for (const auto& cell : kCells)
      for (std::int64_t id : cell) text += bytesOf(static_cast<std::int32_t>(id), true);
  } else {
    text += "CELLS 5 19\n";
    for (const auto& cell : kCells) {
      text += bytesOf(static_cast<std::int32_t>(cell.size()), true);
      for (std::int64_t id : cell) text += bytesOf(static_cast<std::int32_t>(id), true);
    }
  }
  text += "\nCELL_TYPES 5\n";
  for (std::int64_t type : kTypes) text += bytesOf(static_cast<std::int32_t>(type), true);
  return text + "\nCELL_DATA 5\n";
}

TEST(VtkLegacyReader, AsciiInBothCellLayouts) {
  for (const bool newLayout : {false, true}) {
    SCOPED_TRACE(newLayout ? "OFFSETS/CONNECTIVITY" : "counts");
    const TempFile file("ascii.vtk", legacyAscii(newLayout));
    expectTheMesh(eis::readVtkLegacy(file.path()));
  }
}

TEST(VtkLegacyReader, BinaryBigEndianInBothCellLayouts) {
  for (const bool newLayout : {false, true})
    for (const bool single : {false, true}) {
      SCOPED_TRACE(std::string(newLayout ? "OFFSETS/CONNECTIVITY" : "counts") +
                   (single ? ", float" : ", double"));
      const TempFile file("binary.vtk", legacyBinary(newLayout, single));
      expectTheMesh(eis::readVtkLegacy(file.path()));
    }
}

// Float points are read as floats, as SOFA's reader reads them: 0.1 becomes float(0.1).
TEST(VtkLegacyReader, FloatPointsAreSinglePrecision) {
  std::string text = legacyAscii(false, "float");
  text.replace(text.find("1 1 1 5"), 1, "0.1");
  const TempFile file("float.vtk", text);
  const SerialMesh mesh = eis::readVtkLegacy(file.path());
  EXPECT_EQ(mesh.nodes[4][0], static_cast<double>(0.1f));
  EXPECT_NE(mesh.nodes[4][0], 0.1);
}

TEST(VtkLegacyReader, MalformedFiles) {
  const std::string good = legacyAscii(false);
  const auto replaced = [&good](const std::string& from, const std::string& to) {
    std::string text = good;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  expectError("header.vtk", "hello\n", {":1:", "# vtk DataFile"});
  expectError("polydata.vtk", replaced("UNSTRUCTURED_GRID", "POLYDATA"),
              {":4:", "POLYDATA", "not supported"});
  expectError("range.vtk", replaced("4 1 2 3 4", "4 1 2 3 9"),
              {"cell 1", "point id 9", "out of range (6 points)"});
  expectError("tetcount.vtk", replaced("10\n10\n5", "10\n5\n5"),
              {"cell 1 of type 5 has 4 points, not 3"});
  expectError("garbled.vtk", replaced("0 1 0\n", "0 x 0\n"), {":6:", "POINTS", "'x'"});
  expectError("size.vtk", replaced("CELLS 5 19", "CELLS 5 20"), {":13:", "hold 19 values"});
  expectError("keyword.vtk", replaced("CELL_TYPES", "CELL_KINDS"), {":14:", "CELL_KINDS"});
  expectError("no_tets.vtk", replaced("10\n10\n5\n3\n", "1\n1\n1\n1\n"),
              {"no tetrahedra, hexahedra, triangles, quadrangles or lines"});
  const std::string binary = legacyBinary(false, false);
  expectError("cut.vtk", binary.substr(0, binary.find("CELLS") + 20), {"byte", "truncated"});
  expectError("flat.vtk", replaced("0 0 1 1 1 1", "0 0 0 1 1 1"),
              {"tetrahedron 0 (cell 0)", "degenerate"});
}

// --- XML .vtu ---------------------------------------------------------------------------------

std::string base64(const std::string& bytes) {
  static const char* digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    unsigned triple = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) triple |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) triple |= static_cast<unsigned char>(bytes[i + 2]);
    out += digits[(triple >> 18) & 63];
    out += digits[(triple >> 12) & 63];
    out += i + 1 < bytes.size() ? digits[(triple >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? digits[triple & 63] : '=';
  }
  return out;
}

struct VtuArrays {
  std::string points, connectivity, offsets, types;  // raw little-endian data
};

VtuArrays rawArrays() {
  VtuArrays a;
  for (const auto& point : kPoints)
    for (double x : point) a.points += bytesOf(x, false);
  std::int64_t end = 0;
  for (const auto& cell : kCells) {
    for (std::int64_t id : cell) a.connectivity += bytesOf(id, false);
    end += static_cast<std::int64_t>(cell.size());
    a.offsets += bytesOf(static_cast<std::int32_t>(end), false);
  }
  for (std::int64_t type : kTypes) a.types += bytesOf(static_cast<std::uint8_t>(type), false);
  return a;
}

enum class Encoding { kSeparate, kJoint, kCompressed };

// A binary array's bytes: header then data, as base64 in VTK's way (header and data encoded
// apart), in one piece, or zlib-compressed in blocks of 40 bytes.
std::string encodedArray(const std::string& data, int headerBytes, Encoding encoding) {
  const auto header = [headerBytes](std::uint64_t value) {
    return headerBytes == 8 ? bytesOf(value, false)
                            : bytesOf(static_cast<std::uint32_t>(value), false);
  };
  if (encoding == Encoding::kSeparate) return base64(header(data.size())) + base64(data);
  if (encoding == Encoding::kJoint) return base64(header(data.size()) + data);
#ifdef EIS_HAVE_ZLIB
  const std::size_t blockSize = 40;
  const std::size_t blocks = (data.size() + blockSize - 1) / blockSize;
  std::string head = header(blocks) + header(blockSize) + header(data.size() % blockSize);
  std::string body;
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::string block = data.substr(b * blockSize, blockSize);
    uLongf size = compressBound(block.size());
    std::string packed(size, '\0');
    compress(reinterpret_cast<Bytef*>(packed.data()), &size,
             reinterpret_cast<const Bytef*>(block.data()), block.size());
    packed.resize(size);
    head += header(size);
    body += packed;
  }
  return base64(head) + base64(body);
#else
  return {};
#endif
}

std::string vtuFile(const std::string& rootAttributes, const std::string& points,
                    const std::string& connectivity, const std::string& offsets,
                    const std::string& types, const std::string& after = "") {
  return "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" "
         "byte_order=\"LittleEndian\"" +
         rootAttributes +
         ">\n  <UnstructuredGrid>\n    <Piece NumberOfPoints=\"6\" NumberOfCells=\"5\">\n"
         "      <PointData><DataArray type=\"Float64\" Name=\"u\" format=\"ascii\">0 0 0 0 0 0"
         "</DataArray></PointData>\n      <Points>\n" +
         points + "\n      </Points>\n      <Cells>\n" + connectivity + "\n" + offsets + "\n" +
         types + "\n      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n" + after + "</VTKFile>\n";
}

std::string dataArray(const std::string& type, const std::string& name, const std::string& format,
                      const std::string& content, const std::string& extra = "") {
  return "        <DataArray type=\"" + type + "\" Name=\"" + name + "\" format=\"" + format +
         "\"" + extra + ">" + content + "</DataArray>";
}

std::string vtuAscii() {
  return vtuFile("",
                 dataArray("Float32", "Points", "ascii", "0 0 0 1 0 0 0 1 0\n0 0 1 1 1 1 5 5 5",
                           " NumberOfComponents=\"3\""),
                 dataArray("Int64", "connectivity", "ascii", "0 1 2 3 1 2 3 4 3 1 0 0 1 5"),
                 dataArray("Int64", "offsets", "ascii", "4 8 11 13 14"),
                 dataArray("UInt8", "types", "ascii", "10 10 5 3 1"));
}

std::string vtuBinary(int headerBytes, Encoding encoding) {
  const VtuArrays a = rawArrays();
  const std::string header = headerBytes == 8 ? " header_type=\"UInt64\"" : "";
  const std::string compressor =
      encoding == Encoding::kCompressed ? " compressor=\"vtkZLibDataCompressor\"" : "";
  return vtuFile(
      header + compressor,
      dataArray("Float64", "Points", "binary", encodedArray(a.points, headerBytes, encoding),
                " NumberOfComponents=\"3\""),
      dataArray("Int64", "connectivity", "binary",
                encodedArray(a.connectivity, headerBytes, encoding)),
      dataArray("Int32", "offsets", "binary", encodedArray(a.offsets, headerBytes, encoding)),
      dataArray("UInt8", "types", "binary", encodedArray(a.types, headerBytes, encoding)));
}

// Appended data, raw or base64, the arrays in another order than they are declared.
std::string vtuAppended(bool raw) {
  const VtuArrays a = rawArrays();
  std::string block;
  std::vector<std::size_t> offsets;
  for (const std::string* data : {&a.types, &a.points, &a.offsets, &a.connectivity}) {
    offsets.push_back(block.size());
    const std::string piece = bytesOf(static_cast<std::uint32_t>(data->size()), false) + *data;
    block += raw ? piece : encodedArray(*data, 4, Encoding::kSeparate);
  }
  const auto at = [](std::size_t offset) { return " offset=\"" + std::to_string(offset) + "\""; };
  return vtuFile(
      "",
      dataArray("Float64", "Points", "appended", "", " NumberOfComponents=\"3\"" + at(offsets[1])),
      dataArray("Int64", "connectivity", "appended", "", at(offsets[3])),
      dataArray("Int32", "offsets", "appended", "", at(offsets[2])),
      dataArray("UInt8", "types", "appended", "", at(offsets[0])),
      "  <AppendedData encoding=\"" + std::string(raw ? "raw" : "base64") + "\">\n   _" + block +
          "\n  </AppendedData>\n");
}

TEST(VtuReader, Ascii) {
  const TempFile file("ascii.vtu", vtuAscii());
  expectTheMesh(eis::readVtu(file.path()));
}

TEST(VtuReader, BinaryBase64WithEitherHeaderType) {
  for (const int headerBytes : {4, 8})
    for (const Encoding encoding : {Encoding::kSeparate, Encoding::kJoint}) {
      SCOPED_TRACE(std::to_string(headerBytes) + (encoding == Encoding::kJoint ? " joint" : ""));
      const TempFile file("binary.vtu", vtuBinary(headerBytes, encoding));
      expectTheMesh(eis::readVtu(file.path()));
    }
}

TEST(VtuReader, ZlibCompressed) {
#ifdef EIS_HAVE_ZLIB
  for (const int headerBytes : {4, 8}) {
    const TempFile file("zlib.vtu", vtuBinary(headerBytes, Encoding::kCompressed));
    expectTheMesh(eis::readVtu(file.path()));
  }
#else
  expectError("zlib.vtu", vtuBinary(4, Encoding::kCompressed), {"zlib"});
#endif
}

TEST(VtuReader, AppendedRawAndBase64) {
  for (const bool raw : {true, false}) {
    SCOPED_TRACE(raw ? "raw" : "base64");
    const TempFile file("appended.vtu", vtuAppended(raw));
    expectTheMesh(eis::readVtu(file.path()));
  }
}

TEST(VtuReader, MalformedFiles) {
  const std::string good = vtuAscii();
  const auto replaced = [&good](const std::string& from, const std::string& to) {
    std::string text = good;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  // tinyxml2 names the element left open, at the line that opens it.
  expectError("syntax.vtu", replaced("</Points>", "</Pints>"), {":6:", "<Points> is not closed"});
  expectError("polydata.vtu", replaced("type=\"UnstructuredGrid\"", "type=\"PolyData\""),
              {":2:", "PolyData", "not supported"});
  expectError("no_conn.vtu", replaced("\"connectivity\"", "\"conn\""),
              {":10:", "<Cells>", "no DataArray named \"connectivity\""});
  expectError("count.vtu", replaced("4 8 11 13 14", "4 8 11 13"),
              {":12:", "'offsets'", "holds 4 values, not NumberOfCells = 5"});
  expectError("token.vtu", replaced("10 10 5 3 1", "10 10 five 3 1"),
              {":13:", "'types'", "'five' is not a UInt8 value"});
  expectError("range.vtu", replaced("3 1 0 0 1 5", "3 1 0 0 1 6"),
              {"cell 4", "point id 6", "out of range"});
  std::string base64 = vtuBinary(4, Encoding::kSeparate);
  base64.replace(base64.find("format=\"binary\">") + 16, 1, "%");
  expectError("base64.vtu", base64, {":10:", "'connectivity'", "not valid base64"});
  std::string appended = vtuAppended(true);
  appended.replace(appended.find("offset=\"0\""), 10, "offset=\"9999\"");
  expectError("offset.vtu", appended, {"'types'", "offset '9999' does not lie"});
  const std::string cut = vtuAppended(true);
  expectError("cut.vtu", cut.substr(0, cut.find("</AppendedData>")), {"truncated"});
}

// Every prefix and many random corruptions of each layout either read or end in eis::Error:
// never a crash, a hang or another exception (bad_alloc from a wild count).
TEST(VtkReaders, CorruptFilesFailCleanly) {
  std::mt19937 generator(2026);
  const std::vector<std::pair<std::string, std::string>> files = {
      {"a.vtk", legacyAscii(false)},
      {"n.vtk", legacyAscii(true)},
      {"b.vtk", legacyBinary(false, true)},
      {"c.vtk", legacyBinary(true, false)},
      {"a.vtu", vtuAscii()},
      {"b.vtu", vtuBinary(8, Encoding::kJoint)},
      {"z.vtu", vtuBinary(4, Encoding::kCompressed)},
      {"r.vtu", vtuAppended(true)},
      {"e.vtu", vtuAppended(false)}};
  for (const auto& [name, text] : files) {
    SCOPED_TRACE(name);
    std::vector<std::string> variants;
    for (std::size_t length = 0; length < text.size(); length += 1 + text.size() / 100)
      variants.push_back(text.substr(0, length));
    for (int trial = 0; trial < 200; ++trial) {
      std::string corrupt = text;
      for (int flips = 0; flips < 3; ++flips)
        corrupt[generator() % corrupt.size()] = static_cast<char>(generator() % 256);
      variants.push_back(corrupt);
    }
    for (std::size_t i = 0; i < variants.size(); ++i) {
      const TempFile file(name, variants[i]);
      try {
        eis::readMeshFile(file.path());
      } catch (const eis::Error&) {
      } catch (const std::exception& other) {
        ADD_FAILURE() << "variant " << i << ": " << other.what();
      }
    }
  }
}

// --- Dispatch ---------------------------------------------------------------------------------

TEST(MeshFile, ExtensionOrFirstBytesPickTheReader) {
  const TempFile vtk("mesh.vtk", legacyAscii(true)), vtu("mesh.vtu", vtuAscii());
  expectTheMesh(eis::readMeshFile(vtk.path()));
  expectTheMesh(eis::readMeshFile(vtu.path()));
  const TempFile noExtension("legacy_mesh", legacyAscii(false)), xml("xml_mesh.dat", vtuAscii());
  expectTheMesh(eis::readMeshFile(noExtension.path()));
  expectTheMesh(eis::readMeshFile(xml.path()));
  expectError("mesh.obj", "v 0 0 0\n", {"unknown mesh format", ".msh", ".vtk", ".vtu"});
  EXPECT_THROW(eis::readMeshFile(testing::TempDir() + "eis_vtk_absent.vtu"), eis::Error);
}

}  // namespace
