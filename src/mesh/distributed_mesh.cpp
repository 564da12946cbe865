#include "eis/mesh/distributed_mesh.hpp"

#include <petscpartitioner.h>
#include <petscsf.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>

#include "eis/core/error.hpp"
#include "eis/mesh/metis_partition.hpp"
#include "plex_points.hpp"

namespace eis {

namespace {

using mesh_detail::ownedMask;
using mesh_detail::vertexCoordinates;

// What rank 0 knows about each point of the serial DMPlex, carried to its new owners through the
// migration SF. For a cell: id = its serial number, value = its physical tag, vertices = its
// vertices in file order (serial DMPlex numbers). For a vertex: id = its serial DMPlex number,
// value = its node id in the input file.
struct PointRecord {
  PetscInt id = -1, value = 0, vertices[4] = {-1, -1, -1, -1};
};

// The first cell [cStart, cEnd) whose closure holds point p (-1 when none does).
PetscInt firstCellAround(DM dm, PetscInt p, PetscInt cStart, PetscInt cEnd) {
  PetscInt starSize, *star = nullptr, cell = -1;
  EIS_CHECK(DMPlexGetTransitiveClosure(dm, p, PETSC_FALSE, &starSize, &star));
  for (PetscInt i = 0; i < 2 * starSize && cell < 0; i += 2)
    if (star[i] >= cStart && star[i] < cEnd) cell = star[i];
  EIS_CHECK(DMPlexRestoreTransitiveClosure(dm, p, PETSC_FALSE, &starSize, &star));
  return cell;
}

// The slot (0..3) of a local vertex in a cell, -1 when the cell does not have it.
int slotOf(const std::array<PetscInt, 4>& cell, PetscInt vertex) {
  for (int k = 0; k < 4; ++k)
    if (cell[k] == vertex) return k;
  return -1;
}

MPI_Datatype recordType() {
  MPI_Datatype type;
  MPI_Type_contiguous(sizeof(PointRecord) / sizeof(PetscInt), MPIU_INT, &type);
  MPI_Type_commit(&type);
  return type;
}

}  // namespace

DistributedMesh::DistributedMesh(MPI_Comm comm, const SerialMesh& serial, int dofsPerNode,
                                 int refinements)
    : comm_(comm), dofsPerNode_(dofsPerNode) {
  distribute(serial);
  refine(refinements);
  layOutUnknowns();
}

DistributedMesh::~DistributedMesh() { DMDestroy(&dm_); }

void DistributedMesh::distribute(const SerialMesh& serial) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm_, &rank);
  MPI_Comm_size(comm_, &size);

  std::vector<PetscInt> cells;    // rank 0: 4 serial DMPlex vertex numbers per cell, file order
  std::vector<PetscReal> coords;  // rank 0: 3 per serial DMPlex vertex
  std::vector<PointRecord> roots;
  std::vector<PetscInt> partSizes(size, 0), partPoints;
  std::int64_t edgeCut = 0;
  std::string failure;
  if (rank == 0) {
    try {
      const CompactMesh mesh = compactMesh(serial);
      const CellPartition partition = partitionCells(mesh, size);
      const auto& part = partition.part;
      edgeCut = partition.edgeCut;
      for (auto id : mesh.unusedNodeIds) {
        unusedNodeIds_.push_back(id);
        unusedNodeCoords_.push_back(serial.nodes[id]);
      }
      cells.assign(mesh.cells.begin(), mesh.cells.end());
      for (auto id : mesh.nodeIds)
        coords.insert(coords.end(), serial.nodes[id].begin(), serial.nodes[id].end());
      for (auto p : part) ++partSizes[p];
      partPoints.resize(part.size());
      std::iota(partPoints.begin(), partPoints.end(), 0);
      std::stable_sort(partPoints.begin(), partPoints.end(),
                       [&](PetscInt a, PetscInt b) { return part[a] < part[b]; });
      const PetscInt numCells = PetscInt(part.size());
      roots.resize(numCells + mesh.nodeIds.size());
      for (PetscInt c = 0; c < numCells; ++c) {
        roots[c].id = c;
        roots[c].value = serial.tetTags.empty() ? 0 : serial.tetTags[c];
        for (int k = 0; k < 4; ++k) roots[c].vertices[k] = numCells + mesh.cells[4 * c + k];
      }
      for (std::size_t v = 0; v < mesh.nodeIds.size(); ++v) {
        roots[numCells + v].id = numCells + PetscInt(v);
        roots[numCells + v].value = PetscInt(mesh.nodeIds[v]);
      }
    } catch (const Error& e) {
      failure = e.what();
    }
  }
  throwIfAnyRankFailed(failure, comm_);

  const PetscInt numCells = PetscInt(cells.size() / 4), numVertices = PetscInt(coords.size() / 3);
  DM serialDm = nullptr;
  EIS_CHECK(DMPlexCreateFromCellListPetsc(comm_, 3, numCells, numVertices, 4, PETSC_FALSE,
                                          cells.data(), 3, coords.data(), &serialDm));
  std::int64_t globalVertices = numVertices;
  MPI_Bcast(&globalVertices, 1, MPI_INT64_T, 0, comm_);
  numGlobalVertices_ = globalVertices;
  cells = {};
  coords = {};

  std::vector<PointRecord> records;
  if (size == 1) {
    dm_ = serialDm;
    records = std::move(roots);
  } else {
    PetscPartitioner partitioner;
    EIS_CHECK(DMPlexGetPartitioner(serialDm, &partitioner));
    EIS_CHECK(PetscPartitionerSetType(partitioner, PETSCPARTITIONERSHELL));
    EIS_CHECK(PetscPartitionerShellSetPartition(partitioner, size, partSizes.data(), partPoints.data()));
    PetscSF migration = nullptr;
    EIS_CHECK(DMPlexDistribute(serialDm, 0, &migration, &dm_));
    PetscInt pStart, pEnd;
    EIS_CHECK(DMPlexGetChart(dm_, &pStart, &pEnd));
    records.resize(pEnd - pStart);
    MPI_Datatype type = recordType();
    EIS_CHECK(PetscSFBcastBegin(migration, type, roots.data(), records.data(), MPI_REPLACE));
    EIS_CHECK(PetscSFBcastEnd(migration, type, roots.data(), records.data(), MPI_REPLACE));
    MPI_Type_free(&type);
    EIS_CHECK(PetscSFDestroy(&migration));
    EIS_CHECK(DMDestroy(&serialDm));
  }

  PetscInt cStart, cEnd, vStart, vEnd;
  EIS_CHECK(DMPlexGetHeightStratum(dm_, 0, &cStart, &cEnd));
  EIS_CHECK(DMPlexGetDepthStratum(dm_, 0, &vStart, &vEnd));
  // Serial DMPlex vertex number -> local vertex index, to put each cell back in file order.
  std::vector<std::pair<PetscInt, PetscInt>> serialToLocal;
  nodeIds_.resize(vEnd - vStart);
  for (PetscInt v = vStart; v < vEnd; ++v) {
    nodeIds_[v - vStart] = records[v].value;
    serialToLocal.emplace_back(records[v].id, v - vStart);
  }
  std::sort(serialToLocal.begin(), serialToLocal.end());
  auto localVertex = [&](PetscInt serialVertex) {
    auto it = std::lower_bound(serialToLocal.begin(), serialToLocal.end(),
                               std::make_pair(serialVertex, PetscInt(-1)));
    return it->second;
  };
  cells_.resize(cEnd - cStart);
  cellTags_.resize(cEnd - cStart);
  inputCellIds_.resize(cEnd - cStart);
  for (PetscInt c = cStart; c < cEnd; ++c) {
    for (int k = 0; k < 4; ++k) cells_[c - cStart][k] = localVertex(records[c].vertices[k]);
    cellTags_[c - cStart] = int(records[c].value);
    inputCellIds_[c - cStart] = records[c].id;
  }

  // Physical groups travel as lists of input node ids; each rank keeps the ones it holds.
  std::vector<std::int64_t> packed;  // tag, count, ids..., per group
  if (rank == 0)
    for (const auto& [tag, ids] : serial.groupNodes) {
      packed.push_back(tag);
      packed.push_back(std::int64_t(ids.size()));
      packed.insert(packed.end(), ids.begin(), ids.end());
    }
  std::int64_t packedSize = std::int64_t(packed.size());
  MPI_Bcast(&packedSize, 1, MPI_INT64_T, 0, comm_);
  packed.resize(packedSize);
  MPI_Bcast(packed.data(), int(packedSize), MPI_INT64_T, 0, comm_);
  for (std::size_t i = 0; i < packed.size();) {
    const int tag = int(packed[i]);
    const auto begin = packed.begin() + std::ptrdiff_t(i + 2);
    const auto end = begin + std::ptrdiff_t(packed[i + 1]);
    std::vector<PetscInt> members;
    for (PetscInt v = 0; v < PetscInt(nodeIds_.size()); ++v)
      if (std::binary_search(begin, end, nodeIds_[v])) members.push_back(v);
    groups_.emplace_back(tag, std::move(members));
    i += 2 + std::size_t(packed[i + 1]);
  }
  std::string names;  // "name\ttag\n" per group
  if (rank == 0)
    for (const auto& [name, tag] : serial.groupNames) names += name + '\t' + std::to_string(tag) + '\n';
  int namesSize = int(names.size());
  MPI_Bcast(&namesSize, 1, MPI_INT, 0, comm_);
  names.resize(namesSize);
  MPI_Bcast(names.data(), namesSize, MPI_CHAR, 0, comm_);
  for (std::size_t start = 0; start < names.size();) {
    const std::size_t tab = names.find('\t', start), end = names.find('\n', tab);
    groupNames_[names.substr(start, tab - start)] = std::stoi(names.substr(tab + 1, end - tab - 1));
    start = end + 1;
  }
  computePartitionReport(edgeCut);
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
  const std::int64_t cells = std::int64_t(cells_.size());
  std::int64_t mins[2] = {cells, ghosts}, maxs[2] = {cells, ghosts};
  MPI_Allreduce(MPI_IN_PLACE, mins, 2, MPI_INT64_T, MPI_MIN, comm_);
  MPI_Allreduce(MPI_IN_PLACE, maxs, 2, MPI_INT64_T, MPI_MAX, comm_);
  MPI_Bcast(&edgeCut, 1, MPI_INT64_T, 0, comm_);
  partition_ = {mins[0], maxs[0], mins[1], maxs[1], edgeCut};
}

