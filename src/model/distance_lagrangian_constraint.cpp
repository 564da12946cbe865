#include "eis/model/distance_lagrangian_constraint.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "eis/core/error.hpp"
#include "eis/core/scene.hpp"

namespace eis {

namespace {

constexpr const char* kKey = "lagrange.distance";

}  // namespace

DistanceLagrangianConstraint::Edges DistanceLagrangianConstraint::parseEdges(
    const std::string& key, const std::string& text) {
  Texts words = parse::tokens(text);
  Edges e;
  e.text = text;
  if (words.size() >= 2 && words[words.size() - 2] == "geometric-stiffness") {
    const std::string& mode = words.back();
    if (mode == "exact")
      e.stiffness = MappingStiffness::Exact;
    else if (mode == "stabilized")
      e.stiffness = MappingStiffness::Stabilized;
    else if (mode != "none")
      throw Error(key + " = " + text + ": geometric-stiffness is none, exact or stabilized, not " +
                  mode);
    words.resize(words.size() - 2);
  }
  e.block = !words.empty() && words.back() == "block";
  if (e.block) words.pop_back();
  const auto rest = std::find(words.begin(), words.end(), "rest");
  std::vector<long long> ids;
  for (auto w = words.begin(); w != rest; ++w) {
    long long id;
    if (!parse::number(*w, id) || id < 0)
      throw Error(
          key + " = " + text +
          ": expected node ids A B A B .. [rest L L ..] [block] [geometric-stiffness MODE]");
    ids.push_back(id);
  }
  if (ids.empty() || ids.size() % 2 != 0)
    throw Error(key + " = " + text +
                ": expected pairs of node ids A B A B .. [rest L L ..] [block] "
                "[geometric-stiffness MODE]");
  for (std::size_t i = 0; i < ids.size(); i += 2) e.edges.push_back({ids[i], ids[i + 1]});
  if (rest != words.end()) {
    for (auto w = rest + 1; w != words.end(); ++w) {
      double l;
      if (!parse::number(*w, l) || l < 0)
        throw Error(key + " = " + text + ": a rest length is not a number >= 0: " + *w);
      e.rest.push_back(l);
    }
    if (e.rest.size() != e.edges.size())
      throw Error(key + " = " + text + ": " + std::to_string(e.edges.size()) + " edges and " +
                  std::to_string(e.rest.size()) + " rest lengths");
  }
  return e;
}

std::vector<DistanceLagrangianConstraint::Edges> DistanceLagrangianConstraint::readParameters(
    const eis::Parameters& scene) {
  std::vector<Edges> values;
  for (const std::string& text : scene.texts(kKey)) values.push_back(parseEdges(kKey, text));
  return values;
}

std::unique_ptr<DistanceLagrangianConstraint> DistanceLagrangianConstraint::make(
    const DistributedMesh& mesh, const std::vector<Edges>& values) {
  if (values.empty()) return nullptr;
  std::unique_ptr<DistanceLagrangianConstraint> c(new DistanceLagrangianConstraint);
  c->comm_ = mesh.comm();
  std::map<std::int64_t, PetscInt> owned;
  for (PetscInt v = 0; v < PetscInt(mesh.nodeIds().size()); ++v)
    if (mesh.owned()[std::size_t(v)]) owned.emplace(mesh.nodeIds()[std::size_t(v)], v);
  // The rest end points, gathered as the state's are; a node no rank owns is found by the count
  // of its owners.
  std::vector<double> restEnds;
  std::vector<int> found;
  for (const Edges& e : values)
    for (const auto& edge : e.edges) {
      const int row = int(c->ends_.size());
      c->ends_.push_back(edge);
      for (int end = 0; end < 2; ++end) {
        restEnds.insert(restEnds.end(), 3, 0.0);
        found.push_back(0);
        const auto o = owned.find(edge[std::size_t(end)]);
        if (o == owned.end()) continue;
        c->entries_.push_back({row, end, mesh.ownedOffset(o->second)});
        const auto& p = mesh.restCoords()[std::size_t(o->second)];
        for (int d = 0; d < 3; ++d) restEnds[restEnds.size() - 3 + std::size_t(d)] = p[d];
        found.back() = 1;
      }
    }
  EIS_CHECK_MPI(
      MPI_Allreduce(MPI_IN_PLACE, found.data(), int(found.size()), MPI_INT, MPI_SUM, mesh.comm()));
  for (std::size_t k = 0; k < found.size(); ++k)
    if (found[k] != 1)
      throw Error(std::string(kKey) + ": node " + std::to_string(c->ends_[k / 2][k % 2]) +
                  " is no node of the body");
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, restEnds.data(), int(restEnds.size()), MPI_DOUBLE,
                              MPI_SUM, mesh.comm()));
  const std::vector<double> restGaps = c->setRows(restEnds);
  std::size_t row = 0;
  for (const Edges& e : values)
    for (std::size_t k = 0; k < e.edges.size(); ++k, ++row)
      c->rest_.push_back(e.rest.empty() ? restGaps[row] : e.rest[k]);
  bool stiff = false;
  for (const Edges& e : values) {
    c->stiffness_.insert(c->stiffness_.end(), e.edges.size(), e.stiffness);
    stiff = stiff || e.stiffness != MappingStiffness::None;
  }
  if (stiff) c->childForces_ = std::make_shared<std::vector<double>>(c->ends_.size(), 0.0);
  // A value's rows are one group each, or one block together.
  for (const Edges& e : values)
    if (e.block) {
      c->groups_.push_back(int(e.edges.size()));
      c->resolutions_.push_back({GroupResolution::Kind::Block, 0});
    } else {
      c->groups_.insert(c->groups_.end(), e.edges.size(), 1);
      c->resolutions_.insert(c->resolutions_.end(), e.edges.size(), GroupResolution{});
    }
  return c;
}

