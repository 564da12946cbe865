#include "eis/model/corotational_fem.hpp"

#include <cmath>

#include "eis/model/mat3.hpp"
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

using mat3::minus;

// SOFA's "large" frame (computeRotationLarge): rows are the element axes, so it maps world to
// element coordinates.
Mat3 largeFrame(const Vec3& p0, const Vec3& p1, const Vec3& p2) {
  const Vec3 ex = normalized(minus(p1, p0));
  const Vec3 ez = normalized(cross(ex, minus(p2, p0)));
  return rowsOf(ex, cross(ez, ex), ez);
}

Vec3 point(const double* x, PetscInt vertex) {
  return {x[3 * vertex], x[3 * vertex + 1], x[3 * vertex + 2]};
}

}  // namespace

CorotationalFEM::CorotationalFEM(const Cells& cells, const CellShapes& shapes,
                                 std::vector<double> rest, std::vector<LameParameters> lame,
                                 RotationMethod method, Plasticity plasticity)
    : cells_(cells), lame_(std::move(lame)), method_(method), plasticity_(plasticity) {
  requireTetrahedra(cells, "the corotational tetrahedron (SOFA's TetrahedronFEMForceField)");
  restElements_.resize(cells_.size());
  frames_.resize(cells_.size());
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    // polar-gradient: F = I at rest, its rotation I (SOFA takes it so, not computing it).
    const Mat3 r0 =
        method_ == RotationMethod::PolarGradient ? mat3::kIdentity : frame(c, rest.data());
    frames_[c] = r0;
    RestElement& e = restElements_[c];
    const Vec3 origin = point(rest.data(), cells_[c][0]);
    for (int a = 1; a < 4; ++a)
      e.edges[a - 1] = times(r0, minus(point(rest.data(), cells_[c][a]), origin));
    // SOFA builds B from the rotated rest element; rotating the world gradients is the same B.
    const TetraShape shape = shapes[c];
    for (int a = 0; a < 4; ++a) e.gradients[a] = times(r0, shape.gradients[a]);
    e.volume = shape.volume;
    if (method_ == RotationMethod::Svd)
      restDeterminants_.push_back(edgeDeterminant(c, rest.data()));
  }
  if (plasticity_.enabled()) plasticStrains_.assign(cells_.size(), Strain{});
}

void CorotationalFEM::setCellMaterials(std::vector<LameParameters> lame) {
  if (lame.size() != cells_.size())
    throw Error("the corotational tetrahedra were given " + std::to_string(lame.size()) +
                " materials for " + std::to_string(cells_.size()) + " cells");
  lame_ = std::move(lame);
}

double CorotationalFEM::edgeDeterminant(std::size_t cell, const double* x) const {
  const auto& v = cells_[cell];
  const Vec3 p0 = point(x, v[0]);
  const Vec3 a = minus(point(x, v[1]), p0), b = minus(point(x, v[2]), p0),
             c = minus(point(x, v[3]), p0);
  return a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
         a[2] * (b[0] * c[1] - b[1] * c[0]);
}

CorotationalFEM::Mat3 CorotationalFEM::frame(std::size_t cell, const double* x) const {
  const auto& v = cells_[cell];
  const Vec3 p0 = point(x, v[0]), p1 = point(x, v[1]), p2 = point(x, v[2]);
  if (method_ == RotationMethod::Large) return largeFrame(p0, p1, p2);
  if (method_ == RotationMethod::PolarGradient) {
    // F_kl = sum_a (x_a - x_0)_k (grad N_a)_l, the rest gradients in the world (R0 = I), summed
    // in SOFA's order; the frame is R^T, R the polar factor of F.
    const auto& g = restElements_[cell].gradients;
    Mat3 f{};
    for (int a = 1; a < 4; ++a) {
      const Vec3 e = minus(point(x, v[a]), p0);
      for (int k = 0; k < 3; ++k)
        for (int l = 0; l < 3; ++l) f[3 * k + l] += e[k] * g[a][l];
    }
    const Mat3 r = sofaPolarRotation(f);
    return {r[0], r[3], r[6], r[1], r[4], r[7], r[2], r[5], r[8]};
  }
  // svd: polar's frame (accumulateForceSVD's det F >= 1e-6 branch; addForce refuses the other).
  return sofaPolarRotation(rowsOf(minus(p1, p0), minus(p2, p0), minus(point(x, v[3]), p0)));
}

// d_a = R0 (X_a - X_0) - R (x_a - x_0): SOFA's D, rest minus current, in the element frame.
CorotationalFEM::Nodal CorotationalFEM::corotatedDisplacement(std::size_t cell, const Mat3& r,
                                                              const double* x) const {
  const auto& v = cells_[cell];
  const auto& edges = restElements_[cell].edges;
  const Vec3 origin = point(x, v[0]);
  Nodal d{};
  for (int a = 1; a < 4; ++a) d[a] = minus(edges[a - 1], times(r, minus(point(x, v[a]), origin)));
  return d;
}