std::vector<CellEdge> DistributedMesh::ownedEdges() const {
  // Only an interpolated DM has edges, and DMPlexInterpolate extends the point SF to them, which
  // gives each shared edge one owner. With overlap 0 every edge a rank holds lies in one of its
  // cells. Interpolation keeps the cells and vertices of dm_ in their order (refinement.cpp
  // relies on it too); the checks confirm it: the same vertex coordinates, and each edge's two
  // ends among the vertices of the cell found around it.
  DM full;
  EIS_CHECK(DMPlexInterpolate(dm_, &full));
  PetscInt cStart, cEnd, eStart, eEnd, vStart, vEnd;
  EIS_CHECK(DMPlexGetHeightStratum(full, 0, &cStart, &cEnd));
  EIS_CHECK(DMPlexGetDepthStratum(full, 1, &eStart, &eEnd));
  EIS_CHECK(DMPlexGetDepthStratum(full, 0, &vStart, &vEnd));
  bool same = cEnd - cStart == PetscInt(cells_.size()) &&
              vertexCoordinates(full, vStart, vEnd) == restCoords_;
  const auto owned = ownedMask(full, eStart, eEnd);
  std::vector<CellEdge> edges;
  for (PetscInt e = eStart; e < eEnd && same; ++e) {
    if (!owned[e - eStart]) continue;
    const PetscInt cell = firstCellAround(full, e, cStart, cEnd) - cStart;
    const PetscInt* ends;
    EIS_CHECK(DMPlexGetCone(full, e, &ends));
    const int a = cell < 0 ? -1 : slotOf(cells_[cell], ends[0] - vStart);
    const int b = cell < 0 ? -1 : slotOf(cells_[cell], ends[1] - vStart);
    same = a >= 0 && b >= 0;
    edges.push_back({cell, a, b});
  }
  EIS_CHECK(DMDestroy(&full));
  if (anyRank(!same, comm_))
    throw Error("the interpolated mesh does not number its cells and vertices as the mesh does");
  return edges;
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
  throw Error("constraint.fixed-group = " + nameOrTag + ": the mesh has no such physical group" +
              (known.empty() ? std::string(" (it has none)") : "; it has " + known));
}

std::vector<PetscInt> DistributedMesh::groupVertices(int tag) const {
  for (const auto& [groupTag, members] : groups_)
    if (groupTag == tag) return members;
  return {};
}

}  // namespace eis
