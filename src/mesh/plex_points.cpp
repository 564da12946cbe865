#include "plex_points.hpp"

#include <petscsf.h>

#include "eis/core/error.hpp"

namespace eis::mesh_detail {

PointSf pointSf(DM dm) {
  PointSf points;
  EIS_CHECK(PetscObjectGetComm(reinterpret_cast<PetscObject>(dm), &points.comm));
  EIS_CHECK(DMPlexGetChart(dm, &points.pStart, &points.pEnd));
  EIS_CHECK(DMGetPointSF(dm, &points.sf));
  PetscInt numRoots;
  EIS_CHECK(
      PetscSFGetGraph(points.sf, &numRoots, &points.numLeaves, &points.leaves, &points.remotes));
  return points;
}

void agreeOnLargest(const PointSf& points, std::vector<PetscInt>& values) {
  const std::vector<PetscInt> sent = values;
  EIS_CHECK(PetscSFReduceBegin(points.sf, MPIU_INT, sent.data(), values.data(), MPI_MAX));
  EIS_CHECK(PetscSFReduceEnd(points.sf, MPIU_INT, sent.data(), values.data(), MPI_MAX));
  EIS_CHECK(PetscSFBcastBegin(points.sf, MPIU_INT, values.data(), values.data(), MPI_REPLACE));
  EIS_CHECK(PetscSFBcastEnd(points.sf, MPIU_INT, values.data(), values.data(), MPI_REPLACE));
}

std::vector<unsigned char> ownedMask(DM dm, PetscInt pStart, PetscInt pEnd) {
  std::vector<unsigned char> owned(pEnd - pStart, 1);
  const PointSf points = pointSf(dm);
  for (PetscInt i = 0; i < points.numLeaves; ++i) {
    const PetscInt p = points.leaf(i);
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

void setVertexOwners(DM dm, PetscInt vStart, PetscInt vEnd, const std::vector<PetscInt>& owner) {
  const PointSf points = pointSf(dm);
  const MPI_Comm comm = points.comm;
  const PetscInt rank = commRank(comm), pStart = points.pStart, pEnd = points.pEnd;

  // Where each vertex's chosen copy lies, (rank, point) on that rank: the chosen copy says so,
  // the present root collects it from its leaves (the others send -1) and tells them all.
  std::vector<PetscInt> chosenRank(pEnd - pStart, -1), chosenPoint(pEnd - pStart, -1);
  for (PetscInt v = vStart; v < vEnd; ++v)
    if (owner[v - vStart] == rank) {
      chosenRank[v - pStart] = rank;
      chosenPoint[v - pStart] = v;
    }
  agreeOnLargest(points, chosenRank);
  agreeOnLargest(points, chosenPoint);

  std::vector<PetscSFNode> oldRemote(pEnd - pStart, PetscSFNode{-1, -1});
  for (PetscInt i = 0; i < points.numLeaves; ++i)
    oldRemote[points.leaf(i) - pStart] = points.remotes[i];
  std::vector<PetscInt> newLeaves;
  std::vector<PetscSFNode> newRemotes;
  bool unowned = false;
  for (PetscInt p = pStart; p < pEnd; ++p) {
    PetscSFNode remote = oldRemote[p - pStart];
    if (p >= vStart && p < vEnd) {
      unowned = unowned || chosenRank[p - pStart] < 0;
      remote = {chosenRank[p - pStart] == rank ? -1 : chosenRank[p - pStart],
                chosenPoint[p - pStart]};
    }
    if (remote.rank < 0) continue;
    newLeaves.push_back(p);
    newRemotes.push_back(remote);
  }
  if (anyRank(unowned, comm))
    throw Error("a mesh vertex's chosen owner is not among the ranks that hold it");

  PetscSF balanced;
  EIS_CHECK(PetscSFCreate(comm, &balanced));
  EIS_CHECK(PetscSFSetGraph(balanced, pEnd - pStart, PetscInt(newLeaves.size()), newLeaves.data(),
                            PETSC_COPY_VALUES, newRemotes.data(), PETSC_COPY_VALUES));
  EIS_CHECK(PetscSFSetUp(balanced));
  EIS_CHECK(DMSetPointSF(dm, balanced));
  DM coordinateDm;
  EIS_CHECK(DMGetCoordinateDM(dm, &coordinateDm));
  EIS_CHECK(DMSetPointSF(coordinateDm, balanced));
  EIS_CHECK(PetscSFDestroy(&balanced));
}

}  // namespace eis::mesh_detail
