// XML VTK reader: <VTKFile type="UnstructuredGrid"> with one <Piece>, its <Points> and the
// connectivity, offsets and types of its <Cells>. Point and cell data are ignored.
//
// <AppendedData encoding="raw"> is not XML: its bytes (after the '_' marker, up to the last
// </AppendedData>) are cut out of the text before the XML is parsed and read from there by
// offset; base64 appended data is handled the same way.
#include <cstdint>
#include <string>

#include "eis/core/error.hpp"
#include "eis/core/xml.hpp"
#include "eis/mesh/vtk_reader.hpp"
#include "mesh_cursor.hpp"
#include "vtk_cells.hpp"
#include "vtu_data_array.hpp"

namespace eis {
namespace {

class VtuReader {
public:
  explicit VtuReader(const std::string& path) : path_(path) {}

  SerialMesh read() {
    std::string text = readMeshFileBytes(path_);
    cutAppendedData(text);
    const xml::Element root = xml::parse(text, path_);
    readLayout(root);
    const xml::Element& piece = onlyPiece(root);
    const std::int64_t points = countAttribute(piece, "NumberOfPoints");
    const std::int64_t cells = countAttribute(piece, "NumberOfCells");
    const xml::Element& pointsElement = child(piece, "Points");
    const xml::Element& pointArray = firstArray(pointsElement);
    const xml::Attribute* components = pointArray.attribute("NumberOfComponents");
    if (!components || components->value != "3")
      fail(pointArray, "the points' DataArray must have NumberOfComponents=\"3\"");
    const std::vector<double> coordinates =
        readDataArray<double>(pointArray, layout_, appended_, path_);
    expectCount(pointArray, coordinates.size(), 3 * points, "3 x NumberOfPoints");
    VtkGrid grid;
    grid.points.resize(static_cast<std::size_t>(points));
    for (std::size_t i = 0; i < grid.points.size(); ++i)
      for (int c = 0; c < 3; ++c) grid.points[i][c] = coordinates[3 * i + c];
    const xml::Element& cellsElement = child(piece, "Cells");
    const xml::Element& connectivity = namedArray(cellsElement, "connectivity");
    const xml::Element& offsets = namedArray(cellsElement, "offsets");
    const xml::Element& types = namedArray(cellsElement, "types");
    grid.connectivity = readDataArray<std::int64_t>(connectivity, layout_, appended_, path_);
    const std::vector<std::int64_t> ends =
        readDataArray<std::int64_t>(offsets, layout_, appended_, path_);
    expectCount(offsets, ends.size(), cells, "NumberOfCells");
    grid.offsets.insert(grid.offsets.end(), ends.begin(), ends.end());
    grid.types = readDataArray<std::int64_t>(types, layout_, appended_, path_);
    expectCount(types, grid.types.size(), cells, "NumberOfCells");
    const Cursor file(path_, "");
    return assembleVtkGrid(grid, file);
  }

private:
  [[noreturn]] void fail(const xml::Element& element, const std::string& what) const {
    const xml::Attribute* name = element.attribute("Name");
    throw Error(path_ + ":" + std::to_string(element.line) + ": <" + element.name +
                (name ? " '" + name->value + "'" : std::string()) + ">: " + what);
  }

  void cutAppendedData(std::string& text) {
    const std::size_t open = text.find("<AppendedData");
    if (open == std::string::npos) return;
    const std::size_t tagEnd = text.find('>', open);
    const std::size_t marker = text.find('_', tagEnd);
    const std::size_t close = text.rfind("</AppendedData>");
    if (tagEnd == std::string::npos || marker == std::string::npos || close == std::string::npos ||
        close < marker)
      throw Error(path_ +
                  ": <AppendedData> without its '_' marker and closing tag (truncated file?)");
    const std::string tag = text.substr(open, tagEnd - open);
    appended_.present = true;
    appended_.base64 = tag.find("encoding=\"base64\"") != std::string::npos ||
                       tag.find("encoding='base64'") != std::string::npos;
    appended_.bytes = text.substr(marker + 1, close - marker - 1);
    text.erase(marker + 1, close - marker - 1);
  }

  void readLayout(const xml::Element& root) {
    if (root.name != "VTKFile") fail(root, "the root element must be <VTKFile>");
    const xml::Attribute* type = root.attribute("type");
    if (!type || type->value != "UnstructuredGrid")
      fail(root, "type \"" + (type ? type->value : std::string()) +
                     "\" is not supported (an UnstructuredGrid of tetrahedra is needed)");
    if (const xml::Attribute* order = root.attribute("byte_order")) {
      if (order->value != "LittleEndian" && order->value != "BigEndian")
        fail(root, "byte_order \"" + order->value + "\" is not LittleEndian or BigEndian");
      layout_.bigEndian = order->value == "BigEndian";
    }
    if (const xml::Attribute* header = root.attribute("header_type")) {
      if (header->value != "UInt32" && header->value != "UInt64")
        fail(root, "header_type \"" + header->value + "\" is not UInt32 or UInt64");
      layout_.headerBytes = header->value == "UInt64" ? 8 : 4;
    }
    if (const xml::Attribute* compressor = root.attribute("compressor")) {
      if (compressor->value != "vtkZLibDataCompressor")
        fail(root, "compressor \"" + compressor->value +
                       "\" is not supported (only vtkZLibDataCompressor)");
      layout_.compressed = true;
    }
  }

  const xml::Element& onlyPiece(const xml::Element& root) const {
    const xml::Element& grid = child(root, "UnstructuredGrid");
    const xml::Element* piece = nullptr;
    for (const xml::Element& element : grid.children) {
      if (element.name != "Piece") continue;
      if (piece) fail(element, "several Pieces are not supported (one mesh, one Piece)");
      piece = &element;
    }
    if (!piece) fail(grid, "has no <Piece>");
    return *piece;
  }

  const xml::Element& child(const xml::Element& parent, const std::string& name) const {
    for (const xml::Element& element : parent.children)
      if (element.name == name) return element;
    fail(parent, "has no <" + name + ">");
  }

  const xml::Element& firstArray(const xml::Element& parent) const {
    return child(parent, "DataArray");
  }

  const xml::Element& namedArray(const xml::Element& parent, const std::string& name) const {
    for (const xml::Element& element : parent.children) {
      const xml::Attribute* attribute = element.attribute("Name");
      if (element.name == "DataArray" && attribute && attribute->value == name) return element;
    }
    fail(parent, "has no DataArray named \"" + name + "\"");
  }

  std::int64_t countAttribute(const xml::Element& element, const char* name) const {
    const xml::Attribute* attribute = element.attribute(name);
    if (!attribute) fail(element, std::string("has no ") + name);
    std::size_t used = 0;
    long long value = -1;
    try {
      value = std::stoll(attribute->value, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != attribute->value.size() || value < 0 || value > (1LL << 50))
      fail(element, std::string(name) + " \"" + attribute->value + "\" is not a count");
    return value;
  }

  void expectCount(const xml::Element& array, std::size_t found, std::int64_t expected,
                   const char* what) const {
    if (static_cast<std::int64_t>(found) != expected)
      fail(array, "holds " + std::to_string(found) + " values, not " + what + " = " +
                      std::to_string(expected));
  }

  std::string path_;
  VtuLayout layout_;
  VtuAppended appended_;
};

}  // namespace

SerialMesh readVtu(const std::string& path) {
  VtuReader reader(path);
  return reader.read();
}

}  // namespace eis
