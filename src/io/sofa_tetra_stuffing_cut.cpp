#include <algorithm>
#include <string>

#include "sofa_tetra_stuffing_lattice.hpp"

namespace eis::sofa::stuffing {

namespace {

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

}  // namespace

long long Stuffer::splitPoint(long long from, long long to) {
  auto it = splits.find({from, to});
  if (it == splits.end()) it = splits.find({to, from});
  if (it != splits.end()) return it->second;
  result.warnings.push_back("cut point between " + std::to_string(from) + " and " +
                            std::to_string(to) + " not found");
  return from;
}

void Stuffer::addFinal(long long p1, long long p2, long long p3, long long p4, bool flip) {
  if (flip) std::swap(p3, p4);
  if (volume6(out[p1], out[p2], out[p3], out[p4]) < 0) std::swap(p3, p4);
  result.tetrahedra.push_back({p1, p2, p3, p4});
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

}  // namespace eis::sofa::stuffing
