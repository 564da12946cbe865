#include "eis/model/mapped_pressure.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "eis/core/mpi_chunks.hpp"
#include "eis/core/scene.hpp"
#include "eis/model/mat3.hpp"

namespace eis {

namespace {

using mat3::minus;

// Each face's child point indices, `corners` to a face.
template <std::size_t N>
std::vector<std::array<std::int64_t, N>> facesOf(const std::string& key, const std::string& text) {
  const std::vector<int> ids = parse::integers(key, text, 0);
  if (ids.empty() || ids.size() % N != 0)
    parse::reject(key, text, "expected " + std::to_string(N) + " child points a face");
  std::vector<std::array<std::int64_t, N>> faces(ids.size() / N);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0) parse::reject(key, text, "a child point index must be >= 0");
    faces[i / N][i % N] = ids[i];
  }
  return faces;
}

}  // namespace

MappedPressure::MappedPressure(const DistributedMesh& mesh,
                               const MappedPressureParameters& parameters)
    : comm_(mesh.comm()), triangles_(parameters.triangles), quads_(parameters.quads) {
  const ChildMapping mapping = childMappingOf(mesh, parameters.child);
  const std::int64_t size = mapping.size();
  for (const auto& t : triangles_)
    for (std::int64_t i : t)
      if (i >= size)
        throw Error("mapped.triangles names child point " + std::to_string(i) + " of " +
                    std::to_string(size));
  for (const auto& q : quads_)
    for (std::int64_t i : q)
      if (i >= size)
        throw Error("mapped.quads names child point " + std::to_string(i) + " of " +
                    std::to_string(size));
  if (parameters.pulse)
    pulse_.emplace((*parameters.pulse)[0], (*parameters.pulse)[1], (*parameters.pulse)[2]);
  else
    pressure_ = parameters.pressure.value_or(0);
  // Every rank learns each child point's body nodes and weights from the rank that carries it.
  const int corners = mesh.cells().corners();
  std::vector<std::int64_t> ids;
  std::vector<double> weights;
  for (const ChildMapping::Point& p : mapping.points()) {
    ids.push_back(p.index);
    const auto cell = mesh.cells()[p.cell];
    for (int k = 0; k < corners; ++k) {
      ids.push_back(mesh.nodeIds()[std::size_t(cell[k])]);
      weights.push_back(p.weights[std::size_t(k)]);
    }
  }
  const std::vector<std::int64_t> allIds = allGatherChunks(ids, MPI_INT64_T, comm_);
  const std::vector<double> allWeights = allGatherChunks(weights, MPI_DOUBLE, comm_);
  const std::size_t stride = std::size_t(corners) + 1;
  std::vector<std::size_t> at(
      static_cast<std::size_t>(size));  // child point -> its row in the gathered lists
  for (std::size_t row = 0; row * stride < allIds.size(); ++row)
    at[std::size_t(allIds[row * stride])] = row;
  std::unordered_map<std::int64_t, std::size_t> slotOf;
  first_.push_back(0);
  for (std::int64_t i = 0; i < size; ++i) {
    const std::size_t row = at[std::size_t(i)];
    for (std::size_t k = 0; k < std::size_t(corners); ++k) {
      const std::int64_t node = allIds[row * stride + 1 + k];
      const auto [it, added] = slotOf.emplace(node, slotOf.size());
      termSlot_.push_back(it->second);
      termWeight_.push_back(allWeights[row * std::size_t(corners) + k]);
    }
    first_.push_back(termSlot_.size());
  }
  slots_ = slotOf.size();
  for (std::size_t n = 0; n < mesh.numLocalVertices(); ++n)
    if (mesh.owned()[n])
      if (const auto it = slotOf.find(mesh.nodeIds()[n]); it != slotOf.end()) {
        ownedSlot_.push_back(it->second);
        ownedVertex_.push_back(PetscInt(n));
      }
  x_.assign(std::size_t(size), Vec3{0, 0, 0});
}

void MappedPressure::gather(const double* w, std::vector<double>& slots) const {
  slots.assign(3 * slots_, 0.0);
  for (std::size_t i = 0; i < ownedSlot_.size(); ++i)
    for (int d = 0; d < 3; ++d)
      slots[3 * ownedSlot_[i] + std::size_t(d)] = w[3 * ownedVertex_[i] + d];
  EIS_CHECK_MPI(
      MPI_Allreduce(MPI_IN_PLACE, slots.data(), int(slots.size()), MPI_DOUBLE, MPI_SUM, comm_));
}

