#pragma once
// One irregular tetrahedron, the element the linear-elastic and diffusion element tests share,
// and the connectivity type the elements take.
#include <petscsys.h>

#include <array>
#include <vector>

#include "eis/core/tetra_geometry.hpp"
#include "eis/model/cell_shapes.hpp"

namespace eis_test {

using Cells = eis::Cells;

struct OneTet {
  // A deliberately irregular, negatively oriented tetrahedron (SOFA accepts those as listed).
  std::vector<eis::Vec3> points{
      {0.1, 0.0, 0.2}, {1.3, 0.2, -0.1}, {0.2, 0.9, 0.3}, {0.4, 0.3, -1.1}};
  Cells cells{eis::CellType::Tetrahedron, {0, 1, 2, 3}};
  std::vector<eis::TetraShape> shapes{eis::TetraShape(points[0], points[1], points[2], points[3])};
  // The view the fields take, over the same points and cells (they must outlive the field).
  eis::CellShapes cellShapes() const { return {cells, points}; }
  std::vector<double> rest() const {
    std::vector<double> r;
    for (const auto& p : points) r.insert(r.end(), p.begin(), p.end());
    return r;
  }
};

}  // namespace eis_test
