// The parallel path into DistributedMesh: every rank reads a slice of a converted mesh
// (eis/mesh/hdf5_mesh.hpp), PTScotch partitions the cells across all ranks (on the dual graph
// that parallel_partition.cpp builds), DMPlexDistribute moves them, and DMPlexDistributeField moves
// each point's input ids with them. No rank holds more than its slice and then its part.
#include <petscdmplex.h>
#include <petscpartitioner.h>
#include <petscsf.h>
#include <petscviewerhdf5.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>

#include "eis/core/error.hpp"
#include "eis/core/input_file.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/mesh/hdf5_mesh.hpp"
#include "hdf5_mesh_names.hpp"
#include "parallel_partition.hpp"
#include "parallel_vertex_owners.hpp"

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

// This rank's run [start, end) of the file's points (the cells, then the vertices): an even share
// of the weight, a vertex weighing a quarter of a cell (a cell costs the dual graph and the slice's
// DMPlex far more than a vertex costs).
std::pair<PetscInt, PetscInt> pointShare(MPI_Comm comm, PetscInt numCells, PetscInt numVertices) {
  const int rank = commRank(comm), size = commSize(comm);
  const double weight = double(numCells) + double(numVertices) / 4;
  auto boundary = [&](int r) {
    if (r == size) return numCells + numVertices;
    const double target = weight * r / size;
    return target <= double(numCells)
               ? PetscInt(target)
               : std::min(numCells + numVertices,
                          numCells + PetscInt((target - double(numCells)) * 4));
  };
  return {boundary(rank), boundary(rank + 1)};
}

// Collective. This rank's `count` rows of the dataset group/name, whose rows the ranks' counts
// tile in rank order; `width` numbers per row.
std::vector<double> readRows(PetscViewer viewer, MPI_Comm comm, const char* group, const char* name,
                             PetscInt count, PetscInt width) {
  Vec vec;
  EIS_CHECK(VecCreate(comm, &vec));
  EIS_CHECK(VecSetSizes(vec, count * width, PETSC_DETERMINE));
  EIS_CHECK(VecSetBlockSize(vec, width));
  EIS_CHECK(VecSetType(vec, VECSTANDARD));
  EIS_CHECK(PetscObjectSetName(reinterpret_cast<PetscObject>(vec), name));
  EIS_CHECK(PetscViewerHDF5PushGroup(viewer, group));
  EIS_CHECK(VecLoad(vec, viewer));
  EIS_CHECK(PetscViewerHDF5PopGroup(viewer));
  const PetscScalar* read;
  EIS_CHECK(VecGetArrayRead(vec, &read));
  std::vector<double> rows(read, read + count * width);
  EIS_CHECK(VecRestoreArrayRead(vec, &read));
  EIS_CHECK(VecDestroy(&vec));
  return rows;
}

// The file's cell type: eis_cell_type, or without it the vertices per cell, 4 (tetrahedra) or 8
// (hexahedra); a file with neither holds tetrahedra.
CellType readCellType(PetscViewer viewer) {
  PetscBool has = PETSC_FALSE;
  EIS_CHECK(PetscViewerHDF5HasAttribute(viewer, "/", kCellCorners, &has));
  PetscInt corners = 4;
  if (has)
    EIS_CHECK(
        PetscViewerHDF5ReadAttribute(viewer, "/", kCellCorners, PETSC_INT, nullptr, &corners));
  EIS_CHECK(PetscViewerHDF5HasAttribute(viewer, "/", kCellType, &has));
  PetscInt type = corners == 8 ? PetscInt(CellType::Hexahedron) : PetscInt(CellType::Tetrahedron);
  if (has)
    EIS_CHECK(PetscViewerHDF5ReadAttribute(viewer, "/", kCellType, PETSC_INT, nullptr, &type));
  const PetscInt types = PetscInt(std::size(kCellTypeFacts));
  if (type < 0 || type >= types || cornersOf(CellType(type)) != corners)
    throw Error(std::string(kCellType) + " = " + std::to_string(type) + " and " + kCellCorners +
                " = " + std::to_string(corners) + " name no cell type");
  return CellType(type);
}

