#pragma once
// The mesh after METIS partitioning and DMPlex distribution: what one rank holds, with the
// per-element index arrays computed once so that no hot loop asks DMPlex for closures.
#include <petscdmplex.h>

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "eis/mesh/mesh_transform.hpp"
#include "eis/mesh/serial_mesh.hpp"
#include "eis/mesh/surface_triangles.hpp"

namespace eis {

struct PartitionReport {
  std::int64_t cellsMin = 0, cellsMax = 0;    // cells per rank
  std::int64_t ownedMin = 0, ownedMax = 0;    // vertices a rank owns (its unknowns / dofs)
  std::int64_t ghostsMin = 0, ghostsMax = 0;  // vertices a rank holds but does not own
  std::int64_t edgeCut = 0;  // METIS's dual-graph edge cut (shared faces); -1: not known (PTScotch)
};

// A converted mesh file (eis/mesh/hdf5_mesh.hpp) and mesh.transform's operations for its rest
// positions.
struct Hdf5MeshInput {
  std::string path;
  std::vector<MeshTransform> transforms;
};

// What joins two vertices of a cell: an edge, a diagonal of a hexahedron's face, or one of its
// diagonals through the body (SOFA's RegularGridSpringForceField: lines, quads, cubes).
enum class PairKind { Edge, FaceDiagonal, BodyDiagonal };

// Two vertices of a cell as one local cell holds them: the cell, the slots (0..corners-1) of the
// two in that cell's vertex list, and what joins them.
struct CellEdge {
  PetscInt cell;
  int a, b;
  PairKind kind = PairKind::Edge;
};

class DistributedMesh {
public:
  // Collective. `serial` is read on rank 0 only (other ranks pass an empty mesh). Partitions the
  // cells with METIS, distributes them with DMPlexDistribute, gives each vertex the owner
  // balancedVertexOwners chooses (mesh/vertex_owners.hpp), refines `refinements` times (a new
  // vertex on a shared edge goes to the edge's owner, as DMPlex decides, and then the owners are
  // evened out again: mesh/parallel_vertex_owners.hpp), and lays out `dofsPerNode` unknowns on
  // every vertex.
  // `cellParts` (rank 0's; nullptr: METIS on this mesh alone): the rank of each of the serial
  // mesh's cells, as partitionTogether gives it for the bodies of a scene; then a rank may hold
  // no cell of this mesh, and the edge cut is not known (-1).
  DistributedMesh(MPI_Comm comm, const SerialMesh& serial, int dofsPerNode, int refinements,
                  const std::vector<int>* cellParts = nullptr);
  // Collective. The same mesh read from a converted file, each rank a slice, partitioned by
  // PTScotch (PetscPartitioner), distributed by DMPlexDistribute; shared vertices get owners that
  // even out the owned counts (mesh/parallel_vertex_owners.hpp). No rank reads the whole
  // mesh; the members are those the first constructor fills, the unused nodes on rank 0 too.
  DistributedMesh(MPI_Comm comm, const Hdf5MeshInput& input, int dofsPerNode, int refinements);
  ~DistributedMesh();
  DistributedMesh(const DistributedMesh&) = delete;
  DistributedMesh& operator=(const DistributedMesh&) = delete;

  MPI_Comm comm() const { return comm_; }
  DM dm() const { return dm_; }
  int dofsPerNode() const { return dofsPerNode_; }

  // Local vertices (owned and ghost), indexed 0..numLocalVertices()-1.
  std::size_t numLocalVertices() const { return restCoords_.size(); }
  const std::vector<std::array<double, 3>>& restCoords() const { return restCoords_; }
  // Natural id of each local vertex: its 0-based position in the input's node list; after
  // refinement, new nodes follow the input's nodes sorted by rest coordinates (x, y, z).
  const std::vector<std::int64_t>& nodeIds() const { return nodeIds_; }
  const std::vector<unsigned char>& owned() const { return owned_; }
  // Global vertex count (every node of the mesh that some tetrahedron uses).
  std::int64_t numGlobalVertices() const { return numGlobalVertices_; }

