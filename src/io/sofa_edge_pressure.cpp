// SOFA's EdgePressureForceField (Component/MechanicalLoad, EdgePressureForceField.inl) as
// load.edge-pressure, on the boundary edges a Triangle2EdgeTopologicalMapping takes from a
// TriangleSetTopologyContainer holding a GridMeshCreator's edges: the creator's edges in its
// order and orientation (io/sofa_grid_mesh_creator), those with one triangle kept in that order
// (Triangle2EdgeTopologicalMapping::init). The edges are the edgeIndices, inline or a BoxROI's
// (strict: both ends in one of its boxes, at the creator's points), `edges`, or dmin/dmax along
// `normal`. What SOFA computes:
//   pressure (its norm > 0): F = pressure L, L the rest length of the edge;
//   else p_intensity with binormal: a follower force one step late (model/edge_pressure.hpp),
//     L the rest length of the topology's i-th edge, i the edge's place in edgeIndices, not of
//     the edge itself (initEdgeInformation's getEdge(i)): kept, it changes the force where the
//     edges differ in length;
//   else nothing.
#include <algorithm>
#include <cmath>
#include <map>

#include "eis/core/error.hpp"
#include "sofa_grid_mesh_creator.hpp"
#include "sofa_reader.hpp"

namespace eis::sofa {

namespace {

using Edge = std::array<long long, 2>;

struct EdgeTopology {
  std::vector<std::array<double, 3>> points;
  std::vector<Edge> edges;
};

// The edges of the EdgeSetTopologyContainer `o` works on, in SOFA's order.
EdgeTopology edgeTopologyOf(Reader& r, const SofaObject& o) {
  const SofaObject* container = o.field("topology") ? r.linked(o, "topology") : topologyOf(o.node);
  if (!container || container->type != "EdgeSetTopologyContainer")
    r.reject(o, "topology", "edges of an EdgeSetTopologyContainer only");
  const SofaObject* mapping = nullptr;
  for (const SofaObject& candidate : container->node->objects)
    if (candidate.type == "Triangle2EdgeTopologicalMapping" &&
        r.linked(candidate, "output") == container)
      mapping = &candidate;
  if (!mapping)
    r.reject(*container, "edges",
             "edges given other than by a Triangle2EdgeTopologicalMapping are not supported");
  const SofaObject* triangles = r.linked(*mapping, "input");
  const SofaObject* loader = triangles ? r.linked(*triangles, "edges") : nullptr;
  if (!triangles || triangles->type != "TriangleSetTopologyContainer" || !loader ||
      loader->type != "GridMeshCreator" || r.linked(*triangles, "triangles") != loader)
    r.reject(*mapping, "input",
             "a TriangleSetTopologyContainer taking a GridMeshCreator's edges and triangles only");
  const GridMeshCreatorMesh grid = gridMeshCreatorMesh(r, *loader);
  if (grid.quads) r.reject(*loader, "trianglePattern", "an edge load needs triangles");
  std::map<Edge, int> around;
  for (std::size_t c = 0; c < grid.cells.size(); c += 3)
    for (std::size_t k = 0; k < 3; ++k) {
      Edge e{grid.cells[c + k], grid.cells[c + (k + 1) % 3]};
      if (e[0] > e[1]) std::swap(e[0], e[1]);
      ++around[e];
    }
  EdgeTopology topology{grid.points, {}};
  for (const Edge& e : grid.edges)
    if (around[{std::min(e[0], e[1]), std::max(e[0], e[1])}] == 1) topology.edges.push_back(e);
  return topology;
}

// The edges SOFA's init selects. Each of its selections replaces the one before (setMap2Elements):
// the plane dmin < p . normal < dmax at rest (selectEdgesAlongPlane), then edgeIndices (inline or
// a BoxROI's over the same edges), then `edges` (selectEdgesFromEdgeList: the topology's last
// edge with the same ends in the same order; none found leaves SOFA's index 0, kept).
std::vector<long long> selectedEdges(Reader& r, const SofaObject& o, const EdgeTopology& t) {
  if (o.field("edges")) {
    const std::vector<long long> ends = r.integers(o, "edges");
    if (ends.size() % 2 != 0) r.reject(o, "edges", "expected 2 node ids an edge");
    std::vector<long long> indices(ends.size() / 2, 0);
    for (std::size_t i = 0; i < indices.size(); ++i) {
      bool found = false;
      for (std::size_t j = 0; j < t.edges.size(); ++j)
        if (t.edges[j] == Edge{ends[2 * i], ends[2 * i + 1]})
          indices[i] = (long long)j, found = true;
      if (!found)
        r.warn(r.where(o, "edges") + ": edge " + std::to_string(ends[2 * i]) + " " +
               std::to_string(ends[2 * i + 1]) +
               " is not one of the topology's (in that order): SOFA loads its edge 0 instead");
    }
    return indices;
  }
  if (!o.field("edgeIndices")) {
    const double dmin = r.real(o, "dmin", 0), dmax = r.real(o, "dmax", 0);
    if (dmin == dmax) return {};
    std::vector<double> normal = r.reals(o, "normal");
    if (normal.empty()) normal = {0, 0, 0};
    if (normal.size() != 3) r.reject(o, "normal", "expected 3 numbers");
    const auto in = [&](long long id) {
      const auto& p = t.points[std::size_t(id)];
      const double d = p[0] * normal[0] + p[1] * normal[1] + p[2] * normal[2];
      return d > dmin && d < dmax;
    };
    std::vector<long long> indices;
    for (std::size_t e = 0; e < t.edges.size(); ++e)
      if (in(t.edges[e][0]) && in(t.edges[e][1])) indices.push_back((long long)e);
    return indices;
  }
  const SofaObject* roi = r.linked(o, "edgeIndices");
  if (!roi) return r.integers(o, "edgeIndices");
  if (roi->type != "BoxROI") r.reject(o, "edgeIndices", "the edges of a BoxROI only");
  r.refuseIfGiven(*roi, "orientedBox", "oriented boxes are not supported here");
  if (!r.boolean(*roi, "strict", true))
    r.reject(*roi, "strict", "edges whose centre only is in the box are not supported");
  const std::vector<double> boxes = r.reals(*roi, "box");
  if (boxes.empty() || boxes.size() % 6 != 0) r.reject(*roi, "box", "expected 6 numbers a box");
  const auto inside = [&](long long id) {
    const auto& p = t.points[std::size_t(id)];
    for (std::size_t b = 0; b < boxes.size(); b += 6) {
      bool in = true;
      for (std::size_t d = 0; d < 3; ++d)
        in = in && p[d] >= boxes[b + d] && p[d] <= boxes[b + 3 + d];
      if (in) return true;
    }
    return false;
  };
  std::vector<long long> indices;
  for (std::size_t e = 0; e < t.edges.size(); ++e)
    if (inside(t.edges[e][0]) && inside(t.edges[e][1])) indices.push_back((long long)e);
  return indices;
}

void mapEdgePressure(Reader& r, const SofaObject& o) {
  std::vector<double> pressure = r.reals(o, "pressure");
  if (pressure.empty()) pressure = {0, 0, 0};
  if (pressure.size() != 3) r.reject(o, "pressure", "expected 3 numbers");
  const std::vector<double> intensities = r.reals(o, "p_intensity");
  const bool constant = std::hypot(pressure[0], pressure[1], pressure[2]) > 0;
  if (!constant && intensities.empty()) return;  // SOFA computes no force
  std::string value;
  if (constant) {
    value = "constant";
    for (double p : pressure) value += " " + parse::text(p);
  } else {
    if (!r.given(o, "binormal"))
      r.reject(o, "p_intensity", "an intensity without a binormal is not supported");
    if (intensities.size() > 1)
      r.reject(o, "p_intensity", "one intensity per edge is not supported");
    std::vector<double> binormal = r.reals(o, "binormal");
    if (binormal.size() != 3) r.reject(o, "binormal", "expected 3 numbers");
    value = "follower " + parse::text(intensities[0]);
    for (double b : binormal) value += " " + parse::text(b);
  }
  const EdgeTopology topology = edgeTopologyOf(r, o);
  const std::vector<long long> indices = selectedEdges(r, o, topology);
  if (indices.empty()) return;
  const auto length = [&](std::size_t e) {
    const auto &a = topology.points[std::size_t(topology.edges[e][0])],
               &b = topology.points[std::size_t(topology.edges[e][1])];
    return std::hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
  };
  value += " edges";
  for (std::size_t i = 0; i < indices.size(); ++i) {
    const long long e = indices[i];
    if (e < 0 || std::size_t(e) >= topology.edges.size())
      r.reject(o, "edgeIndices", "edge " + std::to_string(e) + " is not in the topology");
    // SOFA's slip: a follower load's length is the i-th edge's.
    const std::size_t measured = constant ? std::size_t(e) : i;
    if (measured >= topology.edges.size())
      r.reject(o, "edgeIndices", "SOFA reads the length of an edge past the topology's end");
    value += " " + std::to_string(topology.edges[std::size_t(e)][0]) + " " +
             std::to_string(topology.edges[std::size_t(e)][1]) + " " +
             parse::text(length(measured));
  }
  r.key("load.edge-pressure", value);
}

}  // namespace

const RegisterSofaMapping edgePressure({"EdgePressureForceField"}, mapEdgePressure);

}  // namespace eis::sofa
