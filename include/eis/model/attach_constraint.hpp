#pragma once
// Nodes of one body tied to nodes of another body of its group (SOFA's
// AttachProjectiveConstraint on Vec3d states, object1 and object2 under one ODE solver): the key
// attach.pairs, its parse, and the projections of one pair, which CoupledSystem applies to the
// joined vectors (model/coupled_system.hpp).
//
// SOFA master's AttachProjectiveConstraint.inl, for a pair (i of object1, j of object2) with
// c = constraintFactor[k] (1 when the list is empty):
//  - projectResponse: one-way, dx_j = 0 (the row of j is a fixed row of the solve); two-way,
//    corr = (dx_j - dx_i) r c / 2, dx_i += corr, dx_j -= corr (r = responseFactor);
//  - projectPosition: corr = (x_j - x_i) p c / 2, x_j -= corr (x_i is read through a copy, so
//    it does not move: x_j goes halfway to x_i when p c = 1);
//  - projectVelocity: corr = (v_j - v_i) q c / 2, v_i += corr, v_j -= corr (both, one-way
//    too).
// DefaultAnimationLoop projects positions, then velocities, constraint by constraint, once
// after each step's solve (the EulerImplicitSolver's own projection runs only with printLog).
// The solve's projection is linear: one-way the identity but zero on j, two-way the identity
// but [[1 - a, a], [a, 1 - a]] on the pair (a = r c / 2), a projector only for a = 0 or 1/2,
// the two the assembled matrix P A P + (I - P) D can stand for.
#include <cstdint>
#include <string>
#include <vector>

#include "eis/core/component.hpp"
#include "eis/core/parameters.hpp"

namespace eis {

// attach.pairs: the declaration (registered in its file).
const ComponentDeclaration& attachConstraintComponent();

struct AttachPair {
  std::int64_t node1 = 0, node2 = 0;  // a node of this body, a node of the target
  double factor = 1;                  // constraintFactor
};

// One attach.pairs value: one SOFA AttachProjectiveConstraint from the body that holds it
// (object1) to `target` (object2, a body's node path in the same solver.group).
struct AttachSet {
  std::string target;
  bool twoWay = false;
  double positionFactor = 1, velocityFactor = 1, responseFactor = 1;
  std::vector<AttachPair> pairs;
};

// Every attach.pairs value of a scene, parsed.
std::vector<AttachSet> attachSetsOf(const Parameters& scene);

// The pair's share a of the solve's projection (0 one-way): two-way r c / 2.
double attachResponseShare(const AttachSet& set, const AttachPair& pair);

// One pair's projections on 3-vectors (i of object1, j of object2), as SOFA's doProject*.
void attachProjectResponse(const AttachSet& set, const AttachPair& pair, double* di, double* dj);
void attachProjectPosition(const AttachSet& set, const AttachPair& pair, const double* xi,
                           double* xj);
void attachProjectVelocity(const AttachSet& set, const AttachPair& pair, double* vi, double* vj);

}  // namespace eis
