// The parallel path into DistributedMesh: every rank reads a slice of a converted mesh
// (eis/mesh/hdf5_mesh.hpp), PTScotch partitions the cells across all ranks, DMPlexDistribute
// moves them, and DMPlexDistributeField moves each point's input ids with them. No rank holds
// more than its slice and then its part.
#include <petscdmplex.h>
#include <petscpartitioner.h>
#include <petscsf.h>
#include <petscviewerhdf5.h>

#include <algorithm>
#include <cstdlib>

#include "eis/core/error.hpp"
#include "eis/core/input_file.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/mesh/hdf5_mesh.hpp"
#include "hdf5_mesh_names.hpp"

namespace eis {

namespace {

using namespace hdf5_mesh;

// Collective. The file opened for reading after the checks that give a clean error for a missing
// file, a file that is not HDF5, and an HDF5 file that is no converted mesh.
PetscViewer openMesh(MPI_Comm comm, const std::string& path) {
  const std::string named = "mesh.file = " + path + ": ";
  const std::string problem = commRank(comm) == 0 ? inputFileProblem(path) : "";
  throwIfAnyRankFailed(problem.empty() ? "" : named + problem, comm);
  if (!isHdf5File(path, comm))
    throw Error(named + "not an HDF5 file (a .h5 mesh is written by mesh.convert)");
  PetscViewer viewer = nullptr;
  try {
    EIS_CHECK(PetscViewerHDF5Open(comm, path.c_str(), FILE_MODE_READ, &viewer));
  } catch (const Error& e) {
    throw Error(named + "cannot be read as HDF5 (truncated or damaged?): " + e.what());
  }
  PetscBool has = PETSC_FALSE;
  EIS_CHECK(PetscViewerHDF5HasAttribute(viewer, "/", kFormat, &has));
  PetscInt format = 0;
  if (has)
    EIS_CHECK(PetscViewerHDF5ReadAttribute(viewer, "/", kFormat, PETSC_INT, nullptr, &format));
  if (format != kHdf5MeshFormat) {
    EIS_CHECK(PetscViewerDestroy(&viewer));
    throw Error(named +
                (has ? "mesh format " + std::to_string(format) + ", this build reads " +
                           std::to_string(kHdf5MeshFormat)
                     : std::string("an HDF5 file, but not a mesh written by mesh.convert")));
  }
  return viewer;
}

std::int64_t readCount(PetscViewer viewer, const char* name) {
  long value = 0;
  EIS_CHECK(PetscViewerHDF5ReadAttribute(viewer, "/", name, PETSC_LONG, nullptr, &value));
  return value;
}

std::string readText(PetscViewer viewer, const char* name) {
  char* text = nullptr;
  EIS_CHECK(PetscViewerHDF5ReadAttribute(viewer, "/", name, PETSC_STRING, nullptr, &text));
  std::string value = text == nullptr || std::string(text) == " " ? "" : text;
  EIS_CHECK(PetscFree(text));
  return value;
}

// Collective. The vector `name`, all of it read on rank 0 and sent to every rank: the unused
// nodes and unattached triangles, which the Gmsh path keeps whole too.
std::vector<double> readSmallVector(PetscViewer viewer, MPI_Comm comm, const char* name,
                                    std::int64_t size) {
  std::vector<double> values(static_cast<std::size_t>(size));
  if (size == 0) return values;
  Vec vec;
  EIS_CHECK(VecCreate(comm, &vec));
  EIS_CHECK(VecSetSizes(vec, commRank(comm) == 0 ? PetscInt(size) : 0, PETSC_DETERMINE));
  EIS_CHECK(VecSetType(vec, VECSTANDARD));
  EIS_CHECK(PetscObjectSetName(reinterpret_cast<PetscObject>(vec), name));
  EIS_CHECK(VecLoad(vec, viewer));
  if (commRank(comm) == 0) {
    const PetscScalar* read;
    EIS_CHECK(VecGetArrayRead(vec, &read));
    std::copy(read, read + size, values.begin());
    EIS_CHECK(VecRestoreArrayRead(vec, &read));
  }
  EIS_CHECK(VecDestroy(&vec));
  EIS_CHECK_MPI(MPI_Bcast(values.data(), int(size), MPI_DOUBLE, 0, comm));
  return values;
}

// Collective. The topology, coordinates and eis_ids of the file, each rank a slice of the
// points as DMPlexTopologyLoad deals them out; `ids` over `section`.
DM loadSlice(PetscViewer viewer, MPI_Comm comm, PetscSection* section, Vec* ids) {
  DM dm;
  EIS_CHECK(DMCreate(comm, &dm));
  EIS_CHECK(DMSetType(dm, DMPLEX));
  EIS_CHECK(PetscObjectSetName(reinterpret_cast<PetscObject>(dm), kTopology));
  EIS_CHECK(PetscViewerPushFormat(viewer, PETSC_VIEWER_HDF5_PETSC));
  PetscSF points, dofs;
  EIS_CHECK(DMPlexTopologyLoad(dm, viewer, &points));
  EIS_CHECK(DMPlexCoordinatesLoad(dm, viewer, points));
  DM sectionDm;
  EIS_CHECK(DMClone(dm, &sectionDm));
  EIS_CHECK(PetscObjectSetName(reinterpret_cast<PetscObject>(sectionDm), kIds));
  // DMPlexSectionLoad lays the file's section out on the DM's local section, which must not be
  // set up yet: the clone would otherwise bring one without dofs, and every dof would land on
  // offset 0.
  PetscSection empty;
  EIS_CHECK(PetscSectionCreate(comm, &empty));
  EIS_CHECK(DMSetLocalSection(sectionDm, empty));
  EIS_CHECK(PetscSectionDestroy(&empty));
  EIS_CHECK(DMPlexSectionLoad(dm, viewer, sectionDm, points, nullptr, &dofs));
  EIS_CHECK(DMCreateLocalVector(sectionDm, ids));
  EIS_CHECK(PetscObjectSetName(reinterpret_cast<PetscObject>(*ids), kIds));
  EIS_CHECK(DMPlexLocalVectorLoad(dm, viewer, sectionDm, dofs, *ids));
  EIS_CHECK(PetscViewerPopFormat(viewer));
  EIS_CHECK(DMGetLocalSection(sectionDm, section));
  EIS_CHECK(PetscObjectReference(reinterpret_cast<PetscObject>(*section)));
  EIS_CHECK(PetscSFDestroy(&dofs));
  EIS_CHECK(PetscSFDestroy(&points));
  EIS_CHECK(DMDestroy(&sectionDm));
  return dm;
}

// mesh.transform on the slice's rest positions, before they are distributed.
void transformCoordinates(DM dm, const std::vector<MeshTransform>& transforms) {
  if (transforms.empty()) return;
  Vec local;
  EIS_CHECK(DMGetCoordinatesLocal(dm, &local));
  PetscInt size;
  EIS_CHECK(VecGetLocalSize(local, &size));
  PetscScalar* xyz;
  EIS_CHECK(VecGetArray(local, &xyz));
  std::vector<std::array<double, 3>> points(std::size_t(size / 3));
  for (std::size_t i = 0; i < points.size(); ++i)
    points[i] = {xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]};
  for (const MeshTransform& transform : transforms) applyMeshTransform(transform, points);
  for (std::size_t i = 0; i < points.size(); ++i)
    for (int d = 0; d < 3; ++d) xyz[3 * i + d] = points[i][d];
  EIS_CHECK(VecRestoreArray(local, &xyz));
  EIS_CHECK(DMSetCoordinatesLocal(dm, local));
}

// Collective. PTScotch's partition of the slices' cells; each shared vertex goes to one of the
// ranks holding it as DMPlex's partition balance chooses (DMPlexSetPartitionBalance), instead of
// the highest. Moves `ids` with the points. Destroys `slice` unless there is one rank.
DM distributeSlices(DM slice, PetscSection* section, Vec* ids) {
  PetscPartitioner partitioner;
  EIS_CHECK(DMPlexGetPartitioner(slice, &partitioner));
  EIS_CHECK(PetscPartitionerSetType(partitioner, PETSCPARTITIONERPTSCOTCH));
  EIS_CHECK(DMPlexSetPartitionBalance(slice, PETSC_TRUE));
  DM dm = nullptr;
  PetscSF migration = nullptr;
  EIS_CHECK(DMPlexDistribute(slice, 0, &migration, &dm));
  if (!dm) return slice;
  PetscSection moved;
  Vec movedIds;
  EIS_CHECK(PetscSectionCreate(PetscObjectComm(reinterpret_cast<PetscObject>(dm)), &moved));
  EIS_CHECK(VecCreate(PETSC_COMM_SELF, &movedIds));
  EIS_CHECK(DMPlexDistributeField(slice, migration, *section, *ids, moved, movedIds));
  EIS_CHECK(PetscSFDestroy(&migration));
  EIS_CHECK(PetscSectionDestroy(section));
  EIS_CHECK(VecDestroy(ids));
  EIS_CHECK(DMDestroy(&slice));
  *section = moved;
  *ids = movedIds;
  return dm;
}

}  // namespace

