#include "eis/core/tetra_geometry.hpp"

#include <cmath>

namespace eis {

namespace {
Vec3 sub(const Vec3& a, const Vec3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const Vec3& a, const Vec3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
}  // namespace

TetraShape::TetraShape(const Vec3& p0, const Vec3& p1, const Vec3& p2, const Vec3& p3) {
  const Vec3 e1 = sub(p1, p0), e2 = sub(p2, p0), e3 = sub(p3, p0);
  const double det = dot(cross(e1, e2), e3);  // 6 x signed volume
  signedVolume = det / 6;
  volume = std::fabs(signedVolume);
  // grad N_1..3 are the rows of the inverse of [e1 e2 e3]; their cofactors are these crosses.
  // Dividing by the signed determinant keeps them right for either orientation.
  gradients[1] = cross(e2, e3);
  gradients[2] = cross(e3, e1);
  gradients[3] = cross(e1, e2);
  for (int a = 1; a < 4; ++a)
    for (double& g : gradients[a]) g /= det;
  for (int d = 0; d < 3; ++d)
    gradients[0][d] = -(gradients[1][d] + gradients[2][d] + gradients[3][d]);
}

double hexahedronVolume(const std::array<Vec3, 8>& p) {
  const auto v = [&](int a, int b, int c, int d) {
    return TetraShape(p[a], p[b], p[c], p[d]).volume;
  };
  return v(0, 5, 1, 6) + v(0, 1, 3, 6) + v(1, 3, 6, 2) + v(6, 3, 0, 7) + v(6, 7, 0, 5) +
         v(7, 5, 4, 0);
}

namespace {

double crossNorm(const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 n = cross(sub(b, a), sub(c, a));
  return std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
}

}  // namespace

double triangleArea(const Vec3& p0, const Vec3& p1, const Vec3& p2) {
  return crossNorm(p0, p1, p2) * 0.5;
}

double quadrangleArea(const Vec3& p0, const Vec3& p1, const Vec3& p2, const Vec3& p3) {
  return (crossNorm(p0, p1, p2) + crossNorm(p2, p3, p0)) * 0.5;
}

double edgeLength(const Vec3& p0, const Vec3& p1) {
  return std::sqrt((p1[0] - p0[0]) * (p1[0] - p0[0]) + (p1[1] - p0[1]) * (p1[1] - p0[1]) +
                   (p1[2] - p0[2]) * (p1[2] - p0[2]));
}

}  // namespace eis
