#include "eis/model/distance_geometric_stiffness.hpp"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <map>
#include <string>

#include "eis/core/error.hpp"

namespace eis {

DistanceGeometricStiffness::DistanceGeometricStiffness(
    const DistributedMesh& mesh, const std::vector<Edge>& edges,
    std::shared_ptr<const std::vector<double>> childForces)
    : childForces_(std::move(childForces)), rows_(3 * std::size_t(mesh.cells().corners())) {
  if (mesh.dofsPerNode() != 3)
    throw Error("a distance mapping's geometric stiffness needs 3 unknowns a node");
  std::map<std::int64_t, PetscInt> local;
  for (PetscInt v = 0; v < PetscInt(mesh.nodeIds().size()); ++v)
    local.emplace(mesh.nodeIds()[std::size_t(v)], v);
  std::vector<std::vector<std::size_t>> cellsOf(mesh.nodeIds().size());
  const Cells& cells = mesh.cells();
  for (std::size_t c = 0; c < cells.size(); ++c)
    for (PetscInt v : cells[c]) cellsOf[std::size_t(v)].push_back(c);
  // This rank's cell holding each edge (the first found), and the lowest rank that has one.
  int rank;
  EIS_CHECK_MPI(MPI_Comm_rank(mesh.comm(), &rank));
  std::vector<Held> found(edges.size());
  std::vector<int> claim(edges.size(), INT_MAX);
  for (std::size_t k = 0; k < edges.size(); ++k) {
    if (edges[k].stiffness == MappingStiffness::None) {
      claim[k] = -1;
      continue;
    }
    const auto a = local.find(edges[k].ends[0]), b = local.find(edges[k].ends[1]);
    if (a == local.end() || b == local.end()) continue;
    for (std::size_t c : cellsOf[std::size_t(a->second)]) {
      const auto cell = cells[c];
      const auto slot = [&](PetscInt v) {
        return int(std::find(cell.begin(), cell.end(), v) - cell.begin());
      };
      if (slot(b->second) == cells.corners()) continue;
      found[k] = {k, c, slot(a->second), slot(b->second), a->second, b->second, edges[k].stiffness};
      claim[k] = rank;
      break;
    }
  }
  if (!claim.empty())
    EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, claim.data(), int(claim.size()), MPI_INT, MPI_MIN,
                                mesh.comm()));
  for (std::size_t k = 0; k < edges.size(); ++k) {
    if (claim[k] == INT_MAX)
      throw Error("the geometric stiffness of edge " + std::to_string(edges[k].ends[0]) + " " +
                  std::to_string(edges[k].ends[1]) +
                  ": its nodes share no cell of the body (its block would lie outside the "
                  "matrix's pattern)");
    if (claim[k] == rank) held_.push_back(found[k]);
  }
  std::stable_sort(held_.begin(), held_.end(),
                   [](const Held& p, const Held& q) { return p.cell < q.cell; });
  states_.assign(held_.size(), State{{0, 0, 0}, 0});
}

void DistanceGeometricStiffness::addForce(const double* x, const double*, double*) {
  const std::vector<double>& c = *childForces_;
  for (std::size_t i = 0; i < held_.size(); ++i) {
    const Held& e = held_[i];
    std::array<double, 3> d;
    for (std::size_t k = 0; k < 3; ++k) d[k] = x[3 * e.b + PetscInt(k)] - x[3 * e.a + PetscInt(k)];
    const double length = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    const bool has = length > std::numeric_limits<double>::epsilon();
    State& s = states_[i];
    for (std::size_t k = 0; k < 3; ++k) s.u[k] = has ? d[k] / length : 1 / std::sqrt(3.0);
    const double force = c[e.row];
    const bool kept = e.stiffness == MappingStiffness::Exact || force < 0;
    s.factor = kept && has ? force / length : 0.0;
  }
}

void DistanceGeometricStiffness::addDForce(const double* dx, double* df, double kFactor) const {
  for (std::size_t i = 0; i < held_.size(); ++i) {
    const Held& e = held_[i];
    const State& s = states_[i];
    if (s.factor == 0) continue;
    std::array<double, 3> w;
    for (std::size_t k = 0; k < 3; ++k)
      w[k] = dx[3 * e.b + PetscInt(k)] - dx[3 * e.a + PetscInt(k)];
    const double along = s.u[0] * w[0] + s.u[1] * w[1] + s.u[2] * w[2];
    for (std::size_t k = 0; k < 3; ++k) {
      const double m = kFactor * s.factor * (w[k] - along * s.u[k]);
      df[3 * e.a + PetscInt(k)] -= m;
      df[3 * e.b + PetscInt(k)] += m;
    }
  }
}

void DistanceGeometricStiffness::addKToElementMatrices(double* elementMatrices, double kFactor,
                                                       CellRange range) const {
  const auto before = [](const Held& e, std::size_t cell) { return e.cell < cell; };
  const auto first = std::lower_bound(held_.begin(), held_.end(), range.begin, before);
  const auto last = std::lower_bound(first, held_.end(), range.end, before);
  for (auto e = first; e != last; ++e) {
    const State& s = states_[std::size_t(e - held_.begin())];
    if (s.factor == 0) continue;
    double* block = elementMatrices + (e->cell - range.begin) * rows_ * rows_;
    const std::size_t ra = 3 * std::size_t(e->slotA), rb = 3 * std::size_t(e->slotB);
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < 3; ++j) {
        const double k = kFactor * s.factor * ((i == j ? 1.0 : 0.0) - s.u[i] * s.u[j]);
        block[(ra + i) * rows_ + ra + j] += k;
        block[(rb + i) * rows_ + rb + j] += k;
        block[(ra + i) * rows_ + rb + j] -= k;
        block[(rb + i) * rows_ + ra + j] -= k;
      }
  }
}

}  // namespace eis
