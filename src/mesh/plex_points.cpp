#include "plex_points.hpp"

#include <petscsf.h>

#include "eis/core/error.hpp"

namespace eis::mesh_detail {

std::vector<unsigned char> ownedMask(DM dm, PetscInt pStart, PetscInt pEnd) {
  std::vector<unsigned char> owned(pEnd - pStart, 1);
  PetscSF pointSf;
  PetscInt numRoots, numLeaves;
  const PetscInt* leaves;
  const PetscSFNode* remotes;
  EIS_CHECK(DMGetPointSF(dm, &pointSf));
  EIS_CHECK(PetscSFGetGraph(pointSf, &numRoots, &numLeaves, &leaves, &remotes));
  for (PetscInt i = 0; i < numLeaves; ++i) {
    const PetscInt p = leaves ? leaves[i] : i;
    if (p >= pStart && p < pEnd) owned[p - pStart] = 0;
  }
  return owned;
}

std::vector<std::array<double, 3>> vertexCoordinates(DM dm, PetscInt vStart, PetscInt vEnd) {
  Vec coords;
  PetscSection coordSection;
  EIS_CHECK(DMGetCoordinatesLocal(dm, &coords));
  EIS_CHECK(DMGetCoordinateSection(dm, &coordSection));
  const PetscScalar* xyz;
  EIS_CHECK(VecGetArrayRead(coords, &xyz));
  std::vector<std::array<double, 3>> points(vEnd - vStart);
  for (PetscInt v = vStart; v < vEnd; ++v) {
    PetscInt off;
    EIS_CHECK(PetscSectionGetOffset(coordSection, v, &off));
    points[v - vStart] = {xyz[off], xyz[off + 1], xyz[off + 2]};
  }
  EIS_CHECK(VecRestoreArrayRead(coords, &xyz));
  return points;
}

}  // namespace eis::mesh_detail
