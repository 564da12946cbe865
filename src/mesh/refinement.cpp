// Uniform refinement of the distributed mesh (DistributedMesh::refine and its helpers): DMPlex
// splits every tetrahedron into eight, and the per-vertex and per-cell arrays follow the split.
#include <petscdmplextransform.h>
#include <petscsf.h>

#include <algorithm>
#include <numeric>

#include "eis/core/error.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "parallel_vertex_owners.hpp"
#include "plex_points.hpp"

namespace eis {

namespace {

using Groups = std::vector<std::pair<int, std::vector<PetscInt>>>;

// The vertices and cells of a DM, as DMPlex numbers them.
struct Strata {
  PetscInt vStart, vEnd, cStart, cEnd;
};

Strata strata(DM dm) {
  Strata s;
  EIS_CHECK(DMPlexGetDepthStratum(dm, 0, &s.vStart, &s.vEnd));
  EIS_CHECK(DMPlexGetHeightStratum(dm, 0, &s.cStart, &s.cEnd));
  return s;
}

// The regular refinement splits edges, and only an interpolated DM has edges; the distributed
// mesh has cells and vertices only (after the first refinement it is interpolated). Interpolation
// keeps the cells and vertices in their order, so the mesh's arrays still index them. Takes `dm`
// over: the result is `dm` itself or its interpolation, and `dm` is destroyed in the latter case.
DM interpolated(DM dm) {
  DMPlexInterpolatedFlag interpType;
  EIS_CHECK(DMPlexIsInterpolatedCollective(dm, &interpType));
  if (interpType == DMPLEX_INTERPOLATED_FULL) return dm;
  DM full = nullptr;
  EIS_CHECK(DMPlexInterpolate(dm, &full));
  EIS_CHECK(DMDestroy(&dm));
  return full;
}

// The coarse point a refined point comes from, and whether that point is a vertex.
PetscInt sourcePoint(DMPlexTransform transform, PetscInt p, bool* fromVertex = nullptr) {
  DMPolytopeType sourceType, newType;
  PetscInt source, replica;
  EIS_CHECK(DMPlexTransformGetSourcePoint(transform, p, &sourceType, &newType, &source, &replica));
  if (fromVertex) *fromVertex = sourceType == DM_POLYTOPE_POINT;
  return source;
}

// A refined vertex that copies a coarse vertex keeps its id; one made at an edge's midpoint is new
// (-1 here, numbered by numberNewNodes once every refinement is done).
std::vector<std::int64_t> inheritedNodeIds(DMPlexTransform transform, const Strata& coarse,
                                           const Strata& fine,
                                           const std::vector<std::int64_t>& ids) {
  std::vector<std::int64_t> fineIds(fine.vEnd - fine.vStart, -1);
  for (PetscInt v = fine.vStart; v < fine.vEnd; ++v) {
    bool fromVertex;
    const PetscInt source = sourcePoint(transform, v, &fromVertex);
    if (fromVertex) fineIds[v - fine.vStart] = ids[source - coarse.vStart];
  }
  return fineIds;
}

// A refined vertex that copies a coarse vertex keeps its groups; one made at an edge's midpoint
// belongs to a group when both ends of the edge do.
Groups refinedGroups(DMPlexTransform transform, DM coarseDm, const Strata& coarse,
                     const Strata& fine, const Groups& groups) {
  std::vector<std::vector<char>> member(groups.size(),
                                        std::vector<char>(coarse.vEnd - coarse.vStart, 0));
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (auto v : groups[g].second) member[g][v] = 1;
  Groups fineGroups;
  for (const auto& group : groups) fineGroups.emplace_back(group.first, std::vector<PetscInt>());
  for (PetscInt v = fine.vStart; v < fine.vEnd; ++v) {
    bool fromVertex;
    const PetscInt source = sourcePoint(transform, v, &fromVertex);
    const PetscInt* ends = nullptr;
    if (!fromVertex) EIS_CHECK(DMPlexGetCone(coarseDm, source, &ends));
    for (std::size_t g = 0; g < groups.size(); ++g) {
      const auto& in = member[g];
      const bool isMember = fromVertex ? in[source - coarse.vStart]
                                       : in[ends[0] - coarse.vStart] && in[ends[1] - coarse.vStart];
      if (isMember) fineGroups[g].second.push_back(v - fine.vStart);
    }
  }
  return fineGroups;
}

// A per-cell value (tag, input cell id) that each refined cell takes from the cell it splits.
template <class T>
std::vector<T> inheritedFromCells(DMPlexTransform transform, const Strata& coarse,
                                  const Strata& fine, const std::vector<T>& values) {
  std::vector<T> fineValues(fine.cEnd - fine.cStart);
  for (PetscInt c = fine.cStart; c < fine.cEnd; ++c)
    fineValues[c - fine.cStart] = values[sourcePoint(transform, c) - coarse.cStart];
  return fineValues;
}

// Each tetrahedron's four local vertices in the order of its DMPlex closure (a refined cell has
// no input vertex order to keep).
Cells cellVertices(DM dm, const Strata& s) {
  Cells cells(CellType::Tetrahedron);
  cells.resize(std::size_t(s.cEnd - s.cStart));
  for (PetscInt c = s.cStart; c < s.cEnd; ++c) {
    PetscInt closureSize, *closure = nullptr;
    EIS_CHECK(DMPlexGetTransitiveClosure(dm, c, PETSC_TRUE, &closureSize, &closure));
    int k = 0;
    for (PetscInt i = 0; i < 2 * closureSize; i += 2)
      if (closure[i] >= s.vStart && closure[i] < s.vEnd)
        cells[c - s.cStart][k++] = closure[i] - s.vStart;
    EIS_CHECK(DMPlexRestoreTransitiveClosure(dm, c, PETSC_TRUE, &closureSize, &closure));
  }
  return cells;
}

// Rank 0 numbers the new nodes of all ranks together, firstNewId.. in the order of their rest
// coordinates (x, y, z), so that the numbering does not depend on the rank count. Takes this
// rank's new owned nodes' coordinates (3 each) and returns their ids; `total` becomes the count
// over all ranks, on every rank.
std::vector<std::int64_t> idsByCoordinates(MPI_Comm comm, const std::vector<double>& myCoords,
                                           std::int64_t firstNewId, std::int64_t& total) {
  const int rank = commRank(comm), size = commSize(comm);
  int count = int(myCoords.size() / 3);
  std::vector<int> counts(size), displs(size), coordCounts(size), coordDispls(size);
  EIS_CHECK_MPI(MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm));
  total = 0;
  for (int r = 0; r < size; ++r) {
    displs[r] = int(total);
    coordCounts[r] = 3 * counts[r];
    coordDispls[r] = 3 * displs[r];
    total += counts[r];
  }
  std::vector<double> allCoords(rank == 0 ? 3 * total : 0);
  EIS_CHECK_MPI(MPI_Gatherv(myCoords.data(), 3 * count, MPI_DOUBLE, allCoords.data(),
                            coordCounts.data(), coordDispls.data(), MPI_DOUBLE, 0, comm));
  std::vector<std::int64_t> allIds(rank == 0 ? total : 0);
  if (rank == 0) {
    std::vector<std::int64_t> order(total);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
      return std::lexicographical_compare(&allCoords[3 * a], &allCoords[3 * a + 3],
                                          &allCoords[3 * b], &allCoords[3 * b + 3]);
    });
    for (std::int64_t k = 0; k < total; ++k) allIds[order[k]] = firstNewId + k;
  }
  std::vector<std::int64_t> myIds(count);
  EIS_CHECK_MPI(MPI_Scatterv(allIds.data(), counts.data(), displs.data(), MPI_INT64_T, myIds.data(),
                             count, MPI_INT64_T, 0, comm));
  EIS_CHECK_MPI(MPI_Bcast(&total, 1, MPI_INT64_T, 0, comm));
  return myIds;
}

