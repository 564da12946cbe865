#pragma once
// The rest shape of each cell (TetraShape: its volume and shape-function gradients), computed
// from the rest coordinates whenever it is asked for instead of stored. Stored, they took 112
// bytes a cell, 0.2 kB per unknown of a tetrahedral mesh and the largest array of the model
// (215 MB of a 1e6-unknown run's 3 GB); computing one takes about 12 ns (22 ms for the 1.9 M
// cells of that run), once a cell per pass over the cells. The same arithmetic on the same
// coordinates gives the same bits as the stored copy did.
#include <petscsys.h>

#include <array>
#include <cstddef>
#include <vector>

#include "eis/core/cells.hpp"
#include "eis/core/tetra_geometry.hpp"

namespace eis {

class CellShapes {
public:
  // cells: four indices into rest each; both must outlive every copy of this view.
  CellShapes(const Cells& cells, const std::vector<Vec3>& rest) : cells_(&cells), rest_(&rest) {}
  TetraShape operator[](std::size_t cell) const {
    const auto& v = (*cells_)[cell];
    const auto& p = *rest_;
    return TetraShape(p[v[0]], p[v[1]], p[v[2]], p[v[3]]);
  }
  std::size_t size() const { return cells_->size(); }
  // A cell's rest measure as SOFA's masses take it: a tetrahedron's volume, a hexahedron's
  // six-tetrahedron volume (hexahedronVolume), a triangle's or a quadrangle's area, an edge's
  // length; a point has none (0).
  double measure(std::size_t cell) const {
    const auto& v = (*cells_)[cell];
    const auto& p = *rest_;
    switch (cells_->type()) {
      case CellType::Tetrahedron: return (*this)[cell].volume;
      case CellType::Hexahedron: return hexahedronVolume(corners<8>(cell));
      case CellType::Triangle: return triangleArea(p[v[0]], p[v[1]], p[v[2]]);
      case CellType::Quadrangle: return quadrangleArea(p[v[0]], p[v[1]], p[v[2]], p[v[3]]);
      case CellType::Edge: return edgeLength(p[v[0]], p[v[1]]);
      case CellType::Point: return 0;
    }
    return 0;
  }
  // A cell's rest corners, for the cells whose shape is not a TetraShape (hexahedra).
  template <int N>
  std::array<Vec3, N> corners(std::size_t cell) const {
    std::array<Vec3, N> p;
    for (int a = 0; a < N; ++a) p[a] = (*rest_)[(*cells_)[cell][a]];
    return p;
  }

private:
  const Cells* cells_;
  const std::vector<Vec3>* rest_;
};

}  // namespace eis