  // Local cells: corners() local vertex indices each, in the input's vertex order (refined cells
  // in DMPlex's order), and the physical tag of the input cell they come from.
  const Cells& cells() const { return cells_; }
  CellType cellType() const { return cells_.type(); }
  const std::vector<int>& cellTags() const { return cellTags_; }
  // Index, in the input's element list (0-based, tetrahedra only), of the cell each local cell
  // is or was refined from.
  const std::vector<std::int64_t>& inputCellIds() const { return inputCellIds_; }
  // The file's triangles on the cells that hold them (pressure loads act on them). After
  // refinement no rank holds any: the cells they name are gone.
  const SurfaceTriangles& surfaceTriangles() const { return surface_; }
  // The tag of a physical group given by name or by number; throws eis::Error naming it and the
  // groups the mesh has when it has no such group (the same verdict on every rank).
  int findGroup(const std::string& nameOrTag) const;
  // Local vertices belonging to a physical group, by group tag (empty if none here).
  std::vector<PetscInt> groupVertices(int tag) const;

  // Collective. The pairs of vertices that share a cell this rank owns, each given by one local
  // cell that holds both: over all ranks every pair of the mesh appears exactly once. A
  // tetrahedron's pairs are its 6 edges; a hexahedron's all 28 pairs of its vertices (its 12
  // edges, the 2 diagonals of each face, its 4 diagonals through the body), the springs SOFA's
  // MeshSpringForceField puts on a cube. Builds the DM's edges and faces each call (a set-up
  // cost): call it once (mesh/cell_pairs.cpp).
  std::vector<CellEdge> ownedCellPairs() const;

  // Offset of a local vertex's first unknown in a local vector; and in the local part of a
  // global vector (-1 for ghosts).
  PetscInt localOffset(PetscInt vertex) const { return vertex * dofsPerNode_; }
  PetscInt ownedOffset(PetscInt vertex) const { return ownedOffsets_[vertex]; }

  const PartitionReport& partition() const { return partition_; }
  // Nodes that no tetrahedron uses (rank 0 only): written to outputs unchanged.
  const std::vector<std::int64_t>& unusedNodeIds() const { return unusedNodeIds_; }
  const std::vector<std::array<double, 3>>& unusedNodeCoords() const { return unusedNodeCoords_; }

private:
  // distributed_mesh.cpp: METIS's partition of the input on rank 0, carried out by
  // DMPlexDistribute; fills the members below but for those layOutUnknowns() and
  // computePartitionReport() fill. Returns METIS's edge cut (faces between parts).
  std::int64_t distribute(const SerialMesh& serial, const std::vector<int>* cellParts);
  // hdf5_mesh_load.cpp: the same from a converted file; returns -1 (PTScotch gives no edge cut).
  // readIds fills the members from the file's eis_ids, moved with the points.
  std::int64_t distributeHdf5(const Hdf5MeshInput& input);
  void readIds(PetscSection section, Vec ids, const std::string& groupTags,
               TriangleCells& triangles);
  // Refinement, unknowns and the partition report, after either distribution.
  void finishSetUp(std::int64_t coarseEdgeCut, int refinements);
  // refinement.cpp: `times` uniform refinements (each tetrahedron into eight), then ids for the
  // nodes they made.
  void refine(int times);
  void refineOnce();
  void numberNewNodes(std::int64_t firstNewId);
  // distributed_mesh.cpp: the PETSc section of `dofsPerNode` unknowns per vertex, the owned
  // vertices and offsets it gives (owned_, ownedOffsets_), and restCoords_ of the final mesh.
  void layOutUnknowns();
  // Cells, owned and ghost nodes per rank of the final (refined) mesh; `edgeCut` of the final
  // mesh too.
  void computePartitionReport(std::int64_t edgeCut);

  MPI_Comm comm_;
  DM dm_ = nullptr;
  int dofsPerNode_;
  std::vector<std::array<double, 3>> restCoords_;
  std::vector<std::int64_t> nodeIds_;
  std::vector<unsigned char> owned_;
  std::vector<PetscInt> ownedOffsets_;
  Cells cells_;
  std::vector<int> cellTags_;
  std::vector<std::int64_t> inputCellIds_;
  SurfaceTriangles surface_;
  // For groups: local vertices tagged by input physical group (sorted vertex lists per tag).
  std::vector<std::pair<int, std::vector<PetscInt>>> groups_;
  std::map<std::string, int> groupNames_;
  std::int64_t numGlobalVertices_ = 0;
  PartitionReport partition_;
  std::vector<std::int64_t> unusedNodeIds_;
  std::vector<std::array<double, 3>> unusedNodeCoords_;
};

}  // namespace eis
