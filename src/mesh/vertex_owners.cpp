#include "eis/mesh/vertex_owners.hpp"

#include <algorithm>
#include <cstdint>

namespace eis {

namespace {

// The parts that touch each shared node, as compressed rows: shared node s (in node order) is
// touched by parts[start[s] .. start[s + 1]), increasing.
struct SharedNodes {
  std::vector<idx_t> node;
  std::vector<std::size_t> start;
  std::vector<idx_t> parts;
};

SharedNodes sharedNodes(const CompactMesh& mesh, const std::vector<idx_t>& cellPart,
                        const std::vector<idx_t>& lowest, const std::vector<idx_t>& highest) {
  SharedNodes shared;
  std::vector<idx_t> row(lowest.size(), -1);
  for (idx_t n = 0; n < idx_t(lowest.size()); ++n)
    if (lowest[n] < highest[n]) {
      row[n] = idx_t(shared.node.size());
      shared.node.push_back(n);
    }
  // (row, part) packed into one integer, so that a sort orders them and drops repeats.
  std::vector<std::uint64_t> pairs;
  const idx_t corners = cornersOf(mesh.type);
  for (idx_t c = 0; c < mesh.numCells(); ++c)
    for (idx_t k = 0; k < corners; ++k) {
      const idx_t r = row[mesh.cells[corners * c + k]];
      if (r >= 0) pairs.push_back((std::uint64_t(r) << 32) | std::uint32_t(cellPart[c]));
    }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  shared.start.assign(shared.node.size() + 1, 0);
  for (auto key : pairs) {
    ++shared.start[(key >> 32) + 1];
    shared.parts.push_back(idx_t(key & 0xffffffffu));
  }
  for (std::size_t s = 0; s < shared.node.size(); ++s) shared.start[s + 1] += shared.start[s];
  return shared;
}

// The touching part of shared node s that owns fewest nodes (the lowest of those tied).
idx_t leastLoaded(const SharedNodes& shared, std::size_t s, const std::vector<std::int64_t>& load) {
  idx_t best = shared.parts[shared.start[s]];
  for (std::size_t i = shared.start[s] + 1; i < shared.start[s + 1]; ++i)
    if (load[shared.parts[i]] < load[best]) best = shared.parts[i];
  return best;
}

}  // namespace

std::vector<idx_t> balancedVertexOwners(const CompactMesh& mesh, const std::vector<idx_t>& cellPart,
                                        int parts) {
  const idx_t nodes = mesh.numNodes();
  std::vector<idx_t> lowest(nodes, idx_t(parts)), highest(nodes, -1);
  const idx_t corners = cornersOf(mesh.type);
  for (idx_t c = 0; c < mesh.numCells(); ++c)
    for (idx_t k = 0; k < corners; ++k) {
      const idx_t n = mesh.cells[corners * c + k];
      lowest[n] = std::min(lowest[n], cellPart[c]);
      highest[n] = std::max(highest[n], cellPart[c]);
    }
  // DMPlexDistribute's rule to start from: the highest touching part owns each node.
  std::vector<idx_t> owner = highest;
  std::vector<std::int64_t> load(parts, 0);
  for (idx_t o : owner) ++load[o];
  const SharedNodes shared = sharedNodes(mesh, cellPart, lowest, highest);
  // Each move lowers the sum of squared loads by at least 2, so the sweeps end.
  for (bool moved = true; moved;) {
    moved = false;
    for (std::size_t s = 0; s < shared.node.size(); ++s) {
      idx_t& o = owner[shared.node[s]];
      const idx_t best = leastLoaded(shared, s, load);
      if (load[best] + 1 < load[o]) {
        --load[o];
        ++load[best];
        o = best;
        moved = true;
      }
    }
  }
  return owner;
}

}  // namespace eis
