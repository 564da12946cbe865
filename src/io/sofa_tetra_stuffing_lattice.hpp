#pragma once
// The lattice of MeshTetraStuffing (io/sofa_tetra_stuffing.hpp) and the steps that fill it: its
// points, their classification and snapping (io/sofa_tetra_stuffing.cpp), and the tetrahedra
// kept or cut (io/sofa_tetra_stuffing_cut.cpp). Private to those two files.
#include <array>
#include <map>
#include <utility>
#include <vector>

#include "sofa_tetra_stuffing.hpp"

namespace eis::sofa::stuffing {

using P = std::array<double, 3>;

inline P sub(const P& a, const P& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
inline P add(const P& a, const P& b) {
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}
inline P scale(const P& a, double s) {
  return {a[0] * s, a[1] * s, a[2] * s};
}
inline P cross(const P& a, const P& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
inline double dot(const P& a, const P& b) {
  double r = a[0] * b[0];
  r += a[1] * b[1];
  r += a[2] * b[2];
  return r;
}
inline double volume6(const P& p1, const P& p2, const P& p3, const P& p4) {
  return dot(sub(p2, p1), cross(sub(p3, p1), sub(p4, p1)));
}

constexpr int kShell = 14;  // 6 lattice edges along the axes (long), 8 to the other grid (short)

struct Stuffer {
  explicit Stuffer(const StuffingSettings& settings) : s(settings) {}

  const StuffingSettings& s;
  double cell = 0;
  int gsize[3]{}, hsize[3]{};
  long long ph0 = 0;
  std::vector<P> out;
  std::vector<int> inside;
  std::vector<std::array<double, kShell>> cut;  // per point and edge: the surface's distance
  std::map<std::pair<long long, long long>, long long> splits;
  StuffedMesh result;

  // MeshTetraStuffing::getEdgePoint2: the point across edge e of p, or -1. Even e go down an
  // axis (0, 2, 4) or along a diagonal; e ^ 1 is the opposite way.
  long long neighbour(long long p, int e) const;

  double alpha(int e) const { return e < 6 ? s.alphaLong : s.alphaShort; }
  static double edgeSize2(int e) { return e < 6 ? 4 : 3; }

  void lattice(const P& lo, const P& hi);

  // Along each lattice line, from its last point: the crossings sorted by t (one step per
  // lattice edge), each +1 where the line leaves the surface's inside, -1 where it enters; each
  // point votes by its nearest crossing, and records the distances to the next ones.
  void classify(const std::vector<P>& sp, const std::vector<std::array<long long, 3>>& tri);

  bool violatedEdge(long long p, int e) const { return cut[p][e] != 0.0 && cut[p][e] < alpha(e); }

  // Moves p onto the surface along its edge e, which then no longer crosses it.
  void wrap(long long p, int e);

  // The edge of p, towards a point `toward` accepts, whose crossing is nearest to p, or -1.
  template <class Accept>
  int nearestViolated(long long p, Accept toward) const;

  void snap();

  void makeCutPoints();

  long long splitPoint(long long from, long long to);

  void addFinal(long long p1, long long p2, long long p3, long long p4, bool flip);

  void addTetra(long long p1, long long p2, long long p3, long long p4);
  bool flipDiagonal(long long a, long long b, long long c, long long e) const;
  void tetrahedra();
  void compress();
};

}  // namespace eis::sofa::stuffing
