#include "eis/mesh/boundary_faces.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "eis/core/error.hpp"
#include "eis/core/mpi_chunks.hpp"

namespace eis {

namespace {

// SOFA's faces of a cell (core/topology/Topology.cpp: trianglesOrientationInTetrahedronArray,
// quadsOrientationInHexahedronArray), a triangle's fourth slot unused.
constexpr int kTetrahedronFaces[4][4] = {
    {1, 2, 3, -1}, {0, 3, 2, -1}, {1, 3, 0, -1}, {0, 2, 1, -1}};
constexpr int kHexahedronFaces[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4},
                                        {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};

using Ids = std::array<std::int64_t, 4>;

// Turned cyclically until the smallest id comes first (SOFA's "sort v such that v[0] is the
// smallest one"); the order of the others is kept.
template <class Slots>
void turnSmallestFirst(Slots& slots, const Ids& ids, int corners) {
  const int first = int(std::min_element(ids.begin(), ids.begin() + corners) - ids.begin());
  std::rotate(slots.begin(), slots.begin() + first, slots.begin() + corners);
}

// The face's vertex set: its ids in increasing order (an insertion sort of 3 or 4).
Ids sortedKey(Ids ids, int corners) {
  for (int i = 1; i < corners; ++i)
    for (int k = i; k > 0 && ids[k - 1] > ids[k]; --k) std::swap(ids[k - 1], ids[k]);
  return ids;
}

// A face as every rank learns it: its cell's input index, its number j in the cell, its vertices'
// node ids in SOFA's order.
constexpr int kRowFields = 6;

}  // namespace

BoundaryFaces boundaryFaces(const DistributedMesh& mesh, bool flip) {
  const MPI_Comm comm = mesh.comm();
  const Cells& cells = mesh.cells();
  const std::vector<std::int64_t>& inputs = mesh.inputCellIds();
  const std::vector<std::int64_t>& nodeIds = mesh.nodeIds();
  const bool tetrahedra = cells.type() == CellType::Tetrahedron;
  const int corners = tetrahedra ? 3 : 4;
  const int facesPerCell = tetrahedra ? 4 : 6;

  std::vector<std::int64_t> sortedInputs(inputs);
  std::sort(sortedInputs.begin(), sortedInputs.end());
  int refined = std::adjacent_find(sortedInputs.begin(), sortedInputs.end()) != sortedInputs.end();
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &refined, 1, MPI_INT, MPI_MAX, comm));
  if (refined)
    throw Error(
        "the boundary faces SOFA's topological mappings make need the mesh's own cells "
        "(mesh.refine is not supported with them)");

  // This rank's faces in SOFA's vertex order, and those no other local cell shares.
  auto faceSlots = [&](std::size_t c, int j) {
    std::array<int, 4> slots{-1, -1, -1, -1};
    for (int k = 0; k < corners; ++k)
      slots[k] = tetrahedra ? kTetrahedronFaces[j][k] : kHexahedronFaces[j][k];
    Ids ids{-1, -1, -1, -1};
    for (int k = 0; k < corners; ++k) ids[k] = nodeIds[std::size_t(cells[c][slots[k]])];
    turnSmallestFirst(slots, ids, corners);
    return slots;
  };
  auto faceIds = [&](std::size_t c, const std::array<int, 4>& slots) {
    Ids ids{-1, -1, -1, -1};
    for (int k = 0; k < corners; ++k) ids[k] = nodeIds[std::size_t(cells[c][slots[k]])];
    return ids;
  };
  std::map<Ids, int> localCount;
  for (std::size_t c = 0; c < cells.size(); ++c)
    for (int j = 0; j < facesPerCell; ++j)
      ++localCount[sortedKey(faceIds(c, faceSlots(c, j)), corners)];
  std::vector<std::int64_t> rows;
  for (std::size_t c = 0; c < cells.size(); ++c)
    for (int j = 0; j < facesPerCell; ++j) {
      const Ids ids = faceIds(c, faceSlots(c, j));
      if (localCount[sortedKey(ids, corners)] != 1) continue;
      rows.insert(rows.end(), {inputs[c], j, ids[0], ids[1], ids[2], ids[3]});
    }

  const int size = commSize(comm);
  std::vector<int> offsets;
  const std::vector<std::int64_t> all = allGatherChunks(rows, MPI_INT64_T, comm, &offsets);

  // A face met once over all ranks is the boundary's; in SOFA's order by (input cell, j).
  std::map<Ids, int> globalCount;
  for (std::size_t i = 0; i < all.size(); i += kRowFields)
    ++globalCount[sortedKey({all[i + 2], all[i + 3], all[i + 4], all[i + 5]}, corners)];
  std::vector<std::tuple<std::int64_t, std::int64_t, int, std::size_t>>
      order;  // cell, j, rank, row
  for (int r = 0; r < size; ++r)
    for (int i = offsets[r]; i < offsets[r + 1]; i += kRowFields) {
      const std::size_t at = std::size_t(i);
      if (globalCount[sortedKey({all[at + 2], all[at + 3], all[at + 4], all[at + 5]}, corners)] ==
          1)
        order.emplace_back(all[at], all[at + 1], r, at);
    }
  std::sort(order.begin(), order.end());

  BoundaryFaces faces;
  faces.corners = corners;
  std::map<std::int64_t, std::size_t> localCell;  // input cell -> local cell
  for (std::size_t c = 0; c < inputs.size(); ++c) localCell[inputs[c]] = c;
  const int rank = commRank(comm);
  for (const auto& [input, j, owner, at] : order) {
    Ids ids{all[at + 2], all[at + 3], all[at + 4], all[at + 5]};
    if (flip) std::reverse(ids.begin() + (corners == 3 ? 1 : 0), ids.begin() + corners);
    const std::int64_t index = std::int64_t(faces.nodes.size());
    faces.nodes.push_back(ids);
    faces.ranks.push_back(owner);
    if (owner != rank) continue;
    const std::size_t c = localCell.at(input);
    std::array<int, 4> slots = faceSlots(c, int(j));
    if (flip) std::reverse(slots.begin() + (corners == 3 ? 1 : 0), slots.begin() + corners);
    faces.localIndex.push_back(index);
    faces.local.push_back({PetscInt(c), slots});
  }
  return faces;
}

