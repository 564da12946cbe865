// SOFA's spring force fields as the keys of our mesh-springs and rest-shape-springs
// (model/mesh_springs.cpp, model/rest_shape_springs.cpp).
#include <string>
#include <utility>
#include <vector>

#include "sofa_reader.hpp"
#include "sofa_selections.hpp"

namespace eis::sofa {

namespace {

// MeshSpringForceField.inl: stiffness and damping (default 0) are aliases of every kind's
// (linesStiffness, ..., tetrahedraStiffness, cubesStiffness), and each pair of vertices gets one
// spring, ks = stiffness / L0, kd = damping / L0: on tetrahedra their edges, on hexahedra (cubes)
// every two of a cell's 8 vertices. The lines, triangles and quads of a mesh are among those
// pairs, so the stiffness of the mesh's cells (tetrahedra or cubes, whichever mesh.* the body's
// mesh gave) is ours; another kind's own value would give some pairs another stiffness.
void mapMeshSprings(Reader& r, const SofaObject& o) {
  const bool cubes = r.gave("mesh.hexahedra");
  const std::string kind = cubes ? "cubes" : "tetrahedra";
  for (const char* other : {"lines", "triangles", "quads", cubes ? "tetrahedra" : "cubes"})
    for (const char* what : {"Stiffness", "Damping"})
      r.refuseIfGiven(o, std::string(other) + what,
                      "stiffness per kind of spring is not supported; this mesh's cells are " +
                          std::string(cubes ? "hexahedra (cubesStiffness, cubesDamping)"
                                            : "tetrahedra (tetrahedraStiffness, ...)"));
  if (r.boolean(o, "noCompression", false))
    r.reject(o, "noCompression", "springs that only pull are not supported");
  // tetrasStiffness and tetrasDamping: SOFA's old names of the tetrahedra's.
  std::vector<std::string> kinds = {kind};
  if (!cubes) kinds.push_back("tetras");
  const std::pair<const char*, const char*> fields[] = {{"Stiffness", "stiffness"},
                                                        {"Damping", "damping"}};
  for (const auto& [suffix, alias] : fields) {
    std::string field = alias;
    for (const std::string& k : kinds)
      if (r.given(o, k + suffix)) {
        if (r.given(o, alias))
          r.reject(o, alias, "given with " + k + suffix + ", which SOFA aliases to it: give one");
        field = k + suffix;
      }
    if (r.given(o, field)) r.key(std::string("springs.") + alias, parse::text(r.real(o, field, 0)));
  }
}

// RegularGridSpringForceField.inl: linesStiffness, quadsStiffness, cubesStiffness (100 each) and
// linesDamping, quadsDamping, cubesDamping (5 each), stiffness and damping aliases of the three;
// a spring along each line of the grid, across each quad's two diagonals and through each cube's
// four, ks = K / L0, kd = D / L0: our mesh springs on the grid's hexahedra, by kind.
void mapGridSprings(Reader& r, const SofaObject& o) {
  if (!r.gave("mesh.hexahedra"))
    throw Error(o.where + ": " + o.type +
                ": its springs follow a RegularGridTopology's lines, quads and cubes, and this "
                "body's mesh is not such a grid");
  struct Constants {
    const char *suffix, *alias;
    double fallback;
    const char* key;
  };
  const Constants all[] = {{"Stiffness", "stiffness", 100.0, "springs.stiffness-by-kind"},
                           {"Damping", "damping", 5.0, "springs.damping-by-kind"}};
  for (const Constants& c : all) {
    std::string values;
    for (const char* kind : {"lines", "quads", "cubes"}) {
      const std::string field = kind + std::string(c.suffix);
      if (r.given(o, field) && r.given(o, c.alias))
        r.reject(o, c.alias, "given with " + field + ", which SOFA aliases to it: give one");
      const double v =
          r.given(o, field) ? r.real(o, field, c.fallback) : r.real(o, c.alias, c.fallback);
      values += (values.empty() ? "" : " ") + parse::text(v);
    }
    r.key(c.key, values);
  }
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
const RegisterSofaMapping gridSprings({"RegularGridSpringForceField"}, mapGridSprings);
const RegisterSofaMapping restShapeSprings({"RestShapeSpringsForceField"}, mapRestShapeSprings);

}  // namespace eis::sofa
