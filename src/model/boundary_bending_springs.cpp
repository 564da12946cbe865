#include "eis/model/boundary_bending_springs.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "eis/core/mpi_exchange.hpp"
#include "eis/mesh/boundary_faces.hpp"

namespace eis {

namespace {

std::vector<int> offsetsOf(const std::vector<int>& counts) {
  std::vector<int> offsets(counts.size() + 1, 0);
  for (std::size_t r = 0; r < counts.size(); ++r) offsets[r + 1] = offsets[r] + counts[r];
  return offsets;
}

}  // namespace

BoundaryBendingSprings::BoundaryBendingSprings(const DistributedMesh& mesh, double stiffness,
                                               double damping, bool quads, bool flip)
    : BoundaryBendingSprings(mesh,
                             quads ? boundaryFaces(mesh, flip) : boundaryTriangles(mesh, flip),
                             stiffness, damping, quads) {}

BoundaryBendingSprings::BoundaryBendingSprings(const DistributedMesh& mesh,
                                               const BoundaryFaces& faces, double stiffness,
                                               double damping, bool quads)
    : comm_(mesh.comm()), local_(mesh.numLocalVertices()) {
  const int rank = commRank(comm_);
  const int corners = faces.corners;

  // SOFA's pairing over every boundary face: each edge with the faces holding it and its place
  // k in each (a triangle's edge k is opposite its vertex k; a quadrangle's joins its vertices
  // k + 1 and k + 2, QuadSetTopologyContainer::createEdgesInQuadArray), in the order of the
  // face that holds it first.
  struct Holders {
    std::vector<std::pair<std::size_t, int>> faces;  // (face, k), in the faces' order
  };
  std::map<std::pair<std::int64_t, std::int64_t>, Holders> edges;
  for (std::size_t t = 0; t < faces.nodes.size(); ++t)
    for (int k = 0; k < corners; ++k) {
      const std::int64_t p = faces.nodes[t][std::size_t((k + 1) % corners)],
                         q = faces.nodes[t][std::size_t((k + 2) % corners)];
      edges[{std::min(p, q), std::max(p, q)}].faces.push_back({t, k});
    }
  // Each spring (m1 of the second face, m2 of the first), evaluated by the first face's rank.
  struct Mine {
    std::tuple<std::size_t, int, int> order;
    std::int64_t m1, m2;
    int lender;  // the rank holding m1's face
  };
  std::vector<Mine> mine;
  auto node = [&](std::size_t face, int k) {
    return faces.nodes[face][std::size_t((k + corners) % corners)];
  };
  for (const auto& [edge, h] : edges) {
    if (h.faces.size() != 2) continue;
    const auto [first, k2] = h.faces[0];
    const auto [second, k1] = h.faces[1];
    globalCount_ += quads ? 2 : 1;
    if (faces.ranks[first] != rank) continue;
    const int lender = faces.ranks[second];
    if (!quads) {
      mine.push_back({{first, k2, 0}, node(second, k1), node(first, k2), lender});
    } else {
      // QuadularBendingSprings::applyQuadCreation: (t1[i1], t2[i2 + 3]) and (t1[i1 + 3],
      // t2[i2]), t2 the quadrangle that finds the edge first.
      mine.push_back({{first, k2, 0}, node(second, k1), node(first, k2 + 3), lender});
      mine.push_back({{first, k2, 1}, node(second, k1 + 3), node(first, k2), lender});
    }
  }
  std::sort(mine.begin(), mine.end(),
            [](const Mine& a, const Mine& b) { return a.order < b.order; });
  std::vector<Evaluated> evaluated;
  evaluated.reserve(mine.size());
  for (const Mine& s : mine) evaluated.push_back({s.m1, s.m2, s.lender});
  build(mesh, evaluated, stiffness, damping, 1.0e-4);
}

BoundaryBendingSprings::BoundaryBendingSprings(
    const DistributedMesh& mesh, const std::vector<std::array<std::int64_t, 2>>& pairs,
    double stiffness, double damping, double shortest)
    : comm_(mesh.comm()), local_(mesh.numLocalVertices()) {
  const int rank = commRank(comm_), size = commSize(comm_);
  globalCount_ = std::int64_t(pairs.size());
  // The lowest rank holding each node a spring names, over the nodes every rank lists alike.
  std::vector<std::int64_t> ids;
  ids.reserve(2 * pairs.size());
  for (const auto& p : pairs) ids.insert(ids.end(), p.begin(), p.end());
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::vector<int> holder(ids.size(), size);
  for (std::int64_t id : mesh.nodeIds()) {
    const auto it = std::lower_bound(ids.begin(), ids.end(), id);
    if (it != ids.end() && *it == id) holder[std::size_t(it - ids.begin())] = rank;
  }
  EIS_CHECK_MPI(
      MPI_Allreduce(MPI_IN_PLACE, holder.data(), int(holder.size()), MPI_INT, MPI_MIN, comm_));
  auto holderOf = [&](std::int64_t id) {
    return holder[std::size_t(std::lower_bound(ids.begin(), ids.end(), id) - ids.begin())];
  };
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (holder[i] == size)
      throw Error("bending springs: node " + std::to_string(ids[i]) + " is in no cell of the body");
  std::vector<Evaluated> evaluated;
  for (const auto& [m1, m2] : pairs)
    if (holderOf(m2) == rank) evaluated.push_back({m1, m2, holderOf(m1)});
  build(mesh, evaluated, stiffness, damping, shortest);
}

void BoundaryBendingSprings::build(const DistributedMesh& mesh, const std::vector<Evaluated>& mine,
                                   double stiffness, double damping, double shortest) {
  const int rank = commRank(comm_), size = commSize(comm_);
  // The vertices to borrow, by lender, and their slots after the local vertices.
  std::unordered_map<std::int64_t, PetscInt> localOf;
  for (std::size_t v = 0; v < mesh.nodeIds().size(); ++v) localOf[mesh.nodeIds()[v]] = PetscInt(v);
  std::vector<std::vector<std::int64_t>> borrow(static_cast<std::size_t>(size));
  for (const Evaluated& s : mine)
    if (!localOf.count(s.m1)) borrow[std::size_t(s.lender)].push_back(s.m1);
  std::unordered_map<std::int64_t, PetscInt> slotOf;
  PetscInt next = PetscInt(local_);
  borrowedCounts_.assign(static_cast<std::size_t>(size), 0);
  for (int r = 0; r < size; ++r) {
    auto& ids = borrow[std::size_t(r)];
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    for (std::int64_t id : ids) slotOf[id] = next++;
    borrowedCounts_[std::size_t(r)] = 3 * int(ids.size());
  }
  borrowedOffsets_ = offsetsOf(borrowedCounts_);
  const auto asked = exchangeRows<2>(comm_, [&](auto emit) {
    for (int r = 0; r < size; ++r)
      for (std::int64_t id : borrow[std::size_t(r)])
        emit(r, IndexRow<2>{PetscInt(rank), PetscInt(id)});
  });
  lentCounts_.assign(static_cast<std::size_t>(size), 0);
  for (const auto& row : asked) {
    const auto found = localOf.find(std::int64_t(row[1]));
    if (found == localOf.end())
      throw Error("bending springs: node " + std::to_string(row[1]) +
                  " asked of a rank that does not hold it");
    lent_.push_back(found->second);
    lentCounts_[std::size_t(row[0])] += 3;
  }
  lentOffsets_ = offsetsOf(lentCounts_);

  std::vector<double> rest(3 * local_);
  for (std::size_t v = 0; v < local_; ++v)
    for (int c = 0; c < 3; ++c) rest[3 * v + std::size_t(c)] = mesh.restCoords()[v][std::size_t(c)];
  const std::vector<double>& all = extended(rest.data(), x_);
  std::vector<BendingSpring> springs;
  springs.reserve(mine.size());
  for (const Evaluated& s : mine) {
    const auto local = localOf.find(s.m1);
    const PetscInt a = local != localOf.end() ? local->second : slotOf.at(s.m1);
    const PetscInt b = localOf.at(s.m2);
    double l2 = 0;
    for (int c = 0; c < 3; ++c) {
      const double d =
          all[3 * std::size_t(b) + std::size_t(c)] - all[3 * std::size_t(a) + std::size_t(c)];
      l2 += d * d;
    }
    springs.push_back({a, b, std::sqrt(l2)});
  }
  springs_ =
      std::make_unique<TriangularBendingSprings>(std::move(springs), stiffness, damping, shortest);
}

const std::vector<double>& BoundaryBendingSprings::extended(const double* w,
                                                            std::vector<double>& into) const {
  into.resize(3 * local_ + std::size_t(borrowedOffsets_.back()));
  std::copy(w, w + 3 * local_, into.begin());
  sent_.resize(3 * lent_.size());
  for (std::size_t i = 0; i < lent_.size(); ++i)
    for (int c = 0; c < 3; ++c) sent_[3 * i + std::size_t(c)] = w[3 * lent_[i] + c];
  EIS_CHECK_MPI(MPI_Alltoallv(sent_.data(), lentCounts_.data(), lentOffsets_.data(), MPI_DOUBLE,
                              into.data() + 3 * local_, borrowedCounts_.data(),
                              borrowedOffsets_.data(), MPI_DOUBLE, comm_));
  return into;
}

void BoundaryBendingSprings::giveBack(const std::vector<double>& extendedF, double* f) const {
  for (std::size_t i = 0; i < 3 * local_; ++i) f[i] += extendedF[i];
  sent_.resize(3 * lent_.size());
  EIS_CHECK_MPI(MPI_Alltoallv(extendedF.data() + 3 * local_, borrowedCounts_.data(),
                              borrowedOffsets_.data(), MPI_DOUBLE, sent_.data(), lentCounts_.data(),
                              lentOffsets_.data(), MPI_DOUBLE, comm_));
  for (std::size_t i = 0; i < lent_.size(); ++i)
    for (int c = 0; c < 3; ++c) f[3 * lent_[i] + c] += sent_[3 * i + std::size_t(c)];
}

void BoundaryBendingSprings::addForce(const double* x, const double* v, double* f) {
  extended(x, x_);
  // Decided alike on every rank, for each exchanges: a rank holding no vertex may pass the
  // empty array of velocities as a null pointer.
  const bool damped = springs_->usesVelocity() && (v || local_ == 0);
  if (damped) extended(v, v_);
  f_.assign(x_.size(), 0.0);
  springs_->addForce(x_.data(), damped ? v_.data() : nullptr, f_.data());
  giveBack(f_, f);
}

void BoundaryBendingSprings::addDForce(const double* dx, double* df, double kFactor) const {
  extended(dx, x_);
  f_.assign(x_.size(), 0.0);
  springs_->addDForce(x_.data(), f_.data(), kFactor);
  giveBack(f_, df);
}

double BoundaryBendingSprings::potentialEnergy(const double* x) const {
  return springs_->potentialEnergy(extended(x, x_).data());
}

}  // namespace eis
