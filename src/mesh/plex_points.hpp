#pragma once
// What the distribution (distributed_mesh.cpp), the refinement (refinement.cpp) and the owners'
// balance (parallel_vertex_owners.cpp) ask of a DMPlex's points: its point SF, which points this
// rank owns and where its vertices lie; the copies of a point agreeing on a value; and the one
// change made to them: which rank owns each shared vertex. Private to src/mesh.
#include <petscdmplex.h>

#include <array>
#include <vector>

namespace eis::mesh_detail {

// A DMPlex's point SF as its graph: the points [pStart, pEnd), and the leaves (ghost copies),
// each pointing at its owner's copy (remotes[i] for the leaf leaves[i], or point i when leaves
// is null). The arrays belong to the SF.
struct PointSf {
  MPI_Comm comm;
  PetscInt pStart, pEnd;
  PetscSF sf;
  PetscInt numLeaves;
  const PetscInt* leaves;
  const PetscSFNode* remotes;
  PetscInt leaf(PetscInt i) const { return leaves ? leaves[i] : i; }
};
PointSf pointSf(DM dm);

// Collective. Makes every copy of each point hold the largest value any copy of it held
// (values indexed by point - pStart): the leaves send theirs to the owner's copy, which then
// sends the result back to them all.
void agreeOnLargest(const PointSf& points, std::vector<PetscInt>& values);

// 1 for the points [pStart, pEnd) (vertices, or edges) this rank owns, 0 for ghost copies
// (leaves of the point SF).
std::vector<unsigned char> ownedMask(DM dm, PetscInt pStart, PetscInt pEnd);

// Coordinates of the local vertices [vStart, vEnd), as DMPlex holds them.
std::vector<std::array<double, 3>> vertexCoordinates(DM dm, PetscInt vStart, PetscInt vEnd);

// Collective. Makes owner[v - vStart], a rank that holds the vertex, the owner of each local
// vertex v in [vStart, vEnd): the point SF is rebuilt so that the chosen copy is the root and
// every other copy a leaf pointing at it; other points keep their owners. Call it before any
// section is laid out on the DM. Throws eis::Error (on every rank) when the copies of a shared
// vertex name no rank that holds it.
void setVertexOwners(DM dm, PetscInt vStart, PetscInt vEnd, const std::vector<PetscInt>& owner);

}  // namespace eis::mesh_detail
