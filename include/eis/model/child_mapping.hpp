#pragma once
// A mapped child's mapping (SOFA's mechanical mappings IdentityMapping, SubsetMapping,
// BarycentricMapping): each point of the child is a fixed linear combination of the corners of
// one cell of the body, x_child = J x_body, so that J^T carries its forces and J^T K J, J^T M J its
// stiffness and mass into that cell's element matrix. Every child point is carried by exactly one
// cell, held by one rank: the forces, products and element matrices of a point are computed once,
// on the rank of its cell, and enter the body's sums as an element's do (see docs/architecture.md,
// "Mapped children").
//
// - identity: child point i is body node i; subset: child point i is body node indices[i]. The
//   carrying cell is the lowest-numbered input cell holding the node (weight 1 at its corner).
// - in given cells: SOFA's BarycentricMapperRegularGridTopology, the cube and its trilinear
//   coordinates found from the grid's index by the importer (io/sofa_grid_mapper), carried by that
//   hexahedron.
// - barycentric: SOFA's BarycentricMapperMeshTopology::init over the body's rest positions. Each
//   cell gives the point coordinates v = B^-1 (p - x0), B's columns x1 - x0, x2 - x0, x3 - x0 for a
//   tetrahedron, x1 - x0, x3 - x0, x4 - x0 for a hexahedron, and a distance: max(-v0, -v1, -v2,
//   v0 + v1 + v2 - 1) (tetrahedron) or max(-v, v - 1) over the three (hexahedron), which is <= 0
//   inside; a positive one is replaced by |p - centre|^2. The cell with the smallest distance
//   carries the point, the first in input order on a tie; the weights are 1 - v0 - v1 - v2, v0,
//   v1, v2 (tetrahedron) or the trilinear products of v (hexahedron), extrapolating for a point
//   outside every cell as SOFA does.
#include <array>
#include <cstdint>
#include <vector>

#include "eis/core/tetra_geometry.hpp"
#include "eis/mesh/distributed_mesh.hpp"

namespace eis {

class ChildMapping {
public:
  // A child point this rank carries.
  struct Point {
    std::int64_t index;             // its number in the child
    std::size_t cell;               // the local cell that carries it
    std::array<double, 8> weights;  // one per corner of the cell (corners() used)
  };

  // Collective. Child point i is body node i (identity) or indices[i] (subset).
  static ChildMapping nodes(const DistributedMesh& mesh, const std::vector<std::int64_t>& indices);
  static ChildMapping identity(const DistributedMesh& mesh);
  // Collective. Child points at these rest positions, located in the body's cells.
  static ChildMapping barycentric(const DistributedMesh& mesh, const std::vector<Vec3>& points);
  // Collective. Child point i in the body's input hexahedron cells[i] at trilinear coordinates
  // coordinates[i] (SOFA's grid mappers, which pick the cube by the grid's index: the importer
  // works them out); weights extrapolate for coordinates outside [0, 1].
  static ChildMapping inCells(const DistributedMesh& mesh, const std::vector<std::int64_t>& cells,
                              const std::vector<Vec3>& coordinates);

  std::int64_t size() const { return size_; }
  // The child points this rank carries, in increasing index.
  const std::vector<Point>& points() const { return points_; }

  // The child position (or velocity, or displacement) of a carried point from a local body array
  // (3 per local vertex, ghosts filled): sum_k w_k x[corner k].
  Vec3 apply(const Point& p, const double* x) const;
  // out[corner k] += w_k f: J^T f for one point, into a local body array.
  void addTransposed(const Point& p, const Vec3& f, double* out) const;
  // An element matrix of the carrying cell (3 corners square, row-major) += J^T k J for a 3x3 k
  // (row-major) at this point.
  void addToElementMatrix(const Point& p, const std::array<double, 9>& k, double* block) const;

private:
  ChildMapping(const DistributedMesh& mesh, std::int64_t size) : mesh_(&mesh), size_(size) {}
  const DistributedMesh* mesh_;
  std::int64_t size_;
  std::vector<Point> points_;
};

// SOFA's barycentric coordinates and distance of p in one cell (corners' rest positions in `x`,
// corners() of them): the coordinates v, the distance described above before the centre
// replaces a positive one, and the corner weights.
struct CellCoordinates {
  Vec3 v;
  double distance;
  std::array<double, 8> weights;
};
CellCoordinates cellCoordinates(const std::vector<Vec3>& corners, const Vec3& p);

// The trilinear weights of a hexahedron's corners (corners() order: 0 at (0,0,0), 1 (1,0,0),
// 2 (1,1,0), 3 (0,1,0), then 4..7 likewise at z = 1) at coordinates v.
std::array<double, 8> trilinearWeights(const Vec3& v);

}  // namespace eis
