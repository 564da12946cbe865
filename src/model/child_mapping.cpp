#include "eis/model/child_mapping.hpp"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "eis/core/error.hpp"
#include "eis/model/mat3.hpp"

namespace eis {

using namespace mat3;

namespace {

// A candidate cell of a child point: MPI_DOUBLE_INT's layout, compared as MPI_MINLOC compares it
// (the smaller distance, then the smaller input cell number).
struct Candidate {
  double distance;
  int cell;
};

constexpr Candidate kNone{std::numeric_limits<double>::infinity(), INT_MAX};

bool better(const Candidate& a, const Candidate& b) {
  return a.distance < b.distance || (a.distance == b.distance && a.cell < b.cell);
}

int inputCell(const DistributedMesh& mesh, std::size_t c) {
  const std::int64_t id = mesh.inputCellIds()[c];
  if (id >= INT_MAX) throw Error("a mapped child's body has more cells than this build can number");
  return int(id);
}

// Collective. Every rank's best candidates become everyone's; each rank keeps the points whose
// winning cell it holds, with the weights `weightsOf` gives.
template <class Weights>
std::vector<ChildMapping::Point> chooseCells(const DistributedMesh& mesh,
                                             std::vector<Candidate> best, Weights weightsOf) {
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, best.data(), int(best.size()), MPI_DOUBLE_INT,
                              MPI_MINLOC, mesh.comm()));
  std::unordered_map<std::int64_t, std::size_t> localCell;
  for (std::size_t c = 0; c < mesh.cells().size(); ++c) localCell[mesh.inputCellIds()[c]] = c;
  std::vector<ChildMapping::Point> points;
  for (std::size_t i = 0; i < best.size(); ++i) {
    const auto it = localCell.find(best[i].cell);
    if (best[i].cell != INT_MAX && it != localCell.end())
      points.push_back({std::int64_t(i), it->second, weightsOf(i, it->second)});
  }
  return points;
}

using mat3::minus;

std::vector<Vec3> cornersOf(const DistributedMesh& mesh, std::size_t c) {
  const auto cell = mesh.cells()[c];
  std::vector<Vec3> corners(cell.size());
  for (int k = 0; k < cell.size(); ++k) corners[k] = mesh.restCoords()[cell[k]];
  return corners;
}

// B, whose columns are the edges from corner 0 (SOFA's bases: the inverse of the transposed rows):
// x1 - x0, x2 - x0, x3 - x0 (tetrahedron), x1 - x0, x3 - x0, x4 - x0 (hexahedron).
Mat3 edgeMatrix(const std::vector<Vec3>& x) {
  const bool tetrahedron = x.size() == 4;
  const Vec3 e0 = minus(x[1], x[0]), e1 = minus(tetrahedron ? x[2] : x[3], x[0]),
             e2 = minus(tetrahedron ? x[3] : x[4], x[0]);
  return {e0[0], e1[0], e2[0], e0[1], e1[1], e2[1], e0[2], e1[2], e2[2]};
}

}  // namespace

CellCoordinates cellCoordinates(const std::vector<Vec3>& x, const Vec3& p) {
  const bool tetrahedron = x.size() == 4;
  const Mat3 b = edgeMatrix(x);
  const double det = determinant(b);
  if (det == 0) throw Error("a mapped child's body has a flat cell: no barycentric coordinates");
  // inverseTranspose(b)^T = b^-1.
  const Vec3 v = transposeTimes(inverseTranspose(b, det), minus(p, x[0]));
  CellCoordinates out{v, 0, {}};
  if (tetrahedron) {
    out.distance = std::max(std::max(-v[0], -v[1]), std::max(-v[2], v[0] + v[1] + v[2] - 1));
    out.weights = {1 - v[0] - v[1] - v[2], v[0], v[1], v[2], 0, 0, 0, 0};
  } else {
    out.distance = std::max(std::max(-v[0], -v[1]),
                            std::max(std::max(-v[2], v[0] - 1), std::max(v[1] - 1, v[2] - 1)));
    out.weights = trilinearWeights(v);
  }
  return out;
}

std::array<double, 8> trilinearWeights(const Vec3& v) {
  const double fx = v[0], fy = v[1], fz = v[2];
  return {(1 - fx) * (1 - fy) * (1 - fz),
          fx * (1 - fy) * (1 - fz),
          fx * fy * (1 - fz),
          (1 - fx) * fy * (1 - fz),
          (1 - fx) * (1 - fy) * fz,
          fx * (1 - fy) * fz,
          fx * fy * fz,
          (1 - fx) * fy * fz};
}

ChildMapping ChildMapping::nodes(const DistributedMesh& mesh,
                                 const std::vector<std::int64_t>& indices) {
  ChildMapping mapping(mesh, std::int64_t(indices.size()));
  std::unordered_map<std::int64_t, std::vector<std::size_t>> childrenOf;  // body node id -> points
  for (std::size_t i = 0; i < indices.size(); ++i) childrenOf[indices[i]].push_back(i);
  std::vector<Candidate> best(indices.size(), kNone);
  const auto& cells = mesh.cells();
  for (std::size_t c = 0; c < cells.size(); ++c)
    for (int k = 0; k < cells.corners(); ++k) {
      const auto it = childrenOf.find(mesh.nodeIds()[cells[c][k]]);
      if (it == childrenOf.end()) continue;
      const Candidate here{0, inputCell(mesh, c)};
      for (std::size_t i : it->second)
        if (better(here, best[i])) best[i] = here;
    }
  mapping.points_ = chooseCells(mesh, best, [&](std::size_t i, std::size_t c) {
    std::array<double, 8> w{};
    for (int k = 0; k < cells.corners(); ++k)
      if (mesh.nodeIds()[cells[c][k]] == indices[i]) w[k] = 1;
    return w;
  });
  std::int64_t carried = std::int64_t(mapping.points_.size());
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &carried, 1, MPI_INT64_T, MPI_SUM, mesh.comm()));
  if (carried != mapping.size_) {
    throw Error(
        "a mapped child's point maps to a body node that lies in no cell (or to no node "
        "of the body): " +
        std::to_string(mapping.size_ - carried) + " of " + std::to_string(mapping.size_) +
        " points");
  }
  return mapping;
}

