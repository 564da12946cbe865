// Builds the box [0,2]x[0,1]x[0,1] with 3x2x1 cells through the installed library and checks it
// against the box's definition (docs/architecture.md): 4*3*2 nodes, node id
// i + 4 (j + 3 k) at (i 2/3, j/2, k), six tetrahedra per cell filling the volume 2.
#include <cmath>
#include <cstdio>

#include "eis/mesh/box_mesh.hpp"

namespace {

double tetVolume(const eis::SerialMesh& mesh, eis::CellVertices<const std::int64_t> tet) {
  const auto& p0 = mesh.nodes[tet[0]];
  double e[3][3];
  for (int a = 0; a < 3; ++a) {
    for (int c = 0; c < 3; ++c) e[a][c] = mesh.nodes[tet[a + 1]][c] - p0[c];
  }
  const double det = e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) -
                     e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
                     e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
  return std::fabs(det) / 6.0;
}

}  // namespace

int main() {
  const eis::SerialMesh mesh = eis::makeBoxMesh({2.0, 1.0, 1.0}, {3, 2, 1});
  int failures = 0;
  if (mesh.nodes.size() != 24 || mesh.cells.size() != 36) {
    std::printf("FAIL %zu nodes and %zu tetrahedra, expected 24 and 36\n", mesh.nodes.size(),
                mesh.cells.size());
    return 1;
  }
  for (int k = 0; k < 2; ++k) {
    for (int j = 0; j < 3; ++j) {
      for (int i = 0; i < 4; ++i) {
        const auto& p = mesh.nodes[i + 4 * (j + 3 * k)];
        if (std::fabs(p[0] - i * 2.0 / 3.0) > 1e-14 || std::fabs(p[1] - j * 0.5) > 1e-14 ||
            std::fabs(p[2] - k) > 1e-14) {
          std::printf("FAIL node (%d, %d, %d) at (%g, %g, %g)\n", i, j, k, p[0], p[1], p[2]);
          ++failures;
        }
      }
    }
  }
  double volume = 0.0;
  for (const auto tet : mesh.cells) volume += tetVolume(mesh, tet);
  if (std::fabs(volume - 2.0) > 1e-12) {
    std::printf("FAIL volume %.17g, expected 2\n", volume);
    ++failures;
  }
  if (failures == 0) std::printf("ok box: 24 nodes, 36 tetrahedra, volume 2\n");
  return failures == 0 ? 0 : 1;
}
