#pragma once
// The bodies of one group (solver.group, SOFA's states under one ODE solver) as ONE system for
// one integrator: a MechanicalOperations over the bodies' MechanicalSystems and the
// interaction springs between them (model/interaction_springs.hpp). Its vectors join the
// bodies' on each rank: the rank's part of body 0, then of body 1, ... (so each body's part is
// a contiguous run of the rank's entries, copied in and out with join/split). Its matrix holds
// each body's projected matrix P A P + (I - P) D as a diagonal block and the springs' K between
// free rows and columns only, so that the projection stays exact; attached pairs
// (model/attach_constraint.hpp) project it once more, P A P + (I - P) D (model/coupled_attach.cpp).
#include <petscmat.h>

#include <memory>
#include <string>
#include <vector>

#include "eis/linalg/mechanical_operations.hpp"
#include "eis/model/attach_constraint.hpp"
#include "eis/model/bilateral_lagrangian_constraint.hpp"
#include "eis/model/interaction_springs.hpp"
#include "eis/model/mechanical_system.hpp"

namespace eis {

class CoupledSystem : public MechanicalOperations {
public:
  struct Member {
    MechanicalSystem* system;
    std::string path;  // its node path, which interaction.springs targets name
    std::vector<InteractionSpringSet> springs;
    // Its lagrange.bilateral pairs to other members' nodes (bilateralPairsAcross).
    std::vector<BilateralLagrangianConstraint::Pairs> bilateral;
    // Its attach.pairs to other members' nodes (model/attach_constraint.hpp).
    std::vector<AttachSet> attach;
  };
  // Collective. Throws eis::Error on every rank for a spring whose target is not a member or
  // whose node is no node of its body's mesh (or one no cell uses).
  CoupledSystem(std::vector<Member> members, MPI_Comm comm);
  ~CoupledSystem() override;
  CoupledSystem(const CoupledSystem&) = delete;
  CoupledSystem& operator=(const CoupledSystem&) = delete;

  void computeForce(Vec x, Vec v, Vec f) override;
  void addMBKv(Vec out, double mFactor, double bFactor, double kFactor, Vec v) override;
  Mat systemMatrix(double mFactor, double bFactor, double kFactor) override;
  void projectResponse(Vec v) override;
  // After a step: the attached pairs' projectPosition, then projectVelocity, constraint by
  // constraint (SOFA's DefaultAnimationLoop::projectPositionAndVelocity).
  void projectMotion(Vec x, Vec v);
  // Each member's own Lagrangian rows, then the bilateral pairs across members
  // (joinLagrangianConstraints); null: none.
  const LagrangianConstraints* lagrangianConstraints() const override { return lagrangian_.get(); }
  bool massless() const override;
  // What the joined rows warned of while they were made.
  const std::vector<std::string>& warnings() const { return warnings_; }

  // A new joined vector, to be destroyed by the caller.
  Vec createVector() const;
  // whole's part of member b <-> `part` (a vector of that member's layout).
  void split(Vec whole, std::size_t b, Vec part) const;
  void join(Vec part, std::size_t b, Vec whole) const;
  std::size_t size() const { return members_.size(); }
  // Whether the matrix depends on the factors alone (no spring, every member linear).
  bool constantMatrix() const;
  std::size_t numSprings() const { return springs_.size(); }
  std::size_t numAttachedPairs() const { return attached_.size(); }

private:
  // One node of a spring's end: its endpoint (ends_), its weight there, and its side (0: the
  // end of node 1, 1: that of node 2).
  struct Term {
    std::size_t end;
    double weight;
    int side;
  };
  struct Spring {
    InteractionSpring law;
    std::vector<Term> terms;
  };
  // The weighted sum of one side's endpoint values (3 per endpoint) of spring s.
  void sideValue(const Spring& s, int side, const std::vector<double>& values, double* out) const;
  struct End {
    PetscInt local = -1;   // offset of its first unknown in this rank's joined array, or -1
    PetscInt global = -1;  // global index of its first unknown in the joined vector
    bool fixed[3] = {false, false, false};
  };
  struct Attached {
    const AttachSet* set;
    const AttachPair* pair;
    std::size_t end1, end2;  // attachEnds_
  };
  // The endpoints' values of a joined vector, on every rank (3 per endpoint).
  std::vector<double> gatherEnds(Vec whole) const;
  std::vector<double> gather(const std::vector<End>& ends, Vec whole) const;
  // Each owned endpoint's values written into `whole`.
  void scatter(const std::vector<End>& ends, const std::vector<double>& values, Vec whole) const;
  std::size_t memberNamed(const std::string& path, std::size_t from, const char* key) const;
  std::vector<End> locate(const std::vector<std::pair<std::size_t, std::int64_t>>& nodes,
                          const char* key) const;
  void createMatrix(const std::vector<Mat>& blocks);
  // model/coupled_attach.cpp: the attached pairs, their projection of a response and of the
  // matrix (P A P + (I - P) D; matrix_ itself when there are none).
  void setUpAttachments();
  void projectAttachedResponse(Vec v) const;
  Mat projectAttachedMatrix();

  std::vector<Member> members_;
  MPI_Comm comm_;
  int dofs_ = 3;
  std::vector<PetscInt> localSizes_, offsets_;     // each member's local size and its offset
  std::vector<std::vector<PetscInt>> bodyRanges_;  // each member's ownership ranges
  std::vector<std::vector<PetscInt>>
      rankOffsets_;               // [member][rank]: its offset in that rank's part
  std::vector<PetscInt> ranges_;  // the joined vector's ownership ranges
  std::vector<End> ends_;
  std::vector<Spring> springs_;
  std::vector<std::array<double, 9>> dfdx_;  // each spring's D at the last force evaluation
  std::vector<Vec> xs_, vs_, fs_;            // work vectors of each member's layout
  std::unique_ptr<LagrangianConstraints> lagrangian_;
  std::vector<std::string> warnings_;
  std::vector<Attached> attached_;
  std::vector<End> attachEnds_;  // each attached node once
  Mat attachP_ = nullptr, projected_ = nullptr;
  Mat matrix_ = nullptr;
  double factors_[3] = {0, 0, 0};
  bool filled_ = false;
};

}  // namespace eis