// Only owners number their new nodes; the ghost copies learn the ids through the point SF.
void copyIdsToGhosts(DM dm, PetscInt vStart, PetscInt vEnd, std::vector<std::int64_t>& ids) {
  PetscInt pStart, pEnd;
  EIS_CHECK(DMPlexGetChart(dm, &pStart, &pEnd));
  std::vector<std::int64_t> pointIds(pEnd - pStart, -1);
  for (PetscInt v = vStart; v < vEnd; ++v) pointIds[v - pStart] = ids[v - vStart];
  PetscSF pointSf;
  EIS_CHECK(DMGetPointSF(dm, &pointSf));
  EIS_CHECK(PetscSFBcastBegin(pointSf, MPIU_INT64, pointIds.data(), pointIds.data(), MPI_REPLACE));
  EIS_CHECK(PetscSFBcastEnd(pointSf, MPIU_INT64, pointIds.data(), pointIds.data(), MPI_REPLACE));
  for (PetscInt v = vStart; v < vEnd; ++v) ids[v - vStart] = pointIds[v - pStart];
}

}  // namespace

void DistributedMesh::refine(int times) {
  if (times <= 0) return;
  if (cells_.type() != CellType::Tetrahedron)
    throw Error("mesh.refine: only tetrahedra are refined here, and this mesh has " +
                pluralNameOf(cells_.type()));
  // The surface triangles name coarse cells, which refinement replaces.
  surface_.local.clear();
  for (int r = 0; r < times; ++r) refineOnce();
  mesh_detail::balanceVertexOwners(dm_);
  // New nodes are numbered after every node of the input, used or not.
  std::int64_t inputNodes = numGlobalVertices_ + std::int64_t(unusedNodeIds_.size());
  EIS_CHECK_MPI(MPI_Bcast(&inputNodes, 1, MPI_INT64_T, 0, comm_));
  numberNewNodes(inputNodes);
}

