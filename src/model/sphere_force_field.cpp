#include "eis/model/sphere_force_field.hpp"

#include <cmath>
#include <utility>

namespace eis {

Sphere parseSphere(const std::string& key, const std::string& text) {
  Texts tokens = parse::tokens(text);
  Sphere sphere;
  if (!tokens.empty() && tokens.back() == "bilateral") {
    sphere.bilateral = true;
    tokens.pop_back();
  }
  if (tokens.size() < 4 || tokens.size() > 6)
    parse::reject(key, text, "expected CX CY CZ R [K [C]] [bilateral]");
  std::vector<double> values(tokens.size());
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (!parse::number(tokens[i], values[i]))
      parse::reject(key, text, "'" + tokens[i] + "' is not a number");
  sphere.centre = {values[0], values[1], values[2]};
  sphere.radius = values[3];
  if (values.size() > 4) sphere.stiffness = values[4];
  if (values.size() > 5) sphere.damping = values[5];
  if (sphere.radius < 0 || sphere.stiffness < 0 || sphere.damping < 0)
    parse::reject(key, text, "the radius, stiffness and damping must be >= 0");
  return sphere;
}

SphereForceField::SphereForceField(const DistributedMesh& mesh, std::vector<Sphere> spheres)
    : PenaltyContacts(mesh), spheres_(std::move(spheres)) {}

void SphereForceField::addForce(const double* x, const double* v, double* f) {
  clearContacts();
  for (const Sphere& sphere : spheres_) {
    const double r = sphere.radius, k = sphere.stiffness;
    for (PetscInt vertex = 0; vertex < PetscInt(mesh_.numLocalVertices()); ++vertex) {
      const double* xv = x + 3 * vertex;
      const Vec3 p{xv[0] - sphere.centre[0], xv[1] - sphere.centre[1], xv[2] - sphere.centre[2]};
      const double norm2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
      if (!(norm2 < r * r || sphere.bilateral)) continue;
      const double norm = std::sqrt(norm2);
      const Vec3 u{p[0] / norm, p[1] / norm, p[2] / norm};
      const double q = r / norm;
      Block tangent;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          tangent[3 * i + j] = (u[i] * u[j] * q + (i == j ? 1 - q : 0)) * -k;
      addContact(vertex, tangent);
      if (!mesh_.owned()[vertex]) continue;
      const double s = norm - r;
      const double pushing = -k * s, damping = -sphere.damping * s;
      for (int i = 0; i < 3; ++i)
        f[3 * vertex + i] += p[i] * (pushing / norm) - v[3 * vertex + i] * damping;
    }
  }
}

double SphereForceField::potentialEnergy(const double* x) const {
  double energy = 0;
  for (const Sphere& sphere : spheres_)
    for (PetscInt vertex = 0; vertex < PetscInt(mesh_.numLocalVertices()); ++vertex) {
      if (!mesh_.owned()[vertex]) continue;
      const double* xv = x + 3 * vertex;
      const double dx = xv[0] - sphere.centre[0], dy = xv[1] - sphere.centre[1],
                   dz = xv[2] - sphere.centre[2];
      const double norm2 = dx * dx + dy * dy + dz * dz;
      if (!(norm2 < sphere.radius * sphere.radius || sphere.bilateral)) continue;
      const double s = std::sqrt(norm2) - sphere.radius;
      energy += 0.5 * sphere.stiffness * s * s;
    }
  return energy;
}

SphereForceFieldParameters readSphereForceFieldParameters(const Parameters& scene) {
  SphereForceFieldParameters p;
  for (const std::string& text : scene.texts("obstacle.sphere"))
    p.spheres.push_back(parseSphere("obstacle.sphere", text));
  return p;
}

std::unique_ptr<ForceField> makeSphereForceField(const ModelContext& context,
                                                 const SphereForceFieldParameters& parameters) {
  if (parameters.spheres.empty()) return nullptr;
  return std::make_unique<SphereForceField>(context.mesh, parameters.spheres);
}

namespace {

ForceFieldComponent sphereComponent() {
  return {
      {"sphere-force-field", "force field",
       "a penalty sphere the nodes are kept out of (SOFA SphereForceField)",
       ParameterSpec().add(
           {"obstacle.sphere", "\"CX CY CZ R [K [C]] [bilateral]\"",
            "a sphere of centre C and radius R that pushes each node inside it back out with\n"
            "f = -K s u + C s v, s = |x - C| - R its depth, u the outward direction, v its\n"
            "velocity; bilateral: every node, inside or out (SOFA SphereForceField center,\n"
            "radius (1), stiffness (500), damping (5), bilateral). The damping is explicit and\n"
            "the tangent SOFA's -K (R/l u u^T + (1 - R/l) I), l = |x - C|. Repeatable.",
            std::nullopt, "", true,
            [](const std::string& key, const std::string& text) { parseSphere(key, text); }}),
       nullptr},
      Physics::Elasticity,
      forceFieldMaker(readSphereForceFieldParameters, makeSphereForceField)};
}

}  // namespace

// Force fields take ranks 400-499 (core/component_registry.hpp).
const RegisterForceField registered(490, sphereComponent);

}  // namespace eis
