// SOFA's MeshSpringForceField on a RegularGridTopology with linesStiffness (springs.face-diagonals
// = first), on 1, 2 and 3 ranks: the grid's lines are its edges and, of each face of its cubes
// (interior ones included), the one diagonal from the face's vertex of smallest index (its
// triangles cut each quad from there). The distributed energy equals sum ks/2 (l - L0)^2 with
// ks = K / L0 over exactly those pairs of the serial box, worked out here from the grid indices.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

#include "eis/mesh/box_mesh.hpp"
#include "eis/model/mechanical_system.hpp"
#include "mpi_support.hpp"

namespace {

TEST(GridLineSprings, EdgesAndEachFaceFirstDiagonalOnce) {
  eis_test::SceneFields scene = eis_test::cantilever({3, 1, 1}, {3, 2, 2}, 2e3);
  scene.cellType = eis::CellType::Hexahedron;
  scene.springStiffness = scene.springDamping = 0;
  const double edgeConstant = 300, diagonalConstant = 200;
  const auto serial = eis::makeBoxMesh(scene.boxSize, scene.boxCells, eis::CellType::Hexahedron);
  // Every face of every cube by its four vertices in order (slots as in core/cells.hpp).
  std::set<std::pair<std::int64_t, std::int64_t>> edges, diagonals;
  for (const auto& h : serial.cells)
    for (const auto& face : eis::facesOf(eis::CellType::Hexahedron).slots) {
      std::int64_t q[4];
      for (int k = 0; k < 4; ++k) q[k] = h[face[k]];
      for (int k = 0; k < 4; ++k) edges.insert(std::minmax(q[k], q[(k + 1) % 4]));
      const int smallest = int(std::min_element(q, q + 4) - q);
      diagonals.insert(std::minmax(q[smallest], q[(smallest + 2) % 4]));
    }
  // 3 x 2 x 2 cells, 4 x 3 x 3 nodes: 75 edges, 52 faces.
  ASSERT_EQ(edges.size(), 75u);
  ASSERT_EQ(diagonals.size(), 52u);
  double expected = 0;
  for (const auto* pairs : {&edges, &diagonals})
    for (const auto& [a, b] : *pairs) {
      const auto &p = serial.nodes[a], &q = serial.nodes[b];
      const auto u = eis_test::BoxModel::smooth(p, 0.13, 0.07, -0.04),
                 w = eis_test::BoxModel::smooth(q, 0.13, 0.07, -0.04);
      double rest = 0, now = 0;
      for (int d = 0; d < 3; ++d) {
        rest += (q[d] - p[d]) * (q[d] - p[d]);
        now += (q[d] + w[d] - p[d] - u[d]) * (q[d] + w[d] - p[d] - u[d]);
      }
      const double restLength = std::sqrt(rest), elongation = std::sqrt(now) - restLength;
      const double constant = pairs == &edges ? edgeConstant : diagonalConstant;
      expected += constant / restLength * elongation * elongation / 2;
    }
  double energies[2];
  for (int withSprings : {1, 0}) {
    if (withSprings)
      scene.extra = {{"springs.stiffness-by-kind", "300 200 0"},
                     {"springs.face-diagonals", "first"}};
    else
      scene.extra.clear();
    eis_test::BoxModel m(scene);
    Vec x = m.system->createVector(), u = m.field(0.13, 0.07, -0.04);
    m.system->setRestState(x);
    VecAXPY(x, 1.0, u);
    energies[withSprings] = m.system->potentialEnergy(x);
    for (Vec* v : {&x, &u}) VecDestroy(v);
  }
  EXPECT_GT(expected, 1e-3);
  EXPECT_NEAR(energies[1] - energies[0], expected, 1e-10 * expected);
}

}  // namespace
