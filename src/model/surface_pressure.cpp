#include "eis/model/surface_pressure.hpp"

#include <algorithm>
#include <cmath>

#include "eis/model/mat3.hpp"
#include "eis/model/surface_selection.hpp"

namespace eis {

namespace {

using mat3::cross;
using mat3::minus;

// The three edge vectors whose cross products with dx_a, dx_b, dx_c give d((b-a) x (c-a)):
// c - b, a - c, b - a.
std::array<Vec3, 3> tangentEdges(const std::array<Vec3, 3>& x) {
  return {minus(x[2], x[1]), minus(x[0], x[2]), minus(x[1], x[0])};
}

}  // namespace

SurfacePressure::SurfacePressure(const Cells& cells, const std::vector<Vec3>& rest,
                                 const std::vector<Pressure>& pressures,
                                 const std::vector<Traction>& tractions)
    : pressureLoads_(!pressures.empty()) {
  requireTetrahedra(cells, "surface loads (load.pressure, load.surface-traction)");
  for (const Pressure& load : pressures) {
    if (load.box) boxes_.push_back(*load.box);
    if (load.pulse) pulses_.push_back(*load.pulse);
    for (const Triangle& t : load.triangles) {
      const auto& cell = cells[std::size_t(t.cell)];
      followers_.push_back({t.cell,
                            t.slots,
                            {cell[t.slots[0]], cell[t.slots[1]], cell[t.slots[2]]},
                            load.pressure,
                            load.box ? int(boxes_.size()) - 1 : -1,
                            load.pulse ? int(pulses_.size()) - 1 : -1});
    }
  }
  std::stable_sort(followers_.begin(), followers_.end(),
                   [](const Follower& a, const Follower& b) { return a.cell < b.cell; });
  state_.resize(followers_.size());
  for (const Traction& load : tractions)
    for (const Triangle& t : load.triangles) {
      const auto& cell = cells[std::size_t(t.cell)];
      std::array<Vec3, 3> p;
      for (int j = 0; j < 3; ++j) p[j] = rest[std::size_t(cell[t.slots[j]])];
      const Vec3 n = cross(minus(p[1], p[0]), minus(p[2], p[0]));
      const double third = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) / 6;
      for (int j = 0; j < 3; ++j)
        constantForces_.push_back(
            {cell[t.slots[j]],
             {load.traction[0] * third, load.traction[1] * third, load.traction[2] * third}});
    }
}

void SurfacePressure::setTime(double t, double dt) {
  if (pulses_.empty()) return;
  const long long step = (long long)std::floor(t / dt + 1e-6) + 1;
  std::vector<double> now;
  for (PulsePressure& pulse : pulses_) now.push_back(pulse.atStep(step, dt));
  for (Follower& follower : followers_)
    if (follower.pulse >= 0) follower.pressure = now[std::size_t(follower.pulse)];
}

void SurfacePressure::addForce(const double* x, const double*, double* f) {
  for (const auto& [vertex, force] : constantForces_)
    for (int d = 0; d < 3; ++d) f[3 * vertex + d] += force[d];
  for (std::size_t i = 0; i < followers_.size(); ++i) {
    const Follower& t = followers_[i];
    State& s = state_[i];
    for (int j = 0; j < 3; ++j)
      for (int d = 0; d < 3; ++d) s.x[j][d] = x[3 * t.vertices[j] + d];
    s.active = t.box < 0 || std::all_of(s.x.begin(), s.x.end(), [&](const Vec3& p) {
                 return boxes_[std::size_t(t.box)].contains(p);
               });
    if (!s.active) continue;
    const Vec3 n = cross(minus(s.x[1], s.x[0]), minus(s.x[2], s.x[0]));
    for (int j = 0; j < 3; ++j)
      for (int d = 0; d < 3; ++d) f[3 * t.vertices[j] + d] += t.pressure / 6 * n[d];
  }
}