Hdf5MeshSize checkHdf5Mesh(MPI_Comm comm, const std::string& path) {
  PetscViewer viewer = openMesh(comm, path);
  const Hdf5MeshSize size{readCount(viewer, kCells), readCount(viewer, kNodes)};
  EIS_CHECK(PetscViewerDestroy(&viewer));
  return size;
}

std::int64_t DistributedMesh::distributeHdf5(const Hdf5MeshInput& input) {
  PetscViewer viewer = openMesh(comm_, input.path);
  numGlobalVertices_ = readCount(viewer, kNodes);
  TriangleCells triangles;
  triangles.count = readCount(viewer, kTriangles);
  const std::int64_t unusedCount = readCount(viewer, kUnusedNodes);
  const std::int64_t unattachedCount = readCount(viewer, kUnattachedCount);
  const std::string groupTags = readText(viewer, kGroupTags);
  groupNames_ = hdf5_mesh::parseGroupNames(readText(viewer, kGroupNames));
  const std::vector<double> unused =
      readSmallVector(viewer, comm_, kUnused, unusedCount * std::int64_t(kUnusedFields));
  const std::vector<double> unattached = readSmallVector(
      viewer, comm_, kUnattached, unattachedCount * std::int64_t(kUnattachedFields));
  PetscSection section = nullptr;
  Vec ids = nullptr;
  DM slice;
  try {
    slice = loadSlice(viewer, comm_, &section, &ids);
  } catch (const Error& e) {
    EIS_CHECK(PetscViewerDestroy(&viewer));
    throw Error("mesh.file = " + input.path +
                ": not a mesh as mesh.convert writes it: " + e.what());
  }
  EIS_CHECK(PetscViewerDestroy(&viewer));
  transformCoordinates(slice, input.transforms);
  dm_ = distributeSlices(slice, &section, &ids);

  // Unused nodes stay on rank 0, as on the Gmsh path; unattached triangles are on every rank.
  std::vector<std::array<double, 3>> unusedPoints;
  for (std::size_t i = 0; i < unused.size() && commRank(comm_) == 0; i += kUnusedFields) {
    unusedNodeIds_.push_back(std::int64_t(unused[i]));
    unusedPoints.push_back({unused[i + 1], unused[i + 2], unused[i + 3]});
  }
  for (const MeshTransform& transform : input.transforms)
    applyMeshTransform(transform, unusedPoints);
  unusedNodeCoords_ = std::move(unusedPoints);
  for (std::size_t i = 0; i < unattached.size(); i += kUnattachedFields) {
    for (std::size_t f = 0; f < 3; ++f)
      triangles.unattached.push_back(std::int64_t(unattached[i + f]));
    std::vector<std::array<double, 3>> corners(3);
    for (int j = 0; j < 3; ++j)
      for (int d = 0; d < 3; ++d) corners[j][d] = unattached[i + 3 + 3 * j + d];
    for (const MeshTransform& transform : input.transforms) applyMeshTransform(transform, corners);
    for (const auto& corner : corners)
      triangles.unattachedNodes.insert(triangles.unattachedNodes.end(), corner.begin(),
                                       corner.end());
  }
  readIds(section, ids, groupTags, triangles);
  EIS_CHECK(PetscSectionDestroy(&section));
  EIS_CHECK(VecDestroy(&ids));
  return -1;
}

