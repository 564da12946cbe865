#include "eis/model/unilateral_lagrangian_constraint.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "eis/core/error.hpp"
#include "eis/core/scene.hpp"
#include "eis/model/bilateral_lagrangian_constraint.hpp"
#include "eis/model/mat3.hpp"

namespace eis {

namespace {

constexpr const char* kKey = "lagrange.unilateral";

using Vec3 = std::array<double, 3>;

using mat3::cross;
using mat3::dot;

}  // namespace

UnilateralLagrangianConstraint::Contacts UnilateralLagrangianConstraint::parseContacts(
    const std::string& key, const std::string& text) {
  const Texts words = parse::tokens(text);
  const auto plane = std::find(words.begin(), words.end(), "plane");
  const std::string expected = ": expected SELECTION plane PX PY PZ NX NY NZ [mu MU] [distance D]";
  if (plane == words.begin() || plane == words.end() || words.end() - plane < 7)
    throw Error(key + " = " + text + expected);
  std::string selection;
  for (auto w = words.begin(); w != plane; ++w) selection += (selection.empty() ? "" : " ") + *w;
  Contacts c;
  c.text = text;
  c.nodes = parseSelectionValue(key, selection, 0).selection;
  double values[6];
  for (int i = 0; i < 6; ++i)
    if (!parse::number(plane[1 + i], values[i])) throw Error(key + " = " + text + expected);
  const double length =
      std::sqrt(values[3] * values[3] + values[4] * values[4] + values[5] * values[5]);
  if (!(length > 0)) throw Error(key + " = " + text + ": the plane's normal is zero");
  for (int d = 0; d < 3; ++d) {
    c.point[std::size_t(d)] = values[d];
    c.normal[std::size_t(d)] = values[3 + d] / length;
  }
  for (auto w = plane + 7; w != words.end(); w += 2) {
    double value;
    if (w + 1 == words.end() || !parse::number(w[1], value) || (*w != "mu" && *w != "distance"))
      throw Error(key + " = " + text + expected);
    if (*w == "mu" && !(value >= 0))
      throw Error(key + " = " + text + ": the friction coefficient mu is negative");
    (*w == "mu" ? c.mu : c.distance) = value;
  }
  return c;
}

std::vector<UnilateralLagrangianConstraint::Contacts>
UnilateralLagrangianConstraint::readParameters(const eis::Parameters& scene) {
  std::vector<Contacts> contacts;
  for (const std::string& text : scene.texts(kKey)) contacts.push_back(parseContacts(kKey, text));
  return contacts;
}

std::unique_ptr<UnilateralLagrangianConstraint> UnilateralLagrangianConstraint::make(
    const DistributedMesh& mesh, const std::vector<Contacts>& contacts,
    std::vector<std::string>& warnings) {
  if (contacts.empty()) return nullptr;
  std::unique_ptr<UnilateralLagrangianConstraint> c(new UnilateralLagrangianConstraint);
  for (const Contacts& contact : contacts) {
    const SelectedNodes nodes = selectNodes(mesh, contact.nodes, kKey);
    const std::vector<std::int64_t> ids = orderedNodeIds(mesh, contact.nodes, nodes);
    if (ids.empty()) warnings.push_back(emptySelectionWarning(kKey, contact.text));
    std::map<std::int64_t, PetscInt> owned;
    for (PetscInt v : nodes.vertices)
      if (mesh.owned()[v]) owned.emplace(mesh.nodeIds()[v], v);
    // BaseContactLagrangianConstraint::addContact: the contact normal is -n; t and s from it.
    const Vec3 norm = {-contact.normal[0], -contact.normal[1], -contact.normal[2]};
    Vec3 s = cross(norm, Vec3{norm[2], norm[0], norm[1]});
    const double sLength = std::sqrt(dot(s, s));
    for (double& v : s) v /= sLength;
    const Vec3 t = cross(Vec3{-norm[0], -norm[1], -norm[2]}, s);
    const int lines = contact.mu > 0 ? 3 : 1;
    for (std::int64_t id : ids) {
      if (const auto a = owned.find(id); a != owned.end())
        c->entries_.push_back(
            {c->rows_,
             mesh.ownedOffset(a->second),
             lines,
             {contact.normal, Vec3{-t[0], -t[1], -t[2]}, Vec3{-s[0], -s[1], -s[2]}},
             contact.point,
             contact.distance});
      c->rows_ += lines;
      c->groups_.push_back(lines);
      c->resolutions_.push_back(
          {lines == 3 ? GroupResolution::Kind::Friction : GroupResolution::Kind::Unilateral,
           contact.mu});
    }
  }
  return c;
}

void UnilateralLagrangianConstraint::addTransposed(const std::vector<double>& lambda,
                                                   Vec out) const {
  PetscScalar* values;
  EIS_CHECK(VecGetArray(out, &values));
  for (const Entry& e : entries_)
    for (int l = 0; l < e.lines; ++l)
      for (int d = 0; d < 3; ++d)
        values[e.offset + d] +=
            e.direction[std::size_t(l)][std::size_t(d)] * lambda[std::size_t(e.row + l)];
  EIS_CHECK(VecRestoreArray(out, &values));
}

void UnilateralLagrangianConstraint::addLocalProduct(Vec y, std::vector<double>& out) const {
  const PetscScalar* values;
  EIS_CHECK(VecGetArrayRead(y, &values));
  for (const Entry& e : entries_)
    for (int l = 0; l < e.lines; ++l)
      for (int d = 0; d < 3; ++d)
        out[std::size_t(e.row + l)] +=
            e.direction[std::size_t(l)][std::size_t(d)] * values[e.offset + d];
  EIS_CHECK(VecRestoreArrayRead(y, &values));
}

void UnilateralLagrangianConstraint::addLocalViolation(Vec x, std::vector<double>& out) const {
  addLocalStepViolation(x, x, out);
}

// BaseContactLagrangianConstraint::getPositionViolation with a fixed P (the plane's point): the
// gap at the free position, and the tangential slip of Q from its position at the start of the
// step (or from where the gap closes, when it closes during the step; none when the free
// motion leaves the contact open).
void UnilateralLagrangianConstraint::addLocalStepViolation(Vec start, Vec x,
                                                           std::vector<double>& out) const {
  const PetscScalar *q, *qFree;
  EIS_CHECK(VecGetArrayRead(start, &q));
  EIS_CHECK(VecGetArrayRead(x, &qFree));
  for (const Entry& e : entries_) {
    Vec3 slip, fromPlane, startFromPlane;
    for (int d = 0; d < 3; ++d) {
      slip[std::size_t(d)] = qFree[e.offset + d] - q[e.offset + d];
      fromPlane[std::size_t(d)] = qFree[e.offset + d] - e.point[std::size_t(d)];
      startFromPlane[std::size_t(d)] = q[e.offset + d] - e.point[std::size_t(d)];
    }
    const Vec3& n = e.direction[0];
    const double dfree = dot(fromPlane, n) - e.distance;
    out[std::size_t(e.row)] += dfree;
    if (e.lines == 1) continue;
    const double delta = dot(startFromPlane, n) - e.distance;
    const double reference = std::sqrt(dot(slip, slip));
    double share = 1;  // the part of the slip that counts
    if (std::abs(delta) < 1e-5 * reference && std::abs(dfree) < 1e-5 * reference) {
      share = 1;
    } else if (std::abs(delta - dfree) > 0.001 * delta) {
      const double dt = delta / (delta - dfree);
      if (dt > 0.0 && dt < 1.0)
        share = 1 - dt;
      else
        share = dfree < 0.0 ? 1 : 0;
    }
    // The rows are -t and -s on Q: their violation -(Q_free - Q).t, -(Q_free - Q).s.
    for (int l = 1; l < 3; ++l)
      out[std::size_t(e.row + l)] += share * dot(slip, e.direction[std::size_t(l)]);
  }
  EIS_CHECK(VecRestoreArrayRead(x, &qFree));
  EIS_CHECK(VecRestoreArrayRead(start, &q));
}

const ComponentDeclaration& unilateralLagrangianConstraintComponent() {
  static const ComponentDeclaration component{
      "unilateral-lagrangian-constraint", "Lagrangian constraint",
      "contacts of nodes with a fixed plane, with Coulomb friction, by constraint forces (SOFA\n"
      "UnilateralLagrangianConstraint, its contacts given here); needs lagrange.solver and\n"
      "lagrange.correction",
      ParameterSpec().add(
          {kKey, "SELECTION plane PX PY PZ NX NY NZ [mu MU] [distance D]",
           "each selected node stays on the side of the plane through (PX PY PZ) that the\n"
           "normal (NX NY NZ) points to, at least D from it (SOFA contactDistance, 0): one row\n"
           "a node whose force pushes along the normal and is never negative, and with MU > 0\n"
           "(SOFA mu, 0) two tangent rows whose forces resist the node's slip within the\n"
           "Coulomb cone |f_t| <= MU f_n (SOFA UnilateralLagrangianConstraint with\n"
           "UnilateralConstraintResolutionWithFriction). Contacts in the order of an `indices`\n"
           "list, else by increasing node id. Repeatable.",
           std::nullopt, "", true,
           [](const std::string& key, const std::string& text) {
             UnilateralLagrangianConstraint::parseContacts(key, text);
           }}),
      nullptr};
  return component;
}

// After the bilateral Lagrangian constraint (525).
const RegisterComponent registered(527, unilateralLagrangianConstraintComponent);

}  // namespace eis
