#pragma once
// The cells of a mesh, of one type: tetrahedra (4 vertices) or hexahedra (8), each a run of
// vertex indices in one flat array. The type is the reference cell of the mesh, as deal.II's
// ReferenceCell or MFEM's Geometry: the loops that do not care what a cell is (partition,
// distribution, assembly, outputs) read `corners()` vertices a cell, and the element code that
// does (a tetrahedral or hexahedral force field) asks for its type once, at construction.
//
// Vertex order: a tetrahedron's is the file's (SOFA's corotational frame depends on it); a
// hexahedron's is SOFA's and VTK's: the face z = 0 counter-clockwise seen from +z, then the face
// z = 1 in the same order ((0,0,0) (1,0,0) (1,1,0) (0,1,0) (0,0,1) (1,0,1) (1,1,1) (0,1,1)).
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

enum class CellType { Tetrahedron, Hexahedron };

constexpr int cornersOf(CellType type) {
  return type == CellType::Tetrahedron ? 4 : 8;
}
inline std::string nameOf(CellType type) {
  return type == CellType::Tetrahedron ? "tetrahedron" : "hexahedron";
}
inline std::string pluralNameOf(CellType type) {
  return type == CellType::Tetrahedron ? "tetrahedra" : "hexahedra";
}
inline constexpr Named<CellType> kCellTypes[] = {{"tetrahedron", CellType::Tetrahedron},
                                                 {"hexahedron", CellType::Hexahedron}};

// A hexahedron's 12 edges as vertex pairs, in SOFA's order
// (core::topology::edgesInHexahedronArray): the pairs MeshMatrixMass couples; a face's other two
// pairs are its diagonals.
inline constexpr int kHexahedronEdges[12][2] = {{0, 1}, {0, 3}, {0, 4}, {1, 2}, {1, 5}, {2, 3},
                                                {2, 6}, {3, 7}, {4, 5}, {4, 7}, {5, 6}, {6, 7}};

// VTK's cell type numbers (VTK_TETRA, VTK_HEXAHEDRON): the same vertex orders as ours.
constexpr int vtkTypeOf(CellType type) {
  return type == CellType::Tetrahedron ? 10 : 12;
}
// XDMF 3's topology names.
inline const char* xdmfTopologyOf(CellType type) {
  return type == CellType::Tetrahedron ? "Tetrahedron" : "Hexahedron";
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
