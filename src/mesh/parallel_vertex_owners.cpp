#include "parallel_vertex_owners.hpp"

#include <petscsf.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <numeric>

#include "eis/core/error.hpp"
#include "eis/core/mpi_chunks.hpp"
#include "eis/core/mpi_exchange.hpp"
#include "plex_points.hpp"

namespace eis::mesh_detail {

namespace {

// The ranks that hold each local point, `width` slots per point (sorted, then -1): the root
// gathers its leaves' ranks through the point SF and sends the list back to every copy.
struct Holders {
  PetscInt width = 1;
  std::vector<PetscInt> ranks;
  const PetscInt* begin(PetscInt p) const {
    return ranks.data() + std::size_t(p) * std::size_t(width);
  }
  const PetscInt* end(PetscInt p) const {
    const PetscInt* row = begin(p);
    return std::find(row, row + width, PetscInt(-1));
  }
};

Holders holdersOfPoints(PetscSF sf, PetscInt numPoints, MPI_Comm comm) {
  const PetscInt rank = commRank(comm);
  const PetscInt* degree;
  EIS_CHECK(PetscSFComputeDegreeBegin(sf, &degree));
  EIS_CHECK(PetscSFComputeDegreeEnd(sf, &degree));
  PetscInt maxDegree = 0, copies = 0;
  for (PetscInt p = 0; p < numPoints; ++p) {
    maxDegree = std::max(maxDegree, degree[p]);
    copies += degree[p];
  }
  Holders holders;
  EIS_CHECK_MPI(MPI_Allreduce(&maxDegree, &holders.width, 1, MPIU_INT, MPI_MAX, comm));
  ++holders.width;
  std::vector<PetscInt> leafRank(static_cast<std::size_t>(numPoints), rank),
      gathered(static_cast<std::size_t>(copies));
  EIS_CHECK(PetscSFGatherBegin(sf, MPIU_INT, leafRank.data(), gathered.data()));
  EIS_CHECK(PetscSFGatherEnd(sf, MPIU_INT, leafRank.data(), gathered.data()));
  holders.ranks.assign(std::size_t(numPoints) * std::size_t(holders.width), -1);
  for (PetscInt p = 0, g = 0; p < numPoints; g += degree[p], ++p) {
    PetscInt* row = holders.ranks.data() + std::size_t(p) * std::size_t(holders.width);
    row[0] = rank;
    std::copy_n(gathered.begin() + g, degree[p], row + 1);
    std::sort(row, row + degree[p] + 1);
  }
  MPI_Datatype rowType;
  EIS_CHECK_MPI(MPI_Type_contiguous(int(holders.width), MPIU_INT, &rowType));
  EIS_CHECK_MPI(MPI_Type_commit(&rowType));
  EIS_CHECK(
      PetscSFBcastBegin(sf, rowType, holders.ranks.data(), holders.ranks.data(), MPI_REPLACE));
  EIS_CHECK(PetscSFBcastEnd(sf, rowType, holders.ranks.data(), holders.ranks.data(), MPI_REPLACE));
  EIS_CHECK_MPI(MPI_Type_free(&rowType));
  return holders;
}

// The graph of ranks, the same on every rank: capacity[{p, q}] = how many shared vertices p owns
// that q holds too, i.e. how many p could hand to q.
using RankGraph = std::map<std::pair<PetscInt, PetscInt>, std::int64_t>;

RankGraph rankGraph(MPI_Comm comm, const Holders& holders, const std::vector<PetscInt>& shared,
                    const std::vector<PetscInt>& owner) {
  const PetscInt rank = commRank(comm);
  std::map<PetscInt, PetscInt> mine;
  for (PetscInt p : shared)
    if (owner[p] == rank)
      for (const PetscInt* h = holders.begin(p); h != holders.end(p); ++h)
        if (*h != rank) ++mine[*h];
  std::vector<IndexRow<3>> rows;
  for (const auto& [q, count] : mine) rows.push_back({rank, q, count});
  MPI_Datatype rowType;
  EIS_CHECK_MPI(MPI_Type_contiguous(3, MPIU_INT, &rowType));
  EIS_CHECK_MPI(MPI_Type_commit(&rowType));
  const std::vector<IndexRow<3>> all = allGatherChunks(rows, rowType, comm);
  EIS_CHECK_MPI(MPI_Type_free(&rowType));
  RankGraph graph;
  for (const auto& row : all) graph[{row[0], row[1]}] = row[2];
  return graph;
}

// How many vertices each rank should hand each neighbour: a flow on the rank graph from the
// ranks above the mean (each its distance above) to those below it, along shortest paths
// (Edmonds-Karp), so that a rank whose neighbours are all at the mean passes vertices on
// through them. Computed alike on every rank. Returns flow[{p, q}] > 0 only.
RankGraph balancingFlow(const RankGraph& capacity, const std::vector<std::int64_t>& load) {
  const PetscInt size = PetscInt(load.size());
  const std::int64_t total = std::accumulate(load.begin(), load.end(), std::int64_t(0));
  const std::int64_t ceilMean = (total + size - 1) / size, floorMean = total / size;
  std::vector<std::int64_t> excess(size), room(size);
  for (PetscInt r = 0; r < size; ++r) {
    excess[r] = std::max<std::int64_t>(load[r] - ceilMean, 0);
    room[r] = std::max<std::int64_t>(floorMean - load[r], 0);
  }
  std::vector<std::vector<PetscInt>> next(size);
  for (const auto& [edge, c] : capacity) {
    next[edge.first].push_back(edge.second);
    next[edge.second].push_back(edge.first);
  }
  for (auto& list : next) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  std::map<std::pair<PetscInt, PetscInt>, std::int64_t> flow;
  auto residual = [&](PetscInt p, PetscInt q) {
    auto c = capacity.find({p, q});
    auto f = flow.find({p, q}), back = flow.find({q, p});
    return (c == capacity.end() ? 0 : c->second) - (f == flow.end() ? 0 : f->second) +
           (back == flow.end() ? 0 : back->second);
  };
  for (;;) {
    // Breadth first from every rank with excess left to the nearest rank with room left.
    std::vector<PetscInt> from(size, -2);
    std::deque<PetscInt> queue;
    for (PetscInt r = 0; r < size; ++r)
      if (excess[r] > 0) {
        from[r] = -1;
        queue.push_back(r);
      }
    PetscInt sink = -1;
    while (!queue.empty() && sink < 0) {
      const PetscInt p = queue.front();
      queue.pop_front();
      for (PetscInt q : next[p])
        if (from[q] == -2 && residual(p, q) > 0) {
          from[q] = p;
          if (room[q] > 0) {
            sink = q;
            break;
          }
          queue.push_back(q);
        }
    }
    if (sink < 0) break;
    PetscInt source = sink;
    std::int64_t amount = room[sink];
    for (PetscInt q = sink; from[q] >= 0; q = from[q]) {
      amount = std::min(amount, residual(from[q], q));
      source = from[q];
    }
    amount = std::min(amount, excess[source]);
    for (PetscInt q = sink; from[q] >= 0; q = from[q]) {
      const PetscInt p = from[q];
      const std::int64_t cancel = std::min(amount, flow[{q, p}]);
      flow[{q, p}] -= cancel;
      flow[{p, q}] += amount - cancel;
    }
    excess[source] -= amount;
    room[sink] -= amount;
  }
  RankGraph positive;
  for (const auto& [edge, f] : flow)
    if (f > 0) positive[edge] = f;
  return positive;
}

}  // namespace

std::vector<PetscInt> balancedVertexOwnersInParallel(DM dm, PetscInt vStart, PetscInt vEnd) {
  constexpr int kMaxRounds = 50;
  const PointSf points = pointSf(dm);
  const MPI_Comm comm = points.comm;
  const int rank = commRank(comm), size = commSize(comm);
  const PetscInt pStart = points.pStart, pEnd = points.pEnd;

  // Every point starts with the point SF's owner.
  std::vector<PetscInt> owner(std::size_t(pEnd - pStart), rank);
  for (PetscInt i = 0; i < points.numLeaves; ++i)
    owner[points.leaf(i) - pStart] = points.remotes[i].rank;
  const Holders holders = holdersOfPoints(points.sf, pEnd - pStart, comm);
  std::vector<PetscInt> shared;
  for (PetscInt v = vStart; v < vEnd; ++v)
    if (holders.end(v - pStart) - holders.begin(v - pStart) > 1) shared.push_back(v - pStart);

  std::vector<std::int64_t> load(static_cast<std::size_t>(size));
  for (int round = 0; round < kMaxRounds; ++round) {
    std::int64_t mine = 0;
    for (PetscInt v = vStart; v < vEnd; ++v) mine += owner[v - pStart] == rank;
    EIS_CHECK_MPI(MPI_Allgather(&mine, 1, MPI_INT64_T, load.data(), 1, MPI_INT64_T, comm));
    const RankGraph flow = balancingFlow(rankGraph(comm, holders, shared, owner), load);
    if (flow.empty()) break;

    // This rank's share of the flow: each owned shared vertex goes to the holder with the most
    // of its quota left, while any is left.
    std::map<PetscInt, std::int64_t> quota;
    for (const auto& [edge, f] : flow)
      if (edge.first == rank) quota[edge.second] = f;
    std::vector<PetscInt> moved(std::size_t(pEnd - pStart), -1);
    for (PetscInt p : shared) {
      if (owner[p] != rank || quota.empty()) continue;
      PetscInt best = -1;
      for (const PetscInt* h = holders.begin(p); h != holders.end(p); ++h) {
        auto q = quota.find(*h);
        if (q != quota.end() && (best < 0 || q->second > quota[best])) best = *h;
      }
      if (best < 0) continue;
      moved[p] = best;
      if (--quota[best] == 0) quota.erase(best);
    }
    // Every copy learns the move: the mover tells the root, the root tells the leaves.
    agreeOnLargest(points, moved);
    for (PetscInt p : shared)
      if (moved[p] >= 0) owner[p] = moved[p];
  }
  return std::vector<PetscInt>(owner.begin() + (vStart - pStart), owner.begin() + (vEnd - pStart));
}

void balanceVertexOwners(DM dm) {
  MPI_Comm comm;
  EIS_CHECK(PetscObjectGetComm(reinterpret_cast<PetscObject>(dm), &comm));
  if (commSize(comm) == 1) return;  // one rank owns everything (and its point SF has no graph)
  PetscInt vStart, vEnd;
  EIS_CHECK(DMPlexGetDepthStratum(dm, 0, &vStart, &vEnd));
  setVertexOwners(dm, vStart, vEnd, balancedVertexOwnersInParallel(dm, vStart, vEnd));
}

}  // namespace eis::mesh_detail
