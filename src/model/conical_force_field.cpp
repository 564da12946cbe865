#include "eis/model/conical_force_field.hpp"

#include <cmath>
#include <utility>

#include "eis/model/mat3.hpp"

namespace eis {

namespace {

using mat3::cross;
using mat3::dot;
using mat3::norm;
using mat3::scaled;

// ConicalForceField::isIn: within the height of the apex and the angle of the axis. A node at
// the apex gives acos(NaN), which compares false: inside, as in SOFA.
bool inside(const Cone& cone, const Vec3& p) {
  const double h = norm(cone.height), distance = norm(p);
  if (distance > h) return false;
  return !(std::acos(dot(p, cone.height) / (h * distance)) * 180 / M_PI > cone.angle);
}

}  // namespace

Cone parseCone(const std::string& key, const std::string& text) {
  const Texts tokens = parse::tokens(text);
  if (tokens.size() < 7 || tokens.size() > 9)
    parse::reject(key, text, "expected CX CY CZ HX HY HZ ANGLE [K [C]]");
  std::vector<double> values(tokens.size());
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (!parse::number(tokens[i], values[i]))
      parse::reject(key, text, "'" + tokens[i] + "' is not a number");
  Cone cone;
  cone.apex = {values[0], values[1], values[2]};
  cone.height = {values[3], values[4], values[5]};
  cone.angle = values[6];
  if (values.size() > 7) cone.stiffness = values[7];
  if (values.size() > 8) cone.damping = values[8];
  if (norm(cone.height) == 0) parse::reject(key, text, "the height H is zero");
  if (cone.stiffness < 0 || cone.damping < 0)
    parse::reject(key, text, "the stiffness and damping must be >= 0");
  return cone;
}

bool coneContact(const Cone& cone, const Vec3& p, const Vec3& v, Vec3& force, Vec3& normal) {
  if (inside(cone, p)) return false;
  const double h = norm(cone.height), length = norm(p);
  const double k = cone.stiffness, c = cone.damping;
  if (length > h) {
    const double d = length - h;
    normal = scaled(p, 1 / length);
    for (int i = 0; i < 3; ++i) force[i] = p[i] * (-k * d / length) + v[i] * (c * d);
    return true;
  }
  const Vec3 n = scaled(cone.height, 1 / h);
  double d = 0;
  Vec3 u{};
  if (dot(p, n) > 0) {
    // p turned by -alpha about t = n x p / |n x p| (Rodrigues; t . p = 0): towards n, onto the
    // cone's line; then projected on that line.
    const double alpha = std::acos(dot(scaled(p, 1 / length), n)) - cone.angle * M_PI / 180;
    Vec3 t = cross(n, p);
    t = scaled(t, 1 / norm(t));
    const Vec3 tp = cross(t, p);
    Vec3 line{};
    for (int i = 0; i < 3; ++i) line[i] = p[i] * std::cos(-alpha) + tp[i] * std::sin(-alpha);
    line = scaled(line, 1 / norm(line));
    const Vec3 onLine = scaled(line, dot(line, p));
    const Vec3 toLine{onLine[0] - p[0], onLine[1] - p[1], onLine[2] - p[2]};
    d = norm(toLine);
    u = scaled(toLine, 1 / d);
  } else {
    d = length;
    u = scaled(p, -1 / length);
  }
  normal = u;
  const double along = -c * dot(u, v);
  for (int i = 0; i < 3; ++i) force[i] = u[i] * (k * d) + u[i] * along;
  return true;
}

ConicalForceField::ConicalForceField(const DistributedMesh& mesh, std::vector<Cone> cones)
    : PenaltyContacts(mesh), cones_(std::move(cones)) {}

void ConicalForceField::addForce(const double* x, const double* v, double* f) {
  clearContacts();
  for (const Cone& cone : cones_)
    for (PetscInt vertex = 0; vertex < PetscInt(mesh_.numLocalVertices()); ++vertex) {
      const double* xv = x + 3 * vertex;
      const double* vv = v + 3 * vertex;
      const Vec3 p{xv[0] - cone.apex[0], xv[1] - cone.apex[1], xv[2] - cone.apex[2]};
      Vec3 force{}, u{};
      if (!coneContact(cone, p, {vv[0], vv[1], vv[2]}, force, u)) continue;
      Block tangent;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) tangent[3 * i + j] = -cone.stiffness * u[i] * u[j];
      addContact(vertex, tangent);
      if (!mesh_.owned()[vertex]) continue;
      for (int i = 0; i < 3; ++i) f[3 * vertex + i] += force[i];
    }
}

ConicalForceFieldParameters readConicalForceFieldParameters(const Parameters& scene) {
  ConicalForceFieldParameters p;
  for (const std::string& text : scene.texts("obstacle.cone"))
    p.cones.push_back(parseCone("obstacle.cone", text));
  return p;
}

std::unique_ptr<ForceField> makeConicalForceField(const ModelContext& context,
                                                  const ConicalForceFieldParameters& parameters) {
  if (parameters.cones.empty()) return nullptr;
  return std::make_unique<ConicalForceField>(context.mesh, parameters.cones);
}

namespace {

ForceFieldComponent coneComponent() {
  return {{"conical-force-field", "force field",
           "a penalty cone the nodes are kept inside (SOFA ConicalForceField)",
           ParameterSpec().add(
               {"obstacle.cone", "\"CX CY CZ HX HY HZ ANGLE [K [C]]\"",
                "a cone of apex C, axis and height H and half-angle ANGLE (degrees), a spherical\n"
                "sector, that pulls each node outside it back with f = K d u, d its distance to\n"
                "the base sphere, the cone's side or the apex and u the direction back (SOFA\n"
                "ConicalForceField coneCenter, coneHeight, coneAngle (10), stiffness (500),\n"
                "damping (5)). The damping is explicit and the tangent SOFA's -K u u^T.\n"
                "Repeatable.",
                std::nullopt, "", true,
                [](const std::string& key, const std::string& text) { parseCone(key, text); }}),
           nullptr},
          Physics::Elasticity,
          forceFieldMaker(readConicalForceFieldParameters, makeConicalForceField)};
}

}  // namespace

// Force fields take ranks 400-499 (core/component_registry.hpp).
const RegisterForceField registered(491, coneComponent);

}  // namespace eis
