#pragma once
// SOFA's BilateralLagrangianConstraint (Vec3, master BilateralLagrangianConstraint.inl) on one
// body: pairs of points held together, the k-th point of the first list with the k-th of the
// second (as many pairs as the shorter list has points). Each pair gives three rows, the unit
// vectors of the first node's x, y and z unknowns with the sign -1 and of the second node's with
// +1 (buildConstraintMatrix), whose violation at a state is the second point's position minus
// the first's (getConstraintViolation, no rest_vector: the points are pulled together); its
// three rows are one group of the Gauss-Seidel (BilateralConstraintResolution3Dof). The second
// point is a node of the same body, or a fixed point in space: a point of a SOFA
// MechanicalObject that nothing integrates, which SOFA's constraint correction never moves (it
// has none), so its column is left out of J and its position is a constant of the violation.
// Fixed points may move (SOFA's points of a RigidMapping child of a frame that a
// LinearMovementProjectiveConstraint moves and no ODE solver integrates): they then move by the
// key frames' translation m, put where SOFA's FreeMotionAnimationLoop leaves them for the step
// that starts at t_n: its projection at the end of the last step, at that step's start time
// t_{n-1} (SOFA projects before it advances the clock), and the one at initialization (t_0) for
// the first, each applied only while its time lies in [first key time, last key time).
// The lists follow the order SOFA numbers them: an `indices` list in its order, a box, a sphere,
// a group or all by increasing node id (BoxROI's order).
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "eis/core/component.hpp"
#include "eis/linalg/lagrangian_constraints.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/force_field.hpp"
#include "eis/model/prescribed_motion.hpp"
#include "eis/model/selection.hpp"

namespace eis {

struct JoinedMember;

// Collective. The ids of the nodes a selection picks, in SOFA's order, on every rank: an
// `indices` list as written, any other selection by increasing node id.
std::vector<std::int64_t> orderedNodeIds(const DistributedMesh& mesh, const Selection& selection,
                                         const SelectedNodes& nodes);

class BilateralLagrangianConstraint : public LagrangianConstraints {
public:
  // One value of lagrange.bilateral: "SELECTION to SELECTION", "SELECTION to body PATH
  // SELECTION" (a node of another body of the same solver.group, whose joined system holds the
  // rows) or "SELECTION to points X Y Z .." (followed by "moving T DX DY DZ ..": the points'
  // key frames).
  struct Pairs {
    std::string text;
    Selection first;
    bool toPoints = false;
    std::string body;                           // the second nodes' body; empty: this one
    Selection second;                           // when !toPoints
    std::vector<std::array<double, 3>> points;  // when toPoints
    KeyFrames motion;                           // the points' key frames; none when empty
  };
  struct Parameters {
    std::vector<Pairs> pairs;
  };
  static Parameters readParameters(const eis::Parameters& scene);
  static Pairs parsePairs(const std::string& key, const std::string& text);
  // Collective. Null when there is no value of this body alone (pairs to another body are the
  // group's: joinLagrangianConstraints); lists of different lengths, or one that selects no
  // node, add a warning.
  static std::unique_ptr<BilateralLagrangianConstraint> make(const DistributedMesh& mesh,
                                                             const Parameters& parameters,
                                                             std::vector<std::string>& warnings);

  int rows() const override { return rows_; }
  const std::vector<int>& groups() const override { return groups_; }
  void addTransposed(const std::vector<double>& lambda, Vec out) const override;
  void addLocalProduct(Vec y, std::vector<double>& out) const override;
  void addLocalViolation(Vec x, std::vector<double>& out) const override;
  // Moves the moving points to their positions for the step that starts at t (above); a time
  // given again changes nothing.
  void setTime(double t) override;
  // SOFA's getVelocityViolation: the second point's velocity minus the first's (a fixed point's
  // is zero) plus their position violation over h.
  void addLocalVelocityViolation(Vec x, Vec v, double h, std::vector<double>& out) const override;

private:
  friend std::unique_ptr<LagrangianConstraints> joinLagrangianConstraints(
      const std::vector<JoinedMember>& members, std::vector<std::string>& warnings);
  // The rows of `pairs`: the first nodes on `firstMesh`, the second on `secondMesh` (or fixed
  // points), each node's unknowns at its owned offset plus the offset of its mesh's part.
  void addPairs(const Pairs& pairs, const DistributedMesh& firstMesh, PetscInt firstOffset,
                const DistributedMesh* secondMesh, PetscInt secondOffset,
                std::vector<std::string>& warnings);
  // A pair's node this rank owns: the pair's first row, the node's first unknown in the local
  // part of a global vector, its sign in J, and the fixed point the node is held to (the
  // constant of the violation; zero for a pair of two nodes), which moves by motions_[motion]'s
  // current shift when motion >= 0.
  struct Entry {
    int row;
    PetscInt offset;
    double sign;
    std::array<double, 3> constant;
    int motion;
  };
  std::vector<Entry> entries_;
  std::vector<KeyFrames> motions_;
  std::vector<std::array<double, 3>> shifts_;
  bool started_ = false;
  double lastTime_ = 0;
  int rows_ = 0;
  std::vector<int> groups_;
};

// A member of a group (model/coupled_system.hpp) as its joined constraint rows see it: its own
// rows, its mesh and node path, where its part starts in this rank's part of a joined vector and
// its length there, and its pairs to other members' nodes.
struct JoinedMember {
  const LagrangianConstraints* own;  // may be null
  const DistributedMesh* mesh;
  std::string path;
  PetscInt offset, localSize;
  std::vector<BilateralLagrangianConstraint::Pairs> across;
};
// Collective. The rows of a group's joined system: each member's own rows in member order, then
// the pairs across members in member and key order (null: none). A pair whose body is not a
// member throws eis::Error on every rank.
std::unique_ptr<LagrangianConstraints> joinLagrangianConstraints(
    const std::vector<JoinedMember>& members, std::vector<std::string>& warnings);
// The values of lagrange.bilateral that pair this body's nodes with another body's.
std::vector<BilateralLagrangianConstraint::Pairs> bilateralPairsAcross(
    const eis::Parameters& scene);

// lagrange.bilateral.
const ComponentDeclaration& bilateralLagrangianConstraintComponent();

// The body's Lagrangian constraints, rows in the order of the keys: lagrange.fixed's, then
// lagrange.bilateral's, lagrange.unilateral's, lagrange.sliding's, then lagrange.distance's (null:
// none). `fields` gets the force fields their mappings add to the body (the edge lengths'
// geometric stiffness). Collective.
std::unique_ptr<LagrangianConstraints> makeLagrangianConstraints(
    const DistributedMesh& mesh, const eis::Parameters& scene, std::vector<std::string>& warnings,
    std::vector<std::unique_ptr<ForceField>>& fields);

}  // namespace eis
