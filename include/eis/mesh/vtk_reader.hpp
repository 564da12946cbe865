#pragma once
// Readers for VTK unstructured grids of tetrahedra: legacy .vtk (ASCII and BINARY) and XML .vtu.
#include <string>

#include "eis/mesh/serial_mesh.hpp"

namespace eis {

// Both keep what SOFA's MeshVTKLoader takes from these files: node ids are the 0-based order of
// the points; tetrahedra (cell type 10) keep the vertex order the file lists, triangles (cell
// type 5) are kept in file order with tag 0; other cell types are counted in skippedElements;
// point and cell data are ignored. Throws eis::Error (naming the file, and the line or byte
// offset) for a missing or malformed file, a point id out of range, a non-finite coordinate, a
// degenerate tetrahedron, or a file without tetrahedra.

// Legacy format (# vtk DataFile, versions up to 5.1): DATASET UNSTRUCTURED_GRID, POINTS float
// or double, CELLS in the old layout (a count before each cell) or 5.1's OFFSETS and
// CONNECTIVITY, CELL_TYPES. BINARY files are big-endian, as VTK writes them.
SerialMesh readVtkLegacy(const std::string& path);

// XML format (<VTKFile type="UnstructuredGrid">): Points, and Cells' connectivity, offsets and
// types; DataArrays in ascii, binary (base64, UInt32 or UInt64 header_type, zlib-compressed
// where this build has zlib) or appended (raw or base64) format.
SerialMesh readVtu(const std::string& path);

}  // namespace eis
