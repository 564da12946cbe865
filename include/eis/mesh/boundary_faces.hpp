#pragma once
// The boundary of a volume body as SOFA's topological mappings give it to a child node:
// Tetra2TriangleTopologicalMapping (the triangles of tetrahedra) and Hexa2QuadTopologicalMapping
// (the quadrangles of hexahedra), in their order and vertex order.
//
// SOFA master (TetrahedronSetTopologyContainer::createTriangleSetArray,
// HexahedronSetTopologyContainer::createQuadSetArray) walks the cells in input order and, in
// each, its faces in a fixed order (core/topology/Topology.cpp: a tetrahedron's face j is
// (t[1] t[2] t[3]), (t[0] t[3] t[2]), (t[1] t[3] t[0]), (t[0] t[2] t[1]) for j = 0..3, each
// pointing out of a positive cell; a hexahedron's (0 3 2 1), (4 5 6 7), (0 1 5 4), (1 2 6 5),
// (2 3 7 6), (3 0 4 7)); it turns each face cyclically until its smallest vertex id comes first
// and appends it unless the cell before it made it already. The mapping keeps, in that order,
// the faces of exactly one cell: a face of the boundary is made by its only cell, so the
// boundary's order is that of (input cell, face j). flipNormals reverses each face: (t0 t2 t1),
// (q3 q2 q1 q0).
//
// Collective: each rank lists its cells' faces that no other local cell shares, all ranks
// gather those lists, and a face met once in all of them lies on the boundary. Every rank
// learns every boundary face (its vertices' node ids and the rank holding its cell), so that
// what couples faces on two ranks (bending springs) and index lists (a pressure's triangleList)
// can be resolved anywhere.
#include <mpi.h>
#include <petscsys.h>

#include <array>
#include <cstdint>
#include <vector>

#include "eis/mesh/distributed_mesh.hpp"

namespace eis {

struct BoundaryFace {
  PetscInt cell;             // the local cell it is a face of
  std::array<int, 4> slots;  // the cell's slots of its vertices in SOFA's order (3 for triangles)
};

struct BoundaryFaces {
  int corners = 3;  // 3: triangles (tetrahedra), 4: quadrangles (hexahedra)
  // Every boundary face, in SOFA's order: its vertices' node ids (SOFA's point indices, -1 in
  // the fourth place of a triangle) and the rank that holds its cell.
  std::vector<std::array<std::int64_t, 4>> nodes;
  std::vector<int> ranks;
  // This rank's faces: their index in `nodes`, and where they lie in its cells.
  std::vector<std::int64_t> localIndex;
  std::vector<BoundaryFace> local;
};

// Collective. The boundary of `mesh` (tetrahedra or hexahedra), reversed with `flip`. Throws
// eis::Error, on every rank, for cells of another kind and for a refined mesh (its cells are no
// longer SOFA's).
BoundaryFaces boundaryFaces(const DistributedMesh& mesh, bool flip);

// Quad2TriangleTopologicalMapping (init, swapping false): each quadrangle q, in order, as the
// triangles (q1 q2 q0) and (q3 q0 q2).
BoundaryFaces splitQuads(const BoundaryFaces& quads);

// The boundary triangles of a body: its tetrahedra's (Tetra2TriangleTopologicalMapping), or its
// hexahedra's quadrangles split (Hexa2QuadTopologicalMapping, then
// Quad2TriangleTopologicalMapping); `flip` is the first mapping's flipNormals. Collective.
BoundaryFaces boundaryTriangles(const DistributedMesh& mesh, bool flip);

// The cells of a body of triangles or quadrangles as faces every rank knows, in the input's
// order (SOFA's), their vertices in the cell's order: what pairs cells across ranks (bending
// springs) works on them as on a boundary. Collective; an eis::Error, on every rank, for cells
// of another kind and for a refined mesh.
BoundaryFaces cellFaces(const DistributedMesh& mesh);

}  // namespace eis
