// The pairs of vertices that share a cell, each once over the ranks (DistributedMesh::
// ownedCellPairs): what a spring joins. The shared ones are points of the interpolated DMPlex
// (edges; a hexahedron's face diagonals lie in its faces), whose point SF gives each one owner; a
// hexahedron's diagonals through the body, and a quadrangle's diagonals, belong to it alone.
#include <petscdmplex.h>

#include <array>
#include <vector>

#include "eis/core/error.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "plex_points.hpp"

namespace eis {

namespace {

using mesh_detail::ownedMask;
using mesh_detail::vertexCoordinates;

// A hexahedron's diagonals through its body, by slot (SOFA's vertex order).
constexpr int kBodyDiagonals[4][2] = {{0, 6}, {1, 7}, {2, 4}, {3, 5}};

// The first cell [cStart, cEnd) whose closure holds point p (-1 when none does).
PetscInt firstCellAround(DM dm, PetscInt p, PetscInt cStart, PetscInt cEnd) {
  PetscInt starSize, *star = nullptr, cell = -1;
  EIS_CHECK(DMPlexGetTransitiveClosure(dm, p, PETSC_FALSE, &starSize, &star));
  for (PetscInt i = 0; i < 2 * starSize && cell < 0; i += 2)
    if (star[i] >= cStart && star[i] < cEnd) cell = star[i];
  EIS_CHECK(DMPlexRestoreTransitiveClosure(dm, p, PETSC_FALSE, &starSize, &star));
  return cell;
}

// The slot of a local vertex in a cell, -1 when the cell does not have it.
int slotOf(CellVertices<const PetscInt> cell, PetscInt vertex) {
  for (int k = 0; k < cell.size(); ++k)
    if (cell[k] == vertex) return k;
  return -1;
}

// The vertices [vStart, vEnd) in the closure of point p.
std::vector<PetscInt> verticesOf(DM dm, PetscInt p, PetscInt vStart, PetscInt vEnd) {
  PetscInt size, *closure = nullptr;
  EIS_CHECK(DMPlexGetTransitiveClosure(dm, p, PETSC_TRUE, &size, &closure));
  std::vector<PetscInt> vertices;
  for (PetscInt i = 0; i < 2 * size; i += 2)
    if (closure[i] >= vStart && closure[i] < vEnd) vertices.push_back(closure[i] - vStart);
  EIS_CHECK(DMPlexRestoreTransitiveClosure(dm, p, PETSC_TRUE, &size, &closure));
  return vertices;
}

bool isHexahedronEdge(int a, int b) {
  for (const auto& e : kHexahedronEdges)
    if ((e[0] == a && e[1] == b) || (e[0] == b && e[1] == a)) return true;
  return false;
}

}  // namespace

std::vector<CellEdge> DistributedMesh::ownedCellPairs() const {
  // Only an interpolated DM has edges and faces, and DMPlexInterpolate extends the point SF to
  // them, which gives each shared one an owner. With overlap 0 every edge or face a rank holds
  // lies in one of its cells. Interpolation keeps the cells and vertices of dm_ in their order
  // (refinement.cpp relies on it too); the checks confirm it: the same vertex coordinates, and
  // each pair's two ends among the vertices of the cell found around it.
  DM full;
  EIS_CHECK(DMPlexInterpolate(dm_, &full));
  PetscInt cStart, cEnd, fStart, fEnd, eStart, eEnd, vStart, vEnd;
  EIS_CHECK(DMPlexGetHeightStratum(full, 0, &cStart, &cEnd));
  EIS_CHECK(DMPlexGetHeightStratum(full, 1, &fStart, &fEnd));
  EIS_CHECK(DMPlexGetDepthStratum(full, 1, &eStart, &eEnd));
  EIS_CHECK(DMPlexGetDepthStratum(full, 0, &vStart, &vEnd));
  bool same = cEnd - cStart == PetscInt(cells_.size()) &&
              vertexCoordinates(full, vStart, vEnd) == restCoords_;
  std::vector<CellEdge> pairs;
  // The pairs of `vertices` (of point p) that `keep` accepts, by the slots of the first cell
  // around p, each of the kind given.
  const auto addPairs = [&](PetscInt p, const std::vector<PetscInt>& vertices, PairKind kind,
                            auto keep) {
    const PetscInt cell = firstCellAround(full, p, cStart, cEnd) - cStart;
    std::vector<int> slots;
    for (PetscInt v : vertices) slots.push_back(cell < 0 ? -1 : slotOf(cells_[cell], v));
    for (std::size_t i = 0; i < slots.size(); ++i)
      for (std::size_t j = i + 1; j < slots.size(); ++j) {
        same = same && slots[i] >= 0 && slots[j] >= 0;
        if (same && keep(slots[i], slots[j])) pairs.push_back({cell, slots[i], slots[j], kind});
      }
  };
  const auto owned = ownedMask(full, eStart, eEnd);
  for (PetscInt e = eStart; e < eEnd && same; ++e)
    if (owned[e - eStart])
      addPairs(e, verticesOf(full, e, vStart, vEnd), PairKind::Edge, [](int, int) { return true; });
  if (cells_.type() == CellType::Hexahedron) {
    const auto ownedFaces = ownedMask(full, fStart, fEnd);
    for (PetscInt f = fStart; f < fEnd && same; ++f)
      if (ownedFaces[f - fStart])
        addPairs(f, verticesOf(full, f, vStart, vEnd), PairKind::FaceDiagonal,
                 [](int a, int b) { return !isHexahedronEdge(a, b); });
    for (std::size_t c = 0; c < cells_.size(); ++c)
      for (const auto& d : kBodyDiagonals)
        pairs.push_back({PetscInt(c), d[0], d[1], PairKind::BodyDiagonal});
  }
  // A quadrangle's two diagonals lie inside it, which holds them alone.
  if (cells_.type() == CellType::Quadrangle)
    for (std::size_t c = 0; c < cells_.size(); ++c)
      for (const auto& d : {std::array<int, 2>{0, 2}, std::array<int, 2>{1, 3}})
        pairs.push_back({PetscInt(c), d[0], d[1], PairKind::FaceDiagonal});
  EIS_CHECK(DMDestroy(&full));
  if (anyRank(!same, comm_))
    throw Error("the interpolated mesh does not number its cells and vertices as the mesh does");
  return pairs;
}

}  // namespace eis
