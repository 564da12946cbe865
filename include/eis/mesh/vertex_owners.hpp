#pragma once
// Which part owns each vertex of a partitioned mesh. METIS balances cells; a vertex that cells of
// several parts touch must still have one owner, and giving every such vertex to one side (as
// DMPlexDistribute does: the highest rank) leaves the owned counts, i.e. each rank's unknowns,
// out of balance. DistributedMesh and partition-surface both take their owners from here, so the
// tool measures what the solver runs on.
#include <vector>

#include "eis/mesh/metis_partition.hpp"

namespace eis {

// The owner of every node of `mesh` (its compact numbering), given the part of every cell in
// [0, parts). A node that one part's cells alone touch belongs to that part. A node that several
// parts touch starts with the highest of them (DMPlexDistribute's rule); then sweeps over these
// shared nodes, in node order, move one from its owner to the touching part that owns fewest
// nodes (the lowest of those tied) whenever that part owns at least two fewer, until no sweep
// moves one. Only as many nodes as the balance needs leave DMPlex's owner, which keeps the
// matrix halo near DMPlex's. Sequential and deterministic: the same answer on every run and
// every rank.
std::vector<idx_t> balancedVertexOwners(const CompactMesh& mesh, const std::vector<idx_t>& cellPart,
                                        int parts);

}  // namespace eis
