#pragma once
// The cells of a mesh, of one type: tetrahedra (4 vertices), hexahedra (8), triangles (3),
// quadrangles (4), edges (2) or points (1: a body of points without cells, each point its own
// cell), each a run of vertex indices in one flat array; the surface and line cells lie in 3D
// space. The type is the reference cell of the mesh, as deal.II's
// ReferenceCell or MFEM's Geometry: the loops that do not care what a cell is (partition,
// distribution, assembly, outputs) read `corners()` vertices a cell, and the element code that
// does (a tetrahedral or hexahedral force field) asks for its type once, at construction.
//
// Vertex order: a tetrahedron's is the file's (SOFA's corotational frame depends on it); a
// hexahedron's is SOFA's and VTK's: the face z = 0 counter-clockwise seen from +z, then the face
// z = 1 in the same order ((0,0,0) (1,0,0) (1,1,0) (0,1,0) (0,0,1) (1,0,1) (1,1,1) (0,1,1)); a
// triangle's and an edge's are the file's, a quadrangle's SOFA's, counter-clockwise around it.
#include <petscsys.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <string>
#include <vector>

#include "eis/core/error.hpp"
#include "eis/core/parameters.hpp"

namespace eis {

enum class CellType { Tetrahedron, Hexahedron, Triangle, Quadrangle, Edge, Point };

// One row per type, in the enum's order: what the loops that do not care what a cell is read.
struct CellTypeFacts {
  int corners;       // vertices a cell
  int dimension;     // topological: 3, 2, 1 or 0 (the coordinates are always 3D)
  int sharedNodes;   // nodes two neighbouring cells share (a face, an edge, a vertex; points: 0)
  int vtkType;       // VTK_TETRA, VTK_HEXAHEDRON, VTK_TRIANGLE, VTK_QUAD, VTK_LINE, VTK_VERTEX
  const char* xdmf;  // XDMF 3's topology name
  const char* name;
  const char* plural;
};
inline constexpr CellTypeFacts kCellTypeFacts[] = {
    {4, 3, 3, 10, "Tetrahedron", "tetrahedron", "tetrahedra"},
    {8, 3, 4, 12, "Hexahedron", "hexahedron", "hexahedra"},
    {3, 2, 2, 5, "Triangle", "triangle", "triangles"},
    {4, 2, 2, 9, "Quadrilateral", "quadrangle", "quadrangles"},
    {2, 1, 1, 3, "Polyline", "edge", "edges"},
    {1, 0, 0, 1, "Polyvertex", "point", "points"}};
constexpr const CellTypeFacts& factsOf(CellType type) {
  return kCellTypeFacts[int(type)];
}

constexpr int cornersOf(CellType type) {
  return factsOf(type).corners;
}
constexpr int dimensionOf(CellType type) {
  return factsOf(type).dimension;
}
inline std::string nameOf(CellType type) {
  return factsOf(type).name;
}
inline std::string pluralNameOf(CellType type) {
  return factsOf(type).plural;
}
// The built-in box's cell types (mesh.cell-type): the volume cells.
inline constexpr Named<CellType> kCellTypes[] = {{"tetrahedron", CellType::Tetrahedron},
                                                 {"hexahedron", CellType::Hexahedron}};

// The faces of each cell type by vertex slot, -1 ending a shorter one: a tetrahedron's opposite
// each vertex slot, a hexahedron's in VTK's order, a triangle's and a quadrangle's edges, an
// edge's two ends; a point has none. What matches neighbouring cells (ghost cells, the parallel
// dual graph) reads these.
struct CellFaces {
  int count;
  int slots[6][4];
};
inline constexpr CellFaces kCellFaces[] = {
    {4, {{1, 2, 3, -1}, {0, 2, 3, -1}, {0, 1, 3, -1}, {0, 1, 2, -1}}},
    {6, {{0, 1, 2, 3}, {4, 5, 6, 7}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}}},
    {3, {{1, 2, -1, -1}, {0, 2, -1, -1}, {0, 1, -1, -1}}},
    {4, {{0, 1, -1, -1}, {1, 2, -1, -1}, {2, 3, -1, -1}, {3, 0, -1, -1}}},
    {2, {{0, -1, -1, -1}, {1, -1, -1, -1}}},
    {0, {}}};
