// SOFA master's VolumeMapping (Vec3 -> Vec1, one value per tetrahedron of its topology: the
// signed volume; NonLinearMappingData's geometricStiffness None, Exact or Stabilized, the last
// its default) with a RestShapeSpringsForceField<Vec1> in its child: springs on the volumes, the
// volume-springs force field of the body (model/volume_springs.hpp). The child's rest values are
// the rest volumes only when the mapping maps the rest positions (applyRestPosition; else they
// stay the zeros MechanicalObject::resize gives), so applyRestPosition is required.
#include "sofa_volume_mapping.hpp"

#include "sofa_data_fields.hpp"

namespace eis::sofa {

namespace {

std::string named(const SofaObject& o) {
  return o.label();
}

}  // namespace

void mapVolumeMappedChild(Reader& r, const MappedNode& child, const SofaObject& body,
                          bool skipUnsupported) {
  const SofaObject& mapping = *child.mapping;
  for (const SofaObject* o : {child.mapping, child.state}) checkDataFields(r, *o, skipUnsupported);
  for (const SofaObject* o : child.components) checkDataFields(r, *o, skipUnsupported);
  r.from(mapping);
  for (const char* field : {"mapForces", "mapMasses", "mapMatrices", "isMechanical"})
    if (!r.boolean(mapping, field, true))
      r.reject(mapping, field, "a mapped child whose forces stay in the child");
  if (!r.boolean(mapping, "applyRestPosition", false))
    r.reject(mapping, "applyRestPosition",
             "false leaves the child's rest values at zero, not the rest volumes; only "
             "applyRestPosition=\"true\" is supported");
  if (mapping.field("topology")) {
    const SofaLinkTarget target = r.scene().resolve(*mapping.node, *mapping.field("topology"),
                                                    r.where(mapping, "topology"), &mapping);
    const SofaNode* node = target.object ? target.object->node : target.node;
    if (node != body.node)
      r.reject(mapping, "topology",
               "the tetrahedra of another node than " + body.label() + "'s are not supported");
  }
  const std::string geometric = r.text(mapping, "geometricStiffness").value_or("Stabilized");
  std::string choice;
  if (geometric == "None" || geometric == "0") choice = "none";
  if (geometric == "Exact" || geometric == "1") choice = "exact";
  if (geometric == "Stabilized" || geometric == "2") choice = "stabilized";
  if (choice.empty()) r.reject(mapping, "geometricStiffness", "expected None, Exact or Stabilized");
  const std::string tmpl = r.text(*child.state, "template").value_or("Vec3d");
  if (tmpl != "Vec1d" && tmpl != "Vec1")
    r.reject(*child.state, "template", "a VolumeMapping's child is a Vec1d state");
  for (const char* field : {"position", "rest_position", "velocity"})
    r.refuseIfGiven(*child.state, field,
                    "the VolumeMapping gives the child its values (one volume per tetrahedron)");
  bool springs = false;
  for (const SofaObject* o : child.components) {
    r.from(*o);
    if (o->type != "RestShapeSpringsForceField")
      throw Error(o->where + ": " + named(*o) +
                  ": in a VolumeMapping's child only a RestShapeSpringsForceField is supported");
    if (springs)
      throw Error(o->where + ": " + named(*o) +
                  ": a second RestShapeSpringsForceField in a VolumeMapping's child");
    springs = true;
    for (const char* field : {"points", "external_rest_shape", "external_points", "pivot_points",
                              "angularStiffness", "activeDirections"})
      r.refuseIfGiven(*o, field,
                      "on a VolumeMapping's child only every volume with one "
                      "stiffness is supported");
    const std::vector<double> stiffness = r.reals(*o, "stiffness");
    if (stiffness.size() != 1)
      r.reject(*o, "stiffness", "one stiffness for every volume is supported");
    const double k = stiffness[0];
    if (k < 0) r.reject(*o, "stiffness", "a negative stiffness");
    r.key("volume.stiffness", parse::text(k));
    r.key("volume.geometric-stiffness", choice);
  }
}

}  // namespace eis::sofa
