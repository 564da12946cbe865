#include "sofa_grid_mesh_creator.hpp"

#include <initializer_list>
#include <set>
#include <string>
#include <vector>

#include "eis/core/parameters.hpp"

namespace eis::sofa {

GridMeshCreatorMesh gridMeshCreatorMesh(Reader& reader, const SofaObject& creator) {
  std::vector<long long> resolution = reader.integers(creator, "resolution");
  if (!reader.given(creator, "resolution")) resolution = {2, 2};
  if (resolution.size() != 2 || resolution[0] < 2 || resolution[1] < 2)
    reader.reject(creator, "resolution", "expected 2 whole numbers >= 2 (points along x and y)");
  const long long pattern = reader.given(creator, "trianglePattern")
                                ? reader.integers(creator, "trianglePattern").at(0)
                                : 2;
  if (pattern < 0 || pattern > 3)
    reader.reject(creator, "trianglePattern",
                  "expected 0 (quads), 1 (alternate), 2 (upward) or 3 (downward)");
  const long long nx = resolution[0], ny = resolution[1];
  GridMeshCreatorMesh mesh;
  mesh.quads = pattern == 0;
  for (long long y = 0; y < ny; ++y)
    for (long long x = 0; x < nx; ++x)
      mesh.points.push_back(
          {double(x) * (1.0 / double(nx - 1)), double(y) * (1.0 / double(ny - 1)), 0.0});
  // GridMeshCreator::insertUniqueEdge: each cell's edges in its cycle, kept in a std::set as the
  // first cell to add them orients them.
  std::set<std::array<long long, 2>> edges;
  const auto add = [&](std::initializer_list<long long> ids) {
    const std::vector<long long> cell(ids);
    mesh.cells.insert(mesh.cells.end(), cell.begin(), cell.end());
    for (std::size_t k = 0; k < cell.size(); ++k) {
      const long long a = cell[k], b = cell[(k + 1) % cell.size()];
      if (!edges.count({b, a})) edges.insert({a, b});
    }
  };
  const auto vert = [nx](long long x, long long y) { return x + y * nx; };
  for (long long y = 0; y + 1 < ny; ++y)
    for (long long x = 0; x + 1 < nx; ++x) {
      const long long a = vert(x, y), b = vert(x + 1, y), c = vert(x + 1, y + 1),
                      d = vert(x, y + 1);
      const bool upward = pattern == 2 || (pattern == 1 && (x + y) % 2 == 0);
      if (pattern == 0) {
        add({a, b, c, d});
      } else if (upward) {
        add({a, b, c});
        add({a, c, d});
      } else {
        add({a, b, d});
        add({b, c, d});
      }
    }
  mesh.edges.assign(edges.begin(), edges.end());
  return mesh;
}

void mapGridMeshCreator(Reader& reader, const SofaObject& creator) {
  const GridMeshCreatorMesh mesh = gridMeshCreatorMesh(reader, creator);
  std::string nodes, cells;
  for (const auto& p : mesh.points)
    nodes += (nodes.empty() ? "" : " ") + parse::text(p[0]) + " " + parse::text(p[1]) + " " +
             parse::text(p[2]);
  for (long long id : mesh.cells) cells += (cells.empty() ? "" : " ") + std::to_string(id);
  reader.key("mesh.nodes", nodes);
  reader.key(mesh.quads ? "mesh.quadrangles" : "mesh.triangles", cells);
}

}  // namespace eis::sofa
