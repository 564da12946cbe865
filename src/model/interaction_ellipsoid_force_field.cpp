#include "eis/model/interaction_ellipsoid_force_field.hpp"

#include <cmath>
#include <tuple>
#include <utility>

#include "eis/model/rigid_mapping.hpp"

namespace eis {

namespace {

// "BODY [INDEX]": a body's path and a frame index >= 0 (0 when not given).
std::pair<std::string, int> parseFrame(const std::string& key, const std::string& text) {
  const Texts tokens = parse::tokens(text);
  if (tokens.empty() || tokens.size() > 2) parse::reject(key, text, "expected BODY [INDEX]");
  int index = 0;
  if (tokens.size() == 2 && (!parse::number(tokens[1], index) || index < 0))
    parse::reject(key, text, "'" + tokens[1] + "' is not a frame index >= 0");
  return {tokens[0], index};
}

// "CX CY CZ RX RY RZ ..": six numbers an ellipsoid, the radii > 0.
std::vector<FrameEllipsoid> parseEllipsoids(const std::string& key, const std::string& text) {
  const std::vector<double> values = parse::reals(key, text, 0);
  if (values.empty() || values.size() % 6 != 0)
    parse::reject(key, text, "expected CX CY CZ RX RY RZ, six numbers an ellipsoid");
  std::vector<FrameEllipsoid> ellipsoids(values.size() / 6);
  for (std::size_t e = 0; e < ellipsoids.size(); ++e)
    for (int j = 0; j < 3; ++j) {
      ellipsoids[e].centre[j] = values[6 * e + j];
      ellipsoids[e].radii[j] = values[6 * e + 3 + j];
      if (!(ellipsoids[e].radii[j] > 0)) parse::reject(key, text, "the radii must be > 0");
    }
  return ellipsoids;
}

using Matrix3 = std::array<double, 9>;

// R(q) as SOFA's Quat::rotate applies it: column j is rotate(e_j).
Matrix3 rotationOf(const std::array<double, 4>& q) {
  Matrix3 r{};
  for (int j = 0; j < 3; ++j) {
    Vec3d e{0, 0, 0};
    e[j] = 1;
    const Vec3d column = rotateByQuaternion(q, e);
    for (int i = 0; i < 3; ++i) r[3 * i + j] = column[i];
  }
  return r;
}

}  // namespace

InteractionEllipsoidForceField::InteractionEllipsoidForceField(
    const DistributedMesh& mesh, InteractionEllipsoidParameters parameters)
    : PenaltyContacts(mesh), parameters_(std::move(parameters)) {}

void InteractionEllipsoidForceField::addForce(const double* x, const double* v, double* f) {
  if (!pose_)
    throw Error("interaction.ellipsoid-frame = " + parameters_.frameBody +
                ": the frame's body is not linked to this field");
  clearContacts();
  std::array<double, 7> frame = pose_();
  std::array<double, 4> q{frame[3], frame[4], frame[5], frame[6]};
  Vec3d centre{frame[0], frame[1], frame[2]};
  if (parameters_.invert) {
    // RigidTypes::inverse: (-(q^-1).rotate(c), q^-1), Quat::inverse normalising.
    const double norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    q = norm != 0 ? std::array<double, 4>{-q[0] / norm, -q[1] / norm, -q[2] / norm, q[3] / norm}
                  : std::array<double, 4>{0, 0, 0, 0};
    const Vec3d turned = rotateByQuaternion(q, centre);
    centre = {-turned[0], -turned[1], -turned[2]};
  }
  const Matrix3 rotation = rotationOf(q);
  const double stiffness = parameters_.stiffness, k = std::fabs(stiffness);
  for (PetscInt vertex = 0; vertex < PetscInt(mesh_.numLocalVertices()); ++vertex) {
    const double* xv = x + 3 * vertex;
    const Vec3d p =
        inverseRotateByQuaternion(q, {xv[0] - centre[0], xv[1] - centre[1], xv[2] - centre[2]});
    // The ellipsoid of least N^2, the first of equal ones (calcF's `norm2 < bnorm2`).
    const FrameEllipsoid* best = nullptr;
    Vec3d d{}, inverse2{};
    double norm2 = -1;
    for (const FrameEllipsoid& e : parameters_.ellipsoids) {
      const Vec3d de{p[0] - e.centre[0], p[1] - e.centre[1], p[2] - e.centre[2]};
      const Vec3d ie{1 / (e.radii[0] * e.radii[0]), 1 / (e.radii[1] * e.radii[1]),
                     1 / (e.radii[2] * e.radii[2])};
      double n2 = 0;
      for (int j = 0; j < 3; ++j) n2 += de[j] * de[j] * ie[j];
      if (!best || n2 < norm2) best = &e, d = de, inverse2 = ie, norm2 = n2;
    }
    if (!((norm2 - 1) * stiffness < 0)) continue;
    const double norm = std::sqrt(norm2), level = norm - 1;
    const Vec3d g{d[0] * inverse2[0], d[1] * inverse2[1], d[2] * inverse2[2]};
    const double g2 = g[0] * g[0] + g[1] * g[1] + g[2] * g[2], gnorm = std::sqrt(g2);
    const double along = -k / (norm * gnorm), diagonal = -k * level / gnorm,
                 across = -k * level / g2;
    Matrix3 local{};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        local[3 * i + j] =
            g[i] * g[j] * (along + across * inverse2[j]) + (i == j ? diagonal * inverse2[i] : 0);
    // R m R^T: SOFA's addDForce turns dx into the frame, applies m and turns the result back.
    Block world{};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b)
            world[3 * i + j] += rotation[3 * i + a] * local[3 * a + b] * rotation[3 * j + b];
    addContact(vertex, world);
    if (!mesh_.owned()[vertex]) continue;
    const double* vv = v + 3 * vertex;
    const Vec3d u = inverseRotateByQuaternion(q, {vv[0], vv[1], vv[2]});
    const double intensity = -k * level / gnorm, damping = parameters_.damping * std::fabs(level);
    const Vec3d force =
        rotateByQuaternion(q, {g[0] * intensity - u[0] * damping, g[1] * intensity - u[1] * damping,
                               g[2] * intensity - u[2] * damping});
    for (int i = 0; i < 3; ++i) f[3 * vertex + i] += force[i];
  }
}

