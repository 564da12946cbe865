#pragma once
// SOFA's MeshSpringForceField: one spring per pair of vertices that share a cell (a tetrahedron's
// 6 edges; a hexahedron's 28 pairs, its edges and face and body diagonals, as SOFA's cubes
// springs join every pair k < j of a hexahedron's 8 vertices), with the physics of
// SOFA's SpringForceField (the former StiffSpringForceField). Spring (a, b) with rest length L0,
// d = x_b - x_a, l = |d|, u = d / l:
//   f_a += F u, f_b -= F u,  F = ks (l - L0) + kd (v_b - v_a).u.
// As in MeshSpringForceField::addSpring, the scene's stiffness and damping are divided by L0:
// ks = stiffness / L0, kd = damping / L0 (a spring's stiffness falls as it gets longer).
//
// The tangent is SOFA's dfdx, with tgt = F / l (damping included, as SOFA does):
//   m = ks u u^T + tgt (I - u u^T),  df_a/dx_a = df_b/dx_b = -m,  df_a/dx_b = df_b/dx_a = m.
// It is the exact derivative when v_b - v_a = 0; otherwise it misses the unsymmetric term
// kd/l u (v_b - v_a)^T (I - u u^T), as SOFA's does. B = df/dv has the same pattern with
// m = kd u u^T (SOFA's SpringForceField assembles no B: its damping stays explicit there).
// A spring shorter than 1e-9 gives no force and no tangent (SOFA's guard).
#include <array>
#include <utility>
#include <vector>

#include "eis/core/tetra_geometry.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/force_field_component.hpp"

namespace eis {

class MeshSpringForceField : public ForceField {
public:
  // cells: local vertex indices, corners() each; edges: the springs, each in one cell that holds
  // it (its matrix goes to that cell's element block); rest: rest position of each local vertex.
  MeshSpringForceField(const Cells& cells, const std::vector<CellEdge>& edges,
                       const std::vector<Vec3>& rest, double stiffness, double damping)
      : MeshSpringForceField(cells, edges, rest, {stiffness, stiffness, stiffness},
                             {damping, damping, damping}) {}
  // The stiffness and damping of each kind of pair (PairKind: edges, face diagonals, body
  // diagonals), SOFA's RegularGridSpringForceField's lines, quads and cubes.
  MeshSpringForceField(const Cells& cells, const std::vector<CellEdge>& edges,
                       const std::vector<Vec3>& rest, const std::array<double, 3>& stiffness,
                       const std::array<double, 3>& damping);

  // Also stores u and tgt of every spring: the linearization point of the products below.
  void addForce(const double* x, const double* v, double* f) override;
  void addDForce(const double* dx, double* df, double kFactor) const override;
  void addKToElementMatrices(double* elementMatrices, double kFactor,
                             CellRange range) const override;
  // sum ks/2 (l - L0)^2 (SOFA's getPotentialEnergy).
  double potentialEnergy(const double* x) const override;
  // Springs have no stress; the elastic field reports it.
  std::vector<double> vonMisesStress(const double*) const override { return {}; }
  bool isLinear() const override { return false; }

  // The damping force kd (v_b - v_a).u is in f(x, v), but, as in SOFA's SpringForceField
  // (computeSpringDForce ignores bFactor, buildDampingMatrix adds nothing), not in the step's
  // matrix: B is zero, the damping explicit.
  bool usesVelocity() const override { return damping_ != 0; }

  std::size_t numSprings() const { return springs_.size(); }

private:
  struct Spring {
    PetscInt a, b;     // local vertices
    PetscInt cell;     // the local cell whose element block takes its matrix
    int slotA, slotB;  // a's and b's slots in that cell
    double restLength, ks, kd;
  };
  // The linearization point of one spring: direction u and tgt = F / l (all zero when l <= 1e-9).
  struct State {
    Vec3 u;
    double tgt;
  };

  // m w for m = alpha u u^T + beta I.
  static Vec3 apply(const Vec3& u, double alpha, double beta, const Vec3& w);
  // df_a += m (w_b - w_a), df_b -= the same, for m = alpha u u^T + beta I (the factor of K or B
  // is folded into alpha and beta).
  void addPairProduct(const Spring& s, const Vec3& u, double alpha, double beta, const double* w,
                      double* df) const;
  // The spring's rows and columns of its cell's element matrix += [-m m; m -m]; the array holds
  // the blocks of the cells from `firstCell` on.
  void addPairBlock(const Spring& s, const Vec3& u, double alpha, double beta,
                    double* elementMatrices, std::size_t firstCell) const;
  // The springs whose element blocks lie in `range`: [first, last) into springs_.
  std::pair<std::size_t, std::size_t> springsIn(CellRange range) const;

  // Sorted by cell, so that the springs of a run of cells are one run of springs.
  std::vector<Spring> springs_;
  std::vector<State> states_;
  double damping_;    // the largest damping of any kind: 0 means no B
  std::size_t rows_;  // of an element matrix: corners x 3
};

// The mesh-springs component's parameters, read once from a scene by readMeshSpringsParameters:
// KS and KD of the springs along edges, across faces and through cells (SOFA's lines, quads and
// cubes), springs.stiffness and springs.damping for all three unless given by kind.
struct MeshSpringsParameters {
  std::array<double, 3> stiffness;  // springs.stiffness or springs.stiffness-by-kind
  std::array<double, 3> damping;    // springs.damping or springs.damping-by-kind
  bool byKind;                      // springs.stiffness-by-kind or springs.damping-by-kind given
  // springs.face-diagonals = first: of each face of a hexahedron, only the diagonal from its
  // vertex of smallest input id.
  bool firstDiagonals = false;
};
MeshSpringsParameters readMeshSpringsParameters(const Parameters& scene);
// nullptr when every constant is zero.
std::unique_ptr<ForceField> makeMeshSprings(const ModelContext& context,
                                            const MeshSpringsParameters& parameters);

ForceFieldComponent meshSpringsComponent();

}  // namespace eis
