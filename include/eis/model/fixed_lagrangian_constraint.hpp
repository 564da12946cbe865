#pragma once
// SOFA's FixedLagrangianConstraint (Vec3, master FixedLagrangianConstraint.cpp): three rows per
// selected node, the unit vectors of its x, y and z unknowns, whose violation at a state is the
// node's position minus its rest position; each node's three rows are one group of the
// Gauss-Seidel (BilateralConstraintResolution3Dof). Rows follow the order SOFA numbers them: the
// scene's lagrange.fixed keys in order, in each the nodes in the order of an `indices` list (a
// repeated index gives the node rows again), or by increasing node id (a box, a sphere, a
// group, all: BoxROI's order).
#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "eis/core/component.hpp"
#include "eis/linalg/lagrangian_constraints.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/selection.hpp"

namespace eis {

class FixedLagrangianConstraint : public LagrangianConstraints {
public:
  // Every value of lagrange.fixed, its text and its selection, read once from a scene (the only
  // reader of the key, beside its declaration).
  struct Parameters {
    std::vector<std::pair<std::string, Selection>> selections;
  };
  static Parameters readParameters(const eis::Parameters& scene);
  // Collective. Null when there is no selection; a selection that selects no node adds a
  // warning.
  static std::unique_ptr<FixedLagrangianConstraint> make(const DistributedMesh& mesh,
                                                         const Parameters& parameters,
                                                         std::vector<std::string>& warnings);

  int rows() const override { return rows_; }
  const std::vector<int>& groups() const override { return groups_; }
  void addTransposed(const std::vector<double>& lambda, Vec out) const override;
  void addLocalProduct(Vec y, std::vector<double>& out) const override;
  void addLocalViolation(Vec x, std::vector<double>& out) const override;

private:
  // A constrained node this rank owns: its first row, its first unknown in the local part of a
  // global vector, and its rest position.
  struct Entry {
    int row;
    PetscInt offset;
    std::array<double, 3> rest;
  };
  std::vector<Entry> entries_;
  int rows_ = 0;
  std::vector<int> groups_;
};

// lagrange.fixed.
const ComponentDeclaration& fixedLagrangianConstraintComponent();

}  // namespace eis