ChildMapping ChildMapping::identity(const DistributedMesh& mesh) {
  std::vector<std::int64_t> all(std::size_t(mesh.numGlobalVertices()));
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = std::int64_t(i);
  return nodes(mesh, all);
}

ChildMapping ChildMapping::barycentric(const DistributedMesh& mesh,
                                       const std::vector<Vec3>& points) {
  if (dimensionOf(mesh.cellType()) != 3)
    throw Error("a barycentric mapping onto a body of " + pluralNameOf(mesh.cellType()) +
                " is not supported yet (onto tetrahedra or hexahedra only)");
  ChildMapping mapping(mesh, std::int64_t(points.size()));
  std::vector<Candidate> best(points.size(), kNone);
  std::string failure;  // a flat cell seen here must stop every rank together
  for (std::size_t c = 0; c < mesh.cells().size(); ++c) {
    const std::vector<Vec3> corners = cornersOf(mesh, c);
    if (determinant(edgeMatrix(corners)) == 0) {
      failure = "cell " + std::to_string(mesh.inputCellIds()[c]) +
                " of a mapped child's body is flat: no barycentric coordinates in it";
      break;
    }
    Vec3 centre{0, 0, 0};
    for (const Vec3& x : corners)
      for (int d = 0; d < 3; ++d) centre[d] += x[d];
    for (int d = 0; d < 3; ++d) centre[d] *= corners.size() == 4 ? 0.25 : 0.125;
    const int id = inputCell(mesh, c);
    for (std::size_t i = 0; i < points.size(); ++i) {
      double d = cellCoordinates(corners, points[i]).distance;
      if (d > 0) {
        const Vec3 r = minus(points[i], centre);
        d = dot(r, r);
      }
      if (better({d, id}, best[i])) best[i] = {d, id};
    }
  }
  throwIfAnyRankFailed(failure, mesh.comm());
  int anyCell = mesh.cells().size() > 0;
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &anyCell, 1, MPI_INT, MPI_MAX, mesh.comm()));
  if (!anyCell && !points.empty())
    throw Error("a barycentric mapped child needs a body with cells");
  mapping.points_ = chooseCells(mesh, best, [&](std::size_t i, std::size_t c) {
    return cellCoordinates(cornersOf(mesh, c), points[i]).weights;
  });
  return mapping;
}

ChildMapping ChildMapping::inCells(const DistributedMesh& mesh,
                                   const std::vector<std::int64_t>& cells,
                                   const std::vector<Vec3>& coordinates) {
  if (mesh.cells().type() != CellType::Hexahedron)
    throw Error("a mapped child located in the grid's cubes needs a body of hexahedra");
  ChildMapping mapping(mesh, std::int64_t(cells.size()));
  std::unordered_map<std::int64_t, std::vector<std::size_t>> childrenOf;  // input cell -> points
  for (std::size_t i = 0; i < cells.size(); ++i) childrenOf[cells[i]].push_back(i);
  for (std::size_t c = 0; c < mesh.cells().size(); ++c)
    if (const auto it = childrenOf.find(mesh.inputCellIds()[c]); it != childrenOf.end())
      for (std::size_t i : it->second)
        mapping.points_.push_back({std::int64_t(i), c, trilinearWeights(coordinates[i])});
  std::sort(mapping.points_.begin(), mapping.points_.end(),
            [](const Point& a, const Point& b) { return a.index < b.index; });
  std::int64_t carried = std::int64_t(mapping.points_.size());
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &carried, 1, MPI_INT64_T, MPI_SUM, mesh.comm()));
  if (carried != mapping.size_)
    throw Error("a mapped child's point lies in a cell the body does not have: " +
                std::to_string(mapping.size_ - carried) + " of " + std::to_string(mapping.size_) +
                " points");
  return mapping;
}

Vec3 ChildMapping::apply(const Point& p, const double* x) const {
  const auto cell = mesh_->cells()[p.cell];
  Vec3 out{0, 0, 0};
  for (int k = 0; k < cell.size(); ++k)
    for (int d = 0; d < 3; ++d) out[d] += p.weights[k] * x[3 * cell[k] + d];
  return out;
}

void ChildMapping::addTransposed(const Point& p, const Vec3& f, double* out) const {
  const auto cell = mesh_->cells()[p.cell];
  for (int k = 0; k < cell.size(); ++k)
    for (int d = 0; d < 3; ++d) out[3 * cell[k] + d] += p.weights[k] * f[d];
}

void ChildMapping::addToElementMatrix(const Point& p, const std::array<double, 9>& k,
                                      double* block) const {
  const int corners = mesh_->cells().corners(), n = 3 * corners;
  for (int a = 0; a < corners; ++a)
    for (int b = 0; b < corners; ++b) {
      const double w = p.weights[a] * p.weights[b];
      if (w == 0) continue;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) block[(3 * a + i) * n + 3 * b + j] += w * k[3 * i + j];
    }
}

}  // namespace eis
