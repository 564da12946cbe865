// Legacy VTK reader: "# vtk DataFile" files holding an UNSTRUCTURED_GRID, ASCII or BINARY.
//
//   # vtk DataFile Version x.y     title line     ASCII | BINARY     DATASET UNSTRUCTURED_GRID
//   POINTS n float|double          3n values
//   CELLS n size                   n times "count id..." (size values in all), or, from 5.1:
//   CELLS n+1 m  OFFSETS dtype  n+1 values  CONNECTIVITY dtype  m values
//   CELL_TYPES n                   n values
//
// A BINARY payload starts after the line that announces it and is big-endian: 32-bit ints in
// the old CELLS layout and CELL_TYPES, vtktypeint32 or vtktypeint64 in OFFSETS and
// CONNECTIVITY. FIELD data and METADATA blocks are skipped; POINT_DATA and CELL_DATA end what
// is read.
#include <cstdint>
#include <string>
#include <string_view>

#include "eis/mesh/vtk_reader.hpp"
#include "mesh_cursor.hpp"
#include "vtk_cells.hpp"

namespace eis {
namespace {

// Bytes of one value of a legacy data type name, 0 for a name not known.
int dataTypeBytes(std::string_view type) {
  if (type == "bit") return 0;
  if (type == "char" || type == "unsigned_char") return 1;
  if (type == "short" || type == "unsigned_short") return 2;
  if (type == "int" || type == "unsigned_int" || type == "float" || type == "vtktypeint32" ||
      type == "vtktypeuint32")
    return 4;
  if (type == "long" || type == "unsigned_long" || type == "double" || type == "vtktypeint64" ||
      type == "vtktypeuint64")
    return 8;
  return 0;
}

class LegacyReader {
public:
  LegacyReader(const std::string& path, std::string text) : in_(path, std::move(text)) {}

  SerialMesh read() {
    readHeader();
    bool havePoints = false, haveCells = false, haveTypes = false;
    while (!in_.atEnd()) {
      const std::string keyword(in_.word());
      if (keyword == "POINTS") {
        if (havePoints) in_.fail("second POINTS section");
        havePoints = true;
        readPoints();
      } else if (keyword == "CELLS") {
        if (haveCells) in_.fail("second CELLS section");
        haveCells = true;
        readCells();
      } else if (keyword == "CELL_TYPES") {
        if (haveTypes) in_.fail("second CELL_TYPES section");
        haveTypes = true;
        readCellTypes();
      } else if (keyword == "METADATA") {
        skipMetadata();
      } else if (keyword == "FIELD") {
        skipField();
      } else if (keyword == "POINT_DATA" || keyword == "CELL_DATA") {
        break;  // attributes: nothing the mesh needs
      } else {
        in_.fail("unexpected keyword '" + excerpt(keyword) +
                 "' (expected POINTS, CELLS, CELL_TYPES, FIELD, POINT_DATA or CELL_DATA)");
      }
      in_.leaveSection();
    }
    if (!havePoints) in_.failFile("no POINTS section");
    if (!haveCells) in_.failFile("no CELLS section");
    if (!haveTypes) in_.failFile("no CELL_TYPES section");
    return assembleVtkGrid(grid_, in_);
  }

private:
  void readHeader() {
    if (in_.size() == 0) in_.failFile("empty file: missing '# vtk DataFile' header");
    const std::string_view first = in_.rest().substr(0, in_.rest().find('\n'));
    if (first.find("# vtk DataFile") == std::string_view::npos)
      in_.fail("missing '# vtk DataFile' header (not a legacy VTK file?), found '" +
               excerpt(first) + "'");
    in_.line();
    in_.line();  // the title
    const std::string_view mode = in_.word();
    if (mode == "BINARY")
      binary_ = true;
    else if (mode != "ASCII")
      in_.fail("expected ASCII or BINARY, found '" + excerpt(mode) + "'");
    in_.setBinaryFile(binary_);
    in_.setByteSwap(binary_);  // big-endian payloads, read on a little-endian machine
    in_.expectWord("DATASET");
    const std::string_view dataset = in_.word();
    if (dataset != "UNSTRUCTURED_GRID")
      in_.fail("DATASET " + excerpt(dataset) +
               " is not supported (an UNSTRUCTURED_GRID of tetrahedra is needed)");
  }

  // A binary payload starts after the newline that ends the line announcing it.
  void beginPayload() {
    if (binary_) in_.skipLine();
  }

  void readPoints() {
    in_.enterSection("POINTS", "");
    const std::int64_t count = in_.textInteger("number of points");
    const std::string type(in_.word());
    if (type != "float" && type != "double")
      in_.fail("POINTS of type '" + excerpt(type) + "': float or double expected");
    const bool single = type == "float";
    beginPayload();
    in_.guardCount(count, 3, "points", single ? 4 : 8);
    grid_.points.resize(static_cast<std::size_t>(count));
    for (auto& point : grid_.points)
      for (double& x : point) x = readCoordinate(single);
  }

  double readCoordinate(bool single) {
    if (binary_) return single ? in_.raw<float>() : in_.raw<double>();
    return single ? in_.textFloat("coordinate") : in_.textReal("coordinate");
  }

  void readCells() {
    in_.enterSection("CELLS", "");
    const std::int64_t first = in_.textInteger("number of cells");
    const std::int64_t second = in_.textInteger("size of the cell list");
    if (first < 0 || second < 0) in_.fail("CELLS counts must not be negative");
    if (in_.nextWordIs("OFFSETS"))
      readOffsetsAndConnectivity(first, second);
    else
      readCountedCells(first, second);
  }

