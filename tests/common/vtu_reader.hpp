#pragma once
// A small reader of the ParaView files io/vtk_output.cpp writes, for tests: the XML tags and
// attributes of a .pvd or .pvtu, and the arrays of a .vtu piece whose data follow the XML in a raw
// appended section (encoding="raw", header_type="UInt64": a UInt64 byte count, then the bytes).
// Independent of the writer on purpose: it decodes what is in the file, not what the writer meant.
// Problems in a file are reported as GoogleTest failures (and an empty result), never a crash.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace vtu {

// The whole file as bytes (empty, with a failure, when it cannot be opened).
inline std::string readText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ADD_FAILURE() << "cannot open " << path;
    return "";
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The value of attribute `name` in an opening tag such as <DataArray type="Int64" Name="x">.
inline std::string attribute(const std::string& tag, const std::string& name) {
  const std::string key = " " + name + "=\"";
  const std::size_t start = tag.find(key);
  if (start == std::string::npos) return "<missing " + name + ">";
  const std::size_t first = start + key.size();
  return tag.substr(first, tag.find('"', first) - first);
}

// Every opening tag <element ...> or <element .../> in the text, in order.
inline std::vector<std::string> openingTags(const std::string& xml, const std::string& element) {
  std::vector<std::string> tags;
  const std::string open = "<" + element + " ";
  for (std::size_t at = xml.find(open); at != std::string::npos; at = xml.find(open, at + 1))
    tags.push_back(xml.substr(at, xml.find('>', at) + 1 - at));
  return tags;
}

// The XML of a .vtu before its appended section (the whole text when there is none).
inline std::string xmlHead(const std::string& vtu) {
  return vtu.substr(0, vtu.find("<AppendedData encoding=\"raw\">"));
}

// The text between <element> and </element> (the first such element; empty when absent).
inline std::string elementBody(const std::string& xml, const std::string& element) {
  const std::string open = "<" + element + ">", close = "</" + element + ">";
  const std::size_t start = xml.find(open);
  if (start == std::string::npos) return "";
  const std::size_t end = xml.find(close, start);
  if (end == std::string::npos) return "";
  return xml.substr(start + open.size(), end - start - open.size());
}

// The values of the array an opening <DataArray ... format="appended" offset="N"/> tag declares:
// at N bytes past the appended section's '_' marker, a UInt64 byte count, then the bytes.
template <class T>
std::vector<T> appendedValues(const std::string& vtu, const std::string& tag,
                              const std::string& type) {
  const std::string name = attribute(tag, "Name");
  EXPECT_EQ(attribute(tag, "type"), type) << name;
  EXPECT_EQ(attribute(tag, "format"), "appended") << name;
  const std::size_t appended = vtu.find("<AppendedData encoding=\"raw\">");
  if (appended == std::string::npos) {
    ADD_FAILURE() << "no raw appended section for " << name;
    return {};
  }
  const std::size_t base = vtu.find('_', appended) + 1;
  const std::size_t at = base + std::stoull(attribute(tag, "offset"));
  std::uint64_t bytes = 0;
  if (at + sizeof bytes > vtu.size()) {
    ADD_FAILURE() << name << ": offset past the end of the file";
    return {};
  }
  std::memcpy(&bytes, vtu.data() + at, sizeof bytes);
  if (bytes % sizeof(T) != 0 || at + sizeof bytes + bytes > vtu.size()) {
    ADD_FAILURE() << name << ": " << bytes << " bytes do not fit the file or the type " << type;
    return {};
  }
  std::vector<T> values(bytes / sizeof(T));
  std::memcpy(values.data(), vtu.data() + at + sizeof bytes, values.size() * sizeof(T));
  return values;
}

// The values of the <DataArray> named `name` anywhere in the piece.
template <class T>
std::vector<T> dataArray(const std::string& vtu, const std::string& name, const std::string& type) {
  for (const std::string& tag : openingTags(xmlHead(vtu), "DataArray"))
    if (attribute(tag, "Name") == name) return appendedValues<T>(vtu, tag, type);
  ADD_FAILURE() << "no DataArray named " << name;
  return {};
}

// Everything one .vtu piece of a tetrahedral mesh holds.
struct Piece {
  std::size_t numberOfPoints = 0, numberOfCells = 0;
  std::vector<double> points;  // xyz per point
  std::vector<std::int64_t> connectivity, offsets;
  std::vector<unsigned char> types;
  std::vector<std::int64_t> nodeIds;     // point data "node_id"
  std::vector<unsigned char> ghost;      // point data "vtkGhostType"
  std::vector<unsigned char> cellGhost;  // cell data "vtkGhostType"
  std::vector<std::int32_t> rank;        // cell data "rank"
  // The Float64 point and cell data arrays by name, and their component counts.
  std::map<std::string, std::vector<double>> pointData, cellData;
  std::map<std::string, int> components;
};

// Decodes a whole piece; every failure names the file.
inline Piece readPiece(const std::filesystem::path& path) {
  SCOPED_TRACE(path.string());
  Piece piece;
  const std::string vtu = readText(path);
  if (vtu.empty()) return piece;
  const std::string head = xmlHead(vtu);
  const std::vector<std::string> pieces = openingTags(head, "Piece");
  if (pieces.size() != 1u) {
    ADD_FAILURE() << pieces.size() << " <Piece> elements";
    return piece;
  }
  piece.numberOfPoints = std::stoull(attribute(pieces[0], "NumberOfPoints"));
  piece.numberOfCells = std::stoull(attribute(pieces[0], "NumberOfCells"));
  piece.points = dataArray<double>(vtu, "Points", "Float64");
  piece.connectivity = dataArray<std::int64_t>(vtu, "connectivity", "Int64");
  piece.offsets = dataArray<std::int64_t>(vtu, "offsets", "Int64");
  piece.types = dataArray<unsigned char>(vtu, "types", "UInt8");
  const auto fields = [&](const std::string& section,
                          std::map<std::string, std::vector<double>>& out) {
    for (const std::string& tag : openingTags(elementBody(head, section), "DataArray")) {
      const std::string name = attribute(tag, "Name");
      if (name == "node_id")
        piece.nodeIds = appendedValues<std::int64_t>(vtu, tag, "Int64");
      else if (name == "vtkGhostType")
        (section == "PointData" ? piece.ghost : piece.cellGhost) =
            appendedValues<unsigned char>(vtu, tag, "UInt8");
      else if (name == "rank")
        piece.rank = appendedValues<std::int32_t>(vtu, tag, "Int32");
      else {
        out[name] = appendedValues<double>(vtu, tag, "Float64");
        const std::string components = attribute(tag, "NumberOfComponents");
        piece.components[name] = components.front() == '<' ? 1 : std::stoi(components);
      }
    }
  };
  fields("PointData", piece.pointData);
  fields("CellData", piece.cellData);
  return piece;
}

}  // namespace vtu
