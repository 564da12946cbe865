// SOFA master's DistanceMapping (Vec3 -> Vec1, one value per edge of its topology: the length
// minus the rest length, restLengths or the lengths at init, zero with computeDistance) with a
// UniformLagrangianConstraint<Vec1> in its child (one bilateral row per child value, its
// violation the child's value with constrainToRestPos false): the edges' lengths held by
// Lagrangian rows on the body, J_c J_mapping (model/distance_lagrangian_constraint.hpp). The
// mapping's topology must be the body's, whose cells are its edges (a string of edges).
#include "sofa_distance_mapping.hpp"

#include "eis/core/parameters.hpp"
#include "sofa_data_fields.hpp"

namespace eis::sofa {

void mapDistanceMappedChild(Reader& r, const MappedNode& child, const SofaObject& body,
                            bool skipUnsupported) {
  const SofaObject& mapping = *child.mapping;
  for (const SofaObject* o : {child.mapping, child.state}) checkDataFields(r, *o, skipUnsupported);
  for (const SofaObject* o : child.components) checkDataFields(r, *o, skipUnsupported);
  r.from(mapping);
  for (const char* field : {"mapForces", "mapMasses", "mapMatrices", "isMechanical"})
    if (!r.boolean(mapping, field, true))
      r.reject(mapping, field, "a mapped child whose forces stay in the child");
  if (mapping.field("topology")) {
    const SofaLinkTarget target = r.scene().resolve(*mapping.node, *mapping.field("topology"),
                                                    r.where(mapping, "topology"), &mapping);
    const SofaNode* node = target.object ? target.object->node : target.node;
    if (node != body.node)
      r.reject(mapping, "topology",
               "the edges of another node than " + body.label() + "'s are not supported");
  }
  // NonLinearMappingData's geometricStiffness (Stabilized by default): FreeMotionAnimationLoop
  // adds the mapping's geometric stiffness under the last step's multipliers over dt to the next
  // free motion (model/distance_geometric_stiffness.hpp).
  const std::string geometric = r.text(mapping, "geometricStiffness").value_or("Stabilized");
  std::string stiffness;
  if (geometric == "Exact" || geometric == "1")
    stiffness = " geometric-stiffness exact";
  else if (geometric == "Stabilized" || geometric == "2")
    stiffness = " geometric-stiffness stabilized";
  else if (geometric != "None" && geometric != "0")
    r.reject(mapping, "geometricStiffness", "expected None, Exact or Stabilized");
  if (!r.gave("mesh.edges"))
    throw Error(mapping.where + ": " + mapping.label() +
                ": its edges are read from the body's topology when the body's cells are "
                "edges (a string of edges); " +
                body.label() + "'s are not");
  std::string value = r.gaveValue("mesh.edges");
  const std::size_t edges = parse::tokens(value).size() / 2;
  if (r.given(mapping, "restLengths")) {
    const std::vector<double> rest = r.reals(mapping, "restLengths");
    // DistanceMapping::init keeps restLengths only when it has one per edge.
    if (rest.size() == edges) {
      value += " rest";
      for (double l : rest) value += " " + parse::text(l);
    }
  } else if (r.boolean(mapping, "computeDistance", false)) {
    value += " rest";
    for (std::size_t k = 0; k < edges; ++k) value += " 0";
  }
  const std::string tmpl = r.text(*child.state, "template").value_or("Vec3d");
  if (tmpl != "Vec1d" && tmpl != "Vec1")
    r.reject(*child.state, "template", "a DistanceMapping's child is a Vec1d state");
  for (const char* field : {"position", "rest_position", "velocity"})
    r.refuseIfGiven(*child.state, field,
                    "the DistanceMapping gives the child its values (one per edge)");
  bool held = false;
  for (const SofaObject* o : child.components) {
    r.from(*o);
    if (o->type != "UniformLagrangianConstraint")
      throw Error(o->where + ": " + o->label() +
                  ": in a DistanceMapping's child only a UniformLagrangianConstraint is "
                  "supported");
    if (held)
      throw Error(o->where + ": " + o->label() +
                  ": a second UniformLagrangianConstraint in a DistanceMapping's child");
    held = true;
    const std::string t = r.text(*o, "template").value_or("Vec1d");
    if (t != "Vec1d" && t != "Vec1")
      r.reject(*o, "template", "on a DistanceMapping's child the constraint is Vec1d");
    if (r.boolean(*o, "constrainToRestPos", false))
      r.reject(*o, "constrainToRestPos",
               "the child's rest values (which the mapping does not set) are not read; only "
               "false (the lengths held at their rest lengths) is supported");
    // UniformLagrangianConstraint::getConstraintResolution: iterative false makes all its rows
    // one BilateralConstraintResolutionNDof.
    r.key("lagrange.distance",
          value + (r.boolean(*o, "iterative", true) ? "" : " block") + stiffness);
  }
  if (!held)
    throw Error(mapping.where + ": " + mapping.label() +
                ": a DistanceMapping's child is supported holding a UniformLagrangianConstraint");
}

}  // namespace eis::sofa
