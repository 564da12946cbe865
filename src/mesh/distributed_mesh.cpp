#include "eis/mesh/distributed_mesh.hpp"

#include <petscpartitioner.h>
#include <petscsf.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>

#include "eis/core/error.hpp"
#include "eis/mesh/metis_partition.hpp"
#include "eis/mesh/surface_triangles.hpp"
#include "eis/mesh/vertex_owners.hpp"
#include "hdf5_mesh_names.hpp"
#include "plex_points.hpp"

namespace eis {

namespace {

using mesh_detail::ownedMask;
using mesh_detail::vertexCoordinates;

// What rank 0 knows about each point of the serial DMPlex, carried to its new owners through the
// migration SF. For a cell: id = its serial number, value = its physical tag, vertices = its
// vertices in file order (serial DMPlex numbers). For a vertex: id = its serial DMPlex number,
// value = its node id in the input file, owner = the rank balancedVertexOwners gives it.
struct PointRecord {
  PetscInt id = -1, value = 0, vertices[8] = {-1, -1, -1, -1, -1, -1, -1, -1}, owner = -1;
};

// Rank 0's whole mesh, in the form DMPlex and its shell partitioner take it. The other ranks hold
// an empty one (no cells, no points, 0 cells for every rank): they join the collective calls with
// nothing to give.
struct SerialPlan {
  CellType type = CellType::Tetrahedron;
  std::vector<PetscInt> cells;    // corners serial DMPlex vertex numbers per cell, DMPlex's order
  std::vector<PetscReal> coords;  // 3 per serial DMPlex vertex
  // METIS's partition as the shell partitioner takes it: the number of cells of each rank, and
  // the cells listed rank by rank.
  std::vector<PetscInt> partSizes, partPoints;
  std::vector<PointRecord> records;  // per serial DMPlex point: the cells, then the vertices
  std::vector<std::int64_t> unusedNodeIds;
  std::int64_t edgeCut = 0;
};

// DMPlexDistribute drops what the serial mesh knew beyond its topology and coordinates (input
// node ids, tags, the file's vertex order of each cell), so each point's record says it, with
// the owner chosen for each vertex.
std::vector<PointRecord> pointRecords(const SerialMesh& serial, const CompactMesh& mesh,
                                      const std::vector<idx_t>& owners) {
  const PetscInt numCells = PetscInt(mesh.numCells());
  std::vector<PointRecord> records(numCells + mesh.nodeIds.size());
  // A body of points: each DMPlex point is both the cell and its vertex, one record for both;
  // its tag is 0 (an inline mesh's), its vertex itself.
  if (mesh.type == CellType::Point) {
    records.resize(mesh.nodeIds.size());
    for (std::size_t v = 0; v < mesh.nodeIds.size(); ++v)
      records[v] = {PetscInt(v), PetscInt(mesh.nodeIds[v]), {PetscInt(v)}, owners[v]};
    return records;
  }
  for (PetscInt c = 0; c < numCells; ++c) {
    records[c].id = c;
    records[c].value = serial.cellTags.empty() ? 0 : serial.cellTags[c];
    const int corners = cornersOf(mesh.type);
    for (int k = 0; k < corners; ++k)
      records[c].vertices[k] = numCells + mesh.cells[std::size_t(corners) * c + k];
  }
  for (std::size_t v = 0; v < mesh.nodeIds.size(); ++v) {
    records[numCells + v].id = numCells + PetscInt(v);
    records[numCells + v].value = PetscInt(mesh.nodeIds[v]);
    records[numCells + v].owner = owners[v];
  }
  return records;
}

// Rank 0 holds the input mesh, so it alone compacts it, partitions it with METIS and prepares
// what the later stages send. The shell partitioner wants the cells grouped by rank, in their
// serial order within a rank.
SerialPlan makePlan(const SerialMesh& serial, int size, const std::vector<int>* cellParts) {
  CompactMesh mesh = compactMesh(serial);
  const CellPartition partition =
      cellParts ? CellPartition{std::vector<idx_t>(cellParts->begin(), cellParts->end()), -1}
                : partitionCells(mesh, size);
  SerialPlan plan;
  plan.partSizes.assign(size, 0);
  for (auto p : partition.part) ++plan.partSizes[p];
  plan.partPoints.resize(partition.part.size());
  std::iota(plan.partPoints.begin(), plan.partPoints.end(), 0);
  std::stable_sort(plan.partPoints.begin(), plan.partPoints.end(),
                   [&](PetscInt a, PetscInt b) { return partition.part[a] < partition.part[b]; });
  plan.records = pointRecords(serial, mesh, balancedVertexOwners(mesh, partition.part, size));
  plan.type = mesh.type;
  plan.cells.assign(mesh.cells.begin(), mesh.cells.end());
  // DMPlex orients a hexahedron's first face inward: VTK's and SOFA's vertices 1 and 3 swapped
  // (PETSc's DMPlexInvertCell). Only DMPlex sees this order; the records keep the file's.
  if (plan.type == CellType::Hexahedron)
    for (std::size_t c = 0; c < plan.cells.size(); c += 8)
      std::swap(plan.cells[c + 1], plan.cells[c + 3]);
  for (auto id : mesh.nodeIds)
    plan.coords.insert(plan.coords.end(), serial.nodes[id].begin(), serial.nodes[id].end());
  plan.unusedNodeIds = std::move(mesh.unusedNodeIds);
  plan.edgeCut = partition.edgeCut;
  return plan;
}

// Collective. A failure on rank 0 (a mesh too big for METIS, fewer tetrahedra than ranks) is
// raised on every rank, so that no rank is left waiting in DMPlex's collective calls.
SerialPlan planOnRankZero(MPI_Comm comm, const SerialMesh& serial,
                          const std::vector<int>* cellParts) {
  const int size = commSize(comm);
  SerialPlan plan;
  plan.partSizes.assign(size, 0);
  std::string failure;
  if (commRank(comm) == 0) {
    try {
      plan = makePlan(serial, size, cellParts);
    } catch (const Error& e) {
      failure = e.what();
    }
  }
  throwIfAnyRankFailed(failure, comm);
  return plan;
}

// Collective. DMPlexDistribute needs the whole mesh as one DMPlex first; it lives on rank 0 (the
// others create an empty one). Releases the plan's cells and coordinates, which DMPlex has copied.
DM createSerialPlex(MPI_Comm comm, SerialPlan& plan) {
  const int corners = cornersOf(plan.type);
  const PetscInt numCells = PetscInt(plan.cells.size() / corners);
  const PetscInt numVertices = PetscInt(plan.coords.size() / 3);
  DM serialDm = nullptr;
  if (plan.type == CellType::Point) {
    // A body of points is a DMPlex of dimension 0: vertices alone, with no cones.
    const std::vector<PetscInt> noCones(std::size_t(numVertices) + 1, 0);
    EIS_CHECK(DMCreate(comm, &serialDm));
    EIS_CHECK(DMSetType(serialDm, DMPLEX));
    EIS_CHECK(DMSetDimension(serialDm, 0));
    EIS_CHECK(DMSetCoordinateDim(serialDm, 3));
    EIS_CHECK(DMPlexCreateFromDAG(serialDm, 0, &numVertices, noCones.data(), noCones.data(),
                                  noCones.data(), plan.coords.data()));
    plan.cells = {};
    plan.coords = {};
    return serialDm;
  }
  // Triangles, quadrangles and edges are a DMPlex of dimension 2 or 1 in 3D coordinates.
  EIS_CHECK(DMPlexCreateFromCellListPetsc(comm, dimensionOf(plan.type), numCells, numVertices,
                                          corners, PETSC_FALSE, plan.cells.data(), 3,
                                          plan.coords.data(), &serialDm));
  plan.cells = {};
  plan.coords = {};
  return serialDm;
}

// Collective. The shell partitioner makes DMPlexDistribute use METIS's partition as it is (METIS
// ran on rank 0 with our options, the partition that partition-surface measures too). Destroys
// `serialDm`; returns the distributed DM and the migration SF that moved the points.
DM distributeWithShell(DM serialDm, const SerialPlan& plan, int size, PetscSF* migration) {
  PetscPartitioner partitioner;
  EIS_CHECK(DMPlexGetPartitioner(serialDm, &partitioner));
  EIS_CHECK(PetscPartitionerSetType(partitioner, PETSCPARTITIONERSHELL));
  EIS_CHECK(PetscPartitionerShellSetPartition(partitioner, size, plan.partSizes.data(),
                                              plan.partPoints.data()));
  DM dm = nullptr;
  *migration = nullptr;
  EIS_CHECK(DMPlexDistribute(serialDm, 0, migration, &dm));
  EIS_CHECK(DMDestroy(&serialDm));
  return dm;
}

// Collective. Sends each serial point's record to the ranks that now hold the point, along the
// migration SF, so that every local point knows its input ids.
std::vector<PointRecord> migrateRecords(DM dm, PetscSF migration,
                                        const std::vector<PointRecord>& roots) {
  PetscInt pStart, pEnd;
  EIS_CHECK(DMPlexGetChart(dm, &pStart, &pEnd));
  std::vector<PointRecord> records(pEnd - pStart);
  MPI_Datatype type;
  EIS_CHECK_MPI(MPI_Type_contiguous(int(sizeof(PointRecord) / sizeof(PetscInt)), MPIU_INT, &type));
  EIS_CHECK_MPI(MPI_Type_commit(&type));
  EIS_CHECK(PetscSFBcastBegin(migration, type, roots.data(), records.data(), MPI_REPLACE));
  EIS_CHECK(PetscSFBcastEnd(migration, type, roots.data(), records.data(), MPI_REPLACE));
  EIS_CHECK_MPI(MPI_Type_free(&type));
  return records;
}

// What the hot loops read instead of asking DMPlex: per local vertex its input node id, per local
// cell its local vertices in the file's order (DMPlex reorders them; SOFA's corotational frame
// depends on the order), its tag and its input cell.
struct LocalArrays {
  explicit LocalArrays(CellType type) : cells(type) {}
  std::vector<std::int64_t> nodeIds;
  Cells cells;
  std::vector<int> cellTags;
  std::vector<std::int64_t> inputCellIds;
};

LocalArrays localArrays(DM dm, CellType type, const std::vector<PointRecord>& records) {
  PetscInt cStart, cEnd, vStart, vEnd;
  EIS_CHECK(DMPlexGetHeightStratum(dm, 0, &cStart, &cEnd));
  EIS_CHECK(DMPlexGetDepthStratum(dm, 0, &vStart, &vEnd));
  LocalArrays local(type);
  // Serial DMPlex vertex number -> local vertex index, to put each cell back in file order.
  std::vector<std::pair<PetscInt, PetscInt>> serialToLocal;
  local.nodeIds.resize(vEnd - vStart);
  for (PetscInt v = vStart; v < vEnd; ++v) {
    local.nodeIds[v - vStart] = records[v].value;
    serialToLocal.emplace_back(records[v].id, v - vStart);
  }
  std::sort(serialToLocal.begin(), serialToLocal.end());
  auto localVertex = [&](PetscInt serialVertex) {
    auto it = std::lower_bound(serialToLocal.begin(), serialToLocal.end(),
                               std::make_pair(serialVertex, PetscInt(-1)));
    return it->second;
  };
  local.cells.resize(cEnd - cStart);
  local.cellTags.resize(cEnd - cStart);
  local.inputCellIds.resize(cEnd - cStart);
  for (PetscInt c = cStart; c < cEnd; ++c) {
    for (int k = 0; k < cornersOf(type); ++k)
      local.cells[c - cStart][k] = localVertex(records[c].vertices[k]);
    local.cellTags[c - cStart] = type == CellType::Point ? 0 : int(records[c].value);
    local.inputCellIds[c - cStart] = records[c].id;
  }
  return local;
}

// Collective. Physical groups travel as lists of input node ids (rank 0 reads them); each rank
// keeps the local vertices among them, so that constraints can find their nodes.
std::vector<std::pair<int, std::vector<PetscInt>>> shareGroupMembers(
    MPI_Comm comm, const SerialMesh& serial, const std::vector<std::int64_t>& nodeIds) {
  std::vector<std::int64_t> packed;  // tag, count, ids..., per group
  if (commRank(comm) == 0)
    for (const auto& [tag, ids] : serial.groupNodes) {
      packed.push_back(tag);
      packed.push_back(std::int64_t(ids.size()));
      packed.insert(packed.end(), ids.begin(), ids.end());
    }
  std::int64_t packedSize = std::int64_t(packed.size());
  EIS_CHECK_MPI(MPI_Bcast(&packedSize, 1, MPI_INT64_T, 0, comm));
  packed.resize(packedSize);
  EIS_CHECK_MPI(MPI_Bcast(packed.data(), int(packedSize), MPI_INT64_T, 0, comm));
  std::vector<std::pair<int, std::vector<PetscInt>>> groups;
  for (std::size_t i = 0; i < packed.size();) {
    const int tag = int(packed[i]);
    const auto begin = packed.begin() + std::ptrdiff_t(i + 2);
    const auto end = begin + std::ptrdiff_t(packed[i + 1]);
    std::vector<PetscInt> members;
    for (PetscInt v = 0; v < PetscInt(nodeIds.size()); ++v)
      if (std::binary_search(begin, end, nodeIds[v])) members.push_back(v);
    groups.emplace_back(tag, std::move(members));
    i += 2 + std::size_t(packed[i + 1]);
  }
  return groups;
}

// Collective. Every rank needs the group names that rank 0 read, to resolve a constraint that
// names a group, and to give the same verdict everywhere when it names none.
std::map<std::string, int> shareGroupNames(MPI_Comm comm, const SerialMesh& serial) {
  std::string names = commRank(comm) == 0 ? hdf5_mesh::packGroupNames(serial.groupNames) : "";
  int namesSize = int(names.size());
  EIS_CHECK_MPI(MPI_Bcast(&namesSize, 1, MPI_INT, 0, comm));
  names.resize(namesSize);
  EIS_CHECK_MPI(MPI_Bcast(names.data(), namesSize, MPI_CHAR, 0, comm));
  return hdf5_mesh::parseGroupNames(names);
}

}  // namespace

namespace hdf5_mesh {

std::string packGroupNames(const std::map<std::string, int>& groupNames) {
  std::string names;
  for (const auto& [name, tag] : groupNames)
    names += std::to_string(tag) + ' ' + std::to_string(name.size()) + ' ' + name;
  return names;
}

std::map<std::string, int> parseGroupNames(const std::string& names) {
  std::map<std::string, int> groupNames;
  for (std::size_t start = 0; start < names.size();) {
    const std::size_t afterTag = names.find(' ', start),
                      afterLength = names.find(' ', afterTag + 1);
    const int tag = std::stoi(names.substr(start, afterTag - start));
    const std::size_t length = std::stoul(names.substr(afterTag + 1, afterLength - afterTag - 1));
    groupNames[names.substr(afterLength + 1, length)] = tag;
    start = afterLength + 1 + length;
  }
  return groupNames;
}

}  // namespace hdf5_mesh

DistributedMesh::DistributedMesh(MPI_Comm comm, const SerialMesh& serial, int dofsPerNode,
                                 int refinements, const std::vector<int>* cellParts)
    : comm_(comm), dofsPerNode_(dofsPerNode) {
  finishSetUp(distribute(serial, cellParts), refinements);
}

DistributedMesh::DistributedMesh(MPI_Comm comm, const Hdf5MeshInput& input, int dofsPerNode,
                                 int refinements)
    : comm_(comm), dofsPerNode_(dofsPerNode) {
  finishSetUp(distributeHdf5(input), refinements);
}

void DistributedMesh::finishSetUp(std::int64_t coarseEdgeCut, int refinements) {
  refine(refinements);
  layOutUnknowns();
  // Each refinement cuts every face in four, the faces between parts too.
  std::int64_t edgeCut = coarseEdgeCut;
  for (int r = 0; r < refinements && edgeCut > 0; ++r) edgeCut *= 4;
  computePartitionReport(edgeCut);
}

// A destructor must not throw, so DMDestroy's error code is not checked here.
DistributedMesh::~DistributedMesh() {
  DMDestroy(&dm_);
}

std::int64_t DistributedMesh::distribute(const SerialMesh& serial,
                                         const std::vector<int>* cellParts) {
  const int size = commSize(comm_);
  SerialPlan plan = planOnRankZero(comm_, serial, cellParts);
  // Only rank 0 read the mesh: every rank learns its cell type.
  int type = int(plan.type);
  EIS_CHECK_MPI(MPI_Bcast(&type, 1, MPI_INT, 0, comm_));
  plan.type = CellType(type);
  for (auto id : plan.unusedNodeIds) unusedNodeCoords_.push_back(serial.nodes[id]);
  unusedNodeIds_ = std::move(plan.unusedNodeIds);
  numGlobalVertices_ = std::int64_t(plan.coords.size() / 3);
  DM serialDm = createSerialPlex(comm_, plan);
  EIS_CHECK_MPI(MPI_Bcast(&numGlobalVertices_, 1, MPI_INT64_T, 0, comm_));

  std::vector<PointRecord> records;
  if (size == 1) {  // the serial DMPlex is the mesh, and every record is where it belongs
    dm_ = serialDm;
    records = std::move(plan.records);
  } else {
    PetscSF migration = nullptr;
    dm_ = distributeWithShell(serialDm, plan, size, &migration);
    records = migrateRecords(dm_, migration, plan.records);
    EIS_CHECK(PetscSFDestroy(&migration));
    // DMPlexDistribute gives each shared vertex to the highest rank holding it; the owners rank 0
    // chose balance the ranks' unknowns instead.
    PetscInt vStart, vEnd;
    EIS_CHECK(DMPlexGetDepthStratum(dm_, 0, &vStart, &vEnd));
    std::vector<PetscInt> owners(vEnd - vStart);
    for (PetscInt v = vStart; v < vEnd; ++v) owners[v - vStart] = records[v].owner;
    mesh_detail::setVertexOwners(dm_, vStart, vEnd, owners);
  }

  LocalArrays local = localArrays(dm_, plan.type, records);
  nodeIds_ = std::move(local.nodeIds);
  cells_ = std::move(local.cells);
  cellTags_ = std::move(local.cellTags);
  inputCellIds_ = std::move(local.inputCellIds);
  surface_ = distributeSurfaceTriangles(comm_, serial, inputCellIds_, cells_, nodeIds_);
  groups_ = shareGroupMembers(comm_, serial, nodeIds_);
  groupNames_ = shareGroupNames(comm_, serial);
  return plan.edgeCut;
}

void DistributedMesh::layOutUnknowns() {
  PetscInt vStart, vEnd;
  EIS_CHECK(DMPlexGetDepthStratum(dm_, 0, &vStart, &vEnd));
  PetscSection section;
  EIS_CHECK(PetscSectionCreate(comm_, &section));
  EIS_CHECK(PetscSectionSetChart(section, vStart, vEnd));
  for (PetscInt v = vStart; v < vEnd; ++v) EIS_CHECK(PetscSectionSetDof(section, v, dofsPerNode_));
  EIS_CHECK(PetscSectionSetUp(section));
  EIS_CHECK(DMSetLocalSection(dm_, section));
  EIS_CHECK(PetscSectionDestroy(&section));

  PetscSection global;
  EIS_CHECK(DMGetGlobalSection(dm_, &global));
  Vec probe;
  EIS_CHECK(DMGetGlobalVector(dm_, &probe));
  PetscInt rowStart, rowEnd;
  EIS_CHECK(VecGetOwnershipRange(probe, &rowStart, &rowEnd));
  EIS_CHECK(DMRestoreGlobalVector(dm_, &probe));

  ownedOffsets_.assign(vEnd - vStart, -1);
  owned_.assign(vEnd - vStart, 0);
  for (PetscInt v = vStart; v < vEnd; ++v) {
    PetscInt offset;
    EIS_CHECK(PetscSectionGetOffset(global, v, &offset));
    if (offset >= 0) {
      ownedOffsets_[v - vStart] = offset - rowStart;
      owned_[v - vStart] = 1;
    }
  }

  restCoords_ = vertexCoordinates(dm_, vStart, vEnd);
}

void DistributedMesh::computePartitionReport(std::int64_t edgeCut) {
  PetscInt vStart, vEnd;
  EIS_CHECK(DMPlexGetDepthStratum(dm_, 0, &vStart, &vEnd));
  const auto owned = ownedMask(dm_, vStart, vEnd);
  const std::int64_t ghosts = std::count(owned.begin(), owned.end(), 0);
  const std::int64_t mine = std::int64_t(owned.size()) - ghosts;
  const std::int64_t cells = std::int64_t(cells_.size());
  std::int64_t mins[3] = {cells, mine, ghosts}, maxs[3] = {cells, mine, ghosts};
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, mins, 3, MPI_INT64_T, MPI_MIN, comm_));
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, maxs, 3, MPI_INT64_T, MPI_MAX, comm_));
  EIS_CHECK_MPI(MPI_Bcast(&edgeCut, 1, MPI_INT64_T, 0, comm_));
  partition_ = {mins[0], maxs[0], mins[1], maxs[1], mins[2], maxs[2], edgeCut};
}

int DistributedMesh::findGroup(const std::string& nameOrTag) const {
  if (auto it = groupNames_.find(nameOrTag); it != groupNames_.end()) return it->second;
  char* end = nullptr;
  const long tag = std::strtol(nameOrTag.c_str(), &end, 10);
  if (!nameOrTag.empty() && *end == '\0')
    for (const auto& group : groups_)
      if (group.first == tag) return int(tag);
  std::string known;
  for (const auto& [name, groupTag] : groupNames_)
    known += (known.empty() ? "" : ", ") + name + " (" + std::to_string(groupTag) + ")";
  throw Error("the mesh has no physical group " + nameOrTag +
              (known.empty() ? std::string(" (it has none)") : "; it has " + known));
}

std::vector<PetscInt> DistributedMesh::groupVertices(int tag) const {
  for (const auto& [groupTag, members] : groups_)
    if (groupTag == tag) return members;
  return {};
}

}  // namespace eis