  // The old layout: each cell is its point count, then its point ids, all 32-bit ints.
  void readCountedCells(std::int64_t cells, std::int64_t size) {
    beginPayload();
    in_.guardCount(size, 1, "cell list values");
    in_.guardCount(cells, 1, "cells");
    grid_.offsets.assign(1, 0);
    grid_.offsets.reserve(static_cast<std::size_t>(cells) + 1);
    grid_.connectivity.reserve(static_cast<std::size_t>(size));
    std::int64_t used = 0;
    for (std::int64_t c = 0; c < cells; ++c) {
      const std::int64_t count = readIndex(4, "number of points in cell");
      if (count < 0 || count > size - used - 1)
        in_.fail("cell " + std::to_string(c) + " has " + std::to_string(count) +
                 " points, more than the cell list size " + std::to_string(size) + " leaves");
      for (std::int64_t j = 0; j < count; ++j)
        grid_.connectivity.push_back(readIndex(4, "point id"));
      used += 1 + count;
      grid_.offsets.push_back(static_cast<std::int64_t>(grid_.connectivity.size()));
    }
    if (used != size)
      in_.fail(std::to_string(cells) + " cells hold " + std::to_string(used) +
               " values, not the cell list size " + std::to_string(size));
  }

  // VTK 5.1: CELLS gives the lengths of the OFFSETS and CONNECTIVITY arrays that follow.
  void readOffsetsAndConnectivity(std::int64_t offsetCount, std::int64_t connectivityCount) {
    if (offsetCount < 1) in_.fail("CELLS with OFFSETS needs at least one offset");
    grid_.offsets = readIndexArray("OFFSETS", offsetCount);
    grid_.connectivity = readIndexArray("CONNECTIVITY", connectivityCount);
    if (grid_.offsets.front() != 0 || grid_.offsets.back() != connectivityCount)
      in_.fail("OFFSETS must run from 0 to the " + std::to_string(connectivityCount) +
               " CONNECTIVITY values");
  }

  std::vector<std::int64_t> readIndexArray(const char* name, std::int64_t count) {
    in_.enterSection(name, "");
    in_.expectWord(name);
    const std::string type(in_.word());
    const int bytes = dataTypeBytes(type);
    if (type != "vtktypeint64" && type != "vtktypeint32")
      in_.fail(std::string(name) + " of type '" + excerpt(type) +
               "': vtktypeint64 or vtktypeint32 expected");
    beginPayload();
    in_.guardCount(count, 1, name, bytes);
    std::vector<std::int64_t> values(static_cast<std::size_t>(count));
    for (auto& value : values) value = readIndex(bytes, name);
    return values;
  }

  void readCellTypes() {
    in_.enterSection("CELL_TYPES", "");
    const std::int64_t count = in_.textInteger("number of cell types");
    beginPayload();
    in_.guardCount(count, 1, "cell types");
    if (count != static_cast<std::int64_t>(grid_.offsets.size()) - 1)
      in_.fail(std::to_string(count) + " cell types for " +
               std::to_string(grid_.offsets.size() - 1) + " cells (CELL_TYPES must follow CELLS)");
    grid_.types.resize(static_cast<std::size_t>(count));
    for (auto& type : grid_.types) type = readIndex(4, "cell type");
  }

  std::int64_t readIndex(int bytes, const char* what) {
    if (!binary_) return in_.textInteger(what);
    return bytes == 8 ? in_.raw<std::int64_t>() : in_.raw<std::int32_t>();
  }

  // "METADATA" then lines up to the first empty one.
  void skipMetadata() {
    in_.enterSection("METADATA", "");
    in_.line();
    while (!in_.line().empty()) continue;
  }

  // "FIELD name arrays", then per array "name components tuples type" and its values.
  void skipField() {
    in_.enterSection("FIELD", "");
    in_.word();
    const std::int64_t arrays = in_.textInteger("number of field arrays");
    in_.guardCount(arrays, 4, "field arrays");
    for (std::int64_t a = 0; a < arrays; ++a) {
      if (in_.nextWordIs("METADATA")) {
        in_.word();
        skipMetadata();
        in_.enterSection("FIELD", "");
      }
      in_.word();
      const std::int64_t components = in_.textInteger("number of components");
      const std::int64_t tuples = in_.textInteger("number of tuples");
      const std::string type(in_.word());
      const int bytes = dataTypeBytes(type);
      if (bytes == 0) in_.fail("FIELD array of type '" + excerpt(type) + "' is not supported");
      if (components < 0 || tuples < 0 || (tuples > 0 && components > INT64_MAX / tuples))
        in_.fail("FIELD array sizes must be non-negative");
      const std::int64_t values = components * tuples;
      beginPayload();
      in_.guardCount(values, 1, "field values", bytes);
      if (binary_)
        in_.skipBytes(static_cast<std::size_t>(values * bytes));
      else
        for (std::int64_t v = 0; v < values; ++v) in_.word();
    }
  }

  Cursor in_;
  bool binary_ = false;
  VtkGrid grid_;
};

}  // namespace

SerialMesh readVtkLegacy(const std::string& path) {
  LegacyReader reader(path, readMeshFileBytes(path));
  return reader.read();
}

}  // namespace eis
