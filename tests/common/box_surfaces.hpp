#pragma once
// Closed surfaces of axis-aligned boxes, as OBJ text, for the sparse-grid tests.
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "eis/core/parameters.hpp"

namespace eis_test {

// The closed surface of the boxes [lo, hi] (each 8 vertices and 6 quads facing out).
inline std::string boxes(
    const std::vector<std::pair<std::array<double, 3>, std::array<double, 3>>>& list) {
  std::string obj;
  for (std::size_t b = 0; b < list.size(); ++b) {
    const auto& [lo, hi] = list[b];
    for (int k = 0; k < 8; ++k) {
      const int x = (k == 1 || k == 2 || k == 5 || k == 6),
                y = (k == 2 || k == 3 || k == 6 || k == 7);
      obj += "v " + eis::parse::text(x ? hi[0] : lo[0]) + " " +
             eis::parse::text(y ? hi[1] : lo[1]) + " " + eis::parse::text(k >= 4 ? hi[2] : lo[2]) +
             "\n";
    }
    const long long o = 8 * (long long)b;
    const int faces[6][4] = {{1, 4, 3, 2}, {5, 6, 7, 8}, {1, 2, 6, 5},
                             {2, 3, 7, 6}, {3, 4, 8, 7}, {4, 1, 5, 8}};
    for (const auto& f : faces)
      obj += "f " + std::to_string(o + f[0]) + " " + std::to_string(o + f[1]) + " " +
             std::to_string(o + f[2]) + " " + std::to_string(o + f[3]) + "\n";
  }
  return obj;
}

}  // namespace eis_test
