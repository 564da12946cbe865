#pragma once
// Prescribed motion of selected nodes (elasticity): SOFA's LinearMovementProjectiveConstraint
// (piecewise-linear displacements from the rest positions at key times) and a constant
// prescribed velocity. The nodes are constrained rows of the step (FixedConstraint holds them);
// the ODE solver asks for the displacement that takes them to where they must be at the end of
// the step and makes it the known part of the solution.
#include <petscvec.h>

#include <array>
#include <string>
#include <vector>

#include "eis/core/component.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/fixed_constraint.hpp"

namespace eis {

// Key frames: at times[k] the displacement from the rest position is moves[k]; linear in
// between, moves.front() before the first time and moves.back() after the last.
struct KeyFrames {
  std::vector<double> times;
  std::vector<std::array<double, 3>> moves;
  std::array<double, 3> at(double t) const;
};

class PrescribedMotion {
public:
  // Collective. The motions the scene asks for; a selection that selects no node adds a warning.
  PrescribedMotion(const DistributedMesh& mesh, const Parameters& scene,
                   std::vector<std::string>& warnings);

  // Whether the scene prescribes any motion (the same on every rank, whatever it owns).
  bool empty() const { return keyFrames_.empty() && velocities_.empty(); }
  // The selected nodes, every direction constrained: they join the fixed rows of the step.
  const std::vector<FixedConstraint::FixedNodes>& nodeSets() const { return sets_; }
  // dx = zero, but on the prescribed unknowns the displacement from x to their prescribed
  // position at time t + h (key frames), or h times their velocity.
  void displacement(double t, double h, Vec x, Vec dx) const;

private:
  struct Node {
    PetscInt offset;             // of its first unknown in the local part of a global vector
    std::array<double, 3> rest;  // rest position
    int motion;                  // index into keyFrames_ (>= 0) or -1 - index into velocities_
  };
  std::vector<KeyFrames> keyFrames_;
  std::vector<std::array<double, 3>> velocities_;
  std::vector<Node> nodes_;  // owned nodes; a node selected twice follows the later key
  std::vector<FixedConstraint::FixedNodes> sets_;
};

// constraint.linear-movement and constraint.prescribed-velocity.
const ComponentDeclaration& prescribedMotionComponent();

// "T0 DX DY DZ T1 DX DY DZ .. : SELECTION" split into key frames and the selection's text;
// throws eis::Error naming the key and the text when it does not follow the grammar.
KeyFrames parseKeyFrames(const std::string& key, const std::string& text, std::string& selection);

}  // namespace eis
