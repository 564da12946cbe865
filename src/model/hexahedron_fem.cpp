#include "eis/model/hexahedron_fem.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <sstream>
#include <string_view>
#include <unordered_map>

#include "eis/core/vector_clones.hpp"
#include "eis/model/composite_hexahedron.hpp"
#include "eis/model/mat3.hpp"
#include "eis/model/nonuniform_hexahedron.hpp"
#include "eis/model/sofa_polar.hpp"

namespace eis {

namespace {

using mat3::cross;
using mat3::dot;
using mat3::Mat3;
using mat3::normalized;
using mat3::rowsOf;
using mat3::times;
using mat3::transposeTimes;
constexpr int kN = HexahedronFEM::kVertices;
constexpr int kD = HexahedronFEM::kDofs;
using Nodal = std::array<Vec3, kN>;

// s_a: vertex a's reference coordinates, in SOFA's vertex order (its _coef).
constexpr int kSign[kN][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                              {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};

using mat3::minus;
using mat3::norm;
double determinant(const Mat3& m) {
  return m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
         m[2] * (m[3] * m[7] - m[4] * m[6]);
}
Mat3 inverse(const Mat3& m, double det) {
  return {(m[4] * m[8] - m[5] * m[7]) / det, (m[2] * m[7] - m[1] * m[8]) / det,
          (m[1] * m[5] - m[2] * m[4]) / det, (m[5] * m[6] - m[3] * m[8]) / det,
          (m[0] * m[8] - m[2] * m[6]) / det, (m[2] * m[3] - m[0] * m[5]) / det,
          (m[3] * m[7] - m[4] * m[6]) / det, (m[1] * m[6] - m[0] * m[7]) / det,
          (m[0] * m[4] - m[1] * m[3]) / det};
}

// The element's mean edge along reference axis k: SOFA's 1/4 of the sum of its four edges
// along k (0->1 + 3->2 + 4->5 + 7->6 for k = 0), the sum of s_ak p_a / 4.
Vec3 meanEdge(const Nodal& p, int k) {
  Vec3 e{0, 0, 0};
  for (int a = 0; a < kN; ++a)
    for (int i = 0; i < 3; ++i) e[i] += 0.25 * kSign[a][k] * p[a][i];
  return e;
}

// dN_a / dxi_k at reference point xi.
double shapeDerivative(int a, int k, const Vec3& xi) {
  double d = kSign[a][k] / 8.0;
  for (int m = 0; m < 3; ++m)
    if (m != k) d *= 1 + kSign[a][m] * xi[m];
  return d;
}

// J(i, k) = dX_i / dxi_k at reference point xi.
Mat3 jacobian(const Nodal& p, const Vec3& xi) {
  Mat3 j{};
  for (int a = 0; a < kN; ++a)
    for (int k = 0; k < 3; ++k) {
      const double d = shapeDerivative(a, k, xi);
      for (int i = 0; i < 3; ++i) j[3 * i + k] += p[a][i] * d;
    }
  return j;
}

// grad N_a = J^-T dN_a/dxi at reference point xi, given J^-1 there.
Nodal gradients(const Mat3& jInverse, const Vec3& xi) {
  Nodal g;
  for (int a = 0; a < kN; ++a) {
    const Vec3 dxi{shapeDerivative(a, 0, xi), shapeDerivative(a, 1, xi), shapeDerivative(a, 2, xi)};
    for (int i = 0; i < 3; ++i)
      g[a][i] = dxi[0] * jInverse[i] + dxi[1] * jInverse[3 + i] + dxi[2] * jInverse[6 + i];
  }
  return g;
}

// SOFA's test for a parallelepiped: the far vertices are the near ones shifted by an edge, to
// within 0.1% of that edge.
bool isParallelepiped(const Nodal& p) {
  const Vec3 lx = minus(p[1], p[0]), lz = minus(p[4], p[0]);
  const auto near = [](const Vec3& a, const Vec3& shift, const Vec3& b, const Vec3& edge) {
    return norm(minus(Vec3{a[0] + shift[0], a[1] + shift[1], a[2] + shift[2]}, b)) <
           norm(edge) * 0.001;
  };
  return near(p[3], lx, p[2], lx) && near(p[0], lz, p[4], lz) && near(p[1], lz, p[5], lz) &&
         near(p[2], lz, p[6], lz) && near(p[3], lz, p[7], lz);
}

// SOFA's computeElementStiffness: K = sum over the 2x2x2 Gauss points of det J B^T C B, block
// (a, b) being lambda g_a g_b^T + mu g_b g_a^T + mu (g_a . g_b) I at each point. SOFA takes
// det J with its sign, so an element whose vertices are not in its order (or a mirrored one in
// a proper rotation's frame) would get a stiffness of the wrong sign: refused here.
HexahedronFEM::Stiffness elementStiffness(std::size_t cell, const Nodal& p,
                                          const LameParameters& lame) {
  const bool parallel = isParallelepiped(p);
  Mat3 edgeJacobian{};
  if (parallel) {
    const Vec3 lx = minus(p[1], p[0]), ly = minus(p[3], p[0]), lz = minus(p[4], p[0]);
    edgeJacobian = {lx[0] / 2, ly[0] / 2, lz[0] / 2, lx[1] / 2, ly[1] / 2,
                    lz[1] / 2, lx[2] / 2, ly[2] / 2, lz[2] / 2};
  }
  const double h = 1 / std::sqrt(3.0);
  HexahedronFEM::Stiffness k{};
  for (int g1 = -1; g1 <= 1; g1 += 2)
    for (int g2 = -1; g2 <= 1; g2 += 2)
      for (int g3 = -1; g3 <= 1; g3 += 2) {
        const Vec3 xi{g1 * h, g2 * h, g3 * h};
        const Mat3 j = parallel ? edgeJacobian : jacobian(p, xi);
        const double det = determinant(j);
        if (!(det > 0)) {
          std::ostringstream message;
          message << "hexahedron " << cell << " has det J = " << det
                  << " at a Gauss point of its rest shape: its vertices are not in SOFA's order "
                     "(x, y, z), (x+1, y, z), (x+1, y+1, z), (x, y+1, z), then the same at z+1, "
                     "or it is degenerate";
          throw InvertedElement(cell, det, message.str());
        }
        const Nodal g = gradients(inverse(j, det), xi);
        for (int a = 0; a < kN; ++a)
          for (int b = 0; b < kN; ++b) {
            const double shear = lame.mu * dot(g[a], g[b]);
            for (int i = 0; i < 3; ++i)
              for (int m = 0; m < 3; ++m) {
                const double v = lame.lambda * g[a][i] * g[b][m] + lame.mu * g[b][i] * g[a][m];
                k[(3 * a + i) * kD + 3 * b + m] += det * (i == m ? v + shear : v);
              }
          }
      }
  return k;
}

Vec3 point(const double* x, PetscInt vertex) {
  return {x[3 * vertex], x[3 * vertex + 1], x[3 * vertex + 2]};
}

HexahedronFEM::Stiffness refinedStiffness(std::size_t cell, const std::array<Vec3, 8>& shape,
                                          const LameParameters& lame,
                                          const HexahedronRefinement& refinement) {
  const double* factors = refinement.factors.data() + (cell << (3 * refinement.levels));
  if (refinement.homogenisation == FinerHomogenisation::Trilinear)
    return condensedHexahedronStiffness(cell, shape, lame, refinement.levels, factors);
  return compositeHexahedron(shape, lame, 0, refinement.levels, factors, CompositeWeights::None)
      .stiffness;
}

}  // namespace

HexahedronFEM::Stiffness hexahedronStiffness(std::size_t cell, const std::array<Vec3, 8>& shape,
                                             const LameParameters& lame) {
  return elementStiffness(cell, shape, lame);
}

HexahedronFEM::HexahedronFEM(const Cells& cells, std::vector<double> rest,
                             std::vector<LameParameters> lame, HexahedronMethod method,
                             const HexahedronRefinement* refinement)
    : cells_(cells), lame_(std::move(lame)), method_(method) {
  if (cells.type() != CellType::Hexahedron)
    throw Error("internal: HexahedronFEM made on " + pluralNameOf(cells.type()));
  restElements_.resize(cells_.size());
  frames_.resize(cells_.size());
  // The indices in stiffnesses_ of the K0 whose bits hash to a key.
  std::unordered_map<std::size_t, std::vector<std::size_t>> byHash;
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    const Mat3 r0 = frame(c, rest.data());
    frames_[c] = r0;
    RestElement& e = restElements_[c];
    const Vec3 origin = point(rest.data(), cells_[c][0]);
    for (int a = 0; a < kN; ++a)
      e.shape[a] = times(r0, minus(point(rest.data(), cells_[c][a]), origin));
    const Stiffness k = refinement && refinement->levels > 0
                            ? refinedStiffness(c, e.shape, lame_[c], *refinement)
                            : elementStiffness(c, e.shape, lame_[c]);
    const std::string_view bits(reinterpret_cast<const char*>(k.data()), sizeof k);
    std::vector<std::size_t>& same = byHash[std::hash<std::string_view>{}(bits)];
    const auto found = std::find_if(same.begin(), same.end(), [&](std::size_t s) {
      return std::memcmp(stiffnesses_[s].data(), k.data(), sizeof k) == 0;
    });
    if (found != same.end()) {
      e.stiffness = *found;
    } else {
      e.stiffness = stiffnesses_.size();
      same.push_back(e.stiffness);
      stiffnesses_.push_back(k);
    }
    const Vec3 centre{0, 0, 0};
    const Mat3 j = jacobian(e.shape, centre);
    e.centreGradients = gradients(inverse(j, determinant(j)), centre);
  }
}

HexahedronFEM::Mat3 HexahedronFEM::frame(std::size_t cell, const double* x) const {
  if (method_ == HexahedronMethod::Small) return {1, 0, 0, 0, 1, 0, 0, 0, 1};
  Nodal p;
  for (int a = 0; a < kN; ++a) p[a] = point(x, cells_[cell][a]);
  const Vec3 u = meanEdge(p, 0), v = meanEdge(p, 1);
  if (method_ == HexahedronMethod::Large) {
    // SOFA's computeRotationLarge.
    const Vec3 ex = normalized(u);
    const Vec3 ez = normalized(cross(ex, v));
    return rowsOf(ex, cross(ez, ex), ez);
  }
  return sofaPolarRotation(rowsOf(u, v, meanEdge(p, 2)));
}

std::array<double, HexahedronFEM::kDofs> HexahedronFEM::corotatedDisplacement(
    std::size_t cell, const Mat3& r, const double* x) const {
  const auto& v = cells_[cell];
  const Nodal& shape = restElements_[cell].shape;
  const Vec3 origin = point(x, v[0]);
  std::array<double, kD> d;
  for (int a = 0; a < kN; ++a) {
    const Vec3 turned = times(r, minus(point(x, v[a]), origin));
    for (int i = 0; i < 3; ++i) d[3 * a + i] = shape[a][i] - turned[i];
  }
  return d;
}

void HexahedronFEM::scatterForce(std::size_t cell, const Mat3& r, const std::array<double, kD>& d,
                                 double scale, double* f) const {
  const auto& k = stiffnesses_[restElements_[cell].stiffness];
  for (int a = 0; a < kN; ++a) {
    Vec3 local{0, 0, 0};
    for (int i = 0; i < 3; ++i) {
      const double* row = k.data() + (3 * a + i) * kD;
      for (int m = 0; m < kD; ++m) local[i] += row[m] * d[m];
    }
    const Vec3 world = transposeTimes(r, local);
    const PetscInt base = 3 * cells_[cell][a];
    for (int i = 0; i < 3; ++i) f[base + i] += scale * world[i];
  }
}

void HexahedronFEM::addForce(const double* x, const double*, double* f) {
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    if (method_ != HexahedronMethod::Small) frames_[c] = frame(c, x);
    scatterForce(c, frames_[c], corotatedDisplacement(c, frames_[c], x), 1.0, f);
  }
}

