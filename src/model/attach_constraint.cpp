// Attached nodes between the bodies of a group (model/attach_constraint.hpp): the key, its
// parse and one pair's projections.
#include "eis/model/attach_constraint.hpp"

#include "eis/core/component_registry.hpp"
#include "eis/core/error.hpp"

namespace eis {

namespace {

constexpr const char* kGrammar =
    "expected TARGET [two-way] [position-factor P] [velocity-factor Q] [response-factor R] "
    "pairs i j c [i j c ...]";

AttachSet parseSet(const std::string& key, const std::string& text) {
  const Texts tokens = parse::tokens(text);
  if (tokens.empty()) parse::reject(key, text, kGrammar);
  AttachSet set;
  set.target = tokens[0];
  if (set.target.rfind('/', 0) != 0)
    parse::reject(key, text, "the target is a body's node path (/NAME) of the same solver.group");
  std::size_t t = 1;
  for (; t < tokens.size() && tokens[t] != "pairs"; ++t) {
    if (tokens[t] == "two-way") {
      set.twoWay = true;
      continue;
    }
    double* factor = tokens[t] == "position-factor"   ? &set.positionFactor
                     : tokens[t] == "velocity-factor" ? &set.velocityFactor
                     : tokens[t] == "response-factor" ? &set.responseFactor
                                                      : nullptr;
    if (!factor || t + 1 == tokens.size() || !parse::number(tokens[t + 1], *factor))
      parse::reject(key, text, kGrammar);
    ++t;
  }
  if (t == tokens.size() || (tokens.size() - t - 1) % 3 != 0 || tokens.size() - t - 1 == 0)
    parse::reject(key, text, "expected three values per pair after `pairs`: i j c");
  for (std::size_t k = t + 1; k < tokens.size(); k += 3) {
    AttachPair pair;
    long long n1 = -1, n2 = -1;
    const std::string which = "pair " + std::to_string((k - t - 1) / 3);
    if (!parse::number(tokens[k], n1) || !parse::number(tokens[k + 1], n2) || n1 < 0 || n2 < 0)
      parse::reject(key, text, which + ": node ids are integers >= 0");
    if (!parse::number(tokens[k + 2], pair.factor))
      parse::reject(key, text, which + ": the factor c is a number");
    pair.node1 = n1;
    pair.node2 = n2;
    set.pairs.push_back(pair);
  }
  return set;
}

}  // namespace

const ComponentDeclaration& attachConstraintComponent() {
  static const ComponentDeclaration component{
      "attach-constraint", "projective constraint",
      "nodes of another body of the group tied to this body's (SOFA AttachProjectiveConstraint)",
      ParameterSpec().add(
          {"attach.pairs",
           "\"TARGET [two-way] [position-factor P] [velocity-factor Q] [response-factor R] pairs "
           "i j c ...\"",
           "node j of TARGET (a body's node path /NAME of the same solver.group) tied to node i\n"
           "of this body with factor c, three values per pair (SOFA AttachProjectiveConstraint:\n"
           "object1 this body, object2 TARGET, indices1, indices2, constraintFactor). In the\n"
           "solve, one-way, j's rows are fixed; two-way (twoWay), i and j move as one node\n"
           "(R c = 1; R c = 0 leaves the pair free). After each step x_j -= (x_j - x_i) P c / 2\n"
           "and v_i, v_j move towards each other by (v_j - v_i) Q c / 2 (SOFA's projectPosition\n"
           "and projectVelocity). P, Q, R default to 1. Repeatable: one value per constraint,\n"
           "projected in order",
           std::nullopt, "", true,
           [](const std::string& key, const std::string& text) { parseSet(key, text); }}),
      nullptr};
  return component;
}

std::vector<AttachSet> attachSetsOf(const Parameters& scene) {
  std::vector<AttachSet> sets;
  for (const std::string& text : scene.texts("attach.pairs"))
    sets.push_back(parseSet("attach.pairs", text));
  return sets;
}

double attachResponseShare(const AttachSet& set, const AttachPair& pair) {
  return set.twoWay ? 0.5 * set.responseFactor * pair.factor : 0.0;
}

void attachProjectResponse(const AttachSet& set, const AttachPair& pair, double* di, double* dj) {
  if (!set.twoWay) {
    for (int d = 0; d < 3; ++d) dj[d] = 0;
    return;
  }
  for (int d = 0; d < 3; ++d) {
    const double corr = (dj[d] - di[d]) * 0.5 * set.responseFactor * pair.factor;
    di[d] += corr;
    dj[d] -= corr;
  }
}

void attachProjectPosition(const AttachSet& set, const AttachPair& pair, const double* xi,
                           double* xj) {
  const double a = 0.5 * set.positionFactor * pair.factor;
  for (int d = 0; d < 3; ++d) xj[d] -= (xj[d] - xi[d]) * a;
}

void attachProjectVelocity(const AttachSet& set, const AttachPair& pair, double* vi, double* vj) {
  const double a = 0.5 * set.velocityFactor * pair.factor;
  for (int d = 0; d < 3; ++d) {
    const double corr = (vj[d] - vi[d]) * a;
    vi[d] += corr;
    vj[d] -= corr;
  }
}

// A declaration alone, acting through the group's CoupledSystem, beside the interaction springs.
const RegisterComponent registered(497, attachConstraintComponent);

}  // namespace eis
