#include "eis/model/composite_hexahedron.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "eis/core/error.hpp"

namespace eis {

namespace {

constexpr int kSlots = 27;
constexpr int kFine = 3 * kSlots;  // the 27 vertices' dofs
constexpr int kCoarse = 24;
constexpr int kFree = kFine - kCoarse;

// Vertex a's corner of the unit cube, in SOFA's vertex order.
constexpr int kCorner[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                               {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};

// The slot of vertex a of child w.
int slotOf(int child, int vertex) {
  const int x = (child & 1) + kCorner[vertex][0];
  const int y = (child >> 1 & 1) + kCorner[vertex][1];
  const int z = (child >> 2 & 1) + kCorner[vertex][2];
  return x + 3 * y + 9 * z;
}

// The slot of the cell's corner a, and the corner at a slot (-1: none).
int cornerSlot(int corner) {
  return 2 * slotOf(0, corner);
}
int cornerAt(int slot) {
  for (int a = 0; a < 8; ++a)
    if (cornerSlot(a) == slot) return a;
  return -1;
}

using Nodal = std::array<Vec3, 8>;

Nodal childShape(const Nodal& parent, int child) {
  Nodal out{};
  for (int k = 0; k < 8; ++k) {
    double at[3];
    for (int i = 0; i < 3; ++i) at[i] = ((child >> i & 1) + kCorner[k][i]) / 2.0;
    for (int j = 0; j < 8; ++j) {
      double w = 1;
      for (int i = 0; i < 3; ++i) w *= kCorner[j][i] ? at[i] : 1 - at[i];
      for (int i = 0; i < 3; ++i) out[k][i] += w * parent[j][i];
    }
  }
  return out;
}

bool anyKept(const double* factors, std::size_t count) {
  return std::any_of(factors, factors + count, [](double f) { return f != 0; });
}

// Adds a child's 24 x 24 matrix into the 81 x 81 assembly `to`.
void assemble(std::vector<double>& to, int child, const ElementMatrix& m) {
  for (int j = 0; j < 8; ++j)
    for (int k = 0; k < 8; ++k) {
      const int v1 = slotOf(child, j), v2 = slotOf(child, k);
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b)
          to[(3 * v1 + a) * kFine + 3 * v2 + b] += m[(3 * j + a) * kCoarse + 3 * k + b];
    }
}

// Solves a x = b in place (a n x n, b n x r, row-major) by Gaussian elimination with partial
// pivoting.
void solve(std::vector<double>& a, std::vector<double>& b, int n, int r) {
  for (int c = 0; c < n; ++c) {
    int pivot = c;
    for (int i = c + 1; i < n; ++i)
      if (std::abs(a[i * n + c]) > std::abs(a[pivot * n + c])) pivot = i;
    if (a[pivot * n + c] == 0)
      throw Error("internal: a composite hexahedron's free vertices have a singular stiffness");
    if (pivot != c) {
      for (int j = 0; j < n; ++j) std::swap(a[c * n + j], a[pivot * n + j]);
      for (int j = 0; j < r; ++j) std::swap(b[c * r + j], b[pivot * r + j]);
    }
    for (int i = c + 1; i < n; ++i) {
      const double f = a[i * n + c] / a[c * n + c];
      if (f == 0) continue;
      for (int j = c; j < n; ++j) a[i * n + j] -= f * a[c * n + j];
      for (int j = 0; j < r; ++j) b[i * r + j] -= f * b[c * r + j];
    }
  }
  for (int c = n - 1; c >= 0; --c)
    for (int j = 0; j < r; ++j) {
      double sum = b[c * r + j];
      for (int k = c + 1; k < n; ++k) sum -= a[c * n + k] * b[k * r + j];
      b[c * r + j] = sum / a[c * n + c];
    }
}

// W^T A W for an 81 x 81 A and an 81 x 24 W.
ElementMatrix pulledBack(const std::vector<double>& a, const std::vector<double>& w) {
  std::vector<double> aw(kFine * kCoarse, 0.0);
  for (int i = 0; i < kFine; ++i)
    for (int k = 0; k < kFine; ++k) {
      const double v = a[i * kFine + k];
      if (v == 0) continue;
      for (int j = 0; j < kCoarse; ++j) aw[i * kCoarse + j] += v * w[k * kCoarse + j];
    }
  ElementMatrix out{};
  for (int i = 0; i < kCoarse; ++i)
    for (int k = 0; k < kFine; ++k) {
      const double v = w[k * kCoarse + i];
      if (v == 0) continue;
      for (int j = 0; j < kCoarse; ++j) out[i * kCoarse + j] += v * aw[k * kCoarse + j];
    }
  return out;
}

ElementMatrix product(const ElementMatrix& a, const ElementMatrix& b) {
  ElementMatrix out{};
  for (int i = 0; i < kCoarse; ++i)
    for (int k = 0; k < kCoarse; ++k) {
      const double v = a[i * kCoarse + k];
      if (v == 0) continue;
      for (int j = 0; j < kCoarse; ++j) out[i * kCoarse + j] += v * b[k * kCoarse + j];
    }
  return out;
}

struct Context {
  const LameParameters& lame;
  double density;
  CompositeWeights weights;
};

// The cell's matrices and (with weights) its finest cells' weights in its own dofs.
CompositeHexahedron condense(const Context& context, const Nodal& shape, int levels,
                             const double* factors) {
  CompositeHexahedron out;
  if (levels == 0) {
    out.stiffness = hexahedronStiffness(0, shape, context.lame);
    for (double& v : out.stiffness) v *= factors[0];
    const std::array<double, 64> m = sofaHexahedronMass(shape, context.density).consistent;
    for (int a = 0; a < 8; ++a)
      for (int b = 0; b < 8; ++b)
        for (int i = 0; i < 3; ++i)
          out.mass[(3 * a + i) * kCoarse + 3 * b + i] = m[8 * a + b] * factors[0];
    if (context.weights != CompositeWeights::None) {
      ElementMatrix identity{};
      for (int i = 0; i < kCoarse; ++i) identity[i * kCoarse + i] = 1;
      out.finestWeights.push_back(identity);
    }
    return out;
  }
  const std::size_t stride = std::size_t(1) << (3 * (levels - 1));
  std::vector<double> stiffness(kFine * kFine, 0.0), withRigid(kFine * kFine, 0.0),
      mass(kFine * kFine, 0.0);
  std::array<CompositeHexahedron, 8> children;
  std::array<bool, 8> kept{};
  for (int w = 0; w < 8; ++w) {
    kept[w] = anyKept(factors + w * stride, stride);
    if (!kept[w]) {
      assemble(withRigid, w, rigidHexahedronStiffness());
      continue;
    }
    children[w] = condense(context, childShape(shape, w), levels - 1, factors + w * stride);
    assemble(stiffness, w, children[w].stiffness);
    assemble(withRigid, w, children[w].stiffness);
    assemble(mass, w, children[w].mass);
  }
  // The free vertices' equilibrium with the corners held: K_ff X = -K_fc.
  std::vector<int> freeDof, fixedDof;
  for (int s = 0; s < kSlots; ++s)
    for (int i = 0; i < 3; ++i) (cornerAt(s) < 0 ? freeDof : fixedDof).push_back(3 * s + i);
  std::vector<double> kff(kFree * kFree), x(kFree * kCoarse, 0.0);
  for (int i = 0; i < kFree; ++i) {
    for (int j = 0; j < kFree; ++j) kff[i * kFree + j] = withRigid[freeDof[i] * kFine + freeDof[j]];
    for (int a = 0; a < 8; ++a)
      for (int c = 0; c < 3; ++c)
        x[i * kCoarse + 3 * a + c] = -withRigid[freeDof[i] * kFine + 3 * cornerSlot(a) + c];
  }
  solve(kff, x, kFree, kCoarse);
  std::vector<double> complete(kFine * kCoarse, 0.0);
  for (int a = 0; a < 8; ++a)
    for (int c = 0; c < 3; ++c) complete[(3 * cornerSlot(a) + c) * kCoarse + 3 * a + c] = 1;
  for (int i = 0; i < kFree; ++i)
    for (int j = 0; j < kCoarse; ++j) complete[freeDof[i] * kCoarse + j] = x[i * kCoarse + j];
  std::vector<double> masked(kFine * kCoarse, 0.0);
  for (int s = 0; s < kSlots; ++s)
    for (int c = 0; c < 3; ++c) {
      const int row = 3 * s + c;
      double sum = 0;
      for (int a = 0; a < 8; ++a)
        if (compositeSupport(s, a)) sum += complete[row * kCoarse + 3 * a + c];
      for (int a = 0; a < 8; ++a)
        if (compositeSupport(s, a))
          masked[row * kCoarse + 3 * a + c] = complete[row * kCoarse + 3 * a + c] / sum;
    }
  out.stiffness = pulledBack(stiffness, masked);
  out.mass = pulledBack(mass, masked);
  if (context.weights == CompositeWeights::None) return out;
  const std::vector<double>& levelWeights =
      context.weights == CompositeWeights::Complete ? complete : masked;
  out.finestWeights.assign(8 * stride, ElementMatrix{});
  for (int w = 0; w < 8; ++w) {
    if (!kept[w]) continue;
    ElementMatrix child{};
    for (int k = 0; k < 8; ++k)
      for (int c = 0; c < 3; ++c)
        std::copy_n(&levelWeights[(3 * slotOf(w, k) + c) * kCoarse], kCoarse,
                    &child[(3 * k + c) * kCoarse]);
    for (std::size_t f = 0; f < stride; ++f)
      out.finestWeights[w * stride + f] = product(children[w].finestWeights[f], child);
  }
  return out;
}

}  // namespace

bool compositeSupport(int slot, int corner) {
  const int at[3] = {slot % 3, slot / 3 % 3, slot / 9};
  for (int i = 0; i < 3; ++i)
    if (at[i] != 1 && at[i] != 2 * kCorner[corner][i]) return false;
  return true;
}

const ElementMatrix& rigidHexahedronStiffness() {
  static const ElementMatrix table = [] {
    const Nodal cube{Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{1, 1, 0}, Vec3{0, 1, 0},
                     Vec3{0, 0, 1}, Vec3{1, 0, 1}, Vec3{1, 1, 1}, Vec3{0, 1, 1}};
    const double young = 1.02e12;
    const HexahedronFEM::Stiffness k = hexahedronStiffness(0, cube, LameParameters{0, young / 2});
    ElementMatrix out;
    for (std::size_t i = 0; i < out.size(); ++i) {
      char text[32];
      std::snprintf(text, sizeof text, "%.5e", k[i]);
      out[i] = double(float(std::strtod(text, nullptr)));
    }
    return out;
  }();
  return table;
}

CompositeHexahedron compositeHexahedron(const std::array<Vec3, 8>& shape,
                                        const LameParameters& lame, double density, int levels,
                                        const double* factors, CompositeWeights weights) {
  if (levels < 0 || levels > 8)
    throw Error("internal: a composite hexahedron of " + std::to_string(levels) + " levels");
  return condense(Context{lame, density, weights}, shape, levels, factors);
}

}  // namespace eis
