#pragma once
// SOFA's PlaneProjectiveConstraint, LineProjectiveConstraint, PointProjectiveConstraint,
// OscillatorProjectiveConstraint and AffineMovementProjectiveConstraint on a selection
// (elasticity). Each node's motion is projected by a 3x3 P: I - n n^T onto a plane of unit
// normal n, d d^T onto a line of unit direction d, 0 for the others (fixed rows). P acts on the
// right-hand sides, the solutions and the system matrix (FixedConstraint::ProjectedNodes,
// SystemMatrix); at the start of the run and after every step, at the time t of the step's start
// (SOFA projects before it advances its clock), the positions and velocities are set as SOFA's
// projectPosition and projectVelocity set them: onto the plane, line or point with P v; an
// oscillator's m + a sin(w t + phase) with a w cos(w t + phase); an affine movement's
// interpolation from x0 to R x0 + T over (t0, t1] with zero velocity, x0 the positions at the
// start of the run; a patch test's (SOFA PatchTestMovementProjectiveConstraint) the same
// interpolation from x0 to x0 + d, d the bilinear interpolation of four corner movements over
// the bounding box of the selected nodes' x0 in x and y, or, for nodes not in one plane
// z = constant, of four on the box's lower z face and four on its upper, linear in z between.
#include <petscvec.h>

#include <array>
#include <string>
#include <vector>

#include "eis/core/component.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/fixed_constraint.hpp"
#include "eis/model/selection.hpp"

namespace eis {

struct NodeProjector {
  enum class Kind { Plane, Line, Point, Oscillator, Affine, PatchTest };
  Kind kind;
  std::array<double, 3> origin;      // a point of the plane or line; the point; the mean
  std::array<double, 3> direction;   // unit normal of the plane, unit direction of the line;
                                     // the oscillator's amplitude; the affine translation
  double pulsation = 0, phase = 0;   // the oscillator's
  double begin = 0, end = 0;         // the affine movement's times
  std::array<double, 9> rotation{};  // the affine movement's R, row-major
  std::array<double, 24> corners{};  // the patch test's movements of corners 0 .. 3 (.. 7)
  bool solid = false;                // the patch test's 8 corner movements given
  std::array<double, 6> box{};       // the patch test's xmin, ymin, zmin, xmax, ymax, zmax
                                     // (set by start)
  // SOFA's reinit: a plane's zero normal stays zero (P = I), a line's zero direction is x.
  static NodeProjector plane(std::array<double, 3> origin, std::array<double, 3> normal);
  static NodeProjector line(std::array<double, 3> origin, std::array<double, 3> direction);
  static NodeProjector point(std::array<double, 3> point);
  std::array<double, 9> block() const;  // P, row-major
  // x onto the plane (x - n ((x - o).n)), the line (o + d ((x - o).d)) or the point; an
  // oscillator's position and velocity at t. x0: an affine movement's or patch test's start
  // position.
  void project(double t, const double* x0, double* x, double* v) const;
};

// One value of constraint.plane, .line, .point, .oscillator, .affine-movement or .patch-test,
// with its key and text.
struct ProjectorSelection {
  std::string key, text;
  NodeProjector projector;
  Selection selection;
};
// The node-projector component's parameters, read once from a scene: every value of
// constraint.point, .line, .plane, .oscillator, .affine-movement and .patch-test, in that order.
struct NodeProjectorParameters {
  std::vector<ProjectorSelection> sets;
};
NodeProjectorParameters readNodeProjectorParameters(const Parameters& scene);

class NodeProjectors {
public:
  // Collective. A selection that selects no node adds a warning.
  NodeProjectors(const DistributedMesh& mesh, const NodeProjectorParameters& parameters,
                 std::vector<std::string>& warnings);
  // The projections of the step, for FixedConstraint.
  const std::vector<FixedConstraint::ProjectedNodes>& projectedSets() const { return sets_; }
  // Collective. x0 = x (affine movements, patch tests), each patch test's box the bounding box
  // of its nodes' x0 (Error when they are not in one plane z = constant with 4 corner movements,
  // or the box is flat in x or y), then projectState.
  void start(double t, Vec x, Vec v);
  // Positions and velocities set at time t, in the order the sets were given.
  void projectState(double t, Vec x, Vec v) const;

private:
  struct Set {
    NodeProjector projector;
    std::vector<PetscInt> offsets;             // owned nodes' first unknowns in the local part
    std::vector<std::array<double, 3>> start;  // their x0 (affine movements)
  };
  std::vector<Set> owned_;
  std::vector<FixedConstraint::ProjectedNodes> sets_;
};

// constraint.plane, constraint.line, constraint.point.
const ComponentDeclaration& nodeProjectorComponent();

}  // namespace eis
