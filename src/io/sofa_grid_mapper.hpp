#pragma once
// SOFA's BarycentricMapping from a grid (BarycentricMapperRegularGridTopology,
// BarycentricMapperSparseGridTopology): each child point's cube, found from the grid's index rather
// than by the mesh mapper's search, and its trilinear coordinates there, as the mapped.cells text
// "C FX FY FZ" a point (C the body's hexahedron, in the grid's numbering). Private to
// the SOFA importer.
#include <array>
#include <string>
#include <vector>

#include "sofa_grid.hpp"
#include "sofa_sparse_grid.hpp"

namespace eis::sofa {

// RegularGridTopology::findCube: x = (p - p0).dx / |dx|^2 (likewise y, z), the cube of floor(x),
// floor(y), floor(z), its coordinates x - floor(x), ...; else findNearestCube: the indices clamped
// to the grid, the coordinates extrapolated. C = i + (nx - 1) (j + (ny - 1) k). `points`: 3 a
// point.
std::string regularGridCubes(const RegularGrid& grid, const std::vector<double>& points);

// SparseGridTopology::findCube: the regular grid's cube (as above, unclamped) when the sparse grid
// keeps it; else findNearestCube: the boundary cube whose centre (corners 0 and 6 halved) is
// nearest in single precision, the first of equal distance, the coordinates (p - corner 0) over
// its diagonal, per axis. Each point's cube (the body's hexahedron) and coordinates, and their
// text.
struct GridCube {
  long long cube = 0;
  std::array<double, 3> f{};
};
std::vector<GridCube> sparseGridCells(const SparseGrid& grid, const std::vector<double>& points);
std::string sparseGridCubes(const SparseGrid& grid, const std::vector<double>& points);

}  // namespace eis::sofa
