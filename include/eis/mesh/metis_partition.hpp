#pragma once
// The one place that calls METIS: it compacts a serial mesh to the nodes its tetrahedra use and
// partitions the cells. DistributedMesh (euler-implicit) and partition-surface both go through
// it, so that the tool measures the very partition the solver runs on.
#include <metis.h>

#include <cstdint>
#include <vector>

#include "eis/mesh/serial_mesh.hpp"

namespace eis {

// A serial mesh restricted to the nodes some tetrahedron uses, numbered 0.. in input order (the
// numbering METIS sees, and the serial DMPlex's vertex numbering).
struct CompactMesh {
  CellType type = CellType::Tetrahedron;
  std::vector<idx_t> cells;                 // corners compact node numbers per cell, input order
  std::vector<std::int64_t> nodeIds;        // input node id of each compact node (increasing)
  std::vector<std::int64_t> unusedNodeIds;  // input nodes that no tetrahedron uses (increasing)
  idx_t numCells() const { return idx_t(cells.size() / cornersOf(type)); }
  idx_t numNodes() const { return idx_t(nodeIds.size()); }
};

// Throws eis::Error when the mesh has more tetrahedra than METIS's 32-bit indices can number.
CompactMesh compactMesh(const SerialMesh& serial);

struct CellPartition {
  std::vector<idx_t> part;   // the part (rank) of each cell
  std::int64_t edgeCut = 0;  // METIS's count of faces between cells of different parts
};

// METIS's partition of the cells over `parts` ranks (dual graph: cells sharing a face; seed 1, so
// the same partition on every run). One part needs no METIS: every cell in part 0, no cut; so
// does a mesh of fewer cells than parts, which METIS cannot cut (the other ranks hold no cell).
// Throws eis::Error when METIS fails.
CellPartition partitionCells(const CompactMesh& mesh, int parts);

// The bodies of a scene partitioned together: METIS on the union of their cells, one graph of
// disconnected pieces, so that each rank gets its share of all the cells and a small body is
// not cut over every rank. The part of each cell of each mesh, in its order; `edgeCut`, the
// union's. Fewer cells than parts in all lie in part 0, as in partitionCells; throws as it does.
std::vector<std::vector<int>> partitionTogether(const std::vector<CompactMesh>& meshes, int parts,
                                                std::int64_t& edgeCut);

}  // namespace eis