std::vector<double> DistanceLagrangianConstraint::gather(Vec values) const {
  std::vector<double> ends(6 * ends_.size(), 0.0);
  const PetscScalar* a;
  EIS_CHECK(VecGetArrayRead(values, &a));
  for (const Entry& e : entries_)
    for (int d = 0; d < 3; ++d) ends[std::size_t(6 * e.row + 3 * e.end + d)] = a[e.offset + d];
  EIS_CHECK(VecRestoreArrayRead(values, &a));
  if (!ends.empty())
    EIS_CHECK_MPI(
        MPI_Allreduce(MPI_IN_PLACE, ends.data(), int(ends.size()), MPI_DOUBLE, MPI_SUM, comm_));
  return ends;
}

// DistanceMapping::apply: the length minus the rest length, and the normalized direction.
std::vector<double> DistanceLagrangianConstraint::setRows(const std::vector<double>& ends) const {
  const std::size_t m = ends_.size();
  directions_.resize(m);
  std::vector<double> gaps(m);
  for (std::size_t k = 0; k < m; ++k) {
    std::array<double, 3> r;
    for (std::size_t d = 0; d < 3; ++d) r[d] = ends[6 * k + 3 + d] - ends[6 * k + d];
    const double length = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
    gaps[k] = length - (rest_.empty() ? 0.0 : rest_[k]);
    if (length > std::numeric_limits<double>::epsilon())
      for (double& c : r) c /= length;
    else
      r.fill(1 / std::sqrt(3.0));
    directions_[k] = r;
  }
  return gaps;
}

bool DistanceLagrangianConstraint::first() const {
  int rank;
  EIS_CHECK_MPI(MPI_Comm_rank(comm_, &rank));
  return rank == 0;
}

void DistanceLagrangianConstraint::addTransposed(const std::vector<double>& lambda, Vec out) const {
  PetscScalar* a;
  EIS_CHECK(VecGetArray(out, &a));
  for (const Entry& e : entries_)
    for (int d = 0; d < 3; ++d)
      a[e.offset + d] += (e.end == 0 ? -1.0 : 1.0) *
                         directions_[std::size_t(e.row)][std::size_t(d)] *
                         lambda[std::size_t(e.row)];
  EIS_CHECK(VecRestoreArray(out, &a));
}

void DistanceLagrangianConstraint::addLocalProduct(Vec y, std::vector<double>& out) const {
  const PetscScalar* a;
  EIS_CHECK(VecGetArrayRead(y, &a));
  for (const Entry& e : entries_)
    for (int d = 0; d < 3; ++d)
      out[std::size_t(e.row)] += (e.end == 0 ? -1.0 : 1.0) *
                                 directions_[std::size_t(e.row)][std::size_t(d)] * a[e.offset + d];
  EIS_CHECK(VecRestoreArrayRead(y, &a));
}

