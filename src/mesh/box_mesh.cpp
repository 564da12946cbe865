#include "eis/mesh/box_mesh.hpp"

#include "eis/core/tetra_geometry.hpp"

namespace eis {

SerialMesh makeBoxMesh(const std::array<double, 3>& size, const std::array<int, 3>& cells,
                       CellType type) {
  const int nx = cells[0], ny = cells[1], nz = cells[2];
  SerialMesh mesh;
  mesh.cells = SerialCells(type);
  mesh.nodes.reserve(std::size_t(nx + 1) * (ny + 1) * (nz + 1));
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i)
        mesh.nodes.push_back({i * size[0] / nx, j * size[1] / ny, k * size[2] / nz});

  auto node = [&](int i, int j, int k) -> std::int64_t {
    return i + std::int64_t(nx + 1) * (j + std::int64_t(ny + 1) * k);
  };
  // The six tetrahedra around the diagonal v0-v6 of a hexahedron, as local vertex numbers.
  static constexpr int split[6][4] = {{0, 1, 2, 6}, {0, 2, 3, 6}, {0, 3, 7, 6},
                                      {0, 7, 4, 6}, {0, 4, 5, 6}, {0, 5, 1, 6}};
  mesh.cells.reserve(std::size_t(type == CellType::Tetrahedron ? 6 : 1) * nx * ny * nz);
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const std::int64_t v[8] = {node(i, j, k),
                                   node(i + 1, j, k),
                                   node(i + 1, j + 1, k),
                                   node(i, j + 1, k),
                                   node(i, j, k + 1),
                                   node(i + 1, j, k + 1),
                                   node(i + 1, j + 1, k + 1),
                                   node(i, j + 1, k + 1)};
        if (type == CellType::Hexahedron) {
          mesh.cells.push_back(v);
          continue;
        }
        for (const auto& t : split) {
          std::array<std::int64_t, 4> tet{v[t[0]], v[t[1]], v[t[2]], v[t[3]]};
          const TetraShape shape(mesh.nodes[tet[0]], mesh.nodes[tet[1]], mesh.nodes[tet[2]],
                                 mesh.nodes[tet[3]]);
          if (shape.signedVolume < 0) std::swap(tet[1], tet[2]);
          mesh.cells.push_back(tet);
        }
      }
  mesh.cellTags.assign(mesh.cells.size(), 0);
  return mesh;
}

}  // namespace eis