void MappedPressure::applyJ(const std::vector<double>& slots, std::vector<Vec3>& child) const {
  child.assign(first_.size() - 1, Vec3{0, 0, 0});
  for (std::size_t i = 0; i < child.size(); ++i)
    for (std::size_t t = first_[i]; t < first_[i + 1]; ++t)
      for (int d = 0; d < 3; ++d)
        child[i][d] += termWeight_[t] * slots[3 * termSlot_[t] + std::size_t(d)];
}

void MappedPressure::addTransposed(const std::vector<Vec3>& child, double* local) const {
  std::vector<double> slots(3 * slots_, 0.0);
  for (std::size_t i = 0; i < child.size(); ++i)
    for (std::size_t t = first_[i]; t < first_[i + 1]; ++t)
      for (int d = 0; d < 3; ++d)
        slots[3 * termSlot_[t] + std::size_t(d)] += termWeight_[t] * child[i][d];
  for (std::size_t i = 0; i < ownedSlot_.size(); ++i)
    for (int d = 0; d < 3; ++d)
      local[3 * ownedVertex_[i] + d] += slots[3 * ownedSlot_[i] + std::size_t(d)];
}

void MappedPressure::setTime(double t, double dt) {
  if (!pulse_) return;
  pressure_ = pulse_->atStep((long long)std::floor(t / dt + 1e-6) + 1, dt);
}

void MappedPressure::addForce(const double* x, const double*, double* f) {
  gather(x, gathered_);
  applyJ(gathered_, x_);
  childForce_.assign(x_.size(), Vec3{0, 0, 0});
  const double scale = pressure_ / 6;
  for (const auto& t : triangles_) {
    const Vec3 n = mat3::cross(minus(x_[std::size_t(t[1])], x_[std::size_t(t[0])]),
                               minus(x_[std::size_t(t[2])], x_[std::size_t(t[0])]));
    for (std::int64_t i : t)
      for (int d = 0; d < 3; ++d) childForce_[std::size_t(i)][d] += scale * n[d];
  }
  for (const auto& q : quads_) {
    const Vec3 ab = minus(x_[std::size_t(q[1])], x_[std::size_t(q[0])]),
               ac = minus(x_[std::size_t(q[2])], x_[std::size_t(q[0])]),
               ad = minus(x_[std::size_t(q[3])], x_[std::size_t(q[0])]);
    const Vec3 p1 = mat3::cross(ab, ac), p2 = mat3::cross(ac, ad);
    for (int d = 0; d < 3; ++d) {
      childForce_[std::size_t(q[0])][d] += scale * (p1[d] + p2[d]);
      childForce_[std::size_t(q[1])][d] += scale * p1[d];
      childForce_[std::size_t(q[2])][d] += scale * (p1[d] + p2[d]);
      childForce_[std::size_t(q[3])][d] += scale * p2[d];
    }
  }
  addTransposed(childForce_, f);
}

void MappedPressure::addDForce(const double* dx, double* df, double kFactor) const {
  gather(dx, gathered_);
  applyJ(gathered_, child_);
  childForce_.assign(x_.size(), Vec3{0, 0, 0});
  const double scale = kFactor * pressure_ / 6;
  for (const auto& t : triangles_) {
    const Vec3 &a = x_[std::size_t(t[0])], &b = x_[std::size_t(t[1])], &c = x_[std::size_t(t[2])];
    // d((b - a) x (c - a)) = (c - b) x da + (a - c) x db + (b - a) x dc.
    const std::array<Vec3, 3> edges{minus(c, b), minus(a, c), minus(b, a)};
    Vec3 change{0, 0, 0};
    for (int j = 0; j < 3; ++j) {
      const Vec3 term = mat3::cross(edges[std::size_t(j)], child_[std::size_t(t[std::size_t(j)])]);
      for (int d = 0; d < 3; ++d) change[d] += term[d];
    }
    for (std::int64_t i : t)
      for (int d = 0; d < 3; ++d) childForce_[std::size_t(i)][d] += scale * change[d];
  }
  addTransposed(childForce_, df);
}

void MappedPressure::addKToElementMatrices(double*, double, CellRange) const {
  throw Error(
      "mapped.pressure: the tangent of a pressure on a mapped child's faces couples body nodes "
      "of different cells and has no element matrix; use the matrix-free operator "
      "(solver.operator = matrix-free)");
}

