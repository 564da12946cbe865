#pragma once
// A whole mesh as read from a file or built as a box, held on one rank before it is partitioned.
// Node ids are 0-based positions in the file's node list; a cell keeps the vertex order the file
// gives (SOFA's corotational frame depends on it; core/cells.hpp).
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "eis/core/cells.hpp"

namespace eis {

struct SerialMesh {
  std::vector<std::array<double, 3>> nodes;
  SerialCells cells;
  // Physical-group tag of each cell (0 when the file gives none).
  std::vector<int> cellTags;
  // Triangles the file lists (surface elements, for pressure loads), each in the file's vertex
  // order, and the physical-group tag of each (0 when the file gives none).
  std::vector<std::array<std::int64_t, 3>> triangles;
  std::vector<int> triangleTags;
  // Physical group name -> tag, from $PhysicalNames.
  std::map<std::string, int> groupNames;
  // Physical tag -> sorted, unique ids of the nodes of every element (of any dimension) in it.
  std::map<int, std::vector<std::int64_t>> groupNodes;
  // Elements that are neither tetrahedra, nor triangles, nor in a physical group, by a readable
  // type name ("line", "quadrangle", ...): what the mesh ignores.
  std::map<std::string, std::int64_t> skippedElements;
};

}  // namespace eis
