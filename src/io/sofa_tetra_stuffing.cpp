#include "sofa_tetra_stuffing.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "eis/core/error.hpp"

namespace eis::sofa {

namespace {

using P = std::array<double, 3>;

P sub(const P& a, const P& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
P add(const P& a, const P& b) {
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}
P scale(const P& a, double s) {
  return {a[0] * s, a[1] * s, a[2] * s};
}
P cross(const P& a, const P& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const P& a, const P& b) {
  double r = a[0] * b[0];
  r += a[1] * b[1];
  r += a[2] * b[2];
  return r;
}
double volume6(const P& p1, const P& p2, const P& p3, const P& p4) {
  return dot(sub(p2, p1), cross(sub(p3, p1), sub(p4, p1)));
}

// sofa::geometry::Triangle::rayIntersection (Möller and Trumbore), in its order of operations:
// the ray's parameter t of its crossing of triangle (n0, n1, n2), if any at t >= epsilon.
bool rayHit(const P& n0, const P& n1, const P& n2, const P& origin, const P& direction, double& t) {
  const double eps = std::numeric_limits<double>::epsilon();
  const P e0 = sub(n1, n0), e1 = sub(n2, n0);
  const P pvec = cross(direction, e1);
  const double det = dot(e0, pvec);
  if (std::fabs(det) <= eps) return false;
  const double inv = 1.0 / det;
  const P tvec = sub(origin, n0);
  const double u = dot(tvec, pvec) * inv;
  if (u < 0.0 - eps || u > 1.0 + eps) return false;
  const P qvec = cross(tvec, e0);
  const double v = dot(direction, qvec) * inv;
  if (v < 0.0 - eps || (u + v) > 1.0 + eps) return false;
  t = dot(e1, qvec) * inv;
  return !(t < eps || t != t || v != v || u != u);
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
  long long neighbour(long long p, int e) const {
    const bool first = p < ph0;
    const int* size = first ? gsize : hsize;
    long long q = first ? p : p - ph0;
    long long c[3];
    c[0] = q % size[0];
    q /= size[0];
    c[1] = q % size[1];
    c[2] = q / size[1];
    if (e < 6) {
      const int a = e >> 1;
      c[a] += (e & 1) ? 1 : -1;
      if (c[a] < 0 || c[a] >= size[a]) return -1;
      return (first ? 0 : ph0) + c[0] + size[0] * (c[1] + size[1] * c[2]);
    }
    const int d = e - 6;
    const int step[3] = {d & 1, ((d >> 1) ^ d) & 1, ((d >> 2) ^ d) & 1};
    if (first)
      return ph0 + c[0] + step[0] + hsize[0] * (c[1] + step[1] + hsize[1] * (c[2] + step[2]));
    for (int a = 0; a < 3; ++a) {
      c[a] += step[a] - 1;
      if (c[a] < 0 || c[a] >= gsize[a]) return -1;
    }
    return c[0] + gsize[0] * (c[1] + gsize[1] * c[2]);
  }

  double alpha(int e) const { return e < 6 ? s.alphaLong : s.alphaShort; }
  static double edgeSize2(int e) { return e < 6 ? 4 : 3; }

  void lattice(const P& lo, const P& hi) {
    cell = s.size;
    if (cell < 0) {
      const P b = sub(hi, lo);
      double longest = b[0];
      if (b[1] > longest) longest = b[1];
      if (b[2] > longest) longest = b[2];
      cell = longest / -cell;
    }
    if (!(cell > 0) || !std::isfinite(cell))
      throw Error("size gives a cell width of " + std::to_string(cell) +
                  ": expected a positive width (a flat or empty bounding box?)");
    P centre, g0, h0;
    for (int a = 0; a < 3; ++a) centre[a] = (lo[a] + hi[a]) / 2;
    for (int a = 0; a < 3; ++a) {
      const int c0 = -(int((centre[a] - lo[a]) / cell) + 2);
      const int c1 = int((hi[a] - centre[a]) / cell) + 2;
      gsize[a] = c1 - c0 + 1;
      hsize[a] = gsize[a] + 1;
      g0[a] = centre[a] + c0 * cell;
      h0[a] = g0[a] - cell / 2;
    }
    ph0 = (long long)gsize[0] * gsize[1] * gsize[2];
    const long long total = ph0 + (long long)hsize[0] * hsize[1] * hsize[2];
    if (total > 10000000)
      throw Error("a lattice of " + std::to_string(total) +
                  " points: size too small for the surface's box");
    const auto fill = [&](const P& origin, const int* n) {
      for (int z = 0; z < n[2]; ++z)
        for (int y = 0; y < n[1]; ++y)
          for (int x = 0; x < n[0]; ++x)
            out.push_back(add(origin, P{x * cell, y * cell, z * cell}));
    };
    fill(g0, gsize);
    fill(h0, hsize);
  }

  // Along each lattice line, from its last point: the crossings sorted by t (one step per
  // lattice edge), each +1 where the line leaves the surface's inside, -1 where it enters; each
  // point votes by its nearest crossing, and records the distances to the next ones.
  void classify(const std::vector<P>& sp, const std::vector<std::array<long long, 3>>& tri) {
    std::vector<P> normal(tri.size());
    std::vector<bool> traced(tri.size());
    for (std::size_t t = 0; t < tri.size(); ++t) {
      const P &a = sp[tri[t][0]], &b = sp[tri[t][1]], &c = sp[tri[t][2]];
      normal[t] = cross(sub(b, a), sub(c, a));
      // helper::TriangleOctree holds only triangles inside its cube of half-width 800.
      bool within = true;
      for (int d = 0; d < 3; ++d)
        within =
            within && std::min({a[d], b[d], c[d]}) >= -800 && std::max({a[d], b[d], c[d]}) <= 800;
      traced[t] = within;
    }
    const long long n = (long long)out.size();
    inside.assign(n, 0);
    cut.assign(n, {});
    std::vector<std::pair<double, int>> hits;
    for (long long p = 0; p < n; ++p)
      for (int e = 0; e < kShell; e += 2) {
        const long long next = neighbour(p, e);
        if (next == -1 || neighbour(p, e + 1) != -1) continue;
        const P origin = out[p], direction = sub(out[next], origin);
        hits.clear();
        for (std::size_t t = 0; t < tri.size(); ++t) {
          double at = 0;
          if (traced[t] &&
              rayHit(sp[tri[t][0]], sp[tri[t][1]], sp[tri[t][2]], origin, direction, at))
            hits.push_back({at, dot(normal[t], direction) < 0 ? -1 : 1});
        }
        if (hits.empty()) continue;
        std::sort(hits.begin(), hits.end(),
                  [](const auto& a, const auto& b) { return a.first < b.first; });
        const std::size_t m = hits.size();
        std::size_t i = 0;
        int d = 0;
        for (long long q = p; q != -1; q = neighbour(q, e), ++d) {
          while (i < m && hits[i].first < d) ++i;
          if (i >= m)
            inside[q] -= hits[m - 1].second;
          else if (i == 0)
            inside[q] += hits[0].second;
          else if ((d - hits[i - 1].first) < (hits[i].first - d))
            inside[q] += hits[i].second;
          else
            inside[q] -= hits[i - 1].second;
          if (i < m) cut[q][e] = hits[i].first - d;
          if (i > 0) cut[q][e + 1] = d - hits[i - 1].first;
        }
      }
    for (long long p = 0; p < n; ++p)
      if (inside[p] == 0) inside[p] = -1;  // undecided points are outside
  }

  bool violatedEdge(long long p, int e) const { return cut[p][e] != 0.0 && cut[p][e] < alpha(e); }

  // Moves p onto the surface along its edge e, which then no longer crosses it.
  void wrap(long long p, int e) {
    const long long to = neighbour(p, e);
    out[p] = add(out[p], scale(sub(out[to], out[p]), cut[p][e]));
    inside[p] = 0;
  }

  // The edge of p, towards a point `toward` accepts, whose crossing is nearest to p, or -1.
  template <class Accept>
  int nearestViolated(long long p, Accept toward) const {
    int best = -1;
    double bestDist = 0;
    for (int e = 0; e < kShell; ++e) {
      const long long q = neighbour(p, e);
      if (q == -1 || !toward(q) || !violatedEdge(p, e)) continue;
      const double dist = cut[p][e] * cut[p][e] * edgeSize2(e);
      if (best == -1 || dist < bestDist) {
        best = e;
        bestDist = dist;
      }
    }
    return best;
  }

  void snap() {
    const long long n = (long long)out.size();
    std::vector<bool> violated(n);
    std::set<long long> inPoints, outPoints;
    for (long long p = 0; p < n; ++p) {
      const bool in = inside[p] > 0;
      for (int e = 0; e < kShell && !violated[p]; ++e) {
        const long long q = neighbour(p, e);
        if (q != -1 && in != (inside[q] > 0) && violatedEdge(p, e)) violated[p] = true;
      }
      if (violated[p]) (in ? inPoints : outPoints).insert(p);
    }
    // Outside points first, each towards an inside point that is not violated, until none moves.
    for (int moved = 1; moved > 0;) {
      moved = 0;
      for (long long p : outPoints) {
        if (inside[p] == 0) continue;
        const int e =
            nearestViolated(p, [&](long long q) { return !(inside[q] > 0) && !violated[q]; });
        if (e == -1) continue;
        wrap(p, e);
        ++moved;
        violated[p] = false;
        for (int f = 0; f < kShell; ++f) {
          cut[p][f] = 0;
          const long long q = neighbour(p, f);
          if (q == -1) continue;
          cut[q][f ^ 1] = 0;
          if (!violated[q] || inside[q] <= 0) continue;
          // SOFA picks the threshold of each of q's edges by f, the edge from p, not by g.
          bool still = false;
          for (int g = 0; g < kShell && !still; ++g) {
            const long long r = neighbour(q, g);
            if (r == -1 || inside[r] >= 0) continue;
            still = cut[q][g] != 0.0 && cut[q][g] < alpha(f);
          }
          if (!still) {
            violated[q] = false;
            inPoints.erase(q);
          }
        }
      }
    }
    // Then the violated inside points, each towards an outside point.
    for (long long p : inPoints) {
      if (inside[p] == 0) {
        result.warnings.push_back("inside point " + std::to_string(p) + " already wrapped");
        continue;
      }
      const int e = nearestViolated(p, [&](long long q) { return inside[q] < 0; });
      if (e == -1) {
        result.warnings.push_back("inside point " + std::to_string(p) + " has no violated edges");
        continue;
      }
      wrap(p, e);
      violated[p] = false;
      for (int f = 0; f < kShell; ++f) {
        cut[p][f] = 0;
        const long long q = neighbour(p, f);
        if (q != -1) cut[q][f ^ 1] = 0;
      }
    }
  }

  void makeCutPoints() {
    const long long n = (long long)out.size();
    for (long long p = 0; p < n; ++p) {
      if (inside[p] >= 0) continue;
      for (int e = 0; e < kShell; ++e) {
        const long long q = neighbour(p, e);
        if (q == -1 || inside[q] <= 0) continue;
        splits[{p, q}] = (long long)out.size();
        out.push_back(add(out[p], scale(sub(out[q], out[p]), cut[p][e])));
      }
    }
  }

  long long splitPoint(long long from, long long to) {
    auto it = splits.find({from, to});
    if (it == splits.end()) it = splits.find({to, from});
    if (it != splits.end()) return it->second;
    result.warnings.push_back("cut point between " + std::to_string(from) + " and " +
                              std::to_string(to) + " not found");
    return from;
  }

  void addFinal(long long p1, long long p2, long long p3, long long p4, bool flip) {
    if (flip) std::swap(p3, p4);
    if (volume6(out[p1], out[p2], out[p3], out[p4]) < 0) std::swap(p3, p4);
    result.tetrahedra.push_back({p1, p2, p3, p4});
  }

  void addTetra(long long p1, long long p2, long long p3, long long p4);
  bool flipDiagonal(long long a, long long b, long long c, long long e) const;
  void tetrahedra();
  void compress();
};

// MeshTetraStuffing::needFlip: whether (p1 p2 p3 p4) and (q1 q2 q3 q4), each turned so that
// its smallest number leads (an odd turn of the four flips), then its next smallest second,
// differ by the order of their last two.
bool needFlip(std::array<long long, 4> p, std::array<long long, 4> q) {
  bool flip = false;
  for (auto* t : {&p, &q}) {
    auto& v = *t;
    while (v[0] > v[1] || v[0] > v[2] || v[0] > v[3]) {
      v = {v[1], v[2], v[3], v[0]};
      flip = !flip;
    }
    while (v[1] > v[2] || v[1] > v[3]) v = {v[0], v[2], v[3], v[1]};
  }
  return p[2] == q[3] ? !flip : flip;
}

// MeshTetraStuffing::flipDiag: whether the quadrilateral (a b c d), cut from the lattice edge
// ab by the surface, is split along bd rather than ac: towards the cut on a long edge when one
// of its sides is one, else by the parity of the coordinates of a above c's.
bool Stuffer::flipDiagonal(long long a, long long b, long long c, long long e) const {
  const bool eFirst = e < ph0;
  if ((a < ph0) == eFirst) return true;
  if ((b < ph0) == eFirst) return false;
  int above = 0;
  for (int i = 0; i < 3; ++i)
    if (out[a][i] > out[c][i]) ++above;
  return (above & 1) != (a < ph0 ? 1 : 0);
}

// MeshTetraStuffing::addTetra: a lattice tetrahedron, oriented positively, kept whole when it
// has an inside point and no outside one (or splitTetrahedra is off), else cut at the surface.
void Stuffer::addTetra(long long p1, long long p2, long long p3, long long p4) {
  if (volume6(out[p1], out[p2], out[p3], out[p4]) < 0) std::swap(p3, p4);
  const std::array<long long, 4> v{p1, p2, p3, p4};
  std::vector<long long> neg, pos, zero;
  for (long long p : v) (inside[p] < 0 ? neg : inside[p] > 0 ? pos : zero).push_back(p);
  if (pos.empty() && !neg.empty()) return;
  if (neg.empty() || !s.splitTetrahedra) {
    addFinal(p1, p2, p3, p4, false);
    return;
  }
  if (pos.size() == 1) {
    std::array<long long, 4> w = v;
    for (long long& p : w)
      if (inside[p] < 0) p = splitPoint(p, pos[0]);
    addFinal(w[0], w[1], w[2], w[3], false);
  } else if (pos.size() == 2 && neg.size() == 1) {
    const long long c1 = splitPoint(neg[0], pos[0]), c2 = splitPoint(neg[0], pos[1]);
    const bool flipT = needFlip({zero[0], pos[0], pos[1], neg[0]}, v);
    if (!flipDiagonal(pos[0], pos[1], c2, neg[0])) {
      addFinal(zero[0], pos[0], pos[1], c2, flipT);
      addFinal(zero[0], pos[0], c2, c1, flipT);
    } else {
      addFinal(zero[0], pos[0], pos[1], c1, flipT);
      addFinal(zero[0], pos[1], c2, c1, flipT);
    }
  } else if (pos.size() == 2) {
    const long long c1 = splitPoint(neg[0], pos[0]), c2 = splitPoint(neg[0], pos[1]),
                    c3 = splitPoint(neg[1], pos[0]), c4 = splitPoint(neg[1], pos[1]);
    const bool flipA = flipDiagonal(pos[0], pos[1], c2, neg[0]);
    const bool flipB = flipDiagonal(pos[0], pos[1], c4, neg[1]);
    const bool flipT = needFlip({pos[0], pos[1], neg[0], neg[1]}, v);
    if (!flipA && flipB) {
      addFinal(pos[0], pos[1], c2, c3, flipT);
      addFinal(pos[0], c2, c1, c3, flipT);
      addFinal(pos[1], c2, c3, c4, flipT);
    } else if (flipA && !flipB) {
      addFinal(pos[0], pos[1], c1, c4, flipT);
      addFinal(pos[1], c1, c4, c2, flipT);
      addFinal(pos[0], c1, c3, c4, flipT);
    } else {
      result.warnings.push_back("invalid tetrahedron split (both diagonals alike): dropped");
    }
  } else {
    const long long c[3] = {splitPoint(neg[0], pos[0]), splitPoint(neg[0], pos[1]),
                            splitPoint(neg[0], pos[2])};
    bool f[3];
    for (int i = 0; i < 3; ++i)
      f[i] = flipDiagonal(pos[i], pos[(i + 1) % 3], c[(i + 1) % 3], neg[0]);
    if (f[0] == f[1] && f[1] == f[2]) {
      result.warnings.push_back("invalid tetrahedron split (all diagonals alike)");
      f[2] = !f[0];
    }
    // The point whose two diagonals meet at it, and the cut point where two meet.
    const long long pp = f[0] && !f[1] ? pos[1] : f[1] && !f[2] ? pos[2] : pos[0];
    const long long pc = !f[0] && f[1] ? c[1] : !f[1] && f[2] ? c[2] : c[0];
    const bool flipT = needFlip({neg[0], pos[0], pos[1], pos[2]}, v);
    addFinal(pp, c[0], c[2], c[1], flipT);
    addFinal(pc, pos[0], pos[1], pos[2], flipT);
    const auto other = [&](long long a, long long b) { return pp == a ? b : a; };
    if (f[0] == f[1])
      addFinal(pos[1], c[1], pp, pc, needFlip({pos[1], neg[0], pp, other(pos[0], pos[2])}, v));
    else if (f[1] == f[2])
      addFinal(pos[2], c[2], pp, pc, needFlip({pos[2], neg[0], pp, other(pos[0], pos[1])}, v));
    else
      addFinal(pos[0], c[0], pp, pc, needFlip({pos[0], neg[0], pp, other(pos[1], pos[2])}, v));
  }
}

// Per point of g, the 4 tetrahedra about each lattice edge to its predecessor along x, y, z:
// the edge's two ends and two consecutive of the 4 points of h around it.
void Stuffer::tetrahedra() {
  const long long g01 = (long long)gsize[0] * gsize[1], h01 = (long long)hsize[0] * hsize[1];
  long long p = 0, ph = ph0;
  for (int z = 0; z < gsize[2]; ++z, ph += hsize[0]) {
    for (int y = 0; y < gsize[1]; ++y, ++ph)
      for (int x = 0; x < gsize[0]; ++x, ++p, ++ph) {
        const auto around = [&](long long p2, const std::array<long long, 4>& ring) {
          for (int i = 0; i < 4; ++i) addTetra(p, p2, ring[(i + 1) % 4], ring[i]);
        };
        if (x > 0) around(p - 1, {ph, ph + hsize[0], ph + hsize[0] + h01, ph + h01});
        if (y > 0) around(p - gsize[0], {ph, ph + h01, ph + 1 + h01, ph + 1});
        if (z > 0) around(p - g01, {ph, ph + 1, ph + 1 + hsize[0], ph + hsize[0]});
      }
  }
}

// Drops the points no tetrahedron uses, keeping the others' order, and turns any tetrahedron
// the snapping inverted.
void Stuffer::compress() {
  std::vector<long long> renumber(out.size(), -1);
  for (const auto& t : result.tetrahedra)
    for (long long v : t) renumber[v] = 0;
  long long kept = 0;
  for (std::size_t p = 0; p < out.size(); ++p)
    if (renumber[p] == 0) {
      renumber[p] = kept++;
      result.points.push_back(out[p]);
    }
  for (auto& t : result.tetrahedra) {
    for (long long& v : t) v = renumber[v];
    const auto& x = result.points;
    if (volume6(x[t[0]], x[t[1]], x[t[2]], x[t[3]]) < 0) std::swap(t[2], t[3]);
  }
}

}  // namespace

StuffedMesh stuffTetrahedra(const std::vector<P>& surfacePoints,
                            const std::vector<std::array<long long, 3>>& triangles,
                            const StuffingSettings& settings) {
  if (surfacePoints.empty() || triangles.empty())
    throw Error("empty input mesh (inputPoints and inputTriangles)");
  for (const auto& t : triangles)
    for (long long v : t)
      if (v < 0 || v >= (long long)surfacePoints.size())
        throw Error("a triangle names point " + std::to_string(v) + " of " +
                    std::to_string(surfacePoints.size()));
  P lo = surfacePoints[0], hi = surfacePoints[0];
  for (const P& p : surfacePoints)
    for (int c = 0; c < 3; ++c)
      if (p[c] < lo[c])
        lo[c] = p[c];
      else if (p[c] > hi[c])
        hi[c] = p[c];
  if (settings.boxMin[0] < settings.boxMax[0]) {
    lo = settings.boxMin;
    hi = settings.boxMax;
  } else {
    const P widen = scale(sub(hi, lo), 0.01);
    lo = sub(lo, widen);
    hi = add(hi, widen);
  }
  Stuffer s(settings);
  s.lattice(lo, hi);
  s.classify(surfacePoints, triangles);
  if (settings.snapPoints) s.snap();
  if (settings.splitTetrahedra) s.makeCutPoints();
  s.tetrahedra();
  s.compress();
  return std::move(s.result);
}

}  // namespace eis::sofa
