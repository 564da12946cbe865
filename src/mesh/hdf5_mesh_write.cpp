// mesh.convert's writer (eis/mesh/hdf5_mesh.hpp): rank 0 holds the whole input here, once, so
// that no later run has to.
#include <petscdmplex.h>
#include <petscviewerhdf5.h>

#include <algorithm>
#include <filesystem>

#include "eis/core/error.hpp"
#include "eis/core/new_file.hpp"
#include "eis/mesh/hdf5_mesh.hpp"
#include "eis/mesh/metis_partition.hpp"
#include "eis/mesh/surface_triangles.hpp"
#include "hdf5_mesh_names.hpp"

namespace eis {

namespace {

using namespace hdf5_mesh;

// What rank 0 writes, in the serial DMPlex's point numbering: the cells, then the vertices.
struct Plan {
  CellType type = CellType::Tetrahedron;
  std::vector<PetscInt> cells;           // their numbers (0-based among vertices), DMPlex's order
  std::vector<PetscReal> coords;         // 3 per vertex
  std::vector<std::vector<double>> ids;  // the eis_ids values of every point
  std::vector<double> unused, unattached;
  std::int64_t triangles = 0;
  std::string groupTags, groupNames;
};

Plan makePlan(const SerialMesh& serial) {
  const CompactMesh mesh = compactMesh(serial);
  const std::size_t numCells = serial.cells.size(), numVertices = mesh.nodeIds.size();
  Plan plan;
  plan.type = serial.cells.type();
  plan.cells.assign(mesh.cells.begin(), mesh.cells.end());
  // DMPlex orients a hexahedron's first face inward: our vertices 1 and 3 swapped, as
  // DistributedMesh's Gmsh path gives them (distributed_mesh.cpp); eis_ids keeps the file's order.
  if (plan.type == CellType::Hexahedron)
    for (std::size_t c = 0; c < plan.cells.size(); c += 8)
      std::swap(plan.cells[c + 1], plan.cells[c + 3]);
  plan.ids.resize(numCells + numVertices);
  for (std::size_t c = 0; c < numCells; ++c) {
    auto& ids = plan.ids[c];
    ids = {double(c), double(serial.cellTags.empty() ? 0 : serial.cellTags[c])};
    for (auto node : serial.cells[c]) ids.push_back(double(node));
  }
  const TriangleCells triangles = findTriangleCells(serial);
  for (std::size_t i = 0; i < triangles.attached.size(); i += TriangleCells::kAttachedFields) {
    auto& ids = plan.ids[std::size_t(triangles.attached[i + 2])];
    for (std::size_t f : {0, 1, 3, 4, 5}) ids.push_back(double(triangles.attached[i + f]));
  }
  for (std::size_t i = 0, u = 0; i < triangles.unattached.size(); i += 3, ++u) {
    for (std::size_t f = 0; f < 3; ++f)
      plan.unattached.push_back(double(triangles.unattached[i + f]));
    plan.unattached.insert(plan.unattached.end(), triangles.unattachedNodes.begin() + 9 * u,
                           triangles.unattachedNodes.begin() + 9 * (u + 1));
  }
  plan.triangles = triangles.count;
  for (std::size_t v = 0; v < numVertices; ++v) {
    const auto& xyz = serial.nodes[mesh.nodeIds[v]];
    plan.coords.insert(plan.coords.end(), xyz.begin(), xyz.end());
    plan.ids[numCells + v] = {double(mesh.nodeIds[v])};
  }
  for (const auto& [tag, nodes] : serial.groupNodes) {
    plan.groupTags += (plan.groupTags.empty() ? "" : " ") + std::to_string(tag);
    for (auto node : nodes) {
      const auto it = std::lower_bound(mesh.nodeIds.begin(), mesh.nodeIds.end(), node);
      if (it != mesh.nodeIds.end() && *it == node)
        plan.ids[numCells + std::size_t(it - mesh.nodeIds.begin())].push_back(double(tag));
    }
  }
  plan.groupNames = packGroupNames(serial.groupNames);
  for (auto node : mesh.unusedNodeIds) {
    plan.unused.push_back(double(node));
    plan.unused.insert(plan.unused.end(), serial.nodes[node].begin(), serial.nodes[node].end());
  }
  return plan;
}

// Collective. `values` (rank 0's) as the vector `name`, all of it on rank 0.
void writeRankZeroVector(PetscViewer viewer, MPI_Comm comm, const char* name,
                         const std::vector<double>& values) {
  Vec vec;
  EIS_CHECK(
      VecCreateMPIWithArray(comm, 1, PetscInt(values.size()), PETSC_DECIDE, values.data(), &vec));
  EIS_CHECK(PetscObjectSetName(reinterpret_cast<PetscObject>(vec), name));
  EIS_CHECK(VecView(vec, viewer));
  EIS_CHECK(VecDestroy(&vec));
}

void writeAttributes(PetscViewer viewer, MPI_Comm comm, const Plan& plan) {
  std::int64_t counts[5] = {std::int64_t(plan.cells.size() / std::size_t(cornersOf(plan.type))),
                            std::int64_t(plan.coords.size() / 3), plan.triangles,
                            std::int64_t(plan.unused.size() / kUnusedFields),
                            std::int64_t(plan.unattached.size() / kUnattachedFields)};
  EIS_CHECK_MPI(MPI_Bcast(counts, 5, MPI_INT64_T, 0, comm));
  const char* names[5] = {kCells, kNodes, kTriangles, kUnusedNodes, kUnattachedCount};
  const PetscInt format = kHdf5MeshFormat;
  EIS_CHECK(PetscViewerHDF5WriteAttribute(viewer, "/", kFormat, PETSC_INT, &format));
  const PetscInt corners = cornersOf(plan.type), type = PetscInt(plan.type);
  EIS_CHECK(PetscViewerHDF5WriteAttribute(viewer, "/", kCellCorners, PETSC_INT, &corners));
  EIS_CHECK(PetscViewerHDF5WriteAttribute(viewer, "/", kCellType, PETSC_INT, &type));
  for (int i = 0; i < 5; ++i) {
    const long value = long(counts[i]);
    EIS_CHECK(PetscViewerHDF5WriteAttribute(viewer, "/", names[i], PETSC_LONG, &value));
  }
  for (const auto& [name, text] :
       {std::pair{kGroupTags, plan.groupTags}, std::pair{kGroupNames, plan.groupNames}}) {
    std::string shared = text;
    int size = int(shared.size());
    EIS_CHECK_MPI(MPI_Bcast(&size, 1, MPI_INT, 0, comm));
    shared.resize(std::size_t(size));
    EIS_CHECK_MPI(MPI_Bcast(shared.data(), size, MPI_CHAR, 0, comm));
    // An empty string attribute is refused by HDF5: a blank stands for none.
    if (shared.empty()) shared = " ";
    EIS_CHECK(PetscViewerHDF5WriteAttribute(viewer, "/", name, PETSC_STRING, shared.c_str()));
  }
  if (counts[3] > 0) writeRankZeroVector(viewer, comm, kUnused, plan.unused);
  if (counts[4] > 0) writeRankZeroVector(viewer, comm, kUnattached, plan.unattached);
}

// Collective. The eis_ids section and vector of the serial DMPlex `dm`.
void writeIds(DM dm, PetscViewer viewer, const Plan& plan) {
  DM sectionDm;
  EIS_CHECK(DMClone(dm, &sectionDm));
  EIS_CHECK(PetscObjectSetName(reinterpret_cast<PetscObject>(sectionDm), kIds));
  PetscSection section;
  EIS_CHECK(PetscSectionCreate(PetscObjectComm(reinterpret_cast<PetscObject>(dm)), &section));
  EIS_CHECK(PetscSectionSetChart(section, 0, PetscInt(plan.ids.size())));
  for (std::size_t p = 0; p < plan.ids.size(); ++p)
    EIS_CHECK(PetscSectionSetDof(section, PetscInt(p), PetscInt(plan.ids[p].size())));
  EIS_CHECK(PetscSectionSetUp(section));
  EIS_CHECK(DMSetLocalSection(sectionDm, section));
  EIS_CHECK(PetscSectionDestroy(&section));
  Vec ids;
  EIS_CHECK(DMCreateLocalVector(sectionDm, &ids));
  EIS_CHECK(PetscObjectSetName(reinterpret_cast<PetscObject>(ids), kIds));
  PetscScalar* values;
  EIS_CHECK(VecGetArray(ids, &values));
  for (const auto& point : plan.ids) values = std::copy(point.begin(), point.end(), values);
  EIS_CHECK(VecRestoreArray(ids, &values));
  EIS_CHECK(DMPlexSectionView(dm, viewer, sectionDm));
  EIS_CHECK(DMPlexLocalVectorView(dm, viewer, sectionDm, ids));
  EIS_CHECK(VecDestroy(&ids));
  EIS_CHECK(DMDestroy(&sectionDm));
}

}  // namespace

void writeHdf5Mesh(MPI_Comm comm, const SerialMesh& serial, const std::string& path) {
  Plan plan;
  std::string failure;
  if (commRank(comm) == 0) {
    // HDF5 would print its own error stack on every rank for a file it cannot create.
    const std::filesystem::path folder = std::filesystem::path(path).parent_path();
    if (!folder.empty() && !std::filesystem::is_directory(folder))
      failure = "mesh.convert = " + path + ": no folder " + folder.string();
  }
  throwIfAnyRankFailed(failure, comm);
  if (commRank(comm) == 0) {
    try {
      plan = makePlan(serial);
    } catch (const Error& e) {
      failure = e.what();
    }
  }
  throwIfAnyRankFailed(failure, comm);
  DM dm;
  int type = int(plan.type);
  EIS_CHECK_MPI(MPI_Bcast(&type, 1, MPI_INT, 0, comm));
  plan.type = CellType(type);
  const int corners = cornersOf(plan.type);
  EIS_CHECK(DMPlexCreateFromCellListPetsc(comm, dimensionOf(plan.type),
                                          PetscInt(plan.cells.size() / corners),
                                          PetscInt(plan.coords.size() / 3), corners, PETSC_FALSE,
                                          plan.cells.data(), 3, plan.coords.data(), &dm));
  EIS_CHECK(PetscObjectSetName(reinterpret_cast<PetscObject>(dm), kTopology));
  // Written to PATH.partial and renamed over PATH once whole: a failed or killed conversion
  // leaves no truncated mesh at PATH. A .partial left by an earlier conversion, or a link put
  // there, is removed first: HDF5's create (H5F_ACC_TRUNC) would write through the link.
  const std::string temporary = temporaryPathFor(path);
  clearNameForHdf5("mesh.convert = " + path, temporary, comm);
  PetscViewer viewer;
  try {
    EIS_CHECK(PetscViewerHDF5Open(comm, temporary.c_str(), FILE_MODE_WRITE, &viewer));
  } catch (const Error& e) {
    EIS_CHECK(DMDestroy(&dm));
    throw Error("mesh.convert = " + path + ": cannot be written: " + e.what());
  }
  EIS_CHECK(PetscViewerPushFormat(viewer, PETSC_VIEWER_HDF5_PETSC));
  EIS_CHECK(DMPlexTopologyView(dm, viewer));
  EIS_CHECK(DMPlexCoordinatesView(dm, viewer));
  writeIds(dm, viewer, plan);
  EIS_CHECK(PetscViewerPopFormat(viewer));
  writeAttributes(viewer, comm, plan);
  EIS_CHECK(PetscViewerDestroy(&viewer));
  EIS_CHECK(DMDestroy(&dm));
  commitTemporary("mesh.convert = " + path, temporary, path, comm);
}

}  // namespace eis