void DistanceLagrangianConstraint::addLocalViolation(Vec x, std::vector<double>& out) const {
  const std::vector<double> gaps = setRows(gather(x));
  if (first())
    for (std::size_t k = 0; k < gaps.size(); ++k) out[k] += gaps[k];
}

// The child's free value, x + h J v_free with h v_free = x_free - x_n, J at x_n.
void DistanceLagrangianConstraint::addLocalStepViolation(Vec start, Vec x,
                                                         std::vector<double>& out) const {
  const std::vector<double> ends = gather(x), starts = gather(start), gaps = setRows(starts);
  if (!first()) return;
  for (std::size_t k = 0; k < gaps.size(); ++k) {
    double moved = 0;
    for (std::size_t d = 0; d < 3; ++d)
      moved += directions_[k][d] * ((ends[6 * k + 3 + d] - starts[6 * k + 3 + d]) -
                                    (ends[6 * k + d] - starts[6 * k + d]));
    out[k] += gaps[k] + moved;
  }
}

// UniformLagrangianConstraint's velocity violation, v_free + x / h on the child.
void DistanceLagrangianConstraint::addLocalVelocityViolation(Vec x, Vec v, double h,
                                                             std::vector<double>& out) const {
  const std::vector<double> velocities = gather(v), gaps = setRows(gather(x));
  if (!first()) return;
  for (std::size_t k = 0; k < gaps.size(); ++k) {
    double rate = 0;
    for (std::size_t d = 0; d < 3; ++d)
      rate += directions_[k][d] * (velocities[6 * k + 3 + d] - velocities[6 * k + d]);
    out[k] += rate + gaps[k] / h;
  }
}

void DistanceLagrangianConstraint::setChildForces(const std::vector<double>& multipliers,
                                                  double h) const {
  if (!childForces_) return;
  for (std::size_t k = 0; k < childForces_->size(); ++k) (*childForces_)[k] = multipliers[k] / h;
}

std::unique_ptr<ForceField> DistanceLagrangianConstraint::geometricStiffness(
    const DistributedMesh& mesh) const {
  if (!childForces_) return nullptr;
  std::vector<DistanceGeometricStiffness::Edge> edges;
  for (std::size_t k = 0; k < ends_.size(); ++k) edges.push_back({ends_[k], stiffness_[k]});
  try {
    return std::make_unique<DistanceGeometricStiffness>(mesh, edges, childForces_);
  } catch (const Error& e) {
    throw Error(std::string(kKey) + ": " + e.what());
  }
}

const ComponentDeclaration& distanceLagrangianConstraintComponent() {
  static const ComponentDeclaration component{
      "distance-lagrangian-constraint", "Lagrangian constraint",
      "edges whose lengths constraint forces hold (SOFA UniformLagrangianConstraint on\n"
      "the child of a DistanceMapping); needs lagrange.solver and lagrange.correction",
      ParameterSpec().add(
          {kKey, "A B A B .. [rest L L ..] [block] [geometric-stiffness none|exact|stabilized]",
           "one bilateral row per edge (A, B) of node ids, holding its length to its rest\n"
           "length (given, else the length at the rest positions): the row -u on A and u on B,\n"
           "u the edge's direction at the step's start, the violation the length's gap at\n"
           "the step's start plus u times the edge's free motion (SOFA's DistanceMapping\n"
           "child, linearized at the step's start). With block, the value's rows are one\n"
           "group the Gauss-Seidel solves together (SOFA's iterative=\"false\":\n"
           "BilateralConstraintResolutionNDof), else each row is its own. With\n"
           "geometric-stiffness exact or stabilized, the mapping's geometric stiffness under\n"
           "the last step's multipliers over h joins each later free motion's K (SOFA's\n"
           "DistanceMapping geometricStiffness under FreeMotionAnimationLoop): per edge\n"
           "(c / L)(I - u u^T) at the step's start, c = f / h; stabilized keeps it only where\n"
           "c < 0 (the edge pulls). Its ends must share a cell of the body. None by default.\n"
           "Repeatable.",
           std::nullopt, "", true,
           [](const std::string& key, const std::string& text) {
             DistanceLagrangianConstraint::parseEdges(key, text);
           }}),
      nullptr};
  return component;
}

// After the sliding Lagrangian constraint (528).
const RegisterComponent registered(529, distanceLagrangianConstraintComponent);

}  // namespace eis
