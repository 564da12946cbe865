#pragma once
// Bodies of rigid frames solved as one system (SOFA: the Rigid3d states under one ODE solver, the
// interaction force fields between them coupling their blocks of one linear system). Between
// frames: SOFA's SpringForceField<Rigid3> (master, SpringForceField.inl), the law of the springs
// between points (model/interaction_springs.hpp) on the frames' centres alone: the centres'
// distance and linear velocities make the force, which acts on the linear unknowns of the two
// frames (f on the first, -f on the second) and turns neither (no torque: the spring holds
// to the centres, getCPos and getDPos); its stiffness is the 3 x 3 D on the linear unknowns,
// -D on each frame's own block and +D across, taken at the last force computation, the damping
// explicit (buildDampingMatrix adds nothing).
//
// The joined vectors hold the members' one after the other (7 numbers a frame in x, 6 in v); a
// member's operations act on its part. A group lives on its members' communicator (they must
// share one): a run gives it PETSC_COMM_SELF, every rank stepping it whole; on a communicator of
// several ranks rank 0 holds every unknown, as a member's do.
#include <petscmat.h>

#include <memory>
#include <vector>

#include "eis/linalg/mechanical_operations.hpp"
#include "eis/model/interaction_springs.hpp"
#include "eis/model/rigid_body.hpp"

namespace eis {

// A spring between two frames of the group, numbered across its members in order.
struct RigidFrameSpring {
  int frame1 = 0, frame2 = 0;
  InteractionSpring law;  // ks, kd, L (node1 and node2 unused)
};

class RigidGroup : public MechanicalOperations {
public:
  // Collective on the members' communicator. Throws eis::Error for a spring's frame outside the
  // group, a polynomial spring, or members on different communicators.
  RigidGroup(std::vector<std::unique_ptr<RigidBody>> members,
             std::vector<RigidFrameSpring> springs);
  ~RigidGroup() override;
  RigidGroup(const RigidGroup&) = delete;
  RigidGroup& operator=(const RigidGroup&) = delete;

  std::size_t members() const { return members_.size(); }
  int frames() const { return frames_; }
  // Member m's first frame in the group's numbering.
  int firstFrame(std::size_t m) const { return first_[m]; }
  int framesOf(std::size_t m) const { return members_[m]->frames(); }
  RigidBody& member(std::size_t m) { return *members_[m]; }
  // New joined vectors of the members' initial positions and velocities; the caller destroys them.
  Vec createPositions() const;
  Vec createVelocities();

  void computeForce(Vec x, Vec v, Vec f) override;
  void addMBKv(Vec out, double mFactor, double bFactor, double kFactor, Vec v) override;
  Mat systemMatrix(double mFactor, double bFactor, double kFactor) override;
  void projectResponse(Vec v) override;
  void addToPosition(Vec x, double h, Vec v) override;

private:
  // Member m's part of a joined vector (`size` numbers a frame), in the view `view`.
  void place(Vec view, const PetscScalar* joined, std::size_t m, int size) const;

  std::vector<std::unique_ptr<RigidBody>> members_;
  std::vector<RigidFrameSpring> springs_;
  MPI_Comm comm_ = PETSC_COMM_SELF;
  bool owner_ = true;  // rank 0 of comm_: holds every unknown
  std::vector<int> first_;
  int frames_ = 0;
  std::vector<std::array<double, 9>> dfdx_;  // each spring's D at the last force computation
  std::vector<bool> fixed_;                  // per joined velocity unknown, on rank 0
  // Views on a member's part: its positions, and two of its velocity-shaped vectors.
  std::vector<Vec> xView_, vView_, wView_;
  Mat matrix_ = nullptr;
};

}  // namespace eis