MappedPressureParameters readMappedPressureParameters(const Parameters& scene) {
  MappedPressureParameters p;
  p.child = readMappedChildParameters(scene);
  if (scene.given("mapped.pressure")) p.pressure = scene.real("mapped.pressure");
  if (scene.given("mapped.pressure-pulse")) {
    const std::vector<double> v =
        parse::reals("mapped.pressure-pulse", scene.text("mapped.pressure-pulse"), 3);
    p.pulse = {v[0], v[1], v[2]};
  }
  if (scene.given("mapped.triangles"))
    p.triangles = facesOf<3>("mapped.triangles", scene.text("mapped.triangles"));
  if (scene.given("mapped.quads")) p.quads = facesOf<4>("mapped.quads", scene.text("mapped.quads"));
  return p;
}

std::unique_ptr<ForceField> makeMappedPressure(const ModelContext& context,
                                               const MappedPressureParameters& parameters) {
  if (!parameters.pressure && !parameters.pulse) return nullptr;
  return std::make_unique<MappedPressure>(context.mesh, parameters);
}

namespace {

// A pressure needs faces and a mapping (the matrix-free operator: io/scene_checks); one law.
void resolveMappedPressure(Scene& scene) {
  const bool pressure = scene.given("mapped.pressure"),
             pulse = scene.given("mapped.pressure-pulse");
  if (!pressure && !pulse) return;
  const std::string key = pulse ? "mapped.pressure-pulse" : "mapped.pressure";
  if (pressure && pulse)
    throw Error("mapped.pressure and mapped.pressure-pulse exclude each other");
  if (!scene.given("mapped.triangles") && !scene.given("mapped.quads"))
    throw Error(key + " needs the child's faces: mapped.triangles or mapped.quads");
  if (scene.text("mapped.mapping") == "none")
    throw Error(key + " acts on a mapped child's faces: it needs mapped.mapping");
}

ForceFieldComponent mappedPressureComponent() {
  return {
      {"mapped-pressure", "force field",
       "a follower pressure on a mapped child's triangles and quadrangles, carried to the body "
       "by J^T (SOFA SurfacePressureForceField in a mapped node)",
       ParameterSpec()
           .add(
               {"mapped.pressure", "P",
                "a follower pressure P on the child's faces (mapped.triangles, mapped.quads) at\n"
                "its positions x_c = J x: each point of a triangle (a, b, c) gets\n"
                "P/6 (b-a) x (c-a), with its exact tangent; a quadrangle (a, b, c, d) gives\n"
                "p1 = P/6 (b-a) x (c-a) to b, p2 = P/6 (c-a) x (d-a) to d and p1 + p2 to a and c,\n"
                "with no tangent (as SOFA's). The forces reach the body as J^T f_c, the tangent\n"
                "as J^T K_c J, which couples nodes of different cells: solver.operator must be\n"
                "matrix-free (as SOFA's CGLinearSolver is)",
                std::nullopt, "pressure", false, check::real()})
           .add({"mapped.pressure-pulse", "\"P SPEED LOWER\"",
                 "the pressure of mapped.pressure, cyclic as load.pressure-pulse's (SOFA\n"
                 "SurfacePressureForceField pulseMode, pressureSpeed, pressureLowerBound)",
                 std::nullopt, "pressure", false,
                 [](const std::string& key, const std::string& text) {
                   if (!(parse::reals(key, text, 3)[1] > 0))
                     parse::reject(key, text, "SPEED must be > 0");
                 }})
           .add({"mapped.triangles", "\"A B C [A B C ..]\"",
                 "the child's triangles the pressure acts on, 0-based child points, in the\n"
                 "order that gives their normal (right-hand rule)",
                 std::nullopt, "", false,
                 [](const std::string& key, const std::string& text) { facesOf<3>(key, text); }})
           .add({"mapped.quads", "\"A B C D [A B C D ..]\"",
                 "the child's quadrangles the pressure acts on, 0-based child points", std::nullopt,
                 "", false,
                 [](const std::string& key, const std::string& text) { facesOf<4>(key, text); }}),
       resolveMappedPressure},
      Physics::Elasticity,
      forceFieldMaker(readMappedPressureParameters, makeMappedPressure)};
}

}  // namespace

// Force fields take ranks 400-499 (core/component_registry.hpp): after the mapped child's own.
const RegisterForceField registered(494, mappedPressureComponent);

}  // namespace eis