void InteractionEllipsoidForceField::addKToElementMatrices(double*, double, CellRange) const {
  throw Error(
      "interaction.ellipsoid-frame: SOFA's InteractionEllipsoidForceField has no stiffness "
      "matrix (no addKToMatrix): its body runs matrix-free only (solver.operator = matrix-free, "
      "as under SOFA's CGLinearSolver)");
}

InteractionEllipsoidParameters readInteractionEllipsoidParameters(const Parameters& scene) {
  InteractionEllipsoidParameters p;
  const std::string frame = scene.optionalText("interaction.ellipsoid-frame");
  if (frame.empty()) return p;
  std::tie(p.frameBody, p.frameIndex) = parseFrame("interaction.ellipsoid-frame", frame);
  p.ellipsoids = parseEllipsoids("interaction.ellipsoids", scene.text("interaction.ellipsoids"));
  p.stiffness = scene.real("interaction.ellipsoid-stiffness");
  p.damping = scene.real("interaction.ellipsoid-damping");
  p.invert = scene.boolean("interaction.ellipsoid-invert");
  return p;
}

namespace {

std::unique_ptr<ForceField> makeInteractionEllipsoid(
    const ModelContext& context, const InteractionEllipsoidParameters& parameters) {
  if (parameters.frameBody.empty()) return nullptr;
  return std::make_unique<InteractionEllipsoidForceField>(context.mesh, parameters);
}

ForceFieldComponent interactionEllipsoidComponent() {
  return {
      {"interaction-ellipsoid", "force field",
       "penalty ellipsoids carried by a rigid frame of another body, acting on this body's "
       "nodes (SOFA InteractionEllipsoidForceField<Vec3, Rigid3>)",
       ParameterSpec()
           .add({"interaction.ellipsoid-frame", "\"BODY [INDEX]\"",
                 "the frame the ellipsoids move with: frame INDEX (0) of the body of rigid frames\n"
                 "at path BODY (SOFA object2, object2_dof_index), read as it stands at each force\n"
                 "computation. With it the field acts; the body must run matrix-free\n"
                 "(solver.operator = matrix-free): SOFA's field has no stiffness matrix.",
                 std::nullopt, "", false,
                 [](const std::string& key, const std::string& text) { parseFrame(key, text); }})
           .add(
               {"interaction.ellipsoids", "\"CX CY CZ RX RY RZ ..\"",
                "the ellipsoids in the frame's coordinates, centre and radii (> 0) each (SOFA\n"
                "center, vradius); at each node the one of least N^2 = sum (p_j - C_j)^2 / R_j^2\n"
                "acts, pushing out (stiffness > 0) or holding in (< 0): f = -|K| v g / |g| - D |v|\n"
                "u, v = N - 1, g_j = (p_j - C_j) / R_j^2, u the node's velocity",
                "0 0 0 1 1 1", "", false,
                [](const std::string& key, const std::string& text) {
                  parseEllipsoids(key, text);
                }})
           .add({"interaction.ellipsoid-stiffness", "K",
                 "SOFA stiffness: > 0 pushes out of the ellipsoids, < 0 holds in", "500",
                 "force/length", false, check::real()})
           .add({"interaction.ellipsoid-damping", "D", "SOFA damping, >= 0 (explicit)", "5",
                 "force*time/length", false, check::nonNegative()})
           .add({"interaction.ellipsoid-invert", "BOOL",
                 "SOFA object2_invert: the inverse of the frame places the ellipsoids", "false", "",
                 false, check::boolean()}),
       nullptr},
      Physics::Elasticity,
      forceFieldMaker(readInteractionEllipsoidParameters, makeInteractionEllipsoid)};
}

}  // namespace

// Force fields take ranks 400-499 (core/component_registry.hpp).
const RegisterForceField registered(489, interactionEllipsoidComponent);

}  // namespace eis