constexpr const CellFaces& facesOf(CellType type) {
  return kCellFaces[int(type)];
}
// The vertices of face `f` of a cell of `type`.
constexpr int faceSize(CellType type, int f) {
  int n = 0;
  while (n < 4 && facesOf(type).slots[f][n] >= 0) ++n;
  return n;
}

// A hexahedron's 12 edges as vertex pairs, in SOFA's order
// (core::topology::edgesInHexahedronArray): the pairs MeshMatrixMass couples; a face's other two
// pairs are its diagonals.
inline constexpr int kHexahedronEdges[12][2] = {{0, 1}, {0, 3}, {0, 4}, {1, 2}, {1, 5}, {2, 3},
                                                {2, 6}, {3, 7}, {4, 5}, {4, 7}, {5, 6}, {6, 7}};

// VTK's cell type numbers: the same vertex orders as ours.
constexpr int vtkTypeOf(CellType type) {
  return factsOf(type).vtkType;
}
// XDMF 3's topology names (an edge is a polyline of 2 nodes).
inline const char* xdmfTopologyOf(CellType type) {
  return factsOf(type).xdmf;
}

// One cell's vertices, a view into its list.
template <class Index>
class CellVertices {
public:
  CellVertices(Index* first, int count) : first_(first), count_(count) {}
  Index& operator[](int k) const { return first_[k]; }
  int size() const { return count_; }
  Index* begin() const { return first_; }
  Index* end() const { return first_ + count_; }

private:
  Index* first_;
  int count_;
};

template <class Index>
class CellList {
public:
  CellList() : CellList(CellType::Tetrahedron) {}
  explicit CellList(CellType type) : type_(type), corners_(cornersOf(type)) {}
  // Cells given vertex after vertex, corners() each.
  CellList(CellType type, std::initializer_list<Index> vertices)
      : type_(type), corners_(cornersOf(type)), vertices_(vertices) {}

  CellType type() const { return type_; }
  int corners() const { return corners_; }
  std::size_t size() const { return vertices_.size() / std::size_t(corners_); }
  bool empty() const { return vertices_.empty(); }

  CellVertices<const Index> operator[](std::size_t cell) const {
    return {vertices_.data() + cell * corners_, corners_};
  }
  CellVertices<Index> operator[](std::size_t cell) {
    return {vertices_.data() + cell * corners_, corners_};
  }
  // Every cell's vertices, cell after cell.
  const std::vector<Index>& flat() const { return vertices_; }

  // Cell after cell, for range-for loops.
  class const_iterator {
  public:
    const_iterator(const Index* at, int corners) : at_(at), corners_(corners) {}
    CellVertices<const Index> operator*() const { return {at_, corners_}; }
    const_iterator& operator++() {
      at_ += corners_;
      return *this;
    }
    bool operator!=(const const_iterator& other) const { return at_ != other.at_; }

  private:
    const Index* at_;
    int corners_;
  };
  const_iterator begin() const { return {vertices_.data(), corners_}; }
  const_iterator end() const { return {vertices_.data() + vertices_.size(), corners_}; }

  // Appends one cell; `vertices` holds corners() indices.
  void push_back(std::initializer_list<Index> vertices) {
    vertices_.insert(vertices_.end(), vertices.begin(), vertices.end());
  }
  template <class Range>
  void push_back(const Range& vertices) {
    vertices_.insert(vertices_.end(), std::begin(vertices), std::end(vertices));
  }
  void resize(std::size_t cells) { vertices_.resize(cells * corners_); }
  void reserve(std::size_t cells) { vertices_.reserve(cells * corners_); }
  void clear() { vertices_.clear(); }
  void shrink_to_fit() { vertices_.shrink_to_fit(); }

  bool operator==(const CellList& other) const {
    return type_ == other.type_ && vertices_ == other.vertices_;
  }

private:
  CellType type_;
  int corners_;
  std::vector<Index> vertices_;
};

// For the element code written for tetrahedra alone: an error naming `what` (the key or
// component that asked for it) on a mesh of another cell type, the same verdict on every rank.
template <class Index>
void requireTetrahedra(const CellList<Index>& cells, const std::string& what) {
  if (cells.type() != CellType::Tetrahedron)
    throw Error(what + ": integrated on tetrahedra only so far, and this mesh has " +
                pluralNameOf(cells.type()));
}

// A rank's cells (local vertex indices), and a whole mesh's before partitioning (file node ids).
using Cells = CellList<PetscInt>;
using SerialCells = CellList<std::int64_t>;

}  // namespace eis
