#pragma once
// The triangles of the mesh file (its surface elements, which pressure loads act on) as the ranks
// hold them. Rank 0 finds the one tetrahedron each triangle is a face of; the triangle then lives
// on the rank that holds that tetrahedron, as the tetrahedron's slots in the file's vertex order
// (that order fixes the triangle's normal). A triangle that is a face of no tetrahedron, or of
// two (an interior face), cannot carry a load: every rank knows which those are.
#include <petscsys.h>

#include <array>
#include <cstdint>
#include <vector>

#include "eis/mesh/serial_mesh.hpp"

namespace eis {

struct SurfaceTriangle {
  std::int64_t id;  // 0-based position in the file's triangle list
  int tag;          // its physical tag (0 when the file gives none)
  PetscInt cell;    // the local cell it is a face of
  // The cell's slots (0..3) of the triangle's vertices, in the file's order.
  std::array<int, 3> slots;
};

// A triangle of the file that is a face of `tetrahedra` tetrahedra, not of exactly one.
struct UnattachedTriangle {
  std::int64_t id;
  int tag;
  int tetrahedra;                              // 0, or 2 for an interior face
  std::array<std::array<double, 3>, 3> nodes;  // its vertices' coordinates, in file order
};

struct SurfaceTriangles {
  std::vector<SurfaceTriangle> local;          // the triangles of this rank's cells, by id
  std::int64_t count = 0;                      // triangles in the file
  std::vector<UnattachedTriangle> unattached;  // the same on every rank, by id
};

// What rank 0 finds in the whole mesh: per triangle that is a face of exactly one tetrahedron
// (id, tag, input cell, its three node ids in file order); per other one (id, tag, tetrahedra)
// and its nine coordinates; and the count of the file's triangles.
struct TriangleCells {
  static constexpr std::size_t kAttachedFields = 6;
  std::vector<std::int64_t> attached;
  std::vector<std::int64_t> unattached;
  std::vector<double> unattachedNodes;
  std::int64_t count = 0;
};
TriangleCells findTriangleCells(const SerialMesh& serial);

// Rank-local: the triangles of `found.attached` whose cell is one of this rank's (others are
// skipped), and every unattached one.
SurfaceTriangles placeSurfaceTriangles(const TriangleCells& found,
                                       const std::vector<std::int64_t>& inputCellIds,
                                       const Cells& cells,
                                       const std::vector<std::int64_t>& nodeIds);

// Collective. `serial` is read on rank 0 only; `inputCellIds` and `cells` are this rank's cells
// (their index in the file's tetrahedra, their local vertices), `nodeIds` its vertices' node ids.
SurfaceTriangles distributeSurfaceTriangles(MPI_Comm comm, const SerialMesh& serial,
                                            const std::vector<std::int64_t>& inputCellIds,
                                            const Cells& cells,
                                            const std::vector<std::int64_t>& nodeIds);

}  // namespace eis
