#pragma once
// Lagrangian rows on the lengths of edges of the body: SOFA's UniformLagrangianConstraint<Vec1>
// (master UniformLagrangianConstraint.inl, constrainToRestPos false) on the child of a
// DistanceMapping (master DistanceMapping.inl, Vec3 -> Vec1). The child holds one value per edge
// (a, b), d = |x_b - x_a| - L0 (L0 the rest length: the mapping's restLengths, else the length
// at the rest positions), and the mapping's Jacobian row is -u on a and +u on b, u = (x_b - x_a)
// / |x_b - x_a| ((1, 1, 1) / sqrt(3) for an edge shorter than the machine epsilon). The
// constraint gives one unit row per child value, so its row on the body is J_c J_mapping: the
// mapping's row. SOFA computes the Jacobian when it applies the mapping, at the step's start
// x_n, and builds the child's free value by the mapping's linearization (x_free = x + h J
// v_free on the child), so the rows are set at the step's start and the violations are:
//  - at the free position (FreeMotionAnimationLoop, position order): d(x_n) + u.(dx_b - dx_a),
//    dx = x_free - x_n;
//  - at the velocity order (solveVelocityConstraintFirst): d(x_n) / h + u.(v_b - v_a);
//  - at a state x alone (the position pass of lagrange.in-step): d(x), rows at x.
// Distributed: every rank gathers the end points of every edge (one MPI_Allreduce of 6 values
// an edge, each filled by its node's owner), so every rank computes the same directions and
// violations bit for bit; rank 0 adds the violations, and each rank J's entries of its nodes.
// The rows of one constraint are each a bilateral group (iterative true), or together one block
// (iterative false, SOFA's BilateralConstraintResolutionNDof; linalg/block_gauss_seidel.hpp).
// The mapping's geometric stiffness (Exact or Stabilized) under the child's forces, the last
// solve's multipliers over h, is a force field of the body (model/distance_geometric_stiffness),
// which reads the forces the constraint keeps (setChildForces).
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "eis/core/component.hpp"
#include "eis/linalg/lagrangian_constraints.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/distance_geometric_stiffness.hpp"

namespace eis {

class DistanceLagrangianConstraint : public LagrangianConstraints {
public:
  // One value of lagrange.distance:
  // "A B A B .. [rest L L ..] [block] [geometric-stiffness none|exact|stabilized]".
  struct Edges {
    std::string text;
    std::vector<std::array<std::int64_t, 2>> edges;  // node ids
    std::vector<double> rest;                        // empty: the rest positions' lengths
    bool block = false;  // the rows one group (SOFA's iterative false), else one group each
    MappingStiffness stiffness = MappingStiffness::None;
  };
  static Edges parseEdges(const std::string& key, const std::string& text);
  static std::vector<Edges> readParameters(const eis::Parameters& scene);
  // Collective. Null when there is no value; a node id that is no node of the mesh throws
  // eis::Error on every rank.
  static std::unique_ptr<DistanceLagrangianConstraint> make(const DistributedMesh& mesh,
                                                            const std::vector<Edges>& values);

  int rows() const override { return int(ends_.size()); }
  const std::vector<int>& groups() const override { return groups_; }
  std::vector<GroupResolution> resolutions() const override { return resolutions_; }
  void addTransposed(const std::vector<double>& lambda, Vec out) const override;
  void addLocalProduct(Vec y, std::vector<double>& out) const override;
  void addLocalViolation(Vec x, std::vector<double>& out) const override;
  void addLocalStepViolation(Vec start, Vec x, std::vector<double>& out) const override;
  void addLocalVelocityViolation(Vec x, Vec v, double h, std::vector<double>& out) const override;
  // Keeps f / h as the child's forces, which the geometric stiffness reads (when some edge has
  // one).
  void setChildForces(const std::vector<double>& multipliers, double h) const override;
  // Collective. The mapping's geometric stiffness on the body, null when every edge's is None.
  std::unique_ptr<ForceField> geometricStiffness(const DistributedMesh& mesh) const;

  // The rows' directions as last set (one u per edge), for tests.
  const std::vector<std::array<double, 3>>& directions() const { return directions_; }

private:
  // An edge end this rank owns: its edge (row), 0 for a and 1 for b, its first unknown in the
  // local part of a global vector.
  struct Entry {
    int row;
    int end;
    PetscInt offset;
  };
  // Every edge's end points in `values` (a global vector's layout), on every rank: 6 per edge.
  std::vector<double> gather(Vec values) const;
  // Sets the rows at the end points `ends` (gather's layout) and returns each edge's d.
  std::vector<double> setRows(const std::vector<double>& ends) const;
  bool first() const;

  MPI_Comm comm_ = MPI_COMM_NULL;
  std::vector<Entry> entries_;
  std::vector<std::array<std::int64_t, 2>> ends_;
  std::vector<double> rest_;
  std::vector<int> groups_;
  std::vector<GroupResolution> resolutions_;
  std::vector<MappingStiffness> stiffness_;  // one per row
  mutable std::vector<std::array<double, 3>> directions_;
  // The child's forces, shared with the geometric stiffness; null when it has none.
  std::shared_ptr<std::vector<double>> childForces_;
};

// lagrange.distance.
const ComponentDeclaration& distanceLagrangianConstraintComponent();

}  // namespace eis
