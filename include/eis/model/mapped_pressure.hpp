#pragma once
// A follower pressure on the faces of a mapped child (SOFA's SurfacePressureForceField in a node
// whose MechanicalObject a BarycentricMapping, IdentityMapping or SubsetMapping drives from the
// body, SOFA master's SurfacePressureForceField.inl), carried to the body through the child's
// mapping J (model/child_mapping.hpp, the mapped-child keys' mapped.mapping and points):
//   x_c = J x,  f += J^T f_c,  df += J^T K_c J dx.
// On the child's positions, a triangle (a, b, c) gives each of its points p/6 (b - a) x (c - a),
// with the tangent df_i/dx_a = p/6 [c - b]x, df_i/dx_b = p/6 [a - c]x, df_i/dx_c = p/6 [b - a]x
// (useTangentStiffness); a quadrangle (a, b, c, d) gives p1 = p/6 (b - a) x (c - a) to b,
// p2 = p/6 (c - a) x (d - a) to d and p1 + p2 to a and c, with no tangent (SOFA's
// addQuadSurfacePressure computes none). With a pulse the pressure of each step is its
// PulsePressure's (model/pulse_pressure).
//
// A face joins child points that lie in different cells of the body, possibly on different
// ranks: every rank knows every child point's body nodes and weights, gathers the values of
// those nodes with one MPI_Allreduce per evaluation (each node's owner gives it), computes every
// face, and adds J^T f to the nodes it owns, so that each node gets its force once on any number
// of ranks. J^T K_c J couples nodes of different cells, which no element matrix holds: the step's
// operator must be matrix-free (solver.operator), as SOFA's CGLinearSolver's is.
#include <array>
#include <memory>
#include <optional>
#include <vector>

#include "eis/model/force_field_component.hpp"
#include "eis/model/mapped_child.hpp"
#include "eis/model/pulse_pressure.hpp"

namespace eis {

struct MappedPressureParameters {
  MappedChildParameters child;                         // the mapping (mapped.* keys)
  std::optional<double> pressure;                      // mapped.pressure
  std::optional<std::array<double, 3>> pulse;          // mapped.pressure-pulse: P SPEED LOWER
  std::vector<std::array<std::int64_t, 3>> triangles;  // mapped.triangles (child points)
  std::vector<std::array<std::int64_t, 4>> quads;      // mapped.quads
};
MappedPressureParameters readMappedPressureParameters(const Parameters& scene);

class MappedPressure : public ForceField {
public:
  // Collective. Throws eis::Error (on every rank) for a face naming a point the child lacks.
  MappedPressure(const DistributedMesh& mesh, const MappedPressureParameters& parameters);

  void setTime(double t, double dt) override;
  void addForce(const double* x, const double* v, double* f) override;
  void addDForce(const double* dx, double* df, double kFactor) const override;
  void addKToElementMatrices(double* elementMatrices, double kFactor,
                             CellRange range) const override;
  void addKToElementDiagonals(double*, double, CellRange) const override {}
  double potentialEnergy(const double*) const override { return 0; }
  std::vector<double> vonMisesStress(const double*) const override { return {}; }
  bool isLinear() const override { return false; }
  bool symmetricK() const override { return false; }

private:
  // The values of the gathered nodes (3 each, in slot order) from the local array `w`: each
  // owner gives its nodes', one MPI_Allreduce.
  void gather(const double* w, std::vector<double>& slots) const;
  // The child points' values J w from the gathered slots.
  void applyJ(const std::vector<double>& slots, std::vector<Vec3>& child) const;
  // local += J^T of the child values, on the nodes this rank owns.
  void addTransposed(const std::vector<Vec3>& child, double* local) const;

  MPI_Comm comm_;
  std::size_t slots_ = 0;  // gathered nodes
  // Child point i: its terms first_[i] .. first_[i+1]-1, each a gathered slot and a weight.
  std::vector<std::size_t> first_, termSlot_;
  std::vector<double> termWeight_;
  // The slots of the nodes this rank owns and their local vertices.
  std::vector<std::size_t> ownedSlot_;
  std::vector<PetscInt> ownedVertex_;
  std::vector<std::array<std::int64_t, 3>> triangles_;
  std::vector<std::array<std::int64_t, 4>> quads_;
  double pressure_ = 0;
  std::optional<PulsePressure> pulse_;
  // The child positions of the last addForce, the linearization point.
  std::vector<Vec3> x_;
  mutable std::vector<double> gathered_;
  mutable std::vector<Vec3> child_, childForce_;
};

std::unique_ptr<ForceField> makeMappedPressure(const ModelContext& context,
                                               const MappedPressureParameters& parameters);

}  // namespace eis
