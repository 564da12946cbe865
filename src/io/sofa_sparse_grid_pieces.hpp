#pragma once
// The connected pieces of a SparseGridRamificationTopology's cells (SOFA's Connexion) and one
// level of such a grid, shared by io/sofa_sparse_grid_ramification.cpp, which builds the levels,
// and io/sofa_sparse_grid_pieces.cpp, which numbers a level's points as SOFA's changeIndices
// leaves them. Private to those two.
#include <array>
#include <set>
#include <utility>
#include <vector>

#include "sofa_sparse_grid.hpp"

namespace eis::sofa::ramification {

using Point = std::array<double, 3>;

// SOFA's directions: UP +y, DOWN -y, RIGHT +x, LEFT -x, BEFORE -z, BEHIND +z.
enum Direction { Up, Down, Right, Left, Before, Behind, Directions };
inline int opposite(int d) {
  return d % 2 == 0 ? d + 1 : d - 1;
}

// One connected piece of a cell (SOFA's Connexion). SOFA keeps a piece's neighbours in sets
// ordered by address; the pieces are numbered here in the order SOFA allocates them, which
// stands for that order (it decides which point number survives where a piece has two neighbours
// across one face).
struct Piece {
  std::array<std::set<long long>, Directions> neighbours;
  std::vector<std::pair<int, long long>> children;  // (place 0..7 in the cell, piece one finer)
  long long parent = -1;                            // its piece one level coarser
  long long hexahedron = 0;                         // _hexaIdx
  long long cell = 0;                               // _nonRamifiedHexaIdx
  long long number = -1;                            // _tmp
};

// One level: its regular grid, its cells (SOFA's hexahedra before ramification) with their
// pieces, and its hexahedra (one per piece).
struct Level {
  std::array<int, 3> n{};
  Point min{}, max{}, step{};
  std::vector<long long> sparseOf;   // per regular cell (_indicesOfRegularCubeInSparseGrid); -1
  std::vector<long long> regularOf;  // per cell
  std::vector<std::vector<long long>> piecesOf;  // per cell
  std::vector<Piece> pieces;
  // Per hexahedron: SOFA's _types, _stiffnessCoefs and _massCoefs (floats) and the cells.
  std::vector<VoxelType> types;
  std::vector<float> stiffness, mass;
  std::vector<std::array<long long, 8>> hexahedra;
  std::vector<Point> points;

  long long cells(int a) const { return n[std::size_t(a)] - 1; }
  long long regular(long long x, long long y, long long z) const {
    return x + cells(0) * (y + cells(1) * z);
  }
  Point point(long long i, long long j, long long k) const {
    return {min[0] + step[0] * double(i), min[1] + step[1] * double(j),
            min[2] + step[2] * double(k)};
  }
  // RegularGridTopology's corners of a regular cell, in SOFA's hexahedron order.
  std::array<Point, 8> corners(long long r) const {
    const long long x = r % cells(0), y = r / cells(0) % cells(1), z = r / cells(0) / cells(1);
    return {point(x, y, z),
            point(x + 1, y, z),
            point(x + 1, y + 1, z),
            point(x, y + 1, z),
            point(x, y, z + 1),
            point(x + 1, y, z + 1),
            point(x + 1, y + 1, z + 1),
            point(x, y + 1, z + 1)};
  }
  void setGrid(const std::array<int, 3>& points, const Point& lo, const Point& hi) {
    n = points;
    min = lo;
    max = hi;
    for (int a = 0; a < 3; ++a) step[a] = (max[a] - min[a]) / double(cells(a));
    sparseOf.assign(std::size_t(cells(0) * cells(1) * cells(2)), -1);
  }
};

// One hexahedron per piece, its 8 points its own, then the points of pieces joined across a
// face made one (SOFA's changeIndices: the piece's point takes the number of its neighbour's),
// and the numbers left made consecutive in their order. `corners`: each cell's corner positions.
void numberPieces(Level& level, const std::vector<std::array<Point, 8>>& corners);

}  // namespace eis::sofa::ramification
