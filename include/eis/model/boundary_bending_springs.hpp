#pragma once
// SOFA's TriangularBendingSprings on the boundary triangles of a body of tetrahedra
// (mesh/boundary_faces, SOFA's Tetra2TriangleTopologicalMapping), on any number of ranks.
//
// Every rank knows every boundary triangle, so every rank pairs the triangles across their
// edges as SOFA does (model/triangular_bending_springs): the spring of an edge joins m1, the
// vertex opposite it in the second triangle holding it, and m2, opposite it in the first, in the
// order of the first triangle. The rank holding the first triangle evaluates the spring: m2 is
// one of its vertices, m1 may not be. Such vertices are lent by the rank holding the second
// triangle, which holds m1: at set-up each rank asks for them, and at every evaluation their
// positions (and velocities) come over into extra slots after the local vertices, the kernel
// runs on the extended arrays, and the forces on the extra slots go back and are added at the
// lender's vertex (its local array is summed into the global vector like an element's).
// Collective: every evaluation (force, product, energy) exchanges with all ranks.
//
// SOFA's QuadularBendingSprings (QuadularBendingSprings.inl) pairs the boundary quadrangles of
// a body of hexahedra the same way, with two springs per edge (below), of the same law.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "eis/mesh/boundary_faces.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/triangular_bending_springs.hpp"

namespace eis {

class BoundaryBendingSprings : public ForceField {
public:
  // `quads`: SOFA's QuadularBendingSprings on the boundary quadrangles of a body of hexahedra
  // (Hexa2QuadTopologicalMapping): across each edge two quadrangles share, two springs, each
  // between a vertex of one off the edge and the vertex of the other beside it across the edge;
  // the same law. `flip`: the topological mapping's flipNormals (it changes the triangles a
  // quadrangle is split into).
  BoundaryBendingSprings(const DistributedMesh& mesh, double stiffness, double damping,
                         bool quads = false, bool flip = false);
  // The same on `faces` (every rank's list, mesh/boundary_faces): the boundary's, or a body's
  // own triangles or quadrangles (cellFaces) for SOFA's springs on a body of them.
  BoundaryBendingSprings(const DistributedMesh& mesh, const BoundaryFaces& faces, double stiffness,
                         double damping, bool quads);
  // Springs given by their two vertices' node ids (m1, m2), the same list on every rank, rest
  // length their rest distance (SOFA's QuadBendingSprings, model/quad_bending_springs): the
  // lowest rank holding m2 evaluates a spring and borrows m1 from the lowest rank holding it.
  // `shortest`: the length below which a spring gives no force (TriangularBendingSprings).
  // Collective; an eis::Error, on every rank, for a node id no rank holds.
  BoundaryBendingSprings(const DistributedMesh& mesh,
                         const std::vector<std::array<std::int64_t, 2>>& pairs, double stiffness,
                         double damping, double shortest);

  void addForce(const double* x, const double* v, double* f) override;
  void addDForce(const double* dx, double* df, double kFactor) const override;
  void addKToElementMatrices(double* elementMatrices, double kFactor,
                             CellRange range) const override {
    springs_->addKToElementMatrices(elementMatrices, kFactor, range);
  }
  void addKToElementDiagonals(double*, double, CellRange) const override {}
  double potentialEnergy(const double* x) const override;
  std::vector<double> vonMisesStress(const double*) const override { return {}; }
  bool isLinear() const override { return false; }
  bool usesVelocity() const override { return springs_->usesVelocity(); }

  // The springs over all ranks (each counted by the rank that evaluates it).
  std::int64_t globalCount() const { return globalCount_; }

private:
  // A spring this rank evaluates: m2 is one of its vertices, m1 is or is lent by `lender`.
  struct Evaluated {
    std::int64_t m1, m2;
    int lender;
  };
  // Sets up the borrowing of the m1 this rank lacks and the springs on the extended numbering.
  void build(const DistributedMesh& mesh, const std::vector<Evaluated>& springs, double stiffness,
             double damping, double shortest);
  // The local array `w` (3 per local vertex) with the borrowed vertices' values after it.
  const std::vector<double>& extended(const double* w, std::vector<double>& into) const;
  // Sends the borrowed slots of `extendedF` back to their lenders and adds what comes back, and
  // the local part, into f.
  void giveBack(const std::vector<double>& extendedF, double* f) const;

  MPI_Comm comm_;
  std::size_t local_;                          // local vertices
  std::vector<PetscInt> lent_;                 // local vertices this rank lends, by borrower rank
  std::vector<int> lentCounts_, lentOffsets_;  // doubles per rank, 3 per vertex
  std::vector<int> borrowedCounts_, borrowedOffsets_;  // doubles per rank
  std::unique_ptr<TriangularBendingSprings> springs_;  // on the extended vertex numbering
  std::int64_t globalCount_ = 0;
  mutable std::vector<double> x_, v_, f_, sent_;
};

}  // namespace eis
