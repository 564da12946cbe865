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
//
// A polynomial spring (SOFA's PolynomialSpringsForceField, interaction.polynomial-springs) has
// instead the force P(s) u/d on node 1 of strain s = |d - L| / L, P(s) = c1 s + c2 s^2 + ..,
// none when d < L unless compressible (then -P(s) u/d), no damping, and SOFA's tangent
// D = (P'(s)/L - P(s)/d) U U^T + (P(s)/d) I whatever the sign (exact when stretched). Its L may
// be the distance at the first force evaluation (SOFA's computeZeroLength, the default).
//
// An end may be a point a linear mapping drives from the body (SOFA's BarycentricMapping child
// of the body holding the spring's state): x_end = sum w_i x_i over some of the body's nodes, and
// likewise its velocity; the spring acts on those points, its force reaching node i as w_i f
// (J^T f), its stiffness as w_i w_j D (J^T K J). Written "i:w/j:w/.." in place of a node id.
#include <array>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "eis/core/component.hpp"
#include "eis/core/parameters.hpp"

namespace eis {

// solver.group and interaction.springs: the declaration (registered in its file).
const ComponentDeclaration& interactionSpringsComponent();

struct InteractionSpring {
  std::int64_t node1 = 0, node2 = 0;  // node ids of the two bodies' meshes
  double ks = 0, kd = 0, length = 0;
  std::vector<double> polynomial;  // c1 c2 ..: a polynomial spring's law; empty: a linear one
  bool compressible = false;       // a polynomial spring's force when d < L
  // A weighted end: its nodes and weights (node1 or node2 then its first node); empty: the node.
  std::vector<std::pair<std::int64_t, double>> points1, points2;
};
// A polynomial spring's length when it is the first evaluation's: NaN until then.
inline constexpr double kLengthAtFirstEvaluation = std::numeric_limits<double>::quiet_NaN();

// The springs of one interaction.springs value: from the body whose scene holds it to
// `target` (a body's node path, or the body itself).
struct InteractionSpringSet {
  std::string target;  // "self" or a node path ("/b")
  std::vector<InteractionSpring> springs;
};

// Every interaction.springs and interaction.polynomial-springs value of a scene, parsed (a
// polynomial spring a set of its own); the check of the keys' text.
std::vector<InteractionSpringSet> interactionSpringsOf(const Parameters& scene);

// The force on node 1 (node 2's is its opposite) and D, for positions p1, p2 and velocities
// v1, v2; false (and zero) for a spring shorter than 1e-9.
struct SpringState {
  std::array<double, 3> force{};
  std::array<double, 9> dfdx{};  // row major
};
bool springForce(const InteractionSpring& spring, const double* p1, const double* p2,
                 const double* v1, const double* v2, SpringState& state);
// Gives a spring whose length is kLengthAtFirstEvaluation the distance between p1 and p2; any
// other spring is left as it is.
void settleLength(InteractionSpring& spring, const double* p1, const double* p2);

}  // namespace eis
