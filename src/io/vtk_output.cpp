#include "eis/io/vtk_output.hpp"

#include "eis/core/cells.hpp"
#include "eis/core/error.hpp"
#include "eis/io/output_file.hpp"
#include "eis/io/vtk_ghost_cells.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <type_traits>
#include <utility>

namespace eis {
namespace {

std::size_t cellCount(const VtkPiece& piece) {
  return piece.cellTypes.empty() ? piece.tets.size() / std::size_t(piece.corners())
                                 : piece.cellTypes.size();
}
CellType typeOfCell(const VtkPiece& piece, std::size_t cell) {
  return piece.cellTypes.empty() ? piece.type : piece.cellTypes[cell];
}

namespace fs = std::filesystem;

constexpr unsigned char kDuplicatePoint = 1;  // vtkDataSetAttributes::DUPLICATEPOINT
constexpr unsigned char kDuplicateCell = 1;   // vtkDataSetAttributes::DUPLICATECELL

// ---------------------------------------------------------------------------------------------
// Text pieces

const char* byteOrder() {
  const std::uint16_t probe = 1;
  unsigned char first = 0;
  std::memcpy(&first, &probe, 1);
  return first == 1 ? "LittleEndian" : "BigEndian";
}

// The XML header line and the opening VTKFile tag of a .vtu or .pvtu.
std::string vtkFileOpening(const char* type) {
  return std::string("<?xml version=\"1.0\"?>\n<VTKFile type=\"") + type +
         "\" version=\"1.0\" byte_order=\"" + byteOrder() + "\" header_type=\"UInt64\">\n";
}

// Escapes a string for use inside a double-quoted XML attribute.
std::string xmlAttribute(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// The shortest of 15, 16 or 17 significant digits that reads back as the same double.
std::string roundTrip(double value) {
  char text[32];
  for (int digits = 15;; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    if (digits == 17 || std::strtod(text, nullptr) == value) return text;
  }
}

std::string zeroPadded(int value, int width) {
  char text[32];
  std::snprintf(text, sizeof text, "%0*d", width, value);
  return text;
}

// "beam_000012": the step's .pvtu is this plus ".pvtu"; its pieces go in a folder of this name.
std::string stepStem(const std::string& name, int step) {
  return name + "_" + zeroPadded(step, 6);
}

std::string pieceFile(int rank) {
  return "piece_" + zeroPadded(rank, 4) + ".vtu";
}

// ---------------------------------------------------------------------------------------------
// Checks and files. Each returns an error message, empty on success, for throwIfAnyRankFailed.

std::string checkFields(const std::vector<VtkField>& fields, std::size_t count, const char* where) {
  for (const VtkField& field : fields) {
    if (field.name.empty() || field.components < 1)
      return std::string("VTK output: a ") + where +
             " field needs a name and at least one component";
    if (field.values.size() != count * std::size_t(field.components))
      return "VTK output: " + std::string(where) + " field '" + field.name + "' has " +
             std::to_string(field.values.size()) + " values, expected " +
             std::to_string(count * std::size_t(field.components));
  }
  return "";
}

}  // namespace

std::string checkVtkPiece(const VtkPiece& piece, const std::vector<VtkField>& pointData,
                          const std::vector<VtkField>& cellData) {
  std::size_t indices = 0;
  for (std::size_t c = 0; c < cellCount(piece); ++c) {
    indices += std::size_t(cornersOf(typeOfCell(piece, c)));
  }
  const std::size_t points = piece.points.size() / 3, cells = cellCount(piece);
  if (piece.points.size() % 3 != 0 || piece.tets.size() != indices)
    return "VTK output: piece needs 3 coordinates per point and each cell's vertex indices";
  if (piece.nodeIds.size() != points || piece.owned.size() != points)
    return "VTK output: piece has " + std::to_string(points) + " points but " +
           std::to_string(piece.nodeIds.size()) + " node ids and " +
           std::to_string(piece.owned.size()) + " ownership flags";
  for (std::int64_t index : piece.tets)
    if (index < 0 || std::size_t(index) >= points)
      return "VTK output: cell vertex " + std::to_string(index) + " is not one of the " +
             std::to_string(points) + " local points";
  const std::string message = checkFields(pointData, points, "point");
  return message.empty() ? checkFields(cellData, cells, "cell") : message;
}

namespace {

// A run of bytes of a file to write.
struct Span {
  const void* data;
  std::size_t size;
};

// `path` is created anew (createNewFile): a file or link an earlier run left there (a restart
// rewrites the steps after its checkpoint) is removed, never written through.
std::string writeFile(const fs::path& path, const std::vector<Span>& spans) {
  std::string why;
  const int fd = createNewFile(path.string(), why);
  if (fd < 0) return "VTK output: " + why;
  std::FILE* file = ::fdopen(fd, "wb");
  if (!file) {
    const int reason = errno;
    ::close(fd);
    return "VTK output: cannot open '" + path.string() + "' for writing: " + std::strerror(reason);
  }
  bool written = true;
  for (const Span& span : spans) {
    if (span.size > 0 && std::fwrite(span.data, 1, span.size, file) != span.size) {
      written = false;
      break;
    }
  }
  const bool closed = std::fclose(file) == 0;
  if (!written || !closed)
    return "VTK output: cannot write '" + path.string() + "': " + std::strerror(errno);
  return "";
}

std::string writeText(const fs::path& path, const std::string& text) {
  return writeFile(path, {{text.data(), text.size()}});
}

// Writes beside the target, then renames: readers see the old file or the new one, never half.
// The temporary is PATH.partial, created anew by writeFile, as every output's.
std::string replaceFile(const fs::path& path, const std::string& text) {
  const std::string temporary = temporaryPathFor(path.string());
  const std::string message = writeText(temporary, text);
  if (!message.empty()) {
    ::unlink(temporary.c_str());
    return message;
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int reason = errno;
    ::unlink(temporary.c_str());
    return "VTK output: cannot replace '" + path.string() + "': " + std::strerror(reason);
  }
  return "";
}

// ---------------------------------------------------------------------------------------------
// One piece (.vtu). Its arrays go, raw, in the appended section after the XML: each one a UInt64
// byte count then its bytes, written straight from the caller's vectors without a copy.

template <class T>
const char* vtkType() {
  if constexpr (std::is_same_v<T, double>) return "Float64";
  if constexpr (std::is_same_v<T, std::int64_t>) return "Int64";
  if constexpr (std::is_same_v<T, std::int32_t>) return "Int32";
  if constexpr (std::is_same_v<T, unsigned char>) return "UInt8";
}

// Name, type and width of an array, as both the .vtu and the .pvtu declare it.
template <class T>
std::string arrayAttributes(const std::string& name, int components) {
  std::string text =
      std::string("type=\"") + vtkType<T>() + "\" Name=\"" + xmlAttribute(name) + "\"";
  if (components > 1) text += " NumberOfComponents=\"" + std::to_string(components) + "\"";
  return text;
}

// One array of the appended section: how the XML declares it, and where its values are.
struct Block {
  std::string attributes;
  const void* data;
  std::uint64_t bytes;
};

template <class T>
Block block(const std::string& name, int components, const std::vector<T>& values) {
  return {arrayAttributes<T>(name, components), values.data(), values.size() * sizeof(T)};
}

void addFields(std::vector<Block>& blocks, const std::vector<VtkField>& fields) {
  for (const VtkField& field : fields)
    blocks.push_back(block(field.name, field.components, field.values));
}

// An element of the piece (PointData, CellData, Points, Cells) and its arrays, in file order.
struct Section {
  const char* tag;
  std::vector<Block> blocks;
};

// The XML before the appended section: every array declared with its offset into that section.
std::string pieceHead(std::size_t points, std::size_t cells, const std::vector<Section>& sections,
                      const std::string& fieldData) {
  std::string xml = vtkFileOpening("UnstructuredGrid");
  xml += "  <UnstructuredGrid>\n" + fieldData + "    <Piece NumberOfPoints=\"" +
         std::to_string(points) + "\" NumberOfCells=\"" + std::to_string(cells) + "\">\n";
  std::uint64_t offset = 0;
  for (const Section& section : sections) {
    xml += std::string("      <") + section.tag + ">\n";
    for (const Block& array : section.blocks) {
      xml += "        <DataArray " + array.attributes + " format=\"appended\" offset=\"" +
             std::to_string(offset) + "\"/>\n";
      offset += sizeof array.bytes + array.bytes;
    }
    xml += std::string("      </") + section.tag + ">\n";
  }
  xml += "    </Piece>\n  </UnstructuredGrid>\n  <AppendedData encoding=\"raw\">\n   _";
  return xml;
}

// Field data "object_path": VTK's ASCII form of a string array, each string's bytes as numbers
// and a 0 after each.
std::string objectPaths(const std::vector<std::string>& paths) {
  std::string values;
  for (const std::string& path : paths) {
    for (unsigned char c : path) values += std::to_string(int(c)) + " ";
    values += "0 ";
  }
  return "    <FieldData>\n      <DataArray type=\"String\" Name=\"object_path\" NumberOfTuples=\"" +
         std::to_string(paths.size()) + "\" format=\"ascii\">\n        " + values +
         "\n      </DataArray>\n    </FieldData>\n";
}

// `cellRanks`: the rank that holds each cell as its own; the others are this rank's ghost cells.
// `objects`: each point's and cell's body, for a scene of several (else nullptr).
std::string writePiece(const fs::path& path, const VtkPiece& piece, int rank,
                       const std::vector<std::int32_t>& cellRanks,
                       const std::vector<VtkField>& pointData,
                       const std::vector<VtkField>& cellData, const VtkObjects* objects) {
  const std::size_t points = piece.nodeIds.size(), cells = cellCount(piece);
  std::vector<unsigned char> ghost(points), ghostCell(cells), types(cells);
  for (std::size_t p = 0; p < points; ++p) ghost[p] = piece.owned[p] ? 0 : kDuplicatePoint;
  for (std::size_t c = 0; c < cells; ++c) ghostCell[c] = cellRanks[c] == rank ? 0 : kDuplicateCell;
  std::vector<std::int64_t> offsets(cells);
  for (std::size_t c = 0; c < cells; ++c) {
    const CellType type = typeOfCell(piece, c);
    const int n = cornersOf(type);
    types[c] = static_cast<unsigned char>(vtkTypeOf(type));
    offsets[c] = (c == 0 ? 0 : offsets[c - 1]) + n;
  }

  std::vector<Section> sections = {
      {"PointData", {block("node_id", 1, piece.nodeIds), block("vtkGhostType", 1, ghost)}},
      {"CellData", {block("rank", 1, cellRanks), block("vtkGhostType", 1, ghostCell)}},
      {"Points", {block("Points", 3, piece.points)}},
      {"Cells",
       {block("connectivity", 1, piece.tets), block("offsets", 1, offsets),
        block("types", 1, types)}}};
  if (objects) {
    sections[0].blocks.push_back(block("object", 1, objects->points));
    sections[1].blocks.push_back(block("object", 1, objects->cells));
  }
  addFields(sections[0].blocks, pointData);
  addFields(sections[1].blocks, cellData);

  const std::string head =
      pieceHead(points, cells, sections, objects ? objectPaths(objects->paths) : "");
  const std::string tail = "\n  </AppendedData>\n</VTKFile>\n";
  std::vector<Span> spans = {{head.data(), head.size()}};
  for (const Section& section : sections)
    for (const Block& array : section.blocks) {
      spans.push_back({&array.bytes, sizeof array.bytes});
      spans.push_back({array.data, array.bytes});
    }
  spans.push_back({tail.data(), tail.size()});
  return writeFile(path, spans);
}

// ---------------------------------------------------------------------------------------------
// The step's index (.pvtu) and the series (.pvd)

void appendFieldDeclarations(std::string& xml, const std::vector<VtkField>& fields) {
  for (const VtkField& field : fields)
    xml += "      <PDataArray " + arrayAttributes<double>(field.name, field.components) + "/>\n";
}

std::string pvtuXml(const std::string& stem, int size, const std::vector<VtkField>& pointData,
                    const std::vector<VtkField>& cellData, bool objects) {
  const std::string object =
      objects ? "      <PDataArray " + arrayAttributes<std::int32_t>("object", 1) + "/>\n" : "";
  std::string xml = vtkFileOpening("PUnstructuredGrid");
  xml += "  <PUnstructuredGrid GhostLevel=\"" + std::to_string(size > 1 ? 1 : 0) +
         "\">\n    <PPointData>\n";
  xml += "      <PDataArray " + arrayAttributes<std::int64_t>("node_id", 1) + "/>\n";
  xml += "      <PDataArray " + arrayAttributes<unsigned char>("vtkGhostType", 1) + "/>\n";
  xml += object;
  appendFieldDeclarations(xml, pointData);
  xml += "    </PPointData>\n    <PCellData>\n";
  xml += "      <PDataArray " + arrayAttributes<std::int32_t>("rank", 1) + "/>\n";
  xml += "      <PDataArray " + arrayAttributes<unsigned char>("vtkGhostType", 1) + "/>\n";
  xml += object;
  appendFieldDeclarations(xml, cellData);
  xml += "    </PCellData>\n    <PPoints>\n";
  xml += "      <PDataArray " + arrayAttributes<double>("Points", 3) + "/>\n";
  xml += "    </PPoints>\n";
  for (int rank = 0; rank < size; ++rank)
    xml += "    <Piece Source=\"" + xmlAttribute(stem + "/" + pieceFile(rank)) + "\"/>\n";
  xml += "  </PUnstructuredGrid>\n</VTKFile>\n";
  return xml;
}

std::string pvdDataSet(double time, const std::string& file) {
  return "    <DataSet timestep=\"" + roundTrip(time) + "\" group=\"\" part=\"0\" file=\"" +
         xmlAttribute(file) + "\"/>\n";
}

std::string pvdXml(const std::vector<std::string>& dataSets) {
  std::string xml = "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\"";
  xml += std::string(" byte_order=\"") + byteOrder() + "\">\n  <Collection>\n";
  for (const std::string& dataSet : dataSets) xml += dataSet;
  xml += "  </Collection>\n</VTKFile>\n";
  return xml;
}

}  // namespace

VtkSeriesWriter::VtkSeriesWriter(MPI_Comm comm, std::string prefix) : comm_(comm) {
  EIS_CHECK_MPI(MPI_Comm_rank(comm_, &rank_));
  EIS_CHECK_MPI(MPI_Comm_size(comm_, &size_));
  const fs::path path(std::move(prefix));
  name_ = path.filename().string();
  if (name_.empty() || name_ == "." || name_ == "..")
    throw Error("VTK output: prefix '" + path.string() + "' does not end in a file name");
  directory_ = path.parent_path().string();
  pvdPath_ = (path.parent_path() / (name_ + ".pvd")).string();
  prefix_ = path.string();
  prepareOutputFolder("output.vtk", prefix_, directory_, comm_);
}

void VtkSeriesWriter::resume(int step) {
  if (rank_ != 0) return;
  std::ifstream in(pvdPath_);
  const std::string marker = "file=\"" + name_ + "_";
  for (std::string line; std::getline(in, line);) {
    const auto at = line.find(marker);
    if (line.find("<DataSet ") == std::string::npos || at == std::string::npos) continue;
    if (std::atoi(line.c_str() + at + marker.size()) < step) dataSets_.push_back(line + "\n");
  }
}

void VtkSeriesWriter::write(int step, double time, VtkPiece piece, std::vector<VtkField> pointData,
                            std::vector<VtkField> cellData) {
  throwIfAnyRankFailed(checkVtkPiece(piece, pointData, cellData), comm_);
  const std::vector<std::int32_t> cellRanks = appendGhostCells(comm_, piece, pointData, cellData);
  writeStep(step, time, piece, cellRanks, pointData, cellData, nullptr);
}

void VtkSeriesWriter::writeStep(int step, double time, const VtkPiece& piece,
                                const std::vector<std::int32_t>& cellRanks,
                                const std::vector<VtkField>& pointData,
                                const std::vector<VtkField>& cellData, const VtkObjects* objects) {
  const fs::path directory(directory_);
  const std::string stem = stepStem(name_, step);

  // The step's folder exists before any rank writes in it: the collective check is the barrier.
  prepareOutputFolder("output.vtk", prefix_, (directory / stem).string(), comm_);
  throwIfAnyRankFailed(writePiece(directory / stem / pieceFile(rank_), piece, rank_, cellRanks,
                                  pointData, cellData, objects),
                       comm_);

  // Only now that every piece is complete may the index and the series point at them.
  dataSets_.push_back(pvdDataSet(time, stem + ".pvtu"));
  std::string message;
  if (rank_ == 0) {
    message = writeText(directory / (stem + ".pvtu"),
                        pvtuXml(stem, size_, pointData, cellData, objects != nullptr));
    if (message.empty()) message = replaceFile(pvdPath_, pvdXml(dataSets_));
  }
  throwIfAnyRankFailed(message, comm_);
}

}  // namespace eis