// The eis_ids of this rank's points: node ids and groups of the vertices; input ids, tags,
// vertices in the file's order and triangles of the cells.
void DistributedMesh::readIds(PetscSection section, Vec ids, const std::string& groupTags,
                              TriangleCells& triangles) {
  PetscInt cStart, cEnd, vStart, vEnd;
  EIS_CHECK(DMPlexGetHeightStratum(dm_, 0, &cStart, &cEnd));
  EIS_CHECK(DMPlexGetDepthStratum(dm_, 0, &vStart, &vEnd));
  const PetscScalar* values;
  EIS_CHECK(VecGetArrayRead(ids, &values));
  auto dofs = [&](PetscInt p, PetscInt& offset) {
    PetscInt count;
    EIS_CHECK(PetscSectionGetDof(section, p, &count));
    EIS_CHECK(PetscSectionGetOffset(section, p, &offset));
    return count;
  };
  for (const char* tag = groupTags.c_str(); *tag;) {
    char* end;
    groups_.emplace_back(int(std::strtol(tag, &end, 10)), std::vector<PetscInt>{});
    tag = end;
  }
  std::vector<std::pair<std::int64_t, PetscInt>> byNodeId;
  nodeIds_.resize(std::size_t(vEnd - vStart));
  for (PetscInt v = vStart; v < vEnd; ++v) {
    PetscInt offset;
    const PetscInt count = dofs(v, offset);
    nodeIds_[v - vStart] = std::int64_t(values[offset]);
    byNodeId.emplace_back(nodeIds_[v - vStart], v - vStart);
    for (PetscInt k = 1; k < count; ++k)
      for (auto& [tag, members] : groups_)
        if (tag == int(values[offset + k])) members.push_back(v - vStart);
  }
  std::sort(byNodeId.begin(), byNodeId.end());
  auto localVertex = [&](double nodeId) {
    return std::lower_bound(byNodeId.begin(), byNodeId.end(),
                            std::make_pair(std::int64_t(nodeId), PetscInt(-1)))
        ->second;
  };
  for (PetscInt c = cStart; c < cEnd; ++c) {
    PetscInt offset;
    const PetscInt count = dofs(c, offset);
    const PetscScalar* cell = values + offset;
    inputCellIds_.push_back(std::int64_t(cell[0]));
    cellTags_.push_back(int(cell[1]));
    cells_.push_back(
        {localVertex(cell[2]), localVertex(cell[3]), localVertex(cell[4]), localVertex(cell[5])});
    for (PetscInt t = kCellFields; t < count; t += kTriangleFields)
      triangles.attached.insert(
          triangles.attached.end(),
          {std::int64_t(cell[t]), std::int64_t(cell[t + 1]), std::int64_t(cell[0]),
           std::int64_t(cell[t + 2]), std::int64_t(cell[t + 3]), std::int64_t(cell[t + 4])});
  }
  EIS_CHECK(VecRestoreArrayRead(ids, &values));
  std::vector<std::array<std::int64_t, 6>> attached(triangles.attached.size() / 6);
  for (std::size_t i = 0; i < attached.size(); ++i)
    std::copy_n(triangles.attached.begin() + 6 * i, 6, attached[i].begin());
  std::sort(attached.begin(), attached.end());
  triangles.attached.clear();
  for (const auto& entry : attached)
    triangles.attached.insert(triangles.attached.end(), entry.begin(), entry.end());
  surface_ = placeSurfaceTriangles(triangles, inputCellIds_, cells_, nodeIds_);
}

}  // namespace eis
