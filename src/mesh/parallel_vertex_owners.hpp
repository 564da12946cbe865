#pragma once
// The owners of a distributed mesh's shared vertices, chosen where no rank holds the whole mesh
// (the HDF5 path). The serial rule (eis::balancedVertexOwners) sweeps one node at a time with the
// whole mesh in view; here each rank knows only its own vertices, so the ranks first agree on a
// small problem they can all solve alike: how many vertices each rank hands each neighbour.
// Private to src/mesh.
#include <petscdmplex.h>

#include <vector>

namespace eis::mesh_detail {

// Collective. An owner for each local vertex v in [vStart, vEnd) of `dm` (owner[v - vStart], a
// rank that holds it; the same on every rank holding it), starting from the point SF's owners.
// Each round every rank learns all ranks' owned counts and, per pair of neighbouring ranks, how
// many shared vertices one owns that the other holds; every rank then computes the same flow
// from the ranks above the mean to those below it along shortest paths of neighbours (a rank
// whose neighbours are at the mean passes vertices on through them), and each rank hands its
// vertices over as the flow says. Rounds end when no rank is above the mean, rounded up, or no
// vertex can move, or after 50 rounds. Deterministic for a given distribution.
std::vector<PetscInt> balancedVertexOwnersInParallel(DM dm, PetscInt vStart, PetscInt vEnd);

// Collective. Gives the vertices of `dm` the owners balancedVertexOwnersInParallel chooses
// (setVertexOwners): after the HDF5 path's distribution and after each refinement, whose new
// vertices DMPlex gives owners by its own rule.
void balanceVertexOwners(DM dm);

}  // namespace eis::mesh_detail
