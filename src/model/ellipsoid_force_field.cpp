#include "eis/model/ellipsoid_force_field.hpp"

#include <cmath>
#include <utility>

namespace eis {

Ellipsoid parseEllipsoid(const std::string& key, const std::string& text) {
  const Texts tokens = parse::tokens(text);
  if (tokens.size() < 6 || tokens.size() > 8)
    parse::reject(key, text, "expected CX CY CZ RX RY RZ [K [C]]");
  std::vector<double> values(tokens.size());
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (!parse::number(tokens[i], values[i]))
      parse::reject(key, text, "'" + tokens[i] + "' is not a number");
  Ellipsoid e;
  e.centre = {values[0], values[1], values[2]};
  e.radii = {values[3], values[4], values[5]};
  if (values.size() > 6) e.stiffness = values[6];
  if (values.size() > 7) e.damping = values[7];
  if (!(e.radii[0] > 0 && e.radii[1] > 0 && e.radii[2] > 0))
    parse::reject(key, text, "the radii must be > 0");
  if (e.damping < 0) parse::reject(key, text, "the damping must be >= 0");
  return e;
}

EllipsoidForceField::EllipsoidForceField(const DistributedMesh& mesh,
                                         std::vector<Ellipsoid> ellipsoids)
    : PenaltyContacts(mesh), ellipsoids_(std::move(ellipsoids)) {
  for (const Ellipsoid& e : ellipsoids_)
    symmetric_ = symmetric_ && e.radii[0] == e.radii[1] && e.radii[1] == e.radii[2];
}

void EllipsoidForceField::addForce(const double* x, const double* v, double* f) {
  clearContacts();
  for (const Ellipsoid& e : ellipsoids_) {
    const double k = std::fabs(e.stiffness);
    const Vec3 inverse2{1 / (e.radii[0] * e.radii[0]), 1 / (e.radii[1] * e.radii[1]),
                        1 / (e.radii[2] * e.radii[2])};
    for (PetscInt vertex = 0; vertex < PetscInt(mesh_.numLocalVertices()); ++vertex) {
      const double* xv = x + 3 * vertex;
      const Vec3 p{xv[0] - e.centre[0], xv[1] - e.centre[1], xv[2] - e.centre[2]};
      double norm2 = 0;
      for (int j = 0; j < 3; ++j) norm2 += p[j] * p[j] * inverse2[j];
      if (!((norm2 - 1) * e.stiffness < 0)) continue;
      const double norm = std::sqrt(norm2), level = norm - 1;
      const Vec3 g{p[0] * inverse2[0], p[1] * inverse2[1], p[2] * inverse2[2]};
      const double g2 = g[0] * g[0] + g[1] * g[1] + g[2] * g[2], gnorm = std::sqrt(g2);
      const double along = -k / (norm * gnorm), diagonal = -k * level / gnorm,
                   across = -k * level / g2;
      Block tangent;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          tangent[3 * i + j] =
              g[i] * g[j] * (along + across * inverse2[j]) + (i == j ? diagonal * inverse2[i] : 0);
      addContact(vertex, tangent);
      if (!mesh_.owned()[vertex]) continue;
      const double intensity = -k * level / gnorm, damping = e.damping * std::fabs(level);
      for (int i = 0; i < 3; ++i)
        f[3 * vertex + i] += g[i] * intensity - v[3 * vertex + i] * damping;
    }
  }
}

EllipsoidForceFieldParameters readEllipsoidForceFieldParameters(const Parameters& scene) {
  EllipsoidForceFieldParameters p;
  for (const std::string& text : scene.texts("obstacle.ellipsoid"))
    p.ellipsoids.push_back(parseEllipsoid("obstacle.ellipsoid", text));
  return p;
}

std::unique_ptr<ForceField> makeEllipsoidForceField(
    const ModelContext& context, const EllipsoidForceFieldParameters& parameters) {
  if (parameters.ellipsoids.empty()) return nullptr;
  return std::make_unique<EllipsoidForceField>(context.mesh, parameters.ellipsoids);
}

namespace {

ForceFieldComponent ellipsoidComponent() {
  return {
      {"ellipsoid-force-field", "force field",
       "a penalty ellipsoid the nodes are kept out of, or in (SOFA EllipsoidForceField)",
       ParameterSpec().add(
           {"obstacle.ellipsoid", "\"CX CY CZ RX RY RZ [K [C]]\"",
            "an ellipsoid of centre C and radii R: with N^2 = sum (x_j - C_j)^2 / R_j^2, v = N - 1\n"
            "and g_j = (x_j - C_j) / R_j^2, a node inside (K > 0: pushed out) or outside (K < 0:\n"
            "held in) gets f = -|K| v g / |g| - C |v| u, u its velocity (SOFA EllipsoidForceField\n"
            "center, vradius, stiffness (500), damping (5)). The damping is explicit and the\n"
            "tangent SOFA's contact matrix (not symmetric for unequal radii). Repeatable.",
            std::nullopt, "", true,
            [](const std::string& key, const std::string& text) { parseEllipsoid(key, text); }}),
       nullptr},
      Physics::Elasticity,
      forceFieldMaker(readEllipsoidForceFieldParameters, makeEllipsoidForceField)};
}

}  // namespace

// Force fields take ranks 400-499 (core/component_registry.hpp).
const RegisterForceField registered(492, ellipsoidComponent);

}  // namespace eis