void HexahedronFEM::addDForce(const double* dx, double* df, double kFactor) const {
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    const Mat3& r = frames_[c];
    std::array<double, kD> local;
    for (int a = 0; a < kN; ++a) {
      const Vec3 turned = times(r, point(dx, cells_[c][a]));
      for (int i = 0; i < 3; ++i) local[3 * a + i] = turned[i];
    }
    scatterForce(c, r, local, -kFactor, df);
  }
}

namespace {

// block -= kFactor R^T K0 R, block by 3x3 block as SOFA turns K0: T = K0_ab R, then R^T T. The
// loops over the 64 blocks take most of an assembly's arithmetic: compiled for AVX2 too.
EIS_VECTOR_CLONES void addTurnedStiffness(double* block, const Mat3& r,
                                          const HexahedronFEM::Stiffness& k, double kFactor) {
  for (int a = 0; a < kN; ++a)
    for (int b = 0; b < kN; ++b) {
      Mat3 t{};
      for (int i = 0; i < 3; ++i)
        for (int m = 0; m < 3; ++m)
          for (int n = 0; n < 3; ++n)
            t[3 * i + n] += k[(3 * a + i) * kD + 3 * b + m] * r[3 * m + n];
      for (int i = 0; i < 3; ++i)
        for (int n = 0; n < 3; ++n) {
          double sum = 0;
          for (int m = 0; m < 3; ++m) sum += r[3 * m + i] * t[3 * m + n];
          block[(3 * a + i) * kD + 3 * b + n] -= kFactor * sum;
        }
    }
}

}  // namespace

