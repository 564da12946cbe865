#pragma once
// Prescribed motion of selected nodes (elasticity): SOFA's LinearMovementProjectiveConstraint
// (piecewise-linear displacements at key times) and a constant prescribed velocity.
//
// Key frames follow one of two rules (constraint.linear-movement-rule):
// - sofa, SOFA's own (LinearMovementProjectiveConstraint.inl, DefaultAnimationLoop.cpp): the
//   motion acts in a step only while its start time t lies in [first key time, last key time).
//   Then the nodes are fixed rows of that step's solve (dv = 0 there), and after the step
//   they are put at x0 + m(t), their velocity the segment's slope, t being the step's start
//   time (SOFA projects before it advances the clock); x0 is the positions at the start of the
//   run, where the same projection also acts at t = 0. Outside that interval they are free.
// - hold: every step ends the nodes exactly at rest + m(t + h), holding the first and the last
//   displacement outside the key times; they are rows of every step, their known motion (the
//   lift) entering the free rows. Constant velocities follow this rule too.
#include <petscvec.h>

#include <array>
#include <string>
#include <vector>

#include "eis/core/component.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/fixed_constraint.hpp"
#include "eis/model/selection.hpp"

namespace eis {

// Key frames: at times[k] the displacement is moves[k].
struct KeyFrames {
  std::vector<double> times;
  std::vector<std::array<double, 3>> moves;
  // The hold rule: linear in between, moves.front() before the first time and moves.back()
  // after the last.
  std::array<double, 3> at(double t) const;
  // SOFA's findKeyTimes: a key time <= t and a later one exist (times.front() <= t <
  // times.back()).
  bool active(double t) const;
  // While active: SOFA's interpolated displacement and the segment's slope.
  void sofaAt(double t, std::array<double, 3>& move, std::array<double, 3>& slope) const;
};

enum class MotionRule { Sofa, Hold };

// One constraint.linear-movement value and one constraint.prescribed-velocity value, with their
// texts (a warning quotes them).
struct LinearMovement {
  std::string text;
  KeyFrames frames;
  Selection selection;
};
struct PrescribedVelocity {
  std::string text;
  std::array<double, 3> velocity;
  Selection selection;
};
// The prescribed-motion component's parameters, read once from a scene by
// readPrescribedMotionParameters (the only reader of its keys, beside its declaration).
struct PrescribedMotionParameters {
  MotionRule rule;                             // constraint.linear-movement-rule
  std::vector<LinearMovement> movements;       // constraint.linear-movement, in order
  std::vector<PrescribedVelocity> velocities;  // constraint.prescribed-velocity, in order
};
PrescribedMotionParameters readPrescribedMotionParameters(const Parameters& scene);

class PrescribedMotion {
public:
  // Collective. The motions the parameters ask for; a selection that selects no node adds a
  // warning.
  PrescribedMotion(const DistributedMesh& mesh, const PrescribedMotionParameters& parameters,
                   std::vector<std::string>& warnings);

  // Whether some nodes follow the hold rule or a velocity (the same on every rank).
  bool lifts() const { return liftCount_ > 0; }
  // Those nodes, every direction constrained: rows of every step.
  const std::vector<FixedConstraint::FixedNodes>& nodeSets() const { return sets_; }
  // dx = zero, but on the hold-rule and velocity unknowns the displacement from x to their
  // position at time t + h (key frames), or h times their velocity.
  void displacement(double t, double h, Vec x, Vec dx) const;

  // The sofa rule. Which of its motions act in a step starting at t (the same on every rank),
  // and the nodes of those that do: rows of that step.
  std::vector<bool> activeAt(double t) const;
  std::vector<FixedConstraint::FixedNodes> activeSets(const std::vector<bool>& active) const;
  // x0 = x, then the projection at t (SOFA's at initialization).
  void start(double t, Vec x, Vec v);
  // The active motions put their nodes at x0 + m(t) with the segment's slope as velocity, in
  // the order the motions were given.
  void project(double t, Vec x, Vec v) const;

private:
  struct Node {
    PetscInt offset;             // of its first unknown in the local part of a global vector
    std::array<double, 3> base;  // rest position (hold rule), x0 (sofa rule)
    int motion;                  // index into keyFrames_ (>= 0) or -1 - index into velocities_
  };
  MotionRule rule_;
  int dofs_;  // unknowns a node: 3, or 1 (diffusion: u moves by a key frame's first number)
  std::vector<KeyFrames> keyFrames_;
  std::vector<std::array<double, 3>> velocities_;
  std::vector<Node> lifted_;     // owned nodes; a node selected twice follows the later key
  std::vector<Node> projected_;  // owned nodes of the sofa rule, one per motion selecting it
  std::vector<FixedConstraint::FixedNodes> sets_;        // hold rule and velocities
  std::vector<FixedConstraint::FixedNodes> motionSets_;  // sofa rule, one per motion
  int liftCount_ = 0;
};

// constraint.linear-movement, constraint.linear-movement-rule, constraint.prescribed-velocity.
const ComponentDeclaration& prescribedMotionComponent();

// "T0 DX DY DZ T1 DX DY DZ .. : SELECTION" split into key frames and the selection's text;
// throws eis::Error naming the key and the text when it does not follow the grammar.
KeyFrames parseKeyFrames(const std::string& key, const std::string& text, std::string& selection);

}  // namespace eis
