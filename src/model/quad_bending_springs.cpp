#include "eis/model/quad_bending_springs.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "eis/mesh/boundary_faces.hpp"
#include "eis/model/boundary_bending_springs.hpp"

namespace eis {

namespace {

using Pair = std::pair<std::int64_t, std::int64_t>;

// SpringForceField's guard: a spring this short gives no force and no tangent.
constexpr double kShortestSpring = 1.0e-9;

}  // namespace

std::vector<SpringIds> quadBendingPairs(const std::vector<QuadIds>& quads) {
  std::map<Pair, Pair> firstPair;  // each edge, sorted, with its first quadrangle's pair
  std::set<Pair> added;            // the springs so far, their vertices sorted
  std::vector<SpringIds> springs;
  auto add = [&](std::int64_t a, std::int64_t b) {
    if (added.insert({std::min(a, b), std::max(a, b)}).second) springs.push_back({a, b});
  };
  for (const QuadIds& q : quads)
    for (std::size_t k = 0; k < 4; ++k) {
      Pair edge{q[k], q[(k + 1) % 4]}, pair{q[(k + 3) % 4], q[(k + 2) % 4]};
      if (edge.first > edge.second) {
        std::swap(edge.first, edge.second);
        std::swap(pair.first, pair.second);
      }
      const auto [it, fresh] = firstPair.try_emplace(edge, pair);
      if (fresh) continue;
      add(pair.first, it->second.first);
      add(pair.second, it->second.second);
    }
  return springs;
}

std::vector<SpringIds> quadularPairs(const std::vector<QuadIds>& quads) {
  // Each edge with the quadrangles holding it and its place k in each, in the order met.
  std::map<Pair, std::vector<std::pair<std::size_t, std::size_t>>> holders;
  for (std::size_t t = 0; t < quads.size(); ++t)
    for (std::size_t k = 0; k < 4; ++k) {
      const std::int64_t p = quads[t][(k + 1) % 4], q = quads[t][(k + 2) % 4];
      holders[{std::min(p, q), std::max(p, q)}].push_back({t, k});
    }
  std::vector<std::pair<std::pair<std::size_t, std::size_t>, SpringIds>> found;
  for (const auto& [edge, h] : holders) {
    if (h.size() != 2) continue;
    const auto [t2, k2] = h[0];
    const auto [t1, k1] = h[1];
    found.push_back({{t2, 2 * k2}, {quads[t1][k1], quads[t2][(k2 + 3) % 4]}});
    found.push_back({{t2, 2 * k2 + 1}, {quads[t1][(k1 + 3) % 4], quads[t2][k2]}});
  }
  std::sort(found.begin(), found.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<SpringIds> springs;
  springs.reserve(found.size());
  for (const auto& s : found) springs.push_back(s.second);
  return springs;
}

QuadBendingSpringsParameters readQuadBendingSpringsParameters(const Parameters& scene) {
  QuadBendingSpringsParameters p;
  if (scene.given("quad-bending.stiffness")) p.stiffness = scene.real("quad-bending.stiffness");
  p.damping = scene.real("quad-bending.damping");
  p.law = scene.choice("quad-bending.law", kQuadBendingLaws);
  p.faces = scene.choice("quad-bending.faces", kBodyFaces);
  const std::string list = scene.optionalText("quad-bending.quadrangles");
  if (!list.empty()) {
    const std::vector<int> ids = parse::integers("quad-bending.quadrangles", list, 0);
    if (ids.size() % 4 != 0)
      throw Error("quad-bending.quadrangles: expected 4 node ids per quadrangle, got " +
                  std::to_string(ids.size()) + " ids");
    for (std::size_t i = 0; i < ids.size(); i += 4)
      p.quadrangles.push_back({ids[i], ids[i + 1], ids[i + 2], ids[i + 3]});
  }
  return p;
}

std::unique_ptr<ForceField> makeQuadBendingSprings(const ModelContext& context,
                                                   const QuadBendingSpringsParameters& parameters) {
  if (!parameters.stiffness) return nullptr;
  std::vector<QuadIds> quads = parameters.quadrangles;
  if (quads.empty()) {
    const CellType cells = context.mesh.cellType();
    const bool boundary = parameters.faces != BodyFaces::Cells;
    if (boundary ? cells != CellType::Hexahedron : cells != CellType::Quadrangle)
      throw Error("quad-bending.faces: " + std::string(boundary ? "the boundary" : "the cells") +
                  " of a body of " + (boundary ? "hexahedra" : "quadrangles") +
                  " without quad-bending.quadrangles; this body has " + pluralNameOf(cells));
    const BoundaryFaces faces =
        boundary ? boundaryFaces(context.mesh, parameters.faces == BodyFaces::BoundaryFlipped)
                 : cellFaces(context.mesh);
    quads.assign(faces.nodes.begin(), faces.nodes.end());
  }
  const std::vector<SpringIds> pairs =
      parameters.law == QuadBendingLaw::Quad ? quadBendingPairs(quads) : quadularPairs(quads);
  // QuadularBendingSprings keeps TriangularBendingSprings' law and guard.
  return std::make_unique<BoundaryBendingSprings>(
      context.mesh, pairs, *parameters.stiffness, parameters.damping,
      parameters.law == QuadBendingLaw::Quad ? kShortestSpring : 1.0e-4);
}

namespace {

ForceFieldComponent quadBendingSpringsComponent() {
  return {
      {"quad-bending-springs", "force field",
       "springs across the edges quadrangles share (SOFA QuadBendingSprings, "
       "QuadularBendingSprings)",
       ParameterSpec()
           .add(
               {"quad-bending.stiffness", "KS",
                "the springs' stiffness, >= 0: force KS (l - L0) + KD (v_b - v_a).u (KS as given,\n"
                "not divided by L0); not given: no springs; the step's matrix must be\n"
                "matrix-free (solver.operator), for the springs lie in no cell",
                std::nullopt, "force/length", false, check::nonNegative()})
           .add({"quad-bending.damping", "KD",
                 "the springs' damping, >= 0, explicit as in SOFA (no B); the default is\n"
                 "SpringForceField's (QuadularBendingSprings' is 1)",
                 "5", "force time/length", false, check::nonNegative()})
           .add({"quad-bending.law", "quad|quadular",
                 "quad: SOFA's QuadBendingSprings, across each edge a later quadrangle shares\n"
                 "with the first holding it, two springs joining the vertices off the edge beside\n"
                 "the same end; quadular: SOFA's QuadularBendingSprings (as bending.quads)",
                 "quad", "", false, check::choice(kQuadBendingLaws)})
           .add({"quad-bending.faces", "cells|boundary|boundary-flipped",
                 "without quad-bending.quadrangles: the body's quadrangles, or the boundary\n"
                 "quadrangles of a body of hexahedra (Hexa2QuadTopologicalMapping, flipNormals)",
                 "cells", "", false, check::choice(kBodyFaces)})
           .add({"quad-bending.quadrangles", "\"A B C D ..\"",
                 "the quadrangles, 4 node ids each, in SOFA's order (a flat grid's, say)",
                 std::nullopt, "", false, check::integersAtLeast(0, 0)}),
       nullptr},
      Physics::Elasticity,
      forceFieldMaker(readQuadBendingSpringsParameters, makeQuadBendingSprings)};
}

}  // namespace

// Force fields take ranks 400-499 (core/component_registry.hpp).
const RegisterForceField registered(488, quadBendingSpringsComponent);

}  // namespace eis
