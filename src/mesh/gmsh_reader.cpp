// Gmsh .msh reader: which format version a file is in, $MeshFormat, and the section loop of
// 2.2 and 4.1. The sections each version writes its own way are read in gmsh_v1.cpp,
// gmsh_v22.cpp and gmsh_v41.cpp; the tokenizer is mesh_cursor, and what becomes of the nodes
// and elements is mesh_assembly.
#include "eis/mesh/gmsh_reader.hpp"

#include <string_view>

#include "gmsh_format.hpp"

namespace eis {
namespace {

class SectionReader {
public:
  explicit SectionReader(GmshFile& file) : file_(file), in_(file.in) {}

  void readMeshFormat() {
    in_.enterSection("$MeshFormat", "$EndMeshFormat");
    // 2.0 and 2.1 (older Gmsh writes "2") lay out ASCII nodes and elements as 2.2 does; SOFA's
    // MeshGmshLoader reads every 2.x alike, by the version's integer part.
    const std::string_view version = in_.word();
    const bool before22 = version == "2" || version == "2.0" || version == "2.1";
    if (version == "2.2" || before22)
      version_ = 22;
    else if (version == "4.1")
      version_ = 41;
    else
      in_.fail("unsupported Gmsh format version '" + excerpt(version) +
               "' (supported: 1.0, 2.0 to 2.2, 4.1)");
    const std::int64_t fileType = in_.readInt("file type");
    const std::int64_t dataSize = in_.readInt("data size");
    if (fileType != 0 && fileType != 1) in_.fail("file type must be 0 (ASCII) or 1 (binary)");
    if (before22 && fileType == 1)
      in_.fail("binary Gmsh files of version " + excerpt(version) +
               " are not read (2.2 and 4.1 are)");
    // data-size is sizeof(double) in 2.2 and sizeof(size_t) in 4.1.
    const bool sizeOk = version_ == 22 ? dataSize == 8 : (dataSize == 4 || dataSize == 8);
    if (!sizeOk) in_.fail("unsupported data size " + std::to_string(dataSize));
    in_.setSizeWidth(static_cast<int>(dataSize));
    file_.binary = fileType == 1;
    in_.setBinaryFile(file_.binary);
    if (file_.binary) readEndiannessMarker();
    in_.expectWord("$EndMeshFormat");
    in_.leaveSection();
  }

  void readSection() {
    const std::string_view word = in_.word();
    if (word.size() < 2 || word[0] != '$' || word.substr(0, 4) == "$End")
      in_.fail("expected a section such as $Nodes, found '" + excerpt(word) + "'");
    const std::string name(word.substr(1));
    in_.enterSection("$" + name, "$End" + name);
    if (name == "PhysicalNames")
      readPhysicalNames();
    else if (name == "Entities" && version_ == 41)
      readEntitiesV41(file_);
    else if (name == "Nodes")
      readNodes();
    else if (name == "Elements")
      readElements();
    else
      in_.skipTo("$End" + name);  // $Comments, $Periodic, $NodeData, ...: nothing needed here
    in_.expectWord("$End" + name);
    in_.leaveSection();
  }

private:
  // A binary file stores the int 1 in the writer's byte order.
  void readEndiannessMarker() {
    in_.skipLine();
    const std::int32_t marker = in_.rawInt32Unswapped();
    if (marker == 0x01000000)
      in_.setByteSwap(true);
    else if (marker != 1)
      in_.fail("bad endianness marker " + std::to_string(marker) + " (expected 1)");
  }

  void readPhysicalNames() {
    const std::int64_t count = in_.readInt("number of physical names");
    in_.guardCount(count, 3, "physical names");
    for (std::int64_t i = 0; i < count; ++i) {
      in_.readInt("physical dimension");
      const auto tag = static_cast<int>(in_.readInt("physical tag"));
      file_.mesh.mesh().groupNames[in_.quotedName()] = tag;
    }
  }

  void readNodes() {
    if (haveNodes_) in_.fail("second $Nodes section");
    haveNodes_ = true;
    if (version_ == 22)
      readNodesV22(file_);
    else
      readNodesV41(file_);
    file_.mesh.finishNodes();
  }

  void readElements() {
    if (!haveNodes_) in_.fail("$Elements before $Nodes");
    if (haveElements_) in_.fail("second $Elements section");
    haveElements_ = true;
    if (version_ == 41)
      readElementsV41(file_);
    else
      readElementsV22(file_);
  }

  GmshFile& file_;
  Cursor& in_;
  int version_ = 0;  // 22 or 41
  bool haveNodes_ = false;
  bool haveElements_ = false;
};

}  // namespace

SerialMesh readGmsh(const std::string& path) {
  GmshFile file(path, readMeshFileBytes(path));
  Cursor& in = file.in;
  if (in.atEnd()) in.failFile("empty file: missing $MeshFormat (or $NOD for format 1.0)");
  const std::string_view first = in.word();
  if (first == "$NOD") {
    readGmshV1(file);
  } else if (first == "$MeshFormat") {
    SectionReader sections(file);
    sections.readMeshFormat();
    while (!in.atEnd()) sections.readSection();
  } else {
    in.fail("missing $MeshFormat (not a Gmsh mesh file?), found '" + excerpt(first) + "'");
  }
  return file.mesh.finish("element types 4 and 5");
}

}  // namespace eis
