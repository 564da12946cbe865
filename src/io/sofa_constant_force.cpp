// SOFA's ConstantForceField as the keys of our constant-force (model/constant_force.cpp).
#include "sofa_low_dimension.hpp"
#include "sofa_reader.hpp"
#include "sofa_selections.hpp"

namespace eis::sofa {

namespace {

// ConstantForceField.inl (SOFA master; its `force` was removed, so it is an unknown data
// field here, io/sofa_data_fields): indices not set or empty = every point; forces wins over
// totalForce (shared equally among the indices); one force in forces is the same on every
// index (computeForceFromSingleForce), else one per index (their counts must agree); none
// set: an invalid component, no force.
void mapConstantForce(Reader& r, const SofaObject& o) {
  if (r.boolean(o, "indexFromEnd", false))
    r.reject(o, "indexFromEnd", "indices counted from the end are not supported");
  const std::vector<std::string> where = selectionsOf(r, o, "indices", {"all"});
  if (where.size() != 1)
    r.reject(o, "indices", "several boxes or spheres for one force are not supported yet");
  // A Vec1 or Vec2 state's forces have d numbers each, the components past d zero
  // (io/sofa_low_dimension).
  const std::size_t d = std::size_t(stateDimensions(r, o.node));
  const std::string n = std::to_string(d);
  const auto force = [d](const std::vector<double>& values, std::size_t from) {
    std::string text = joined(values, from, d);
    for (std::size_t k = d; k < 3; ++k) text += " 0";
    return text;
  };
  if (r.given(o, "forces") && r.reals(o, "forces").size() == d) {
    r.key("load.constant-force", force(r.reals(o, "forces"), 0) + " " + where[0]);
  } else if (r.given(o, "forces")) {
    const std::vector<double> forces = r.reals(o, "forces");
    const std::vector<long long> indices = r.integers(o, "indices");
    if (where[0].rfind("indices", 0) != 0)
      r.reject(o, "forces", "one force per point needs `indices` written out");
    if (forces.size() != d * indices.size())
      r.reject(o, "forces",
               "expected " + n + " numbers (one force for every index) or " + n + " per index");
    std::string nodal;
    for (std::size_t i = 0; i < indices.size(); ++i)
      nodal += (i ? " " : "") + std::to_string(indices[i]) + " " + force(forces, d * i);
    r.key("load.nodal-forces", nodal);
  } else if (r.given(o, "totalForce")) {
    const std::vector<double> total = r.reals(o, "totalForce");
    if (total.size() != d) r.reject(o, "totalForce", "expected " + n + " numbers");
    r.key("load.total-force", force(total, 0) + " " + where[0]);
  }
}

}  // namespace

const RegisterSofaMapping constantForce({"ConstantForceField"}, mapConstantForce);

}  // namespace eis::sofa
