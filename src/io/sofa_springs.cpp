// SOFA's spring force fields as the keys of our mesh-springs and rest-shape-springs
// (model/mesh_springs.cpp, model/rest_shape_springs.cpp).
#include "sofa_reader.hpp"
#include "sofa_selections.hpp"

namespace eis::sofa {

namespace {

// MeshSpringForceField.inl: stiffness and damping (default 0) are aliases of every kind's
// (linesStiffness, tetrahedraStiffness, ...), and each edge gets one spring: ours, along
// the edges of the tetrahedra, with the same ks = stiffness / L0, kd = damping / L0.
void mapMeshSprings(Reader& r, const SofaObject& o) {
  for (const char* field :
       {"linesStiffness", "linesDamping", "trianglesStiffness", "trianglesDamping",
        "quadsStiffness", "quadsDamping", "tetrahedraStiffness", "tetrahedraDamping",
        "cubesStiffness", "cubesDamping"})
    r.refuseIfGiven(o, field, "stiffness per kind of spring is not supported yet");
  if (r.boolean(o, "noCompression", false))
    r.reject(o, "noCompression", "springs that only pull are not supported");
  if (r.given(o, "stiffness")) r.key("springs.stiffness", parse::text(r.real(o, "stiffness", 0)));
  if (r.given(o, "damping")) r.key("springs.damping", parse::text(r.real(o, "damping", 0)));
}

// RestShapeSpringsForceField.inl: stiffness empty -> 100; point i of `points` takes
// stiffness[i] where there is one, else stiffness[0]; points empty = every point;
// activeDirections all 1; no external_rest_shape: its own rest positions.
void mapRestShapeSprings(Reader& r, const SofaObject& o) {
  r.refuseIfGiven(o, "external_rest_shape", "springs to another object's rest shape");
  r.refuseIfGiven(o, "external_points", "springs to another object's rest shape");
  r.refuseIfGiven(o, "angularStiffness", "angular springs (rigid bodies) are not supported");
  for (double d : r.reals(o, "activeDirections"))
    if (d == 0) r.reject(o, "activeDirections", "springs in some directions only");
  std::vector<double> stiffness = r.reals(o, "stiffness");
  if (stiffness.empty()) stiffness = {100.0};
  const std::vector<long long> points = r.integers(o, "points");
  if (stiffness.size() > 1) {
    if (points.empty())
      r.reject(o, "stiffness", "one stiffness per point needs `points` written out");
    std::string nodes;
    for (std::size_t i = 0; i < points.size(); ++i)
      nodes += (i ? " " : "") + std::to_string(points[i]) + " " +
               parse::text(stiffness[i < stiffness.size() ? i : 0]);
    r.key("springs.rest-shape-nodes", nodes);
  } else {
    r.key("springs.rest-shape",
          parse::text(stiffness[0]) + " " + (points.empty() ? "all" : indexList(points)));
  }
}

}  // namespace

const RegisterSofaMapping meshSprings({"MeshSpringForceField"}, mapMeshSprings);
const RegisterSofaMapping restShapeSprings({"RestShapeSpringsForceField"}, mapRestShapeSprings);

}  // namespace eis::sofa
