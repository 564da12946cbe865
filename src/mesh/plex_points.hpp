#pragma once
// Two questions about a DMPlex's points that both the distribution (distributed_mesh.cpp) and the
// refinement (refinement.cpp) ask: which points this rank owns, and where its vertices lie; and
// the distribution's one change to them: which rank owns each shared vertex. Private to src/mesh.
#include <petscdmplex.h>

#include <array>
#include <vector>

namespace eis::mesh_detail {

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
