#pragma once
// SOFA's TriangularBendingSprings: across every edge that exactly two triangles share, a spring
// between the two vertices opposite it (m1 in the other triangle, m2 in the one that found the
// edge first), of rest length their distance at rest. An edge of one triangle, or of three or
// more, gets none (SOFA handles manifold triangulations alone).
//
// Spring (a, b) = (m1, m2), u = (x_b - x_a) / l:
//   F = ks (l - L0) + kd (v_b - v_a).u,  f_a += F u,  f_b -= F u,
// with ks = stiffness and kd = damping as given (no division by L0, unlike MeshSpringForceField).
// Tangent: m = (ks - F / l) u u^T + (F / l) I, df_a = m (dx_b - dx_a), df_b = -df_a (the damping
// in F / l as SOFA has it). A spring shorter than 1e-4 gives no force and no tangent (SOFA's
// guard; SpringForceField's, for QuadBendingSprings, is 1e-9). SOFA assembles no damping matrix:
// the damping stays explicit.
//
// A spring joins two vertices that share no triangle, so its tangent has no place in a
// triangle's element matrix: the field offers the matrix-free product (addDForce) and, for an
// assembled operator, its 3 x 3 pair blocks (pairBlocks).
#include <array>
#include <memory>
#include <optional>
#include <vector>

#include "eis/model/force_field.hpp"
#include "eis/model/mat3.hpp"
#include "eis/model/triangular_fem.hpp"

namespace eis {

struct BendingSpring {
  PetscInt a, b;  // local vertices m1, m2
  double restLength;
};

// The springs of `triangles` in SOFA's pairing, ordered by the first triangle holding each edge.
std::vector<BendingSpring> bendingSprings(const std::vector<Triangle>& triangles,
                                          const std::vector<Vec3>& rest);

class TriangularBendingSprings : public ForceField {
public:
  // `shortest`: the length at or below which a spring gives no force and no tangent (1e-4 in
  // TriangularBendingSprings, 1e-9 in SpringForceField, QuadBendingSprings' law).
  TriangularBendingSprings(std::vector<BendingSpring> springs, double stiffness, double damping,
                           double shortest = 1.0e-4);

  void addForce(const double* x, const double* v, double* f) override;
  void addDForce(const double* dx, double* df, double kFactor) const override;
  // Refused (eis::Error): the pairs lie in no cell; pairBlocks gives them.
  void addKToElementMatrices(double* elementMatrices, double kFactor,
                             CellRange range) const override;
  // Nothing: the matrix-free operator's Jacobi preconditioner leaves the springs out.
  void addKToElementDiagonals(double*, double, CellRange) const override {}
  // m of every spring at the last addForce: df_a/dx_b = df_b/dx_a = m, df_a/dx_a = df_b/dx_b = -m.
  const std::vector<mat3::Mat3>& pairBlocks() const { return tangents_; }
  // sum ks (l - L0)^2 / 2 at x.
  double potentialEnergy(const double* x) const override;
  std::vector<double> vonMisesStress(const double*) const override { return {}; }
  bool isLinear() const override { return false; }
  bool usesVelocity() const override { return damping_ != 0; }

  const std::vector<BendingSpring>& springs() const { return springs_; }

private:
  std::vector<BendingSpring> springs_;
  std::vector<mat3::Mat3> tangents_;
  double stiffness_, damping_, shortest_;
};

// The triangular-bending-springs component's parameters, read once by
// readTriangularBendingSpringsParameters: springs when bending.stiffness is given.
struct TriangularBendingSpringsParameters {
  std::optional<double> stiffness;  // bending.stiffness
  double damping;                   // bending.damping
  BodyFaces faces;                  // bending.faces
  bool quads;                       // bending.quads
};
TriangularBendingSpringsParameters readTriangularBendingSpringsParameters(const Parameters& scene);
// nullptr without bending.stiffness. Collective: an eis::Error, on every rank, on a mesh whose
// cells are no triangles (bending.faces = cells) or no tetrahedra (boundary). Any number of
// ranks: a spring's two triangles may lie on two ranks, and model/boundary_bending_springs lends
// the vertices one lacks, on the boundary's triangles as on the body's own.
std::unique_ptr<ForceField> makeTriangularBendingSprings(
    const ModelContext& context, const TriangularBendingSpringsParameters& parameters);

ForceFieldComponent triangularBendingSpringsComponent();

}  // namespace eis
