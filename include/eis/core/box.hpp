#pragma once
// An axis-aligned box, as SOFA's BoxROI selects nodes with it.
#include <algorithm>
#include <array>
#include <vector>

namespace eis {

struct Box {
  std::array<double, 3> min{}, max{};
  bool contains(const std::array<double, 3>& p) const {  // inclusive, as SOFA's BoxROI
    for (int d = 0; d < 3; ++d)
      if (p[d] < min[d] || p[d] > max[d]) return false;
    return true;
  }
  // From "xmin ymin zmin xmax ymax zmax" (the first six of `v`); a min > max in a component is
  // swapped, as BoxROI does.
  static Box fromCorners(const std::vector<double>& v) {
    Box box;
    for (int d = 0; d < 3; ++d) {
      box.min[d] = std::min(v[d], v[d + 3]);
      box.max[d] = std::max(v[d], v[d + 3]);
    }
    return box;
  }
};

}  // namespace eis
