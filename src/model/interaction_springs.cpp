// Interaction springs (model/interaction_springs.hpp): their keys, the parse of their lists and
// the law of one spring.
#include "eis/model/interaction_springs.hpp"

#include <algorithm>
#include <cmath>

#include "eis/core/component_registry.hpp"
#include "eis/core/error.hpp"

namespace eis {

namespace {

// One end of a spring: a node id, or "i:w/j:w/.." (a point the body's nodes i, j, .. give with
// weights w): false for anything else.
bool parseEnd(const std::string& token, std::int64_t& node,
              std::vector<std::pair<std::int64_t, double>>& points) {
  long long n = -1;
  if (token.find(':') == std::string::npos) {
    if (!parse::number(token, n) || n < 0) return false;
    node = n;
    return true;
  }
  std::size_t start = 0;
  while (start <= token.size()) {
    const std::size_t slash = std::min(token.find('/', start), token.size());
    const std::string item = token.substr(start, slash - start);
    const std::size_t colon = item.find(':');
    double w = 0;
    if (colon == std::string::npos || !parse::number(item.substr(0, colon), n) || n < 0 ||
        !parse::number(item.substr(colon + 1), w) || !std::isfinite(w))
      return false;
    points.push_back({n, w});
    start = slash + 1;
  }
  node = points.front().first;
  return true;
}

InteractionSpringSet parseSet(const std::string& key, const std::string& text) {
  const Texts tokens = parse::tokens(text);
  if (tokens.empty()) parse::reject(key, text, "expected TARGET then i j ks kd L per spring");
  InteractionSpringSet set;
  set.target = tokens[0];
  if (set.target != "self" && set.target.rfind('/', 0) != 0)
    parse::reject(key, text, "the target is `self` or a body's node path (/NAME)");
  if (tokens.size() == 1 || (tokens.size() - 1) % 5 != 0)
    parse::reject(key, text, "expected five values per spring after the target: i j ks kd L");
  for (std::size_t t = 1; t < tokens.size(); t += 5) {
    InteractionSpring s;
    if (!parseEnd(tokens[t], s.node1, s.points1) || !parseEnd(tokens[t + 1], s.node2, s.points2))
      parse::reject(key, text,
                    "spring " + std::to_string(t / 5) +
                        ": each end is a node id >= 0 or weighted node ids i:w/j:w/..");
    if (!parse::number(tokens[t + 2], s.ks) || !parse::number(tokens[t + 3], s.kd) ||
        !parse::number(tokens[t + 4], s.length))
      parse::reject(key, text, "spring " + std::to_string(t / 5) + ": ks kd L are numbers");
    if (s.length < 0) parse::reject(key, text, "spring " + std::to_string(t / 5) + ": L < 0");
    set.springs.push_back(s);
  }
  return set;
}

// One interaction.polynomial-springs value: TARGET i j L COMPRESSIBLE c1 [c2 ..].
InteractionSpringSet parsePolynomial(const std::string& key, const std::string& text) {
  const Texts tokens = parse::tokens(text);
  if (tokens.size() < 6) parse::reject(key, text, "expected TARGET i j L COMPRESSIBLE c1 [c2 ..]");
  InteractionSpringSet set;
  set.target = tokens[0];
  if (set.target != "self" && set.target.rfind('/', 0) != 0)
    parse::reject(key, text, "the target is `self` or a body's node path (/NAME)");
  InteractionSpring s;
  long long n1 = -1, n2 = -1;
  if (!parse::number(tokens[1], n1) || !parse::number(tokens[2], n2) || n1 < 0 || n2 < 0)
    parse::reject(key, text, "node ids are integers >= 0");
  s.node1 = n1;
  s.node2 = n2;
  if (tokens[3] == "initial")
    s.length = kLengthAtFirstEvaluation;
  else if (!parse::number(tokens[3], s.length) || !(s.length > 0))
    parse::reject(key, text, "L is a length > 0 or `initial`");
  if (tokens[4] != "0" && tokens[4] != "1") parse::reject(key, text, "COMPRESSIBLE is 0 or 1");
  s.compressible = tokens[4] == "1";
  for (std::size_t t = 5; t < tokens.size(); ++t) {
    double c = 0;
    if (!parse::number(tokens[t], c)) parse::reject(key, text, "the coefficients are numbers");
    s.polynomial.push_back(c);
  }
  set.springs.push_back(s);
  return set;
}

}  // namespace

const ComponentDeclaration& interactionSpringsComponent() {
  static const ComponentDeclaration component{
      "interaction-springs", "force field",
      "bodies solved as one system, and springs between them (SOFA SpringForceField)",
      ParameterSpec()
          .add(
              {"solver.group", "NAME",
               "bodies whose solver.group is the same NAME are integrated as ONE linear system by\n"
               "one integrator (SOFA: the states below one ODE solver node), coupled by\n"
               "interaction.springs; a body without it is a system of its own",
               std::nullopt, "", false, check::nonEmpty()})
          .add(
              {"interaction.springs", "\"TARGET i j ks kd L ...\"",
               "springs from node i of this body to node j of TARGET (a body's node path /NAME\n"
               "of the same solver.group, or self), stiffness ks, damping kd, rest length L, five\n"
               "values per spring (SOFA SpringForceField's `spring` list); f = ks (d - L) +\n"
               "kd (v2 - v1).u/d along u = x2 - x1, damping explicit (no B). An end may be a\n"
               "point the body's nodes give, i:w/j:w/.. (sum w x; SOFA's spring to a\n"
               "BarycentricMapping child): its force reaches node i as w f. Repeatable",
               std::nullopt, "", true,
               [](const std::string& key, const std::string& text) { parseSet(key, text); }})
          .add(
              {"interaction.polynomial-springs", "\"TARGET i j L COMPRESSIBLE c1 [c2 ..]\"",
               "a spring from node i of this body to node j of TARGET (as interaction.springs)\n"
               "whose force along u = x2 - x1 is P(s) = c1 s + c2 s^2 + .. of the strain\n"
               "s = |d - L| / L, none when d < L unless COMPRESSIBLE is 1 (then -P(s)), no damping\n"
               "(SOFA PolynomialSpringsForceField); L > 0, or `initial`: the distance at the first\n"
               "force evaluation (SOFA's computeZeroLength). One spring a value; repeatable",
               std::nullopt, "", true,
               [](const std::string& key, const std::string& text) {
                 parsePolynomial(key, text);
               }}),
      nullptr};
  return component;
}

std::vector<InteractionSpringSet> interactionSpringsOf(const Parameters& scene) {
  std::vector<InteractionSpringSet> sets;
  for (const std::string& text : scene.texts("interaction.springs"))
    sets.push_back(parseSet("interaction.springs", text));
  for (const std::string& text : scene.texts("interaction.polynomial-springs"))
    sets.push_back(parsePolynomial("interaction.polynomial-springs", text));
  return sets;
}

void settleLength(InteractionSpring& spring, const double* p1, const double* p2) {
  if (!std::isnan(spring.length)) return;
  double d2 = 0;
  for (int k = 0; k < 3; ++k) d2 += (p2[k] - p1[k]) * (p2[k] - p1[k]);
  spring.length = std::sqrt(d2);
}

bool springForce(const InteractionSpring& spring, const double* p1, const double* p2,
                 const double* v1, const double* v2, SpringState& state) {
  state = SpringState{};
  double u[3], d2 = 0;
  for (int k = 0; k < 3; ++k) {
    u[k] = p2[k] - p1[k];
    d2 += u[k] * u[k];
  }
  const double d = std::sqrt(d2);
  if (!(d > 1.0e-9)) return false;
  const double inverse = 1.0 / d;
  double elongationVelocity = 0;
  for (int k = 0; k < 3; ++k) {
    u[k] *= inverse;
    elongationVelocity += u[k] * (v2[k] - v1[k]);
  }
  if (!spring.polynomial.empty()) {
    // PolynomialSpringsForceField::addForce and ComputeJacobian.
    const double L = spring.length, strain = std::fabs(d - L) / L;
    double value = 0, slope = 0, power = 1;
    for (std::size_t k = 0; k < spring.polynomial.size(); ++k) {
      slope += double(k + 1) * spring.polynomial[k] * power;
      power *= strain;
      value += spring.polynomial[k] * power;
    }
    const double sign = d >= L ? 1.0 : spring.compressible ? -1.0 : 0.0;
    const double along = slope / L - value * inverse, across = value * inverse;
    for (int j = 0; j < 3; ++j) {
      state.force[j] = sign * value * u[j];
      for (int k = 0; k < 3; ++k)
        state.dfdx[3 * j + k] = along * u[j] * u[k] + (j == k ? across : 0.0);
    }
    return true;
  }
  const double intensity = spring.ks * (d - spring.length) + spring.kd * elongationVelocity;
  const double tangent = intensity * inverse;
  for (int j = 0; j < 3; ++j) {
    state.force[j] = intensity * u[j];
    for (int k = 0; k < 3; ++k)
      state.dfdx[3 * j + k] = (spring.ks - tangent) * u[j] * u[k] + (j == k ? tangent : 0.0);
  }
  return true;
}

// A declaration alone, at the end of the force fields' ranks.
const RegisterComponent registered(495, interactionSpringsComponent);

}  // namespace eis
