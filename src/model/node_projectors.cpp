#include "eis/model/node_projectors.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "eis/core/error.hpp"
#include "eis/model/mat3.hpp"

namespace eis {

namespace {

using Vec3 = std::array<double, 3>;

using mat3::dot;

// A patch test's numbers: 26 (8 corner movements) when that many lead its text, else 14 (4).
std::size_t patchTestNumbers(const std::string& text) {
  const Texts tokens = parse::tokens(text);
  std::size_t n = 0;
  double x = 0;
  while (n < tokens.size() && n < 26 && parse::number(tokens[n], x)) ++n;
  return n == 26 ? 26 : 14;
}

// SOFA's n *= 1 / n.norm(), zero left as it is.
Vec3 unit(Vec3 n) {
  const double norm = std::sqrt(dot(n, n));
  if (norm == 0) return n;
  const double inverse = 1 / norm;
  for (double& c : n) c *= inverse;
  return n;
}

}  // namespace

NodeProjector NodeProjector::plane(Vec3 origin, Vec3 normal) {
  return {Kind::Plane, origin, unit(normal)};
}

NodeProjector NodeProjector::line(Vec3 origin, Vec3 direction) {
  if (dot(direction, direction) == 0) direction = {1, 0, 0};
  return {Kind::Line, origin, unit(direction)};
}

NodeProjector NodeProjector::point(Vec3 point) {
  return {Kind::Point, point, {0, 0, 0}};
}

std::array<double, 9> NodeProjector::block() const {
  std::array<double, 9> p{};
  if (kind != Kind::Plane && kind != Kind::Line) return p;
  const Vec3& n = direction;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      p[3 * i + j] = kind == Kind::Line ? n[i] * n[j] : (i == j) - n[i] * n[j];
  return p;
}

void NodeProjector::project(double t, const double* x0, double* x, double* v) const {
  if (kind == Kind::Oscillator) {
    const double angle = pulsation * t + phase, s = std::sin(angle), c = std::cos(angle);
    for (int d = 0; d < 3; ++d) {
      x[d] = origin[d] + direction[d] * s;
      v[d] = direction[d] * pulsation * c;
    }
    return;
  }
  if (kind == Kind::Affine || kind == Kind::PatchTest) {
    // SOFA: ((xf - x0) t + (x0 t1 - xf t0)) / (t1 - t0) inside (t0, t1], xf after t1.
    const double total = end - begin;
    for (int d = 0; d < 3; ++d) v[d] = 0;
    if (!(t > begin && total > 0) && !(t > end)) return;
    double xf[3];
    if (kind == Kind::Affine) {
      for (int r = 0; r < 3; ++r)
        xf[r] = rotation[3 * r] * x0[0] + rotation[3 * r + 1] * x0[1] +
                rotation[3 * r + 2] * x0[2] + direction[r];
    } else {
      // PatchTestMovementProjectiveConstraint::computeInterpolatedDisplacement: 4 corners
      // bilinearly in x and y; 8 (nodes not in one plane z = constant) the same on the box's
      // lower and upper z faces, then linearly in z.
      const double a = std::abs(x0[0] - box[0]) / std::abs(box[3] - box[0]);
      const double b = std::abs(x0[1] - box[1]) / std::abs(box[4] - box[1]);
      const bool layered = box[5] != box[2];
      const double g = layered ? std::abs(x0[2] - box[2]) / std::abs(box[5] - box[2]) : 0;
      const double w[4] = {(1 - a) * (1 - b), a * (1 - b), a * b, (1 - a) * b};
      for (int r = 0; r < 3; ++r) {
        double low = 0, high = 0;
        for (int c = 0; c < 4; ++c) {
          low += corners[3 * c + r] * w[c];
          high += corners[12 + 3 * c + r] * w[c];
        }
        xf[r] = x0[r] + (layered ? low * (1 - g) + high * g : low);
      }
    }
    for (int d = 0; d < 3; ++d)
      x[d] = t <= end ? ((xf[d] - x0[d]) * t + (x0[d] * end - xf[d] * begin)) / total : xf[d];
    return;
  }
  const Vec3 relative{x[0] - origin[0], x[1] - origin[1], x[2] - origin[2]};
  const double along = dot(relative, direction);
  for (int d = 0; d < 3; ++d) {
    switch (kind) {
      case Kind::Plane: x[d] = x[d] - direction[d] * along; break;
      case Kind::Line: x[d] = origin[d] + direction[d] * along; break;
      default: x[d] = origin[d]; break;
    }
  }
  const std::array<double, 9> p = block();
  const double a = v[0], b = v[1], c = v[2];
  for (int i = 0; i < 3; ++i) v[i] = p[3 * i] * a + p[3 * i + 1] * b + p[3 * i + 2] * c;
}

NodeProjectorParameters readNodeProjectorParameters(const Parameters& scene) {
  NodeProjectorParameters parameters;
  const std::pair<const char*, std::size_t> keys[] = {{"constraint.point", 3},
                                                      {"constraint.line", 6},
                                                      {"constraint.plane", 6},
                                                      {"constraint.oscillator", 8},
                                                      {"constraint.affine-movement", 14},
                                                      {"constraint.patch-test", 14}};
  for (const auto& [key, count] : keys) {
    const std::string name = key;
    for (const std::string& text : scene.texts(key)) {
      const SelectionValue value = parseSelectionValue(
          key, text, name == "constraint.patch-test" ? patchTestNumbers(text) : count);
      const auto& r = value.numbers;
      const Vec3 first{r[0], r[1], r[2]};
      NodeProjector projector = NodeProjector::point(first);
      if (name == "constraint.line") projector = NodeProjector::line(first, {r[3], r[4], r[5]});
      if (name == "constraint.plane") projector = NodeProjector::plane(first, {r[3], r[4], r[5]});
      if (name == "constraint.oscillator") {
        projector = {NodeProjector::Kind::Oscillator, first, {r[3], r[4], r[5]}};
        projector.pulsation = r[6];
        projector.phase = r[7];
      }
      if (name == "constraint.affine-movement") {
        projector = {NodeProjector::Kind::Affine, {0, 0, 0}, {r[11], r[12], r[13]}};
        projector.begin = r[0];
        projector.end = r[1];
        for (int k = 0; k < 9; ++k) projector.rotation[k] = r[2 + k];
      }
      if (name == "constraint.patch-test") {
        projector = {NodeProjector::Kind::PatchTest, {0, 0, 0}, {0, 0, 0}};
        projector.begin = r[0];
        projector.end = r[1];
        projector.solid = r.size() == 26;
        for (std::size_t k = 2; k < r.size(); ++k) projector.corners[k - 2] = r[k];
      }
      parameters.sets.push_back({key, text, projector, value.selection});
    }
  }
  return parameters;
}

NodeProjectors::NodeProjectors(const DistributedMesh& mesh,
                               const NodeProjectorParameters& parameters,
                               std::vector<std::string>& warnings) {
  for (const ProjectorSelection& set : parameters.sets) {
    SelectedNodes nodes = selectNodes(mesh, set.selection, set.key);
    if (nodes.count == 0) warnings.push_back(emptySelectionWarning(set.key, set.text));
    Set own{set.projector, {}, {}};
    for (auto v : nodes.vertices)
      if (mesh.owned()[v]) own.offsets.push_back(mesh.ownedOffset(v));
    own.start.resize(own.offsets.size());
    owned_.push_back(std::move(own));
    sets_.push_back({std::move(nodes.vertices), set.projector.block()});
  }
}

void NodeProjectors::start(double t, Vec x, Vec v) {
  const PetscScalar* position;
  EIS_CHECK(VecGetArrayRead(x, &position));
  for (Set& set : owned_)
    for (std::size_t i = 0; i < set.offsets.size(); ++i)
      for (int d = 0; d < 3; ++d) set.start[i][d] = position[set.offsets[i] + d];
  EIS_CHECK(VecRestoreArrayRead(x, &position));
  MPI_Comm comm;
  EIS_CHECK(PetscObjectGetComm(reinterpret_cast<PetscObject>(x), &comm));
  for (Set& set : owned_) {
    if (set.projector.kind != NodeProjector::Kind::PatchTest) continue;
    // SOFA's findCornerPoints on a grid's points listed x fastest, then y, then z: corners 0, 1,
    // 3 at (xmin, ymin, zmin), (xmax, ymin, zmin), (xmin, ymax, zmin) and, with nodes not in one
    // plane z = constant, corner 4 (whose z alone is read) at the last point, of z = zmax.
    // Minima of x, y, z, -x, -y, -z.
    const double big = std::numeric_limits<double>::infinity();
    double low[6] = {big, big, big, big, big, big}, global[6];
    for (const auto& p : set.start)
      for (int d = 0; d < 3; ++d) {
        low[d] = std::min(low[d], p[d]);
        low[3 + d] = std::min(low[3 + d], -p[d]);
      }
    EIS_CHECK_MPI(MPI_Allreduce(low, global, 6, MPI_DOUBLE, MPI_MIN, comm));
    if (global[0] == big) continue;
    if (global[2] != -global[5] && !set.projector.solid)
      throw Error(
          "constraint.patch-test: the selected nodes are not in one plane z = constant and 4 "
          "corner movements are given: SOFA's PatchTestMovementProjectiveConstraint then reads "
          "8, past the end of its list");
    if (global[0] == -global[3] || global[1] == -global[4])
      throw Error(
          "constraint.patch-test: the selected nodes' bounding box is flat in x or y "
          "(SOFA divides by its width)");
    set.projector.box = {global[0], global[1], global[2], -global[3], -global[4], -global[5]};
  }
  projectState(t, x, v);
}

void NodeProjectors::projectState(double t, Vec x, Vec v) const {
  if (owned_.empty()) return;
  PetscScalar *position, *velocity;
  EIS_CHECK(VecGetArray(x, &position));
  EIS_CHECK(VecGetArray(v, &velocity));
  for (const Set& set : owned_)
    for (std::size_t i = 0; i < set.offsets.size(); ++i)
      set.projector.project(t, set.start[i].data(), position + set.offsets[i],
                            velocity + set.offsets[i]);
  EIS_CHECK(VecRestoreArray(v, &velocity));
  EIS_CHECK(VecRestoreArray(x, &position));
}

const ComponentDeclaration& nodeProjectorComponent() {
  static const ComponentDeclaration component{
      "node-projectors", "projective constraint",
      "nodes held on a plane, a line or a point, or moved as a function of time (SOFA\n"
      "PlaneProjectiveConstraint, LineProjectiveConstraint, PointProjectiveConstraint,\n"
      "OscillatorProjectiveConstraint, AffineMovementProjectiveConstraint,\n"
      "PatchTestMovementProjectiveConstraint); elasticity, linearized step",
      ParameterSpec()
          .add({"constraint.plane", "\"OX OY OZ NX NY NZ SELECTION\"",
                "the selected nodes move in the plane through O of normal N (normalized; a zero\n"
                "N leaves them free, as SOFA does): their motion is projected by I - n n^T and\n"
                "their positions put on the plane at the start and after every step (SOFA\n"
                "PlaneProjectiveConstraint origin, normal). Repeatable.",
                std::nullopt, "length", true, selectionValueCheck(6)})
          .add({"constraint.line", "\"OX OY OZ DX DY DZ SELECTION\"",
                "the selected nodes move on the line through O along D (normalized; zero: the x\n"
                "axis): projected by d d^T, positions put on the line (SOFA\n"
                "LineProjectiveConstraint origin, direction). Repeatable.",
                std::nullopt, "length", true, selectionValueCheck(6)})
          .add({"constraint.point", "\"PX PY PZ SELECTION\"",
                "the selected nodes are put at P and held there (SOFA PointProjectiveConstraint\n"
                "point). Repeatable.",
                std::nullopt, "length", true, selectionValueCheck(3)})
          .add({"constraint.oscillator", "\"MX MY MZ AX AY AZ W PHASE SELECTION\"",
                "the selected nodes are held at M + A sin(W t + PHASE) with velocity\n"
                "A W cos(W t + PHASE), t the step's start time (SOFA\n"
                "OscillatorProjectiveConstraint oscillators). Repeatable.",
                std::nullopt, "length", true, selectionValueCheck(8)})
          .add({"constraint.affine-movement", "\"T0 T1 R00 R01 .. R22 TX TY TZ SELECTION\"",
                "the selected nodes are held, and at each step's start time t in (T0, T1] put\n"
                "at the linear interpolation from x0 to R x0 + T (R row-major, x0 their\n"
                "positions at the start of the run), after T1 at R x0 + T, velocity zero (SOFA\n"
                "AffineMovementProjectiveConstraint beginConstraintTime, endConstraintTime,\n"
                "rotation, translation). Repeatable.",
                std::nullopt, "length", true, selectionValueCheck(14)})
          .add({"constraint.patch-test", "\"T0 T1 M0X M0Y M0Z .. M3X M3Y M3Z [.. M7Z] SELECTION\"",
                "the selected nodes are held, and moved as an affine movement is, to x0 + d: d\n"
                "interpolated bilinearly from the movements M0 .. M3 of the corners\n"
                "(xmin, ymin), (xmax, ymin), (xmax, ymax), (xmin, ymax) of their bounding box at\n"
                "the start; with 8 movements and nodes not in one plane z = constant, M0 .. M3\n"
                "at z = zmin and M4 .. M7 at z = zmax, then linearly in z (SOFA\n"
                "PatchTestMovementProjectiveConstraint beginConstraintTime, endConstraintTime,\n"
                "cornerMovements). Repeatable.",
                std::nullopt, "length", true,
                [](const std::string& key, const std::string& text) {
                  parseSelectionValue(key, text, patchTestNumbers(text));
                }}),
      nullptr};
  return component;
}

const RegisterComponent registered(505, nodeProjectorComponent);

}  // namespace eis
