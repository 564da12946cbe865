#pragma once
// SOFA's SlidingLagrangianConstraint (Vec3, master SlidingLagrangianConstraint.inl) with its
// axis fixed in space: each selected node P slides on the segment from A to B (SOFA's
// sliding_point of object1 on axis_1, axis_2 of an object2 that nothing integrates). SOFA builds
// the rows at the free position: with u = (B - A) / |B - A| and proj = A + ((P - A).u) u, the
// row p = (P - proj) / |P - proj| (any unit normal to u when P is on the line) and the row
// o = p x u are bilateral, with violation (P - q).p and (P - q).o, q the point of the segment
// nearest proj; the row u with violation (P - A).u and the row -u with violation -(P - B).u are
// unilateral (P stays between A and B). When A = B the point is held to A by the three unit
// rows. So the rows change with the state: they are set at the free position, when the step
// asks for its violation, and hold through the step's solve.
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "eis/core/component.hpp"
#include "eis/linalg/lagrangian_constraints.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/selection.hpp"

namespace eis {

class SlidingLagrangianConstraint : public LagrangianConstraints {
public:
  // One value of lagrange.sliding: "SELECTION on AX AY AZ BX BY BZ".
  struct Axis {
    std::string text;
    Selection nodes;
    std::array<double, 3> a{}, b{};
  };
  static Axis parseAxis(const std::string& key, const std::string& text);
  static std::vector<Axis> readParameters(const eis::Parameters& scene);
  // Collective. Null when there is no value; one that selects no node adds a warning.
  static std::unique_ptr<SlidingLagrangianConstraint> make(const DistributedMesh& mesh,
                                                           const std::vector<Axis>& axes,
                                                           std::vector<std::string>& warnings);

  int rows() const override { return rows_; }
  const std::vector<int>& groups() const override { return groups_; }
  std::vector<GroupResolution> resolutions() const override { return resolutions_; }
  void addTransposed(const std::vector<double>& lambda, Vec out) const override;
  void addLocalProduct(Vec y, std::vector<double>& out) const override;
  // Sets each point's rows at x (SOFA's buildConstraintMatrix at the free position), then adds
  // their violation.
  void addLocalViolation(Vec x, std::vector<double>& out) const override;

private:
  // A sliding node this rank owns: its first row, its first unknown in the local part of a
  // global vector, the segment, and its four rows (three when A = B) as set at the last state.
  struct Entry {
    int row;
    PetscInt offset;
    std::array<double, 3> a, b;
    mutable std::array<std::array<double, 3>, 4> direction;
  };
  std::vector<Entry> entries_;
  int rows_ = 0;
  std::vector<int> groups_;
  std::vector<GroupResolution> resolutions_;
};

// lagrange.sliding.
const ComponentDeclaration& slidingLagrangianConstraintComponent();

}  // namespace eis
