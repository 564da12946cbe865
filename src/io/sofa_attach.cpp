// SOFA's AttachProjectiveConstraint (AttachConstraint before v24.06) between two Vec3d states
// under one ODE solver, as attach.pairs of object1's body towards object2's node path
// (model/attach_constraint.hpp; io/sofa_walk.cpp puts it on object1's body and has checked that
// one solver integrates both). SOFA master's AttachProjectiveConstraint.{h,inl}: indices1,
// indices2 (pairs up to the shorter list, with a warning), twoWay false, positionFactor,
// velocityFactor, responseFactor 1, constraintFactor (empty: 1 for every pair), minDistance -1
// (no release), lastPos/lastDir/clamp (pairs released past a plane); freeRotations,
// lastFreeRotation and restRotations act on Rigid states only (their Vec3d projections leave
// them unused).
#include <algorithm>
#include <cmath>
#include <string>

#include "sofa_reader.hpp"
#include "sofa_walk.hpp"

namespace eis::sofa {

namespace {

void mapAttach(Reader& r, const SofaObject& o) {
  const auto stateOf = [&](const char* field) {
    return o.field(field) ? linkedState(r, o, field) : contextState(o.node);
  };
  const SofaObject *first = stateOf("object1"), *second = stateOf("object2");
  const std::string own = o.field("template") ? *o.field("template") : "Vec3d";
  if (own != "Vec3d" && own != "Vec3")
    r.reject(o, "template", "only Vec3d states are supported, not " + own);
  for (const SofaObject* state : {first, second}) {
    const std::string name = state->field("template") ? *state->field("template") : "Vec3d";
    if (name != "Vec3d" && name != "Vec3")
      r.reject(o, state == first ? "object1" : "object2",
               state->label() + " is a " + name + " state: only Vec3d states are supported");
  }
  if (first == second)
    r.reject(o, "object2",
             "object1 and object2 are one state: pairs within one body are not "
             "supported");
  const double minDistance = r.real(o, "minDistance", -1);
  if (minDistance != -1)
    r.reject(o, "minDistance", "releasing pairs further apart than minDistance is not supported");
  const std::vector<double> lastDir = r.reals(o, "lastDir");
  double norm = 0;
  for (double x : lastDir) norm += x * x;
  if (std::sqrt(norm) > 1.0e-10)
    r.reject(o, "lastDir",
             "releasing (or clamping) pairs past lastPos along lastDir is not "
             "supported");
  if (r.real(o, "endTime", -1) >= 0)
    r.reject(o, "endTime", "a constraint that stops acting at endTime is not supported");
  // A link to what an engine computes (a BoxROI's indices) has no written values to pair.
  for (const char* field : {"indices1", "indices2", "constraintFactor"})
    if (o.field(field) && isSofaLink(*o.field(field)) &&
        parse::tokens(r.text(o, field).value_or("")).empty())
      r.reject(o, field,
               "a link to values SOFA computes (an engine's output) is not supported; "
               "write the indices");
  const std::vector<long long> indices1 = r.integers(o, "indices1"),
                               indices2 = r.integers(o, "indices2");
  if (indices1.size() != indices2.size())
    r.warn(o.where + ": AttachProjectiveConstraint: indices1 and indices2 differ in length (" +
           std::to_string(indices1.size()) + ", " + std::to_string(indices2.size()) +
           "); SOFA pairs them up to the shorter");
  const std::size_t count = std::min(indices1.size(), indices2.size());
  const std::vector<double> factors = r.reals(o, "constraintFactor");
  if (!factors.empty() && factors.size() != indices2.size())
    r.reject(o, "constraintFactor",
             "expected one factor per index of indices2 (" + std::to_string(indices2.size()) +
                 "), or none");
  if (count == 0) return;
  std::string value = second->node->path();
  if (r.boolean(o, "twoWay", false)) value += " two-way";
  value += " position-factor " + parse::text(r.real(o, "positionFactor", 1));
  value += " velocity-factor " + parse::text(r.real(o, "velocityFactor", 1));
  value += " response-factor " + parse::text(r.real(o, "responseFactor", 1));
  value += " pairs";
  for (std::size_t k = 0; k < count; ++k) {
    if (indices1[k] < 0 || indices2[k] < 0)
      r.reject(o, indices1[k] < 0 ? "indices1" : "indices2", "a negative index");
    value += " " + std::to_string(indices1[k]) + " " + std::to_string(indices2[k]) + " " +
             parse::text(factors.empty() ? 1.0 : factors[k]);
  }
  r.key("attach.pairs", value);
}

}  // namespace

const RegisterSofaMapping attach({"AttachProjectiveConstraint", "AttachConstraint"}, mapAttach);

}  // namespace eis::sofa
