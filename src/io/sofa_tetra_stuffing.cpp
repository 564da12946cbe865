#include "sofa_tetra_stuffing.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "eis/core/error.hpp"
#include "sofa_tetra_stuffing_lattice.hpp"

namespace eis::sofa {

namespace stuffing {

namespace {

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

}  // namespace

long long Stuffer::neighbour(long long p, int e) const {
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

void Stuffer::lattice(const P& lo, const P& hi) {
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
        for (int x = 0; x < n[0]; ++x) out.push_back(add(origin, P{x * cell, y * cell, z * cell}));
  };
  fill(g0, gsize);
  fill(h0, hsize);
}

void Stuffer::classify(const std::vector<P>& sp, const std::vector<std::array<long long, 3>>& tri) {
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
        if (traced[t] && rayHit(sp[tri[t][0]], sp[tri[t][1]], sp[tri[t][2]], origin, direction, at))
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

void Stuffer::wrap(long long p, int e) {
  const long long to = neighbour(p, e);
  out[p] = add(out[p], scale(sub(out[to], out[p]), cut[p][e]));
  inside[p] = 0;
}

template <class Accept>
int Stuffer::nearestViolated(long long p, Accept toward) const {
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

void Stuffer::snap() {
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

void Stuffer::makeCutPoints() {
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

}  // namespace stuffing

StuffedMesh stuffTetrahedra(const std::vector<std::array<double, 3>>& surfacePoints,
                            const std::vector<std::array<long long, 3>>& triangles,
                            const StuffingSettings& settings) {
  if (surfacePoints.empty() || triangles.empty())
    throw Error("empty input mesh (inputPoints and inputTriangles)");
  for (const auto& t : triangles)
    for (long long v : t)
      if (v < 0 || v >= (long long)surfacePoints.size())
        throw Error("a triangle names point " + std::to_string(v) + " of " +
                    std::to_string(surfacePoints.size()));
  std::array<double, 3> lo = surfacePoints[0], hi = surfacePoints[0];
  for (const auto& p : surfacePoints)
    for (int c = 0; c < 3; ++c)
      if (p[c] < lo[c])
        lo[c] = p[c];
      else if (p[c] > hi[c])
        hi[c] = p[c];
  if (settings.boxMin[0] < settings.boxMax[0]) {
    lo = settings.boxMin;
    hi = settings.boxMax;
  } else {
    const auto widen = stuffing::scale(stuffing::sub(hi, lo), 0.01);
    lo = stuffing::sub(lo, widen);
    hi = stuffing::add(hi, widen);
  }
  stuffing::Stuffer s(settings);
  s.lattice(lo, hi);
  s.classify(surfacePoints, triangles);
  if (settings.snapPoints) s.snap();
  if (settings.splitTetrahedra) s.makeCutPoints();
  s.tetrahedra();
  s.compress();
  return std::move(s.result);
}

}  // namespace eis::sofa
