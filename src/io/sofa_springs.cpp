// SOFA's spring force fields as the keys of our mesh-springs and rest-shape-springs
// (model/mesh_springs.cpp, model/rest_shape_springs.cpp).
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "sofa_reader.hpp"
#include "sofa_selections.hpp"
#include "sofa_walk.hpp"

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

// SpringForceField.inl (StiffSpringForceField before v25.06): the springs are `spring` (m1 m2 ks
// kd L each, LinearSpring's operator>>) when it is given, else built from indices1 and indices2
// (springsIndices1, springsIndices2), stiffness (default 100), damping (default 5) and lengths
// (alias length; empty: 0), each list shorter than the indices extended with its last value
// (updateSpringsFromTopologyIndices). The force is computeSpringForce's, damping explicit
// (buildDampingMatrix adds nothing): our interaction.springs, held by object1's body, towards
// object2's node path or `self` (io/sofa_walk.cpp has checked that one solver integrates both).
void mapInteractionSprings(Reader& r, const SofaObject& o) {
  r.refuseIfGiven(o, "fileSprings", "springs read from a file are not supported");
  // Lists of booleans, each "0" or "false" false.
  const auto flags = [&](const char* field) {
    std::vector<bool> values;
    for (const std::string& token : parse::tokens(r.text(o, field).value_or("")))
      values.push_back(token != "0" && token != "false");
    return values;
  };
  for (bool only : flags("elongationOnly"))
    if (only) r.reject(o, "elongationOnly", "springs that only pull are not supported");
  const auto stateOf = [&](const char* field) {
    return o.field(field) ? linkedState(r, o, field) : contextState(o.node);
  };
  const SofaObject *first = stateOf("object1"), *second = stateOf("object2");
  const std::string target = first == second ? "self" : second->node->path();
  std::vector<std::string> springs;
  if (r.given(o, "spring")) {
    const std::vector<double> values = r.reals(o, "spring");
    if (values.size() % 5 != 0)
      r.reject(o, "spring", "expected five values per spring: m1 m2 ks kd L");
    for (std::size_t i = 0; i < values.size(); i += 5) {
      for (std::size_t k = 0; k < 2; ++k)
        if (values[i + k] < 0 || values[i + k] != double(static_cast<long long>(values[i + k])))
          r.reject(o, "spring", "spring " + std::to_string(i / 5) + ": m1 and m2 are indices");
      springs.push_back(std::to_string(static_cast<long long>(values[i])) + " " +
                        std::to_string(static_cast<long long>(values[i + 1])) + " " +
                        parse::text(values[i + 2]) + " " + parse::text(values[i + 3]) + " " +
                        parse::text(values[i + 4]));
    }
  } else {
    const auto listOf = [&](const char* field, const char* alias) {
      if (r.given(o, field) && r.given(o, alias))
        r.reject(o, alias, std::string("given with ") + field + ", which SOFA aliases to it");
      return r.given(o, alias) ? r.integers(o, alias) : r.integers(o, field);
    };
    const std::vector<long long> first1 = listOf("springsIndices1", "indices1"),
                                 second2 = listOf("springsIndices2", "indices2");
    if (first1.size() != second2.size())
      r.reject(o, "indices2", "indices1 and indices2 differ in length (SOFA makes no spring)");
    std::vector<double> ks =
        r.given(o, "stiffness") ? r.reals(o, "stiffness") : std::vector<double>{100.0};
    std::vector<double> kd =
        r.given(o, "damping") ? r.reals(o, "damping") : std::vector<double>{5.0};
    if (r.given(o, "length") && r.given(o, "lengths"))
      r.reject(o, "length", "given with lengths, which SOFA aliases to it");
    std::vector<double> lengths = r.reals(o, r.given(o, "length") ? "length" : "lengths");
    const std::vector<bool> enabled = flags("enabled");
    if (lengths.empty()) lengths = {0.0};
    for (auto* list : {&ks, &kd, &lengths})
      if (list->empty()) r.reject(o, "stiffness", "an empty list of stiffness or damping");
    for (std::size_t i = 0; i < first1.size(); ++i) {
      const auto at = [i](const auto& list) { return list[std::min(i, list.size() - 1)]; };
      if (!enabled.empty() && !at(enabled)) continue;
      springs.push_back(std::to_string(first1[i]) + " " + std::to_string(second2[i]) + " " +
                        parse::text(at(ks)) + " " + parse::text(at(kd)) + " " +
                        parse::text(at(lengths)));
    }
  }
  if (springs.empty()) return;
  std::string value = target;
  for (const std::string& spring : springs) value += " " + spring;
  r.key("interaction.springs", value);
}

}  // namespace

const RegisterSofaMapping interactionSprings({"SpringForceField", "StiffSpringForceField"},
                                             mapInteractionSprings);
const RegisterSofaMapping meshSprings({"MeshSpringForceField"}, mapMeshSprings);
const RegisterSofaMapping gridSprings({"RegularGridSpringForceField"}, mapGridSprings);
const RegisterSofaMapping restShapeSprings({"RestShapeSpringsForceField"}, mapRestShapeSprings);

}  // namespace eis::sofa