BoundaryFaces splitQuads(const BoundaryFaces& quads) {
  static constexpr int kSplit[2][3] = {{1, 2, 0}, {3, 0, 2}};
  BoundaryFaces triangles;
  triangles.corners = 3;
  for (std::size_t q = 0; q < quads.nodes.size(); ++q)
    for (const auto& split : kSplit) {
      triangles.nodes.push_back({quads.nodes[q][std::size_t(split[0])],
                                 quads.nodes[q][std::size_t(split[1])],
                                 quads.nodes[q][std::size_t(split[2])], -1});
      triangles.ranks.push_back(quads.ranks[q]);
    }
  for (std::size_t i = 0; i < quads.local.size(); ++i)
    for (int half = 0; half < 2; ++half) {
      const BoundaryFace& quad = quads.local[i];
      triangles.localIndex.push_back(2 * quads.localIndex[i] + half);
      triangles.local.push_back(
          {quad.cell,
           {quad.slots[std::size_t(kSplit[half][0])], quad.slots[std::size_t(kSplit[half][1])],
            quad.slots[std::size_t(kSplit[half][2])], -1}});
    }
  return triangles;
}

BoundaryFaces boundaryTriangles(const DistributedMesh& mesh, bool flip) {
  BoundaryFaces faces = boundaryFaces(mesh, flip);
  return faces.corners == 4 ? splitQuads(faces) : faces;
}

BoundaryFaces cellFaces(const DistributedMesh& mesh) {
  const MPI_Comm comm = mesh.comm();
  const Cells& cells = mesh.cells();
  const std::vector<std::int64_t>& inputs = mesh.inputCellIds();
  if (cells.type() != CellType::Triangle && cells.type() != CellType::Quadrangle)
    throw Error("faces across ranks: a body of triangles or quadrangles is needed; this one has " +
                pluralNameOf(cells.type()));
  const int corners = cells.corners();
  // A row per local cell: its input index and its vertices' node ids.
  constexpr int kFields = 5;
  std::vector<std::int64_t> rows;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    rows.push_back(inputs[c]);
    for (int k = 0; k < 4; ++k)
      rows.push_back(k < corners ? mesh.nodeIds()[std::size_t(cells[c][k])] : -1);
  }
  const int size = commSize(comm), rank = commRank(comm);
  std::vector<int> offsets;
  const std::vector<std::int64_t> all = allGatherChunks(rows, MPI_INT64_T, comm, &offsets);
  std::vector<std::tuple<std::int64_t, int, std::size_t>> order;  // input cell, rank, row
  for (int r = 0; r < size; ++r)
    for (int i = offsets[r]; i < offsets[r + 1]; i += kFields)
      order.emplace_back(all[std::size_t(i)], r, std::size_t(i));
  std::sort(order.begin(), order.end());
  for (std::size_t i = 1; i < order.size(); ++i)
    if (std::get<0>(order[i]) == std::get<0>(order[i - 1]))
      throw Error(
          "faces across ranks need the mesh's own cells (mesh.refine is not supported with "
          "them)");

  BoundaryFaces faces;
  faces.corners = corners;
  std::map<std::int64_t, std::size_t> localCell;  // input cell -> local cell
  for (std::size_t c = 0; c < inputs.size(); ++c) localCell[inputs[c]] = c;
  for (const auto& [input, owner, at] : order) {
    faces.nodes.push_back({all[at + 1], all[at + 2], all[at + 3], all[at + 4]});
    faces.ranks.push_back(owner);
    if (owner != rank) continue;
    faces.localIndex.push_back(std::int64_t(faces.nodes.size()) - 1);
    faces.local.push_back({PetscInt(localCell.at(input)), {0, 1, 2, corners == 4 ? 3 : -1}});
  }
  return faces;
}

}  // namespace eis