void DistributedMesh::refineOnce() {
  DM coarse = interpolated(dm_);
  dm_ = nullptr;
  DMPlexTransform transform;
  EIS_CHECK(DMPlexTransformCreate(comm_, &transform));
  EIS_CHECK(DMPlexTransformSetDM(transform, coarse));
  EIS_CHECK(DMPlexTransformSetType(transform, DMPLEXREFINEREGULAR));
  EIS_CHECK(DMPlexTransformSetUp(transform));
  EIS_CHECK(DMPlexTransformApply(transform, coarse, &dm_));

  const Strata from = strata(coarse), to = strata(dm_);
  nodeIds_ = inheritedNodeIds(transform, from, to, nodeIds_);
  groups_ = refinedGroups(transform, coarse, from, to, groups_);
  cellTags_ = inheritedFromCells(transform, from, to, cellTags_);
  inputCellIds_ = inheritedFromCells(transform, from, to, inputCellIds_);
  cells_ = cellVertices(dm_, to);
  EIS_CHECK(DMPlexTransformDestroy(&transform));
  EIS_CHECK(DMDestroy(&coarse));
}

void DistributedMesh::numberNewNodes(std::int64_t firstNewId) {
  PetscInt vStart, vEnd;
  EIS_CHECK(DMPlexGetDepthStratum(dm_, 0, &vStart, &vEnd));
  const auto isOwned = mesh_detail::ownedMask(dm_, vStart, vEnd);
  const auto points = mesh_detail::vertexCoordinates(dm_, vStart, vEnd);
  std::vector<PetscInt> mine;
  std::vector<double> myCoords;
  for (PetscInt v = 0; v < vEnd - vStart; ++v)
    if (nodeIds_[v] < 0 && isOwned[v]) {
      mine.push_back(v);
      myCoords.insert(myCoords.end(), points[v].begin(), points[v].end());
    }
  std::int64_t total = 0;
  const std::vector<std::int64_t> myIds = idsByCoordinates(comm_, myCoords, firstNewId, total);
  for (std::size_t k = 0; k < mine.size(); ++k) nodeIds_[mine[k]] = myIds[k];
  numGlobalVertices_ += total;
  copyIdsToGhosts(dm_, vStart, vEnd, nodeIds_);
}

}  // namespace eis
