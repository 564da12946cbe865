#include "sofa_grid_mesh_creator.hpp"

#include <initializer_list>
#include <string>
#include <vector>

#include "eis/core/parameters.hpp"

namespace eis::sofa {

void mapGridMeshCreator(Reader& reader, const SofaObject& creator) {
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
  std::string nodes;
  for (long long y = 0; y < ny; ++y)
    for (long long x = 0; x < nx; ++x)
      nodes += (nodes.empty() ? "" : " ") + parse::text(double(x) * (1.0 / double(nx - 1))) + " " +
               parse::text(double(y) * (1.0 / double(ny - 1))) + " 0";
  std::string cells;
  const auto add = [&cells](std::initializer_list<long long> ids) {
    for (long long id : ids) cells += (cells.empty() ? "" : " ") + std::to_string(id);
  };
  const auto vert = [nx](long long x, long long y) { return x + y * nx; };
  for (long long y = 0; y + 1 < ny; ++y)
    for (long long x = 0; x + 1 < nx; ++x) {
      const long long a = vert(x, y), b = vert(x + 1, y), c = vert(x + 1, y + 1),
                      d = vert(x, y + 1);
      const bool upward = pattern == 2 || (pattern == 1 && (x + y) % 2 == 0);
      if (pattern == 0)
        add({a, b, c, d});
      else if (upward)
        add({a, b, c, a, c, d});
      else
        add({a, b, d, b, c, d});
    }
  reader.key("mesh.nodes", nodes);
  reader.key(pattern == 0 ? "mesh.quadrangles" : "mesh.triangles", cells);
}

}  // namespace eis::sofa
