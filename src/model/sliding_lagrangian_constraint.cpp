#include "eis/model/sliding_lagrangian_constraint.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "eis/core/error.hpp"
#include "eis/core/scene.hpp"
#include "eis/model/bilateral_lagrangian_constraint.hpp"
#include "eis/model/mat3.hpp"

namespace eis {

namespace {

constexpr const char* kKey = "lagrange.sliding";

using Vec3 = std::array<double, 3>;

using mat3::cross;
using mat3::dot;
using mat3::minus;
using mat3::norm;
using mat3::scaled;

bool degenerate(const Vec3& a, const Vec3& b) {
  return norm(minus(b, a)) < std::numeric_limits<double>::epsilon();
}

}  // namespace

SlidingLagrangianConstraint::Axis SlidingLagrangianConstraint::parseAxis(const std::string& key,
                                                                         const std::string& text) {
  const Texts words = parse::tokens(text);
  const auto on = std::find(words.begin(), words.end(), "on");
  if (on == words.begin() || on == words.end() || words.end() - on != 7)
    throw Error(key + " = " + text + ": expected SELECTION on AX AY AZ BX BY BZ");
  std::string selection;
  for (auto w = words.begin(); w != on; ++w) selection += (selection.empty() ? "" : " ") + *w;
  Axis axis;
  axis.text = text;
  axis.nodes = parseSelectionValue(key, selection, 0).selection;
  for (int i = 0; i < 6; ++i)
    if (!parse::number(on[1 + i], (i < 3 ? axis.a : axis.b)[std::size_t(i % 3)]))
      throw Error(key + " = " + text + ": expected SELECTION on AX AY AZ BX BY BZ");
  return axis;
}

std::vector<SlidingLagrangianConstraint::Axis> SlidingLagrangianConstraint::readParameters(
    const eis::Parameters& scene) {
  std::vector<Axis> axes;
  for (const std::string& text : scene.texts(kKey)) axes.push_back(parseAxis(kKey, text));
  return axes;
}

std::unique_ptr<SlidingLagrangianConstraint> SlidingLagrangianConstraint::make(
    const DistributedMesh& mesh, const std::vector<Axis>& axes,
    std::vector<std::string>& warnings) {
  if (axes.empty()) return nullptr;
  std::unique_ptr<SlidingLagrangianConstraint> c(new SlidingLagrangianConstraint);
  for (const Axis& axis : axes) {
    const SelectedNodes nodes = selectNodes(mesh, axis.nodes, kKey);
    const std::vector<std::int64_t> ids = orderedNodeIds(mesh, axis.nodes, nodes);
    if (ids.empty()) warnings.push_back(emptySelectionWarning(kKey, axis.text));
    std::map<std::int64_t, PetscInt> owned;
    for (PetscInt v : nodes.vertices)
      if (mesh.owned()[v]) owned.emplace(mesh.nodeIds()[v], v);
    const bool point = degenerate(axis.a, axis.b);
    for (std::int64_t id : ids) {
      if (const auto p = owned.find(id); p != owned.end())
        c->entries_.push_back({c->rows_, mesh.ownedOffset(p->second), axis.a, axis.b, {}});
      // getConstraintResolution: three bilateral rows when A = B, else two bilateral and two
      // unilateral.
      for (int l = 0; l < (point ? 3 : 4); ++l) {
        c->groups_.push_back(1);
        c->resolutions_.push_back({l < (point ? 3 : 2) ? GroupResolution::Kind::Bilateral
                                                       : GroupResolution::Kind::Unilateral,
                                   0});
      }
      c->rows_ += point ? 3 : 4;
    }
  }
  return c;
}

void SlidingLagrangianConstraint::addTransposed(const std::vector<double>& lambda, Vec out) const {
  PetscScalar* values;
  EIS_CHECK(VecGetArray(out, &values));
  for (const Entry& e : entries_)
    for (int l = 0; l < (degenerate(e.a, e.b) ? 3 : 4); ++l)
      for (int d = 0; d < 3; ++d)
        values[e.offset + d] +=
            e.direction[std::size_t(l)][std::size_t(d)] * lambda[std::size_t(e.row + l)];
  EIS_CHECK(VecRestoreArray(out, &values));
}

void SlidingLagrangianConstraint::addLocalProduct(Vec y, std::vector<double>& out) const {
  const PetscScalar* values;
  EIS_CHECK(VecGetArrayRead(y, &values));
  for (const Entry& e : entries_)
    for (int l = 0; l < (degenerate(e.a, e.b) ? 3 : 4); ++l)
      for (int d = 0; d < 3; ++d)
        out[std::size_t(e.row + l)] +=
            e.direction[std::size_t(l)][std::size_t(d)] * values[e.offset + d];
  EIS_CHECK(VecRestoreArrayRead(y, &values));
}

// buildConstraintMatrix and getConstraintViolation at x, for a fixed A and B.
void SlidingLagrangianConstraint::addLocalViolation(Vec x, std::vector<double>& out) const {
  const PetscScalar* values;
  EIS_CHECK(VecGetArrayRead(x, &values));
  for (const Entry& e : entries_) {
    const Vec3 p = {values[e.offset], values[e.offset + 1], values[e.offset + 2]};
    if (degenerate(e.a, e.b)) {
      for (int d = 0; d < 3; ++d) {
        e.direction[std::size_t(d)] = {};
        e.direction[std::size_t(d)][std::size_t(d)] = 1;
        out[std::size_t(e.row + d)] += p[std::size_t(d)] - e.a[std::size_t(d)];
      }
      continue;
    }
    const Vec3 ab = minus(e.b, e.a);
    const double length = norm(ab);
    const Vec3 u = scaled(ab, 1 / length);
    const double r = dot(minus(p, e.a), u);
    const double bary = std::clamp(r / length, 0.0, 1.0);
    Vec3 away = minus(p, Vec3{e.a[0] + u[0] * r, e.a[1] + u[1] * r, e.a[2] + u[2] * r});
    if (norm(away) < std::numeric_limits<double>::epsilon()) {
      Vec3 x0 = {1, 0, 0};
      if (norm(cross(x0, u)) < std::numeric_limits<double>::epsilon()) x0[1] = 1;
      away = cross(x0, u);
    }
    const Vec3 normal = scaled(away, 1 / norm(away));
    const Vec3 ortho0 = cross(normal, u);
    const Vec3 ortho = scaled(ortho0, 1 / norm(ortho0));
    e.direction = {normal, ortho, u, scaled(u, -1)};
    const Vec3 q = {e.a[0] + ab[0] * bary, e.a[1] + ab[1] * bary, e.a[2] + ab[2] * bary};
    out[std::size_t(e.row)] += dot(minus(p, q), normal);
    out[std::size_t(e.row + 1)] += dot(minus(p, q), ortho);
    out[std::size_t(e.row + 2)] += dot(minus(p, e.a), u);
    out[std::size_t(e.row + 3)] += -dot(minus(p, e.b), u);
  }
  EIS_CHECK(VecRestoreArrayRead(x, &values));
}

const ComponentDeclaration& slidingLagrangianConstraintComponent() {
  static const ComponentDeclaration component{
      "sliding-lagrangian-constraint", "Lagrangian constraint",
      "nodes that slide on a fixed segment, by constraint forces (SOFA\n"
      "SlidingLagrangianConstraint); needs lagrange.solver and lagrange.correction",
      ParameterSpec().add(
          {kKey, "SELECTION on AX AY AZ BX BY BZ",
           "each selected node slides on the segment from A to B: two bilateral rows hold it\n"
           "on the line, two unilateral rows between A and B, the rows set at the free\n"
           "position each step (SOFA SlidingLagrangianConstraint sliding_point, axis_1,\n"
           "axis_2 of points nothing integrates); A = B holds it at A by three rows. Nodes in\n"
           "the order of an `indices` list, else by increasing id. Repeatable.",
           std::nullopt, "", true,
           [](const std::string& key, const std::string& text) {
             SlidingLagrangianConstraint::parseAxis(key, text);
           }}),
      nullptr};
  return component;
}

// After the unilateral Lagrangian constraint (527).
const RegisterComponent registered(528, slidingLagrangianConstraintComponent);

}  // namespace eis