CorotationalFEM::Strain CorotationalFEM::strain(const Nodal& g, const Nodal& d) const {
  Strain e{};
  for (int a = 0; a < 4; ++a) {
    addVertexStrain(e, g[a].data(), d[a].data());
  }
  return e;
}

CorotationalFEM::Nodal CorotationalFEM::nodalForces(const Nodal& g, const Strain& s, double w) {
  Nodal f;
  for (int a = 0; a < 4; ++a)
    f[a] = {w * (g[a][0] * s[0] + g[a][1] * s[3] + g[a][2] * s[5]),
            w * (g[a][1] * s[1] + g[a][0] * s[3] + g[a][2] * s[4]),
            w * (g[a][2] * s[2] + g[a][1] * s[4] + g[a][0] * s[5])};
  return f;
}

void CorotationalFEM::scatterRotated(std::size_t cell, const Mat3& r, const Nodal& local,
                                     double* f) const {
  for (int a = 0; a < 4; ++a) {
    const Vec3 world = transposeTimes(r, local[a]);
    const PetscInt base = 3 * cells_[cell][a];
    for (int i = 0; i < 3; ++i) f[base + i] += world[i];
  }
}

void CorotationalFEM::addForce(const double* x, const double*, double* f) {
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    if (method_ == RotationMethod::Svd) {
      const double J = edgeDeterminant(c, x) / restDeterminants_[c];
      if (J < 1e-6)
        throw InvertedElement(c, J,
                              "an element inverted or flattened (det F < 1e-6), where SOFA's svd "
                              "method switches to a stable SVD, which is not implemented");
    }
    frames_[c] = frame(c, x);
    const auto& g = restElements_[c].gradients;
    // K0 d with d = rest - current: the restoring force, in the element frame.
    Strain e = strain(g, corotatedDisplacement(c, frames_[c], x));
    if (plasticity_.enabled())
      e = plasticUpdate(plasticity_, 6 * restElements_[c].volume, e, plasticStrains_[c]);
    const Strain s = hookeStress(lame_[c], e);
    scatterRotated(c, frames_[c], nodalForces(g, s, restElements_[c].volume), f);
  }
}

void CorotationalFEM::addDForce(const double* dx, double* df, double kFactor) const {
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    const Mat3& r = frames_[c];
    Nodal local;
    for (int a = 0; a < 4; ++a) local[a] = times(r, point(dx, cells_[c][a]));
    const auto& g = restElements_[c].gradients;
    const Strain s = hookeStress(lame_[c], strain(g, local));
    scatterRotated(c, r, nodalForces(g, s, -kFactor * restElements_[c].volume), df);
  }
}

void CorotationalFEM::addKToElementMatrices(double* elementMatrices, double kFactor,
                                            CellRange range) const {
  // K0's block (a, b) is |V| (lambda g_a g_b^T + mu g_b g_a^T + mu (g_a . g_b) I); C being
  // isotropic, R^T K0_ab R is the same expression in the gradients turned back to the world,
  // G_a = R^T g_a. That is SOFA's Rot K0 Rot^T at a fraction of the cost of 12x12 products.
  for (std::size_t c = range.begin; c < range.end; ++c) {
    double* block = elementMatrices + (c - range.begin) * 144;
    Nodal G;
    for (int a = 0; a < 4; ++a) G[a] = transposeTimes(frames_[c], restElements_[c].gradients[a]);
    const double w = -kFactor * restElements_[c].volume;
    const LameParameters& lame = lame_[c];
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) {
        const double shear = lame.mu * dot(G[a], G[b]);
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) {
            const double k = lame.lambda * G[a][i] * G[b][j] + lame.mu * G[b][i] * G[a][j];
            block[(3 * a + i) * 12 + 3 * b + j] += w * (i == j ? k + shear : k);
          }
      }
  }
}

double CorotationalFEM::potentialEnergy(const double* x) const {
  double energy = 0;
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    const Strain e = strain(restElements_[c].gradients, corotatedDisplacement(c, frame(c, x), x));
    const Strain s = hookeStress(lame_[c], e);
    double density = 0;
    for (int i = 0; i < 6; ++i) density += e[i] * s[i];
    energy += 0.5 * restElements_[c].volume * density;
  }
  return energy;
}

std::vector<double> CorotationalFEM::vonMisesStress(const double* x) const {
  std::vector<double> result(cells_.size());
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    const Strain s = hookeStress(
        lame_[c], strain(restElements_[c].gradients, corotatedDisplacement(c, frame(c, x), x)));
    result[c] = vonMises(s);
  }
  return result;
}

}  // namespace eis