// Collective. The file's mesh dealt out in slices: PETSc 3.18's DMPlexTopologyLoad reads the
// whole topology on rank 0 ("force serial load"), so the datasets that a serial DMPlexTopologyView,
// DMPlexCoordinatesView and DMPlexSectionView wrote (points in the serial order: the cells, then
// the vertices) are read here a contiguous run of points per rank. Each rank creates its cells
// with DMPlexCreateFromCellListParallelPetsc, which fetches the vertices they use; `ids` over
// `section` holds the eis_ids of the slice's cells and of those vertices. Cells of `type`.
DM loadSlice(PetscViewer viewer, MPI_Comm comm, PetscInt numCells, PetscInt numVertices,
             CellType type, PetscSection* section, Vec* ids,
             mesh_detail::LocalPartition* partition) {
  const int corners = cornersOf(type);
  const auto [pStart, pEnd] = pointShare(comm, numCells, numVertices);
  const PetscInt cStart = std::min(pStart, numCells), cEnd = std::min(pEnd, numCells);
  const PetscInt myCells = cEnd - cStart, myVertices = (pEnd - pStart) - myCells;
  const std::vector<double> coneSizes =
      readRows(viewer, comm, "/topology", "cones", pEnd - pStart, 1);
  const std::vector<double> cones =
      readRows(viewer, comm, "/topology", "cells", corners * myCells, 1);
  bool valid = true;
  for (PetscInt p = pStart; p < pEnd; ++p)
    valid = valid && coneSizes[p - pStart] == (p < numCells ? corners : 0);
  std::vector<PetscInt> cells(cones.size());
  for (std::size_t i = 0; i < cones.size(); ++i) {
    cells[i] = PetscInt(cones[i]) - numCells;
    valid = valid && cells[i] >= 0 && cells[i] < numVertices;
  }
  if (anyRank(!valid, comm))
    throw Error("its topology is not cells of " + std::to_string(corners) +
                " vertices, then vertices");
  const std::vector<double> coords = readRows(viewer, comm, "/geometry", "vertices", myVertices, 3);
  const std::string idsGroup = std::string("/topologies/") + kTopology + "/dms/" + kIds;
  const std::vector<double> dofs =
      readRows(viewer, comm, (idsGroup + "/section").c_str(), "atlasDof", pEnd - pStart, 1);
  PetscInt myValues = 0;
  for (double d : dofs) myValues += PetscInt(d);
  const std::vector<double> values =
      readRows(viewer, comm, (idsGroup + "/vecs/" + kIds).c_str(), kIds, myValues, 1);

  *partition = mesh_detail::partitionCellsInParallel(comm, cells, type);
  DM dm;
  PetscSF vertexSF;
  EIS_CHECK(DMPlexCreateFromCellListParallelPetsc(comm, dimensionOf(type), myCells, myVertices,
                                                  numVertices, corners, PETSC_FALSE, cells.data(),
                                                  3, coords.data(), &vertexSF, nullptr, &dm));
  EIS_CHECK(PetscObjectSetName(reinterpret_cast<PetscObject>(dm), kTopology));

  // The vertices' eis_ids go from the ranks that read them to the ranks whose cells use them.
  PetscSection owned, used;
  EIS_CHECK(PetscSectionCreate(comm, &owned));
  EIS_CHECK(PetscSectionSetChart(owned, 0, myVertices));
  for (PetscInt v = 0; v < myVertices; ++v)
    EIS_CHECK(PetscSectionSetDof(owned, v, PetscInt(dofs[myCells + v])));
  EIS_CHECK(PetscSectionSetUp(owned));
  EIS_CHECK(PetscSectionCreate(comm, &used));
  PetscInt* remoteOffsets = nullptr;
  EIS_CHECK(PetscSFDistributeSection(vertexSF, owned, &remoteOffsets, used));
  PetscSF valuesSF;
  EIS_CHECK(PetscSFCreateSectionSF(vertexSF, owned, remoteOffsets, used, &valuesSF));
  EIS_CHECK(PetscFree(remoteOffsets));
  PetscInt usedStart, usedEnd, usedValues;
  EIS_CHECK(PetscSectionGetChart(used, &usedStart, &usedEnd));
  EIS_CHECK(PetscSectionGetStorageSize(used, &usedValues));
  PetscInt cellValues = 0;
  for (PetscInt c = 0; c < myCells; ++c) cellValues += PetscInt(dofs[c]);

  EIS_CHECK(PetscSectionCreate(comm, section));
  EIS_CHECK(PetscSectionSetChart(*section, 0, myCells + usedEnd));
  for (PetscInt c = 0; c < myCells; ++c)
    EIS_CHECK(PetscSectionSetDof(*section, c, PetscInt(dofs[c])));
  for (PetscInt v = usedStart; v < usedEnd; ++v) {
    PetscInt count;
    EIS_CHECK(PetscSectionGetDof(used, v, &count));
    EIS_CHECK(PetscSectionSetDof(*section, myCells + v, count));
  }
  EIS_CHECK(PetscSectionSetUp(*section));
  EIS_CHECK(VecCreateSeq(PETSC_COMM_SELF, cellValues + usedValues, ids));
  PetscScalar* local;
  EIS_CHECK(VecGetArray(*ids, &local));
  std::copy(values.begin(), values.begin() + cellValues, local);
  EIS_CHECK(PetscSFBcastBegin(valuesSF, MPIU_SCALAR, values.data() + cellValues, local + cellValues,
                              MPI_REPLACE));
  EIS_CHECK(PetscSFBcastEnd(valuesSF, MPIU_SCALAR, values.data() + cellValues, local + cellValues,
                            MPI_REPLACE));
  EIS_CHECK(VecRestoreArray(*ids, &local));
  EIS_CHECK(PetscSFDestroy(&valuesSF));
  EIS_CHECK(PetscSFDestroy(&vertexSF));
  EIS_CHECK(PetscSectionDestroy(&used));
  EIS_CHECK(PetscSectionDestroy(&owned));
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

// Collective. Distributes the slices' cells as `partition` says (through the shell partitioner);
// each shared vertex goes to one of the ranks holding it as DMPlex's partition balance chooses
// (DMPlexSetPartitionBalance), instead of the highest: a start nearer the balance that
// balancedVertexOwnersInParallel then reaches. Moves `ids` with the points. Destroys
// `slice` unless there is one rank.
DM distributeSlices(DM slice, const mesh_detail::LocalPartition& partition, PetscSection* section,
                    Vec* ids) {
  PetscPartitioner partitioner;
  EIS_CHECK(DMPlexGetPartitioner(slice, &partitioner));
  EIS_CHECK(PetscPartitionerSetType(partitioner, PETSCPARTITIONERSHELL));
  EIS_CHECK(PetscPartitionerShellSetPartition(partitioner, PetscInt(partition.sizes.size()),
                                              partition.sizes.data(), partition.points.data()));
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
  mesh_detail::LocalPartition partition;
  CellType type = CellType::Tetrahedron;
  try {
    type = readCellType(viewer);
    slice = loadSlice(viewer, comm_, PetscInt(readCount(viewer, kCells)),
                      PetscInt(numGlobalVertices_), type, &section, &ids, &partition);
  } catch (const Error& e) {
    EIS_CHECK(PetscViewerDestroy(&viewer));
    throw Error("mesh.file = " + input.path +
                ": not a mesh as mesh.convert writes it: " + e.what());
  }
  EIS_CHECK(PetscViewerDestroy(&viewer));
  for (const MeshTransform& transform : input.transforms)
    if (transform.kind == MeshTransform::Kind::kScale && dimensionOf(type) == 3 &&
        std::count(transform.values.begin(), transform.values.end(), 0.0) > 0) {
      EIS_CHECK(DMDestroy(&slice));
      EIS_CHECK(PetscSectionDestroy(&section));
      EIS_CHECK(VecDestroy(&ids));
      throw Error("mesh.transform: a scale factor of 0 flattens the mesh's " + pluralNameOf(type));
    }
  transformCoordinates(slice, input.transforms);
  dm_ = distributeSlices(slice, partition, &section, &ids);
  // PTScotch balances cells; the unknowns are the owned vertices, so even those out too.
  mesh_detail::balanceVertexOwners(dm_);

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
  cells_ = Cells(type);
  readIds(section, ids, groupTags, triangles);
  EIS_CHECK(PetscSectionDestroy(&section));
  EIS_CHECK(VecDestroy(&ids));
  return -1;
}

// The eis_ids of this rank's points: node ids and groups of the vertices; input ids, tags,
// vertices in the file's order (cells_ of the file's type) and triangles of the cells.
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
    const PetscInt corners = cells_.corners();
    std::array<PetscInt, 8> vertices{};
    for (PetscInt k = 0; k < corners; ++k) vertices[k] = localVertex(cell[kCellHeadFields + k]);
    cells_.push_back(CellVertices<const PetscInt>(vertices.data(), int(corners)));
    for (PetscInt t = kCellHeadFields + corners; t < count; t += kTriangleFields)
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
