#include "eis/model/triangular_bending_springs.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "eis/model/boundary_bending_springs.hpp"

namespace eis {

namespace {

Vec3 difference(const double* w, PetscInt a, PetscInt b) {
  return {w[3 * b] - w[3 * a], w[3 * b + 1] - w[3 * a + 1], w[3 * b + 2] - w[3 * a + 2]};
}

}  // namespace

std::vector<BendingSpring> bendingSprings(const std::vector<Triangle>& triangles,
                                          const std::vector<Vec3>& rest) {
  // Each edge (sorted pair) with the triangles holding it and the vertex opposite it in each.
  struct Holders {
    std::size_t first;  // the order of discovery: the first triangle's index, then the edge's
    int slot;
    std::vector<PetscInt> opposite;
  };
  std::map<std::pair<PetscInt, PetscInt>, Holders> edges;
  for (std::size_t t = 0; t < triangles.size(); ++t)
    for (int k = 0; k < 3; ++k) {
      // SOFA's edge k of a triangle is the one opposite its vertex k.
      const PetscInt p = triangles[t][(k + 1) % 3], q = triangles[t][(k + 2) % 3];
      auto [it, fresh] = edges.try_emplace({std::min(p, q), std::max(p, q)}, Holders{t, k, {}});
      it->second.opposite.push_back(triangles[t][k]);
    }
  std::vector<std::pair<std::pair<std::size_t, int>, BendingSpring>> found;
  for (const auto& [edge, h] : edges) {
    if (h.opposite.size() != 2) continue;
    const PetscInt m1 = h.opposite[1], m2 = h.opposite[0];
    const Vec3& p = rest[m1];
    const Vec3& q = rest[m2];
    const double l = std::sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) +
                               (p[2] - q[2]) * (p[2] - q[2]));
    found.push_back({{h.first, h.slot}, BendingSpring{m1, m2, l}});
  }
  std::sort(found.begin(), found.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<BendingSpring> springs;
  springs.reserve(found.size());
  for (const auto& s : found) springs.push_back(s.second);
  return springs;
}

TriangularBendingSprings::TriangularBendingSprings(std::vector<BendingSpring> springs,
                                                   double stiffness, double damping,
                                                   double shortest)
    : springs_(std::move(springs)),
      tangents_(springs_.size(), mat3::Mat3{}),
      stiffness_(stiffness),
      damping_(damping),
      shortest_(shortest) {}

void TriangularBendingSprings::addForce(const double* x, const double* v, double* f) {
  for (std::size_t i = 0; i < springs_.size(); ++i) {
    const auto& s = springs_[i];
    Vec3 u = difference(x, s.a, s.b);
    const double l = std::sqrt(mat3::dot(u, u));
    mat3::Mat3& m = tangents_[i];
    if (l <= shortest_) {
      m = {};
      continue;
    }
    for (double& c : u) c /= l;
    const double speed = v && damping_ != 0 ? mat3::dot(u, difference(v, s.a, s.b)) : 0;
    const double force = stiffness_ * (l - s.restLength) + damping_ * speed;
    for (int c = 0; c < 3; ++c) {
      f[3 * s.a + c] += force * u[c];
      f[3 * s.b + c] -= force * u[c];
    }
    const double tgt = force / l;
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) m[3 * j + k] = (stiffness_ - tgt) * u[j] * u[k] + (j == k) * tgt;
  }
}

void TriangularBendingSprings::addDForce(const double* dx, double* df, double kFactor) const {
  for (std::size_t i = 0; i < springs_.size(); ++i) {
    const auto& s = springs_[i];
    const Vec3 d = mat3::times(tangents_[i], difference(dx, s.a, s.b));
    for (int c = 0; c < 3; ++c) {
      df[3 * s.a + c] += kFactor * d[c];
      df[3 * s.b + c] -= kFactor * d[c];
    }
  }
}

void TriangularBendingSprings::addKToElementMatrices(double*, double, CellRange) const {
  throw Error(
      "TriangularBendingSprings: its springs join vertices of two triangles and have no element "
      "matrix; use the matrix-free operator (solver.operator = matrix-free)");
}

