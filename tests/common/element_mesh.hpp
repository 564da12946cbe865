#pragma once
// A small mesh of tetrahedra for element tests (points, cells and their rest shapes), and the two
// the hyperelastic tests share: the irregular tetrahedron of one_tetrahedron.hpp and a 2 x 2 x 2
// box.
#include <petscsys.h>

#include <array>
#include <vector>

#include "eis/core/tetra_geometry.hpp"
#include "eis/mesh/box_mesh.hpp"
#include "eis/model/cell_shapes.hpp"
#include "one_tetrahedron.hpp"

namespace eis_test {

struct ElementMesh {
  std::vector<eis::Vec3> points;
  Cells cells;
  std::vector<eis::TetraShape> shapes;  // for the tests' own formulas
  // The view the fields take, over the same points and cells (they must outlive the field).
  eis::CellShapes cellShapes() const { return {cells, points}; }

  void addCell(const std::array<PetscInt, 4>& c) {
    cells.push_back(c);
    shapes.emplace_back(points[c[0]], points[c[1]], points[c[2]], points[c[3]]);
  }
  std::vector<double> rest() const {
    std::vector<double> r;
    for (const auto& p : points) r.insert(r.end(), p.begin(), p.end());
    return r;
  }
  std::size_t dofs() const { return 3 * points.size(); }
};

inline ElementMesh oneTetMesh() {
  const OneTet tet;
  ElementMesh m;
  m.points = tet.points;
  const auto cell = tet.cells[0];
  m.addCell({cell[0], cell[1], cell[2], cell[3]});
  return m;
}

inline ElementMesh boxMesh() {
  const auto serial = eis::makeBoxMesh({1.0, 0.8, 1.2}, {2, 2, 2});
  ElementMesh m;
  m.points = serial.nodes;
  for (const auto& t : serial.cells)
    m.addCell({PetscInt(t[0]), PetscInt(t[1]), PetscInt(t[2]), PetscInt(t[3])});
  return m;
}

}  // namespace eis_test
