#include "eis/model/plane_force_field.hpp"

#include <cmath>
#include <utility>

namespace eis {

Plane parsePlane(const std::string& key, const std::string& text) {
  Texts tokens = parse::tokens(text);
  Plane plane;
  if (!tokens.empty() && tokens.back() == "bilateral") {
    plane.bilateral = true;
    tokens.pop_back();
  }
  if (tokens.size() < 4 || tokens.size() > 7)
    parse::reject(key, text, "expected NX NY NZ D [K [C [FMAX]]] [bilateral]");
  std::vector<double> values(tokens.size());
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (!parse::number(tokens[i], values[i]))
      parse::reject(key, text, "'" + tokens[i] + "' is not a number");
  plane.normal = {values[0], values[1], values[2]};
  if (plane.normal[0] == 0 && plane.normal[1] == 0 && plane.normal[2] == 0)
    parse::reject(key, text, "the normal is zero");
  plane.d = values[3];
  if (values.size() > 4) plane.stiffness = values[4];
  if (values.size() > 5) plane.damping = values[5];
  if (values.size() > 6) plane.maxForce = values[6];
  if (plane.stiffness < 0 || plane.damping < 0 || plane.maxForce < 0)
    parse::reject(key, text, "the stiffness, damping and maximum force must be >= 0");
  return plane;
}

void addPlaneForce(const Plane& plane, const double* x, const double* v, double* force,
                   std::array<double, 9>& stiffness) {
  const Vec3& n = plane.normal;
  const double s = x[0] * n[0] + x[1] * n[1] + x[2] * n[2] - plane.d;
  if (!(plane.bilateral || s < 0)) return;
  std::array<double, 3> f;
  for (int a = 0; a < 3; ++a) f[a] = n[a] * (-plane.stiffness * s) - v[a] * (-plane.damping * s);
  const double amplitude = f[0] * f[0] + f[1] * f[1] + f[2] * f[2];
  const double limit = plane.maxForce * plane.maxForce;
  const double scale = limit > 0 && amplitude > limit ? std::sqrt(limit / amplitude) : 1.0;
  for (int a = 0; a < 3; ++a) {
    force[a] += f[a] * scale;
    for (int b = 0; b < 3; ++b) stiffness[std::size_t(3 * a + b)] -= plane.stiffness * n[a] * n[b];
  }
}

PlaneForceField::PlaneForceField(const DistributedMesh& mesh, std::vector<Plane> planes)
    : PenaltyContacts(mesh), planes_(std::move(planes)) {}

namespace {

// s = x.n - d, SOFA's d of a node.
double distance(const Plane& plane, const double* p) {
  return p[0] * plane.normal[0] + p[1] * plane.normal[1] + p[2] * plane.normal[2] - plane.d;
}

}  // namespace

void PlaneForceField::addForce(const double* x, const double* v, double* f) {
  clearContacts();
  for (const Plane& plane : planes_) {
    const Vec3& n = plane.normal;
    const double k = plane.stiffness, c = plane.damping;
    const double limit = plane.maxForce * plane.maxForce;
    Block tangent;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) tangent[3 * i + j] = -k * n[i] * n[j];
    for (PetscInt vertex = 0; vertex < PetscInt(mesh_.numLocalVertices()); ++vertex) {
      const double s = distance(plane, x + 3 * vertex);
      if (!(plane.bilateral || s < 0)) continue;
      addContact(vertex, tangent);
      if (!mesh_.owned()[vertex]) continue;
      const double pushing = -k * s, damping = -c * s;
      double force[3];
      for (int i = 0; i < 3; ++i) force[i] = n[i] * pushing - v[3 * vertex + i] * damping;
      const double amplitude = force[0] * force[0] + force[1] * force[1] + force[2] * force[2];
      const double scale = limit > 0 && amplitude > limit ? std::sqrt(limit / amplitude) : 1.0;
      for (int i = 0; i < 3; ++i) f[3 * vertex + i] += force[i] * scale;
    }
  }
}

double PlaneForceField::potentialEnergy(const double* x) const {
  double energy = 0;
  for (const Plane& plane : planes_)
    for (PetscInt vertex = 0; vertex < PetscInt(mesh_.numLocalVertices()); ++vertex) {
      if (!mesh_.owned()[vertex]) continue;
      const double s = distance(plane, x + 3 * vertex);
      if (plane.bilateral || s < 0) energy += 0.5 * plane.stiffness * s * s;
    }
  return energy;
}

PlaneForceFieldParameters readPlaneForceFieldParameters(const Parameters& scene) {
  PlaneForceFieldParameters p;
  for (const std::string& text : scene.texts("obstacle.plane"))
    p.planes.push_back(parsePlane("obstacle.plane", text));
  return p;
}

std::unique_ptr<ForceField> makePlaneForceField(const ModelContext& context,
                                                const PlaneForceFieldParameters& parameters) {
  if (parameters.planes.empty()) return nullptr;
  return std::make_unique<PlaneForceField>(context.mesh, parameters.planes);
}

namespace {

ForceFieldComponent planeComponent() {
  return {
      {"plane-force-field", "force field",
       "a penalty plane the nodes are kept above (SOFA PlaneForceField)",
       ParameterSpec().add(
           {"obstacle.plane", "\"NX NY NZ D [K [C [FMAX]]] [bilateral]\"",
            "a plane x.n = D that pushes each node below it (x.n < D) back with\n"
            "f = -K s n + C s v, s = x.n - D its depth (n as given, not normalised), v its\n"
            "velocity; FMAX > 0 caps |f|; bilateral: every node, on both sides (SOFA\n"
            "PlaneForceField normal, d, stiffness (500), damping (5), maxForce (0), bilateral).\n"
            "The damping is explicit and the tangent -K n n^T, as in SOFA. Repeatable.",
            std::nullopt, "", true,
            [](const std::string& key, const std::string& text) { parsePlane(key, text); }}),
       nullptr},
      Physics::Elasticity,
      forceFieldMaker(readPlaneForceFieldParameters, makePlaneForceField)};
}

}  // namespace

// Force fields take ranks 400-499 (core/component_registry.hpp).
const RegisterForceField registered(485, planeComponent);

}  // namespace eis
