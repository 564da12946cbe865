#pragma once
// What the legacy and XML VTK readers both hand over: an unstructured grid's arrays, turned into
// a SerialMesh the way SOFA's MeshVTKLoader reads them. Private to src/mesh.
#include <array>
#include <cstdint>
#include <vector>

#include "eis/mesh/serial_mesh.hpp"
#include "mesh_cursor.hpp"

namespace eis {

struct VtkGrid {
  std::vector<std::array<double, 3>> points;
  // Cell c's point ids are connectivity[offsets[c] .. offsets[c + 1]).
  std::vector<std::int64_t> offsets{0};
  std::vector<std::int64_t> connectivity;
  std::vector<std::int64_t> types;
};

// Node ids are point order; cell types 10 (tetra), 12 (hexahedron) and 5 (triangle) are kept in
// the file's vertex order, 11 (voxel) as a hexahedron in SOFA's order, the others counted by
// name. Errors name the file through `in`.
SerialMesh assembleVtkGrid(const VtkGrid& grid, const Cursor& in);

}  // namespace eis
