#include "eis/mesh/surface_triangles.hpp"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "eis/core/error.hpp"
#include "eis/core/mpi_chunks.hpp"

namespace eis {

namespace {

using Face = std::array<std::int64_t, 3>;

Face sorted(Face face) {
  std::sort(face.begin(), face.end());
  return face;
}

constexpr std::size_t kUnattachedFields = 3;

template <class T>
void broadcast(std::vector<T>& values, MPI_Datatype type, MPI_Comm comm) {
  std::int64_t count = std::int64_t(values.size());
  EIS_CHECK_MPI(MPI_Bcast(&count, 1, MPI_INT64_T, 0, comm));
  values.resize(std::size_t(count));
  broadcastInPieces(values.data(), count, type, 0, comm);
}

}  // namespace

// Each triangle against the four faces of every tetrahedron, the triangles sorted by their
// vertex set so that a face is looked up in O(log n); memory grows with the triangles only. A
// hexahedron's faces are quadrangles: no triangle lies on one.
TriangleCells findTriangleCells(const SerialMesh& serial) {
  const std::size_t n = serial.triangles.size();
  std::vector<std::pair<Face, std::int64_t>> byFace(n);
  for (std::size_t t = 0; t < n; ++t) byFace[t] = {sorted(serial.triangles[t]), std::int64_t(t)};
  std::sort(byFace.begin(), byFace.end());
  std::vector<int> tetrahedra(n, 0);
  std::vector<std::int64_t> cell(n, -1);
  if (n > 0 && serial.cells.type() == CellType::Tetrahedron)
    for (std::size_t c = 0; c < serial.cells.size(); ++c) {
      const auto& tet = serial.cells[c];
      for (int skip = 0; skip < 4; ++skip) {
        Face face;
        for (int k = 0, i = 0; k < 4; ++k)
          if (k != skip) face[i++] = tet[k];
        face = sorted(face);
        auto it =
            std::lower_bound(byFace.begin(), byFace.end(), std::make_pair(face, std::int64_t(-1)));
        for (; it != byFace.end() && it->first == face; ++it) {
          ++tetrahedra[it->second];
          cell[it->second] = std::int64_t(c);
        }
      }
    }
  TriangleCells found;
  found.count = std::int64_t(n);
  for (std::size_t t = 0; t < n; ++t) {
    const auto& tri = serial.triangles[t];
    const std::int64_t tag = serial.triangleTags.empty() ? 0 : serial.triangleTags[t];
    if (tetrahedra[t] == 1) {
      found.attached.insert(found.attached.end(),
                            {std::int64_t(t), tag, cell[t], tri[0], tri[1], tri[2]});
    } else {
      found.unattached.insert(found.unattached.end(), {std::int64_t(t), tag, tetrahedra[t]});
      for (auto node : tri)
        found.unattachedNodes.insert(found.unattachedNodes.end(), serial.nodes[node].begin(),
                                     serial.nodes[node].end());
    }
  }
  return found;
}

SurfaceTriangles placeSurfaceTriangles(const TriangleCells& found,
                                       const std::vector<std::int64_t>& inputCellIds,
                                       const Cells& cells,
                                       const std::vector<std::int64_t>& nodeIds) {
  SurfaceTriangles surface;
  surface.count = found.count;
  std::unordered_map<std::int64_t, PetscInt> localCell;
  if (!found.attached.empty())
    for (std::size_t c = 0; c < inputCellIds.size(); ++c) localCell[inputCellIds[c]] = PetscInt(c);
  for (std::size_t i = 0; i < found.attached.size(); i += TriangleCells::kAttachedFields) {
    const auto it = localCell.find(found.attached[i + 2]);
    if (it == localCell.end()) continue;
    SurfaceTriangle triangle{found.attached[i], int(found.attached[i + 1]), it->second, {}};
    const auto& cell = cells[std::size_t(it->second)];
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < cell.size(); ++k)
        if (nodeIds[std::size_t(cell[k])] == found.attached[i + 3 + j]) triangle.slots[j] = k;
    surface.local.push_back(triangle);
  }
  for (std::size_t i = 0, u = 0; i < found.unattached.size(); i += kUnattachedFields, ++u) {
    UnattachedTriangle triangle{
        found.unattached[i], int(found.unattached[i + 1]), int(found.unattached[i + 2]), {}};
    for (int j = 0; j < 3; ++j)
      for (int d = 0; d < 3; ++d) triangle.nodes[j][d] = found.unattachedNodes[9 * u + 3 * j + d];
    surface.unattached.push_back(triangle);
  }
  return surface;
}

SurfaceTriangles distributeSurfaceTriangles(MPI_Comm comm, const SerialMesh& serial,
                                            const std::vector<std::int64_t>& inputCellIds,
                                            const Cells& cells,
                                            const std::vector<std::int64_t>& nodeIds) {
  TriangleCells found;
  if (commRank(comm) == 0) found = findTriangleCells(serial);
  EIS_CHECK_MPI(MPI_Bcast(&found.count, 1, MPI_INT64_T, 0, comm));
  broadcast(found.attached, MPI_INT64_T, comm);
  broadcast(found.unattached, MPI_INT64_T, comm);
  broadcast(found.unattachedNodes, MPI_DOUBLE, comm);
  return placeSurfaceTriangles(found, inputCellIds, cells, nodeIds);
}

}  // namespace eis
