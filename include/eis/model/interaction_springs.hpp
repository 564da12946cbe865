#pragma once
// Springs between two nodes of one body or of two bodies of one group (SOFA's SpringForceField,
// formerly StiffSpringForceField, between object1 and object2), and the keys that make a group:
// bodies whose solver.group is the same integrate as one system (app/simulation.cpp,
// model/coupled_system.hpp). The spring's law is SOFA master's SpringForceField::
// computeSpringForce: along u = x2 - x1 of length d, f = ks (d - L) + kd (v2 - v1).u/d, the
// force f u/d on node 1 and -f u/d on node 2; its derivative D = (ks - f/d) U U^T + (f/d) I
// (U = u/d, the damping part of f included), taken at the last force evaluation; the damping
// is explicit (in the force, no B), as SOFA's (buildDampingMatrix adds nothing). A spring
// shorter than 1e-9 gives no force and D = 0.
#include <array>
#include <string>
#include <vector>

#include "eis/core/component.hpp"
#include "eis/core/parameters.hpp"

namespace eis {

// solver.group and interaction.springs: the declaration (registered in its file).
const ComponentDeclaration& interactionSpringsComponent();

struct InteractionSpring {
  std::int64_t node1 = 0, node2 = 0;  // node ids of the two bodies' meshes
  double ks = 0, kd = 0, length = 0;
};

// The springs of one interaction.springs value: from the body whose scene holds it to
// `target` (a body's node path, or the body itself).
struct InteractionSpringSet {
  std::string target;  // "self" or a node path ("/b")
  std::vector<InteractionSpring> springs;
};

// Every interaction.springs value of a scene, parsed; the check of the key's text.
std::vector<InteractionSpringSet> interactionSpringsOf(const Parameters& scene);

// The force on node 1 (node 2's is its opposite) and D, for positions p1, p2 and velocities
// v1, v2; false (and zero) for a spring shorter than 1e-9.
struct SpringState {
  std::array<double, 3> force{};
  std::array<double, 9> dfdx{};  // row major
};
bool springForce(const InteractionSpring& spring, const double* p1, const double* p2,
                 const double* v1, const double* v2, SpringState& state);

}  // namespace eis