void HexahedronFEM::addKToElementMatrices(double* elementMatrices, double kFactor,
                                          CellRange range) const {
  for (std::size_t c = range.begin; c < range.end; ++c)
    addTurnedStiffness(elementMatrices + (c - range.begin) * kD * kD, frames_[c],
                       stiffnesses_[restElements_[c].stiffness], kFactor);
}

double HexahedronFEM::potentialEnergy(const double* x) const {
  double energy = 0;
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    const auto d = corotatedDisplacement(c, frame(c, x), x);
    const auto& k = stiffnesses_[restElements_[c].stiffness];
    for (int i = 0; i < kD; ++i)
      for (int m = 0; m < kD; ++m) energy += 0.5 * d[i] * k[i * kD + m] * d[m];
  }
  return energy;
}

std::vector<double> HexahedronFEM::vonMisesStress(const double* x) const {
  std::vector<double> result(cells_.size());
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    // d is rest minus current: the strain of -d, though von Mises does not see the sign.
    const auto d = corotatedDisplacement(c, frame(c, x), x);
    Voigt e{};
    for (int a = 0; a < kN; ++a) {
      const double u[3] = {-d[3 * a], -d[3 * a + 1], -d[3 * a + 2]};
      addVertexStrain(e, restElements_[c].centreGradients[a].data(), u);
    }
    result[c] = vonMises(hookeStress(lame_[c], e));
  }
  return result;
}

HexahedronMass sofaHexahedronMass(const std::array<Vec3, 8>& rest, double density) {
  // V is a product of lengths: the same in the element's frame, where SOFA computes it.
  const double volume =
      norm(minus(rest[1], rest[0])) * norm(minus(rest[3], rest[0])) * norm(minus(rest[4], rest[0]));
  // integrateMass's polynomial with every vertex sign squared to 1, its terms in its order and
  // times the density, then times V: the same bits as SOFA's entries.
  const double integral =
      1.0 / 72 + 1.0 / 72 + 1.0 / 216 + 1.0 / 24 + 1.0 / 8 + 1.0 / 72 + 1.0 / 24 + 1.0 / 24;
  HexahedronMass m;
  m.consistent.fill(volume * (integral * density));
  for (int a = 0; a < kN; ++a) {
    m.lumped[a] = 0;
    for (int b = 0; b < kN; ++b) m.lumped[a] += m.consistent[a * kN + b];
  }
  m.gravity.fill(volume * density / 8);
  return m;
}

}  // namespace eis