void SurfacePressure::addDForce(const double* dx, double* df, double kFactor) const {
  for (std::size_t i = 0; i < followers_.size(); ++i) {
    const Follower& t = followers_[i];
    if (!state_[i].active) continue;
    const auto edges = tangentEdges(state_[i].x);
    Vec3 change{0, 0, 0};
    for (int j = 0; j < 3; ++j) {
      const Vec3 c = cross(
          edges[j], {dx[3 * t.vertices[j]], dx[3 * t.vertices[j] + 1], dx[3 * t.vertices[j] + 2]});
      for (int d = 0; d < 3; ++d) change[d] += c[d];
    }
    const double scale = kFactor * t.pressure / 6;
    for (int j = 0; j < 3; ++j)
      for (int d = 0; d < 3; ++d) df[3 * t.vertices[j] + d] += scale * change[d];
  }
}

void SurfacePressure::addKToElementMatrices(double* elementMatrices, double kFactor,
                                            CellRange range) const {
  constexpr std::size_t n = 12;
  auto first = std::lower_bound(followers_.begin(), followers_.end(), PetscInt(range.begin),
                                [](const Follower& t, PetscInt cell) { return t.cell < cell; });
  for (auto it = first; it != followers_.end() && std::size_t(it->cell) < range.end; ++it) {
    const std::size_t i = std::size_t(it - followers_.begin());
    if (!state_[i].active) continue;
    const auto edges = tangentEdges(state_[i].x);
    const double scale = kFactor * it->pressure / 6;
    double* block = elementMatrices + (std::size_t(it->cell) - range.begin) * n * n;
    for (int col = 0; col < 3; ++col) {
      // [w]x: the matrix of v -> w x v.
      const Vec3& w = edges[col];
      const double skew[3][3] = {{0, -w[2], w[1]}, {w[2], 0, -w[0]}, {-w[1], w[0], 0}};
      for (int row = 0; row < 3; ++row)
        for (int r = 0; r < 3; ++r)
          for (int c = 0; c < 3; ++c)
            block[(3 * it->slots[row] + r) * n + 3 * it->slots[col] + c] += scale * skew[r][c];
    }
  }
}

namespace {

const char* const kPressure = "load.pressure";
const char* const kTraction = "load.surface-traction";
const char* const kPulse = "load.pressure-pulse";

std::vector<SurfacePressure::Triangle> trianglesOf(const SelectedTriangles& selected) {
  std::vector<SurfacePressure::Triangle> triangles;
  for (const SurfaceTriangle& t : selected.local) triangles.push_back({t.cell, t.slots});
  return triangles;
}

std::string noTriangleWarning(const std::string& key, const std::string& text) {
  return key + " = " + text + " selects no triangle";
}

}  // namespace

