#pragma once
// Two questions about a DMPlex's points that both the distribution (distributed_mesh.cpp) and the
// refinement (refinement.cpp) ask: which points this rank owns, and where its vertices lie.
// Private to src/mesh.
#include <petscdmplex.h>

#include <array>
#include <vector>

namespace eis::mesh_detail {

// 1 for the points [pStart, pEnd) (vertices, or edges) this rank owns, 0 for ghost copies
// (leaves of the point SF).
std::vector<unsigned char> ownedMask(DM dm, PetscInt pStart, PetscInt pEnd);

// Coordinates of the local vertices [vStart, vEnd), as DMPlex holds them.
std::vector<std::array<double, 3>> vertexCoordinates(DM dm, PetscInt vStart, PetscInt vEnd);

}  // namespace eis::mesh_detail
