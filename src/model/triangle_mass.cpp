#include "eis/model/triangle_mass.hpp"

#include <cmath>

namespace eis {

std::vector<double> triangleDiagonalMasses(const std::vector<Triangle>& triangles,
                                           const std::vector<Vec3>& rest, double massDensity) {
  std::vector<double> masses(rest.size(), 0.0);
  for (const auto& t : triangles) {
    const Vec3& a = rest[t[0]];
    const Vec3 ab{rest[t[1]][0] - a[0], rest[t[1]][1] - a[1], rest[t[1]][2] - a[2]};
    const Vec3 ac{rest[t[2]][0] - a[0], rest[t[2]][1] - a[1], rest[t[2]][2] - a[2]};
    const Vec3 n = mat3::cross(ab, ac);
    const double share = massDensity * 0.5 * std::sqrt(mat3::dot(n, n)) / 3;
    for (PetscInt v : t) masses[v] += share;
  }
  return masses;
}

}  // namespace eis