ForceFieldComponent surfacePressureComponent() {
  return {
      {"surface-pressure", "force field",
       "loads on triangles of the mesh file's surface (SOFA SurfacePressureForceField, "
       "TrianglePressureForceField)",
       ParameterSpec()
           .add(
               {kPressure, "\"P SURFACE\"",
                "a follower pressure P on the selected triangles of the mesh file (SOFA\n"
                "SurfacePressureForceField): each vertex of a triangle gets P/6 (b-a) x (c-a) at\n"
                "the current positions a, b, c in the file's vertex order, so P > 0 pushes along\n"
                "the normal that order gives (right-hand rule): an outward-oriented closed surface\n"
                "inflates. Its exact tangent goes into K (SOFA's useTangentStiffness); it is not\n"
                "symmetric, so the system matrix is declared nonsymmetric and the default solves\n"
                "become GMRES (iterative) and an LU factorization (solver.linear = direct).\n"
                "SURFACE: all | group NAME|TAG | triangles I.. (0-based in the file's triangle\n"
                "list) | box XMIN YMIN ZMIN XMAX YMAX ZMAX (the triangles whose three current\n"
                "vertices lie in it, tested at every force evaluation; min above max selects\n"
                "nothing) | boundary-triangles I.. | boundary-triangles-in SELECTION (the\n"
                "boundary of a body of tetrahedra, no file triangles needed, in the order and\n"
                "orientation of SOFA's Tetra2TriangleTopologicalMapping: by index, or those whose\n"
                "three vertices a node selection picks at rest). Each triangle must be a face of\n"
                "exactly one tetrahedron. Not with mesh.refine. Repeatable; a surface that\n"
                "selects no triangle is a warning.",
                std::nullopt, "pressure", true, surfaceValueCheck(1)})
           .add(
               {kPulse, "\"P SPEED LOWER SURFACE\"",
                "a follower pressure as load.pressure, cyclic (SOFA SurfacePressureForceField\n"
                "pulseMode, pressureSpeed, pressureLowerBound): it starts at 0 and each step moves\n"
                "by SPEED * solver.dt (substeps keep their step's) between LOWER and P (P > 0: up first; else between P and\n"
                "LOWER, down first), staying a step at the bound it reaches before turning; the\n"
                "pressure of step n is the value after n moves. SPEED > 0. SURFACE as for\n"
                "load.pressure. Repeatable.",
                std::nullopt, "pressure", true, surfaceValueCheck(3)})
           .add({kTraction, "\"TX TY TZ SURFACE\"",
                 "a constant traction (TX TY TZ, force per unit rest area) on the selected\n"
                 "triangles: each vertex gets a third of the traction times its triangle's rest\n"
                 "area (SOFA TrianglePressureForceField, whose `pressure` is this vector). K = 0.\n"
                 "SURFACE as for load.pressure, a box testing the rest positions. Not with\n"
                 "mesh.refine. Repeatable; a surface that selects no triangle is a warning.",
                 std::nullopt, "pressure", true, surfaceValueCheck(3)}),
       nullptr},
      Physics::Elasticity,
      forceFieldMaker(readSurfacePressureParameters, makeSurfacePressure)};
}

SurfacePressureParameters readSurfacePressureParameters(const Parameters& scene) {
  SurfacePressureParameters parameters;
  for (const char* key : {kPressure, kPulse, kTraction})
    for (const std::string& text : scene.texts(key)) {
      const bool traction = key == kTraction, pulse = key == kPulse;
      parameters.loads.push_back(
          {traction, pulse, parseSurfaceValue(key, text, traction || pulse ? 3 : 1), text});
      if (pulse && !(parameters.loads.back().value.numbers[1] > 0))
        parse::reject(key, text, "SPEED must be > 0");
    }
  return parameters;
}

std::unique_ptr<ForceField> makeSurfacePressure(const ModelContext& context,
                                                const SurfacePressureParameters& parameters) {
  std::vector<SurfacePressure::Pressure> pressures;
  std::vector<SurfacePressure::Traction> tractions;
  for (const SurfaceLoad& load : parameters.loads) {
    const bool traction = load.traction;
    const char* key = traction ? kTraction : load.pulse ? kPulse : kPressure;
    const std::string& text = load.text;
    const SurfaceValue& value = load.value;
    const bool box = value.surface.kind == SurfaceSelection::Kind::Box;
    const SelectedTriangles selected = selectTriangles(context.mesh, value.surface, key, traction);
    // A moving box is judged by what it holds at rest.
    const std::int64_t atRest = box && !traction
                                    ? selectTriangles(context.mesh, value.surface, key, true).count
                                    : selected.count;
    if (atRest == 0) context.warnings.push_back(noTriangleWarning(key, text));
    if (traction) {
      tractions.push_back(
          {{value.numbers[0], value.numbers[1], value.numbers[2]}, trianglesOf(selected)});
    } else {
      std::optional<PulsePressure> pulse;
      if (load.pulse) pulse.emplace(value.numbers[0], value.numbers[1], value.numbers[2]);
      pressures.push_back({value.numbers[0], trianglesOf(selected),
                           box ? std::optional<Box>(value.surface.box) : std::nullopt, pulse});
    }
  }
  if (pressures.empty() && tractions.empty()) return nullptr;
  return std::make_unique<SurfacePressure>(context.mesh.cells(), context.mesh.restCoords(),
                                           pressures, tractions);
}

const RegisterForceField registered(480, surfacePressureComponent);

}  // namespace eis
