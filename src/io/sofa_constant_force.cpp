// SOFA's ConstantForceField as the keys of our constant-force (model/constant_force.cpp).
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
  if (r.given(o, "forces") && r.reals(o, "forces").size() == 3) {
    r.key("load.constant-force", vector3(r, o, "forces") + " " + where[0]);
  } else if (r.given(o, "forces")) {
    const std::vector<double> forces = r.reals(o, "forces");
    const std::vector<long long> indices = r.integers(o, "indices");
    if (where[0].rfind("indices", 0) != 0)
      r.reject(o, "forces", "one force per point needs `indices` written out");
    if (forces.size() != 3 * indices.size())
      r.reject(o, "forces", "expected 3 numbers (one force for every index) or 3 per index");
    std::string nodal;
    for (std::size_t i = 0; i < indices.size(); ++i)
      nodal += (i ? " " : "") + std::to_string(indices[i]) + " " + joined(forces, 3 * i, 3);
    r.key("load.nodal-forces", nodal);
  } else if (r.given(o, "totalForce")) {
    r.key("load.total-force", vector3(r, o, "totalForce") + " " + where[0]);
  }
}

}  // namespace

const RegisterSofaMapping constantForce({"ConstantForceField"}, mapConstantForce);

}  // namespace eis::sofa
