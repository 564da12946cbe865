#pragma once
// SOFA's UnilateralLagrangianConstraint (Vec3, master BaseContactLagrangianConstraint.inl and
// UnilateralLagrangianConstraint.inl) with its contacts given here instead of found by a
// collision pipeline: each selected node touches a fixed plane, through a point p with the unit
// normal n pointing to the free side. In SOFA's terms the node is object1's point Q, the plane
// object2's point P (fixed: nothing moves it) and the contact normal is -n, so a contact's
// normal row is +n on the node's unknowns, its violation the gap (x - p).n - contactDistance,
// and its force f_n >= 0 with f_n gap = 0 (UnilateralConstraintResolution). With mu > 0 two
// tangent rows follow (SOFA's t, s built from the contact normal), whose violation is the
// node's tangential slip over the step, from the start of the step to the free motion's end,
// counted from the instant the gap closes when it closes during the step
// (getPositionViolation), and whose forces lie in the cone |f_t| <= mu f_n
// (UnilateralConstraintResolutionWithFriction). Contacts are numbered as the nodes of an
// `indices` list, else by increasing node id.
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "eis/core/component.hpp"
#include "eis/linalg/lagrangian_constraints.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/selection.hpp"

namespace eis {

class UnilateralLagrangianConstraint : public LagrangianConstraints {
public:
  // One value of lagrange.unilateral: "SELECTION plane PX PY PZ NX NY NZ [mu MU] [distance D]".
  struct Contacts {
    std::string text;
    Selection nodes;
    std::array<double, 3> point{}, normal{};  // normal: of unit length
    double mu = 0, distance = 0;
  };
  static Contacts parseContacts(const std::string& key, const std::string& text);
  static std::vector<Contacts> readParameters(const eis::Parameters& scene);
  // Collective. Null when there is no value; one that selects no node adds a warning.
  static std::unique_ptr<UnilateralLagrangianConstraint> make(const DistributedMesh& mesh,
                                                              const std::vector<Contacts>& contacts,
                                                              std::vector<std::string>& warnings);

  int rows() const override { return rows_; }
  const std::vector<int>& groups() const override { return groups_; }
  std::vector<GroupResolution> resolutions() const override { return resolutions_; }
  void addTransposed(const std::vector<double>& lambda, Vec out) const override;
  void addLocalProduct(Vec y, std::vector<double>& out) const override;
  void addLocalViolation(Vec x, std::vector<double>& out) const override;
  void addLocalStepViolation(Vec start, Vec x, std::vector<double>& out) const override;

private:
  // A contact whose node this rank owns: its first row, the node's first unknown in the local
  // part of a global vector, its rows of J on the node (the normal n, then -t and -s when it
  // has friction), and the plane's point and distance.
  struct Entry {
    int row;
    PetscInt offset;
    int lines;  // 1 or 3
    std::array<std::array<double, 3>, 3> direction;
    std::array<double, 3> point;
    double distance;
  };
  std::vector<Entry> entries_;
  int rows_ = 0;
  std::vector<int> groups_;
  std::vector<GroupResolution> resolutions_;
};

// lagrange.unilateral.
const ComponentDeclaration& unilateralLagrangianConstraintComponent();

}  // namespace eis
