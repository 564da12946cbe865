#include "eis/model/edge_pressure.hpp"

#include <algorithm>
#include <cmath>

#include "eis/core/error.hpp"

namespace eis {

namespace {

const char* const kKey = "load.edge-pressure";

using Point = std::array<double, 3>;

Point cross(const Point& u, const Point& v) {
  return {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
}

// SOFA's Vec::normalize: a vector too short to divide by stays as it is.
Point normalized(const Point& u) {
  const double n = std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  if (n < 1e-15) return u;
  return {u[0] / n, u[1] / n, u[2] / n};
}

EdgePressure::Load parseLoad(const std::string& text) {
  const Texts t = parse::tokens(text);
  EdgePressure::Load load;
  load.text = text;
  const auto number = [&](std::size_t i) {
    double value;
    if (i >= t.size() || !parse::number(t[i], value))
      parse::reject(kKey, text,
                    "expected \"constant PX PY PZ edges A B L ...\" or \"follower I BX BY BZ "
                    "edges A B L ...\"");
    return value;
  };
  std::size_t i = 0;
  if (!t.empty() && t[0] == "follower") {
    load.follower = true;
    load.intensity = number(1);
    i = 2;
  } else if (t.empty() || t[0] != "constant") {
    number(t.size());  // rejects
  } else {
    i = 1;
  }
  for (int d = 0; d < 3; ++d) load.vector[std::size_t(d)] = number(i + std::size_t(d));
  i += 3;
  if (i >= t.size() || t[i] != "edges" || (t.size() - i - 1) % 3 != 0 || t.size() == i + 1)
    parse::reject(kKey, text, "expected \"edges\" then A B L for each edge");
  for (++i; i < t.size(); i += 3) {
    long long a, b;
    const double length = number(i + 2);
    if (!parse::number(t[i], a) || !parse::number(t[i + 1], b) || a < 0 || b < 0 || a == b)
      parse::reject(kKey, text, "an edge's ends are two different node ids >= 0");
    load.edges.push_back({a, b, length});
  }
  return load;
}

}  // namespace

std::array<double, 3> EdgePressure::edgeForce(const Load& load, const Edge& edge, const Point& xa,
                                              const Point& xb) {
  Point direction = load.vector;
  double scale = edge.length;
  if (load.follower) {
    const Point tangent = normalized({xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]});
    direction = normalized(cross(normalized(load.vector), tangent));
    scale *= load.intensity;
  }
  return {direction[0] * scale, direction[1] * scale, direction[2] * scale};
}

EdgePressure::EdgePressure(const DistributedMesh& mesh, std::vector<Load> loads)
    : comm_(mesh.comm()), loads_(std::move(loads)) {
  for (const Load& load : loads_)
    for (const Edge& edge : load.edges) nodes_.insert(nodes_.end(), {edge.a, edge.b});
  std::sort(nodes_.begin(), nodes_.end());
  nodes_.erase(std::unique(nodes_.begin(), nodes_.end()), nodes_.end());
  ownedVertex_.assign(nodes_.size(), -1);
  std::vector<int> found(nodes_.size(), 0);
  for (std::size_t v = 0; v < mesh.numLocalVertices(); ++v) {
    if (!mesh.owned()[v]) continue;
    const auto it = std::lower_bound(nodes_.begin(), nodes_.end(), mesh.nodeIds()[v]);
    if (it == nodes_.end() || *it != mesh.nodeIds()[v]) continue;
    ownedVertex_[std::size_t(it - nodes_.begin())] = PetscInt(v);
    found[std::size_t(it - nodes_.begin())] = 1;
  }
  EIS_CHECK_MPI(
      MPI_Allreduce(MPI_IN_PLACE, found.data(), int(found.size()), MPI_INT, MPI_SUM, comm_));
  for (std::size_t n = 0; n < nodes_.size(); ++n)
    if (found[n] == 0)
      throw Error(std::string(kKey) + ": node " + std::to_string(nodes_[n]) +
                  " is not in the mesh");
}

std::vector<std::array<double, 3>> EdgePressure::forces(const double* x) const {
  // Every edge's ends, gathered on every rank from the ranks that own them.
  std::vector<double> positions(3 * nodes_.size(), 0.0);
  for (std::size_t n = 0; n < nodes_.size(); ++n)
    if (ownedVertex_[n] >= 0)
      for (std::size_t d = 0; d < 3; ++d)
        positions[3 * n + d] = x[3 * std::size_t(ownedVertex_[n]) + d];
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, positions.data(), int(positions.size()), MPI_DOUBLE,
                              MPI_SUM, comm_));
  const auto at = [&](std::int64_t id) {
    const std::size_t n =
        std::size_t(std::lower_bound(nodes_.begin(), nodes_.end(), id) - nodes_.begin());
    return Point{positions[3 * n], positions[3 * n + 1], positions[3 * n + 2]};
  };
  std::vector<std::array<double, 3>> result;
  for (const Load& load : loads_)
    for (const Edge& edge : load.edges)
      result.push_back(edgeForce(load, edge, at(edge.a), at(edge.b)));
  return result;
}

void EdgePressure::addForce(const double* x, const double*, double* f) {
  if (newStep_) {
    // SOFA applies what its previous addForce computed, then computes the next from x.
    std::vector<std::array<double, 3>> next = forces(x);
    applied_ = pending_.empty() ? next : pending_;
    pending_ = std::move(next);
    newStep_ = false;
  }
  std::size_t e = 0;
  for (const Load& load : loads_)
    for (const Edge& edge : load.edges) {
      const Point& force = applied_[e++];
      for (std::int64_t id : {edge.a, edge.b}) {
        const std::size_t n =
            std::size_t(std::lower_bound(nodes_.begin(), nodes_.end(), id) - nodes_.begin());
        if (ownedVertex_[n] < 0) continue;
        for (std::size_t d = 0; d < 3; ++d)
          f[3 * std::size_t(ownedVertex_[n]) + d] += 0.5 * force[d];
      }
    }
}

ForceFieldComponent edgePressureComponent() {
  return {
      {"edge-pressure", "force field",
       "a force on chosen edges, constant or following them (SOFA EdgePressureForceField)",
       ParameterSpec().add(
           {kKey, "\"constant PX PY PZ edges A B L ...\" | \"follower I BX BY BZ edges A B L ...\"",
            "a force on each edge from node A to node B (input node ids), half of it on each\n"
            "end: constant, P L; follower, I L times the unit vector of B x (B - A's current\n"
            "direction), computed from the positions at the start of the previous step (step 0\n"
            "from its own), as SOFA's EdgePressureForceField with p_intensity and binormal\n"
            "applies it one step late. L scales each edge's force (SOFA: a rest length). K = 0.\n"
            "Repeatable.",
            std::nullopt, "", true,
            [](const std::string&, const std::string& text) { parseLoad(text); }}),
       nullptr},
      Physics::Elasticity,
      forceFieldMaker(readEdgePressureParameters, makeEdgePressure)};
}

EdgePressureParameters readEdgePressureParameters(const Parameters& scene) {
  EdgePressureParameters parameters;
  for (const std::string& text : scene.texts(kKey)) parameters.loads.push_back(parseLoad(text));
  return parameters;
}

std::unique_ptr<ForceField> makeEdgePressure(const ModelContext& context,
                                             const EdgePressureParameters& parameters) {
  if (parameters.loads.empty()) return nullptr;
  return std::make_unique<EdgePressure>(context.mesh, parameters.loads);
}

const RegisterForceField registered(462, edgePressureComponent);

}  // namespace eis
