#pragma once
// The state of one Gmsh file being read, shared by the readers of each format version
// (gmsh_reader.cpp: format detection, $MeshFormat and the section loop; gmsh_v1.cpp,
// gmsh_v22.cpp, gmsh_v41.cpp: the sections each version writes its own way). Private to
// src/mesh.
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "eis/mesh/serial_mesh.hpp"
#include "mesh_assembly.hpp"
#include "mesh_cursor.hpp"

namespace eis {

struct GmshFile {
  GmshFile(const std::string& path, std::string text) : in(path, std::move(text)), mesh(in) {}

  // Binary payloads start after the newline that ends the text before them.
  void beginPayload() {
    if (!binary) return;
    in.skipLine();
    in.setBinaryPayload(true);
  }
  void endPayload() { in.setBinaryPayload(false); }

  std::array<double, 3> readPoint() {
    std::array<double, 3> point;
    point[0] = in.readReal("x coordinate");
    point[1] = in.readReal("y coordinate");
    point[2] = in.readReal("z coordinate");
    return point;
  }

  int checkedNodeCount(std::int64_t type) const {
    const int count = gmshNodesPerElement(type);
    if (count == 0) in.fail("unsupported element type " + std::to_string(type));
    return count;
  }

  Cursor in;
  MeshAssembly mesh;
  bool binary = false;
  std::map<std::pair<int, int>, std::vector<int>> entityPhysicals;  // (dim, entity) -> tags
  std::vector<int> physicalScratch;
  std::array<std::int64_t, kMaxNodesPerElement> nodeBuffer{};
};

// Format 1.0, after its opening "$NOD": $NOD and $ELM, then the end of the file.
void readGmshV1(GmshFile& file);
// Format 2.2: the $Nodes and $Elements sections, after their names.
void readNodesV22(GmshFile& file);
void readElementsV22(GmshFile& file);
// Format 4.1: the $Entities, $Nodes and $Elements sections, after their names.
void readEntitiesV41(GmshFile& file);
void readNodesV41(GmshFile& file);
void readElementsV41(GmshFile& file);

}  // namespace eis
