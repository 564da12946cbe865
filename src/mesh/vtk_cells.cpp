#include "vtk_cells.hpp"

#include <string>
#include <utility>

#include "mesh_assembly.hpp"

namespace eis {
namespace {

constexpr std::int64_t kVtkLine = 3;
constexpr std::int64_t kVtkTriangle = 5;
constexpr std::int64_t kVtkQuad = 9;
constexpr std::int64_t kVtkTetra = 10;
constexpr std::int64_t kVtkVoxel = 11;
constexpr std::int64_t kVtkHexahedron = 12;

// The points a kept cell type has, and its Gmsh element type; 0 for a type the mesh ignores.
int pointsOf(std::int64_t type) {
  switch (type) {
    case kVtkLine: return 2;
    case kVtkTriangle: return 3;
    case kVtkQuad:
    case kVtkTetra: return 4;
    case kVtkVoxel:
    case kVtkHexahedron: return 8;
    default: return 0;
  }
}
int elementOf(std::int64_t type) {
  switch (type) {
    case kVtkLine: return kLineElement;
    case kVtkTriangle: return kTriangleElement;
    case kVtkQuad: return kQuadrangleElement;
    case kVtkTetra: return kTetrahedronElement;
    default: return kHexahedronElement;
  }
}

std::string vtkCellTypeName(std::int64_t type) {
  switch (type) {
    case 1: return "vertex";
    case 2: return "poly-vertex";
    case 3: return "line";
    case 4: return "poly-line";
    case 6: return "triangle strip";
    case 7: return "polygon";
    case 8: return "pixel";
    case 9: return "quad";
    case 13: return "wedge";
    case 14: return "pyramid";
    case 24: return "quadratic tetra";
    default: return "VTK cell type " + std::to_string(type);
  }
}

}  // namespace

SerialMesh assembleVtkGrid(const VtkGrid& grid, const Cursor& in) {
  MeshAssembly mesh(in, true);
  mesh.reserveNodes(static_cast<std::int64_t>(grid.points.size()));
  for (std::size_t i = 0; i < grid.points.size(); ++i)
    mesh.addNode(static_cast<std::int64_t>(i) + 1, grid.points[i]);
  mesh.finishNodes();
  const auto cells = static_cast<std::int64_t>(grid.types.size());
  if (static_cast<std::int64_t>(grid.offsets.size()) != cells + 1)
    in.failFile(std::to_string(grid.offsets.size() - 1) + " cells but " + std::to_string(cells) +
                " cell types");
  const std::vector<int> noGroups;
  std::array<std::int64_t, 8> ids{};
  for (std::int64_t c = 0; c < cells; ++c) {
    const std::int64_t begin = grid.offsets[c], end = grid.offsets[c + 1];
    if (begin < 0 || end < begin || end > static_cast<std::int64_t>(grid.connectivity.size()))
      in.failFile("cell " + std::to_string(c) + ": offsets " + std::to_string(begin) + ".." +
                  std::to_string(end) + " do not lie in the connectivity array of " +
                  std::to_string(grid.connectivity.size()));
    const std::int64_t type = grid.types[c];
    const std::int64_t count = end - begin;
    for (std::int64_t j = begin; j < end; ++j)
      if (grid.connectivity[j] < 0 ||
          grid.connectivity[j] >= static_cast<std::int64_t>(grid.points.size()))
        in.failFile("cell " + std::to_string(c) + ": point id " +
                    std::to_string(grid.connectivity[j]) + " is out of range (" +
                    std::to_string(grid.points.size()) + " points)");
    const std::int64_t needed = pointsOf(type);
    if (needed == 0) {
      mesh.addElementByPositions(-1, c, 0, ids.data(), noGroups, vtkCellTypeName(type));
      continue;
    }
    if (count != needed)
      in.failFile("cell " + std::to_string(c) + " of type " + std::to_string(type) + " has " +
                  std::to_string(count) + " points, not " + std::to_string(needed));
    for (std::int64_t j = 0; j < count; ++j) ids[j] = grid.connectivity[begin + j];
    // A voxel numbers its points x fastest, then y, then z, as SOFA's MeshVTKLoader reads it:
    // swapping 2 with 3 and 6 with 7 gives the hexahedron's order.
    if (type == kVtkVoxel) {
      std::swap(ids[2], ids[3]);
      std::swap(ids[6], ids[7]);
    }
    mesh.addElementByPositions(elementOf(type), c, static_cast<int>(count), ids.data(), noGroups,
                               vtkCellTypeName(type));
  }
  return mesh.finish("cell types 10, 11 and 12");
}

}  // namespace eis
