// SOFA's analytic obstacles, PlaneForceField, SphereForceField, EllipsoidForceField and
// ConicalForceField (Sofa/Component/MechanicalLoad), as the keys of our plane-force-field,
// sphere-force-field, ellipsoid-force-field and conical-force-field (model/plane_force_field.cpp,
// model/sphere_force_field.cpp, model/ellipsoid_force_field.cpp, model/conical_force_field.cpp).
#include <string>

#include "sofa_reader.hpp"
#include "sofa_selections.hpp"

namespace eis::sofa {

namespace {

// What both leave to SOFA's base classes or to a range of indices, and we do not map.
void refuseCommon(Reader& r, const SofaObject& o) {
  // ForceField's rayleighStiffness: a Rayleigh term of the field's own (kFactor + bFactor rs in
  // addDForce); 0 by default.
  if (r.real(o, "rayleighStiffness", 0) != 0)
    r.reject(o, "rayleighStiffness", "a force field's own Rayleigh damping is not supported");
  r.refuseIfGiven(o, "localRange", "a range of the nodes is not supported");
}

// PlaneForceField.inl: normal 0 1 0, d 0, stiffness 500, damping 5, maxForce 0 (none),
// bilateral false. init warns of a negative stiffness, damping or maxForce and takes the
// default instead; here they are refused. The normal is used as written.
void mapPlane(Reader& r, const SofaObject& o) {
  refuseCommon(r, o);
  const std::string normal = r.given(o, "normal") ? vector3(r, o, "normal") : "0 1 0";
  const double k = r.real(o, "stiffness", 500), c = r.real(o, "damping", 5),
               maxForce = r.real(o, "maxForce", 0);
  if (k < 0) r.reject(o, "stiffness", "must be >= 0 (SOFA warns and takes 500)");
  if (c < 0) r.reject(o, "damping", "must be >= 0 (SOFA warns and takes 5)");
  if (maxForce < 0) r.reject(o, "maxForce", "must be >= 0 (SOFA warns and takes 0, no limit)");
  const std::vector<double> n = r.reals(o, "normal");
  if (n.size() == 3 && n[0] == 0 && n[1] == 0 && n[2] == 0)
    r.reject(o, "normal", "the normal is zero");
  r.key("obstacle.plane", normal + " " + parse::text(r.real(o, "d", 0)) + " " + parse::text(k) +
                              " " + parse::text(c) + " " + parse::text(maxForce) +
                              (r.boolean(o, "bilateral", false) ? " bilateral" : ""));
}

// SphereForceField.inl: center 0 0 0, radius 1, stiffness 500, damping 5, bilateral false;
// `contacts` is its output.
void mapSphere(Reader& r, const SofaObject& o) {
  refuseCommon(r, o);
  r.refuseIfGiven(o, "contacts", "contacts given in the scene are not supported");
  const std::string centre = r.given(o, "center") ? vector3(r, o, "center") : "0 0 0";
  const double radius = r.real(o, "radius", 1), k = r.real(o, "stiffness", 500),
               c = r.real(o, "damping", 5);
  if (radius < 0) r.reject(o, "radius", "must be >= 0");
  if (k < 0) r.reject(o, "stiffness", "must be >= 0");
  if (c < 0) r.reject(o, "damping", "must be >= 0");
  r.key("obstacle.sphere", centre + " " + parse::text(radius) + " " + parse::text(k) + " " +
                               parse::text(c) +
                               (r.boolean(o, "bilateral", false) ? " bilateral" : ""));
}

// EllipsoidForceField.inl: center and vradius (no default: a zero radius, whose 1 / r^2 SOFA
// divides by, so vradius is required), stiffness 500 (negative: holds the points inside),
// damping 5; `contacts` is its output.
void mapEllipsoid(Reader& r, const SofaObject& o) {
  refuseCommon(r, o);
  r.refuseIfGiven(o, "contacts", "contacts given in the scene are not supported");
  if (!r.given(o, "vradius")) r.reject(o, "vradius", "the radii are needed (SOFA's are 0 0 0)");
  const std::string centre = r.given(o, "center") ? vector3(r, o, "center") : "0 0 0";
  const std::vector<double> radii = r.reals(o, "vradius");
  if (radii.size() != 3 || !(radii[0] > 0 && radii[1] > 0 && radii[2] > 0))
    r.reject(o, "vradius", "expected three radii > 0");
  const double c = r.real(o, "damping", 5);
  if (c < 0) r.reject(o, "damping", "must be >= 0");
  r.key("obstacle.ellipsoid", centre + " " + vector3(r, o, "vradius") + " " +
                                  parse::text(r.real(o, "stiffness", 500)) + " " + parse::text(c));
}

// ConicalForceField.inl: coneCenter and coneHeight (no default: a zero height, by which SOFA
// divides, so coneHeight is required), coneAngle 10 (degrees), stiffness 500, damping 5;
// `contacts` is its output.
void mapCone(Reader& r, const SofaObject& o) {
  refuseCommon(r, o);
  r.refuseIfGiven(o, "contacts", "contacts given in the scene are not supported");
  if (!r.given(o, "coneHeight"))
    r.reject(o, "coneHeight", "the cone's axis and height are needed (SOFA's is 0 0 0)");
  const std::vector<double> h = r.reals(o, "coneHeight");
  if (h.size() != 3 || (h[0] == 0 && h[1] == 0 && h[2] == 0))
    r.reject(o, "coneHeight", "expected three components, not all zero");
  const std::string apex = r.given(o, "coneCenter") ? vector3(r, o, "coneCenter") : "0 0 0";
  const double k = r.real(o, "stiffness", 500), c = r.real(o, "damping", 5);
  if (k < 0) r.reject(o, "stiffness", "must be >= 0");
  if (c < 0) r.reject(o, "damping", "must be >= 0");
  r.key("obstacle.cone", apex + " " + vector3(r, o, "coneHeight") + " " +
                             parse::text(r.real(o, "coneAngle", 10)) + " " + parse::text(k) + " " +
                             parse::text(c));
}

}  // namespace

const RegisterSofaMapping cone({"ConicalForceField"}, mapCone);
const RegisterSofaMapping ellipsoid({"EllipsoidForceField"}, mapEllipsoid);
const RegisterSofaMapping plane({"PlaneForceField"}, mapPlane);
const RegisterSofaMapping sphere({"SphereForceField"}, mapSphere);

}  // namespace eis::sofa
