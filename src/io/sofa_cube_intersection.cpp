// Triangle against the unit cube, as SOFA decides it (io/sofa_cube_intersection.hpp). Every
// value is a float computed in SOFA's order of operations; the few comparisons SOFA makes in
// double (against 0.5 and 1.5, and the interval test of the diagonal's parameter) are in double
// here too.
#include "sofa_cube_intersection.hpp"

#include <cstdint>

namespace eis::sofa {

namespace {

using Vec = std::array<float, 3>;

// Bits 2k and 2k+1: the point is beyond +limit, or below -limit, of the k-th pair of parallel
// planes. Only the pairs whose bits are in `mask` are tested: a pair no earlier vertex was
// outside of cannot reject the triangle any more.
template <std::size_t N>
std::uint32_t outcode(const std::array<float, N>& values, double limit, std::uint32_t mask) {
  std::uint32_t code = 0;
  for (std::size_t k = 0; k < N; ++k) {
    const std::uint32_t above = 1u << (2 * k), below = 1u << (2 * k + 1);
    if ((mask & above) && values[k] > limit)
      code |= above;
    else if ((mask & below) && values[k] < -limit)
      code |= below;
  }
  return code;
}

// The cube's six faces, its twelve edge planes (at 45 degrees) and eight corner planes.
std::uint32_t facePlanes(const Vec& p, std::uint32_t mask) {
  return outcode(std::array<float, 3>{p[0], p[1], p[2]}, 0.5, mask);
}
std::uint32_t edgePlanes(const Vec& p, std::uint32_t mask) {
  return outcode(std::array<float, 6>{p[0] + p[1], p[0] - p[1], p[0] + p[2], p[0] - p[2],
                                      p[1] + p[2], p[1] - p[2]},
                 1.0, mask);
}
std::uint32_t cornerPlanes(const Vec& p, std::uint32_t mask) {
  return outcode(std::array<float, 4>{p[0] + p[1] + p[2], p[0] + p[1] - p[2], p[0] - p[1] + p[2],
                                      p[0] - p[1] - p[2]},
                 1.5, mask);
}

// 1: a vertex is inside (accept); 0: all vertices are beyond one plane (reject); -1: neither.
int quickVerdict(const UnitCubeTriangle& t) {
  std::uint32_t common = ~0u;
  for (const Vec& v : t) {
    const std::uint32_t faces = facePlanes(v, ~0u);
    if (faces == 0) return 1;
    common &= faces;
  }
  if (common != 0) return 0;
  for (auto planes : {edgePlanes, cornerPlanes}) {
    common = ~0u;
    for (const Vec& v : t)
      if ((common = planes(v, common)) == 0) break;
    if (common != 0) return 0;
  }
  return -1;
}

float signNonZero(float x) {
  return x < 0 ? -1.0f : 1.0f;
}

// A segment meets the cube when the origin lies in the cube swept from one end to the other:
// six face tests, then the three pairs of planes parallel to the segment and a cube edge.
bool segmentTouchesUnitCube(const Vec& a, const Vec& b) {
  const Vec d{b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const Vec s{signNonZero(d[0]), signNonZero(d[1]), signNonZero(d[2])};
  for (int i = 0; i < 3; ++i) {
    if (a[i] * s[i] > .5) return false;
    if (b[i] * s[i] < -.5) return false;
  }
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    const float segment = d[k] * a[j] - d[j] * a[k];
    const float edge = .5f * (d[k] * s[j] + d[j] * s[k]);
    if (segment * segment > edge * edge) return false;
  }
  return true;
}

// How many times the triangle winds around `p`, a point of its plane, seen along the axis its
// normal is largest on (a crossing-number count in the two other coordinates).
int winding(const UnitCubeTriangle& t, const Vec& normal, const Vec& p) {
  Vec size;
  for (int i = 0; i < 3; ++i) size[i] = normal[i] < 0 ? -normal[i] : normal[i];
  const int z = size[0] > size[2] ? (size[0] > size[1] ? 0 : 1) : (size[1] > size[2] ? 1 : 2);
  const int x = normal[z] < 0 ? (z + 2) % 3 : (z + 1) % 3;
  const int y = normal[z] < 0 ? (z + 1) % 3 : (z + 2) % 3;
  int count = 0;
  for (int i = 0; i < 3; ++i) {
    const Vec& v = t[i];
    const Vec& w = t[(i + 1) % 3];
    const int dx = int(w[x] > p[x]) - int(v[x] > p[x]);
    if (dx == 0) continue;
    const int dy = int(w[y] > p[y]) - int(v[y] > p[y]);
    if (dy != 0) {
      const float side = float(dx);
      if (side * (p[x] - v[x]) * (w[y] - v[y]) <= side * (p[y] - v[y]) * (w[x] - v[x])) count += dx;
    } else if (v[y] <= p[y]) {
      count += dx;
    }
  }
  return count;
}

// Past the quick tests no vertex is inside: the triangle meets the cube when an edge does, or
// when its interior crosses the cube diagonal most nearly along its normal.
bool exactVerdict(const UnitCubeTriangle& t) {
  for (int i = 0; i < 3; ++i)
    if (segmentTouchesUnitCube(t[i], t[(i + 1) % 3])) return true;
  // The normal: the cross product of the edges from the first vertex, as SOFA sums it.
  const Vec u{t[1][0] - t[0][0], t[1][1] - t[0][1], t[1][2] - t[0][2]};
  const Vec v{t[2][0] - t[0][0], t[2][1] - t[0][1], t[2][2] - t[0][2]};
  const Vec normal{0.0f + (u[1] * v[2] + u[2] * -v[1]), 0.0f + -(u[0] * v[2] + u[2] * -v[0]),
                   0.0f + (u[0] * v[1] + u[1] * -v[0])};
  if (normal[0] == 0 && normal[1] == 0 && normal[2] == 0) return false;
  const Vec diagonal{signNonZero(normal[0]), signNonZero(normal[1]), signNonZero(normal[2])};
  const float along = normal[0] * t[0][0] + normal[1] * t[0][1] + normal[2] * t[0][2];
  const float across = normal[0] * diagonal[0] + normal[1] * diagonal[1] + normal[2] * diagonal[2];
  const float s = along / across;
  if (!((s - -.5) * (s - .5) <= 0)) return false;
  const Vec p{s * diagonal[0], s * diagonal[1], s * diagonal[2]};
  return winding(t, normal, p) != 0;
}

}  // namespace

bool touchesUnitCube(const UnitCubeTriangle& t) {
  const int quick = quickVerdict(t);
  return quick == -1 ? exactVerdict(t) : quick == 1;
}

}  // namespace eis::sofa