double TriangularBendingSprings::potentialEnergy(const double* x) const {
  double energy = 0;
  for (const auto& s : springs_) {
    const Vec3 d = difference(x, s.a, s.b);
    const double l = std::sqrt(mat3::dot(d, d));
    if (l > shortest_) energy += 0.5 * stiffness_ * (l - s.restLength) * (l - s.restLength);
  }
  return energy;
}

ForceFieldComponent triangularBendingSpringsComponent() {
  return {
      {"triangular-bending-springs", "force field",
       "springs across the inner edges of a body of triangles (SOFA TriangularBendingSprings)",
       ParameterSpec()
           .add(
               {"bending.stiffness", "KS",
                "SOFA TriangularBendingSprings stiffness: across each edge two triangles share, a\n"
                "spring between the vertices opposite it, force KS (l - L0) + KD (v_b - v_a).u\n"
                "(KS as given, not divided by L0), >= 0; not given: no springs; the step's matrix\n"
                "must be matrix-free (solver.operator), for the springs lie in no triangle",
                std::nullopt, "force/length", false, check::nonNegative()})
           .add({"bending.damping", "KD",
                 "the bending springs' damping, >= 0, explicit as in SOFA (no B)", "1",
                 "force time/length", false, check::nonNegative()})
           .add({"bending.faces", "cells|boundary|boundary-flipped",
                 "the triangles: the body's cells, or the boundary of a body of\n"
                 "tetrahedra (hexahedra) as membrane.faces has it (any number of ranks)",
                 "cells", "", false, check::choice(kBodyFaces)})
           .add({"bending.quads", "true|false",
                 "SOFA's QuadularBendingSprings instead: on the boundary quadrangles of a body of\n"
                 "hexahedra (Hexa2QuadTopologicalMapping), two springs across each inner edge,\n"
                 "each between the vertices off it beside one of its ends",
                 "false", "", false, check::boolean()}),
       nullptr},
      Physics::Elasticity,
      forceFieldMaker(readTriangularBendingSpringsParameters, makeTriangularBendingSprings)};
}

TriangularBendingSpringsParameters readTriangularBendingSpringsParameters(const Parameters& scene) {
  TriangularBendingSpringsParameters p;
  if (scene.given("bending.stiffness")) p.stiffness = scene.real("bending.stiffness");
  p.damping = scene.real("bending.damping");
  p.faces = scene.choice("bending.faces", kBodyFaces);
  p.quads = scene.boolean("bending.quads");
  return p;
}

std::unique_ptr<ForceField> makeTriangularBendingSprings(
    const ModelContext& context, const TriangularBendingSpringsParameters& parameters) {
  if (!parameters.stiffness) return nullptr;
  const CellType cells = context.mesh.cellType();
  if (parameters.quads && (parameters.faces == BodyFaces::Cells || cells != CellType::Hexahedron))
    throw Error(
        "bending.quads: SOFA's QuadularBendingSprings act here on the boundary quadrangles of a "
        "body of hexahedra (bending.faces = boundary); this body has " +
        pluralNameOf(cells));
  if (parameters.faces != BodyFaces::Cells) {
    return std::make_unique<BoundaryBendingSprings>(context.mesh, *parameters.stiffness,
                                                    parameters.damping, parameters.quads,
                                                    parameters.faces == BodyFaces::BoundaryFlipped);
  }
  bodyTriangles(context.mesh, BodyFaces::Cells, "bending.stiffness", "TriangularBendingSprings");
  // A spring's two triangles may lie on two ranks: the pairing of the boundary's triangles, on
  // the body's own, lends the far vertex across ranks.
  return std::make_unique<BoundaryBendingSprings>(context.mesh, cellFaces(context.mesh),
                                                  *parameters.stiffness, parameters.damping, false);
}

const RegisterForceField registered(487, triangularBendingSpringsComponent);

}  // namespace eis
