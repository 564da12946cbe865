// SOFA's InteractionEllipsoidForceField<Vec3, Rigid3> (InteractionEllipsoidForceField.h/.inl) as
// the keys of our interaction-ellipsoid (model/interaction_ellipsoid_force_field.cpp).
#include <algorithm>
#include <string>
#include <vector>

#include "sofa_reader.hpp"
#include "sofa_rigid.hpp"
#include "sofa_walk.hpp"

namespace eis::sofa {

namespace {

std::string joined(const std::vector<double>& values) {
  std::string text;
  for (double value : values) text += (text.empty() ? "" : " ") + parse::text(value);
  return text;
}

// center and vradius: lists of 3D points, no defaults; initCalcF makes max(sizes) ellipsoids,
// a shorter list repeating its last entry, an empty one giving centre 0 0 0 and radii 1 1 1.
// stiffness 500, damping 5, object2_dof_index 0, object2_forces true, object2_invert false;
// color and draw are drawing; contacts is its output. DefaultAnimationLoop's SolveVisitor runs
// the frame's solver and the body's in scene order (io/sofa_import keeps that order), unless
// parallelODESolving runs them at once, which would make the frame the field reads a race.
void mapInteractionEllipsoid(Reader& r, const SofaObject& o) {
  if (r.real(o, "rayleighStiffness", 0) != 0)
    r.reject(o, "rayleighStiffness", "a force field's own Rayleigh damping is not supported");
  r.refuseIfGiven(o, "contacts", "contacts given in the scene are not supported");
  const std::string templ = r.text(o, "template").value_or("Vec3d,Rigid3d");
  const Texts types = parse::tokens(templ);
  if (types.size() != 2 || (types[0] != "Vec3" && types[0] != "Vec3d") ||
      !isRigidTemplate(types[1]))
    r.reject(o, "template", "SOFA registers it for Vec3,Rigid3 only");
  for (const SofaObject& m : r.scene().root().objects)
    if (m.type == "DefaultAnimationLoop" && r.boolean(m, "parallelODESolving", false))
      r.reject(m, "parallelODESolving",
               "solvers run at once would make the frame " + o.label() + " reads a race");
  const SofaObject* body = contextState(o.node);
  if (o.field("object1") && linkedState(r, o, "object1") != body)
    r.reject(o, "object1",
             "the points must be the state of its own node (" +
                 (body ? body->label() : std::string("none")) + ")");
  if (!o.field("object2")) r.reject(o, "object2", "the Rigid3 frame it moves with is needed");
  const SofaObject* frames = linkedState(r, o, "object2");
  if (!isRigidTemplate(r.text(*frames, "template").value_or("Vec3d")))
    r.reject(o, "object2", frames->label() + " is not a Rigid3 state");
  const double index = r.real(o, "object2_dof_index", 0);
  if (!(index >= 0) || index != double(long(index)))
    r.reject(o, "object2_dof_index", "expected a frame index >= 0");
  if (r.boolean(o, "object2_forces", true))
    r.reject(o, "object2_forces",
             "true (SOFA's default): the reaction on the frame is not carried; "
             "object2_forces = false is");
  std::vector<double> centres = r.reals(o, "center"), radii = r.reals(o, "vradius");
  if (centres.size() % 3 != 0) r.reject(o, "center", "expected three numbers a centre");
  if (radii.size() % 3 != 0) r.reject(o, "vradius", "expected three radii an ellipsoid");
  for (double radius : radii)
    if (!(radius > 0)) r.reject(o, "vradius", "the radii must be > 0");
  const std::size_t count = std::max<std::size_t>({centres.size() / 3, radii.size() / 3, 1});
  std::vector<double> ellipsoids;
  for (std::size_t e = 0; e < count; ++e) {
    for (int j = 0; j < 3; ++j)
      ellipsoids.push_back(centres.empty() ? 0
                                           : centres[3 * std::min(e, centres.size() / 3 - 1) + j]);
    for (int j = 0; j < 3; ++j)
      ellipsoids.push_back(radii.empty() ? 1 : radii[3 * std::min(e, radii.size() / 3 - 1) + j]);
  }
  const double damping = r.real(o, "damping", 5);
  if (damping < 0) r.reject(o, "damping", "must be >= 0");
  r.key("interaction.ellipsoid-frame",
        frames->node->path() + " " + std::to_string(static_cast<long>(index)));
  r.key("interaction.ellipsoids", joined(ellipsoids));
  r.key("interaction.ellipsoid-stiffness", parse::text(r.real(o, "stiffness", 500)));
  r.key("interaction.ellipsoid-damping", parse::text(damping));
  r.key("interaction.ellipsoid-invert", r.boolean(o, "object2_invert", false) ? "true" : "false");
}

}  // namespace

const RegisterSofaMapping interactionEllipsoid({"InteractionEllipsoidForceField"},
                                               mapInteractionEllipsoid);

}  // namespace eis::sofa
