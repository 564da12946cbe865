// SOFA's spring force fields as the keys of our mesh-springs and rest-shape-springs
// (model/mesh_springs.cpp, model/rest_shape_springs.cpp).
#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "sofa_reader.hpp"
#include "sofa_rigid.hpp"
#include "sofa_selections.hpp"
#include "sofa_sparse_grid.hpp"
#include "sofa_subset_multi_mapping.hpp"
#include "sofa_subset_points.hpp"
#include "sofa_walk.hpp"

namespace eis::sofa {

namespace {

// The value SOFA ends with for one of MeshSpringForceField's kinds, whose value any of `names`
// writes (the kind's field, its old name, the alias `stiffness` or `damping` of every kind):
// Base::parse reads an object's attributes in the order of their names (a std::map), and each
// writes every field it names, so the last name given wins; 0 when none is given.
double aliased(const Reader& r, const SofaObject& o, std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  double value = 0;
  for (const std::string& name : names)
    if (r.given(o, name)) value = r.real(o, name, 0);
  return value;
}

// Whether `topology` is a MeshTopology whose cells are all written in the scene, with no
// edges, triangles or quads of its own: MeshTopology::init then derives them (EdgeUpdate from
// the volume cells, TriangleUpdate from the tetrahedra, QuadUpdate from the hexahedra), so each
// kind's pairs are known: a tetrahedron's six edges for lines, triangles and tetrahedra; on
// hexahedra, the twelve edges for lines, the edges and face diagonals for quads, every pair for
// cubes.
bool derivesItsKinds(const Reader& r, const SofaObject* topology) {
  if (!topology || topology->type != "MeshTopology" || topology->field("src")) return false;
  for (const char* field : {"edges", "lines", "triangles", "quads"})
    if (topology->field(field)) return false;
  for (const char* field : {"position", "tetrahedra", "tetras", "hexahedra", "hexas"})
    if (r.linked(*topology, field)) return false;
  return true;
}

// MeshSpringForceField.inl: a spring for each pair of vertices of each line, triangle, quad,
// tetrahedron and cube (hexahedron) of its topology, kind by kind in that order, with the kind's
// stiffness and damping (default 0; `stiffness` and `damping` alias every kind's); a kind whose
// stiffness and damping are both 0 adds none, and a pair already joined keeps its first spring;
// ks = stiffness / L0, kd = damping / L0. Our springs join the pairs of the mesh's cells: a
// tetrahedron's edges, or every two vertices of a hexahedron with one constant for its edges, one
// for its face diagonals, one for its body diagonals (springs.stiffness-by-kind). Of a kind's
// field and the alias both given, the one whose name sorts later counts, since SOFA's
// Base::parse reads attributes in name order. On a MeshTopology whose cells are written in the
// scene (derivesItsKinds), each pair takes the first kind that joins it and has a nonzero
// constant: a tetrahedron's edge lines, triangles, then tetrahedra; a hexahedron's edge lines,
// quads, then cubes; its face diagonal quads, then cubes; its body diagonal cubes. Elsewhere
// only the cells' own kind may be given (a loader's edges and faces are not every cell's): a
// kind's own constants beside it are refused; a RegularGridTopology's lines, which come from its
// triangles, one diagonal per quad, are read by mapMeshSpringsOnGrid. A SparseGridTopology has no
// lines, triangles or quads (its init builds none: MeshTopology::init, which would, is not called),
// so only its cubes' constants count. On a body of triangles, quadrangles or edges: the edges
// (SOFA's lines, which its topology derives from the cells) take the lines' constants, else the
// cells' kind's; a quadrangle's diagonals the quads' (springs.stiffness-by-kind: edges, diagonals).
// The other kinds have no cells here and are refused when given.
void mapLowerMeshSprings(Reader& r, const SofaObject& o) {
  const char* kind = r.gave("mesh.triangles")     ? "triangles"
                     : r.gave("mesh.quadrangles") ? "quads"
                                                  : "lines";
  for (const char* other : {"triangles", "quads", "tetrahedra", "tetras", "cubes"})
    if (other != std::string(kind))
      for (const char* what : {"Stiffness", "Damping"})
        r.refuseIfGiven(o, std::string(other) + what,
                        std::string("this body's cells are ") + kind + ": no " + other);
  const auto constant = [&](const std::string& name, const char* what) {
    return aliased(r, o, {name + what, what == std::string("Stiffness") ? "stiffness" : "damping"});
  };
  const auto first = [&](const char* what) {
    const double lines = constant("lines", what);
    return lines != 0 ? lines : constant(kind, what);
  };
  if (std::string(kind) == "quads") {
    r.key("springs.stiffness-by-kind", parse::text(first("Stiffness")) + " " +
                                           parse::text(constant("quads", "Stiffness")) + " 0");
    r.key("springs.damping-by-kind",
          parse::text(first("Damping")) + " " + parse::text(constant("quads", "Damping")) + " 0");
    return;
  }
  if (const double ks = first("Stiffness"); ks != 0) r.key("springs.stiffness", parse::text(ks));
  if (const double kd = first("Damping"); kd != 0) r.key("springs.damping", parse::text(kd));
}

// On a RegularGridTopology (GridTopology.cpp, GridUpdate): its quads are every face of its
// cubes, each listed from its vertex of smallest index; its triangles (computeTriangleList, true)
// cut each quad from that vertex, (q0 q1 q2) and (q0 q2 q3); its lines are then the triangles'
// edges, the grid's edges and that one diagonal per quad (else the grid's edges). So a cube's
// edge takes the first nonzero of lines, triangles, quads, cubes; a face's diagonal from its
// smallest vertex the same (without triangles: quads, cubes); the other diagonal quads, cubes;
// a body diagonal cubes (springs.face-diagonals = first when the other diagonal has no spring).
// A grid has no tetrahedra: their constants add nothing. Two nonzero constants for a face's two
// diagonals are refused.
void mapMeshSpringsOnGrid(Reader& r, const SofaObject& o, const SofaObject& grid) {
  if (!r.boolean(grid, "computeEdgeList", true) || !r.boolean(grid, "computeQuadList", true))
    r.reject(o, "linesStiffness",
             "a grid without its lines or quads (computeEdgeList, computeQuadList false) is not "
             "supported");
  const bool triangles = r.boolean(grid, "computeTriangleList", true);
  const auto constants = [&](const char* name) {
    std::array<double, 2> c{};
    for (int k = 0; k < 2; ++k)
      c[std::size_t(k)] = aliased(
          r, o,
          {name + std::string(k == 0 ? "Stiffness" : "Damping"), k == 0 ? "stiffness" : "damping"});
    return c;
  };
  const auto first = [&](std::initializer_list<const char*> kinds) {
    for (const char* k : kinds) {
      if (std::string(k) == "triangles" && !triangles) continue;
      const std::array<double, 2> c = constants(k);
      if (c[0] != 0 || c[1] != 0) return c;
    }
    return std::array<double, 2>{};
  };
  const std::array<double, 2> edge = first({"lines", "triangles", "quads", "cubes"});
  const std::array<double, 2> diagonal =
      triangles ? first({"lines", "triangles", "quads", "cubes"}) : first({"quads", "cubes"});
  const std::array<double, 2> other = first({"quads", "cubes"}), body = first({"cubes"});
  const bool firstOnly = other != diagonal;
  if (firstOnly && other != std::array<double, 2>{})
    r.reject(o, "quadsStiffness",
             "a quad's two diagonals with different constants (its first one a line of the "
             "grid's triangles) are not supported");
  if (!firstOnly && edge == diagonal && diagonal == body) {
    if (edge[0] != 0) r.key("springs.stiffness", parse::text(edge[0]));
    if (edge[1] != 0) r.key("springs.damping", parse::text(edge[1]));
    return;
  }
  std::string stiffness, damping;
  for (const auto& c : {edge, diagonal, body}) {
    stiffness += (stiffness.empty() ? "" : " ") + parse::text(c[0]);
    damping += (damping.empty() ? "" : " ") + parse::text(c[1]);
  }
  r.key("springs.stiffness-by-kind", stiffness);
  r.key("springs.damping-by-kind", damping);
  if (firstOnly) r.key("springs.face-diagonals", "first");
}

void mapMeshSprings(Reader& r, const SofaObject& o) {
  if (r.boolean(o, "noCompression", false))
    r.reject(o, "noCompression", "springs that only pull are not supported");
  if (r.gave("mesh.triangles") || r.gave("mesh.quadrangles") || r.gave("mesh.edges")) {
    mapLowerMeshSprings(r, o);
    return;
  }
  const bool cubes = r.gave("mesh.hexahedra");
  const SofaObject* topology = topologyOf(o.node);
  const bool sparse = cubes && topology && isSparseGrid(topology->type);
  const bool derived = derivesItsKinds(r, topology);
  const std::string kind = cubes ? "cubes" : "tetrahedra";
  if (cubes && topology &&
      (topology->type == "RegularGridTopology" || topology->type == "GridTopology")) {
    mapMeshSpringsOnGrid(r, o, *topology);
    return;
  }
  if (!sparse && !derived)
    for (const char* other : {"lines", "triangles", "quads", cubes ? "tetrahedra" : "cubes"})
      for (const char* what : {"Stiffness", "Damping"})
        r.refuseIfGiven(o, std::string(other) + what,
                        "stiffness per kind of spring is not supported; this mesh's cells are " +
                            std::string(cubes ? "hexahedra (cubesStiffness, cubesDamping)"
                                              : "tetrahedra (tetrahedraStiffness, ...)") +
                            " and come from " +
                            (topology ? topology->label() : std::string("no topology")));
  // One kind's constants, as SOFA ends with them.
  const auto constants = [&](const std::string& name) {
    std::array<double, 2> c{};
    for (int k = 0; k < 2; ++k) {
      const std::string what = k == 0 ? "Stiffness" : "Damping";
      std::vector<std::string> names = {name + what, k == 0 ? "stiffness" : "damping"};
      if (name == "tetrahedra") names.push_back("tetras" + what);
      c[std::size_t(k)] = aliased(r, o, names);
    }
    return c;
  };
  if (derived) {
    // The first of `kinds` with a nonzero constant gives a pair its constants (none: no spring).
    const auto first = [&](std::initializer_list<const char*> kinds) {
      for (const char* k : kinds) {
        const std::array<double, 2> c = constants(k);
        if (c[0] != 0 || c[1] != 0) return c;
      }
      return std::array<double, 2>{};
    };
    if (cubes) {
      const std::array<std::array<double, 2>, 3> byKind = {
          first({"lines", "quads", "cubes"}), first({"quads", "cubes"}), first({"cubes"})};
      if (byKind[0] == byKind[1] && byKind[1] == byKind[2]) {
        if (byKind[0][0] != 0) r.key("springs.stiffness", parse::text(byKind[0][0]));
        if (byKind[0][1] != 0) r.key("springs.damping", parse::text(byKind[0][1]));
        return;
      }
      std::string stiffness, damping;
      for (const auto& c : byKind) {
        stiffness += (stiffness.empty() ? "" : " ") + parse::text(c[0]);
        damping += (damping.empty() ? "" : " ") + parse::text(c[1]);
      }
      r.key("springs.stiffness-by-kind", stiffness);
      r.key("springs.damping-by-kind", damping);
    } else {
      const std::array<double, 2> c = first({"lines", "triangles", "tetrahedra"});
      if (c[0] != 0) r.key("springs.stiffness", parse::text(c[0]));
      if (c[1] != 0) r.key("springs.damping", parse::text(c[1]));
    }
    return;
  }
  for (const char* what : {"Stiffness", "Damping"}) {
    const std::string alias = what == std::string("Stiffness") ? "stiffness" : "damping";
    std::vector<std::string> names = {kind + what, alias};
    if (!cubes) {
      // On tetrahedra the alias also gives the lines (the mesh's edges) their constants, which
      // take the edges first: an own value of the tetrahedra's beside it would not count.
      names.push_back(std::string("tetras") + what);
      for (std::size_t n = 0; n < names.size(); ++n)
        if (names[n] != alias && r.given(o, names[n]) && r.given(o, alias))
          r.reject(o, alias, "given with " + names[n] + ", which SOFA aliases to it: give one");
    }
    const double value = aliased(r, o, names);
    if (value != 0)
      r.key(what == std::string("Stiffness") ? "springs.stiffness" : "springs.damping",
            parse::text(value));
  }
}

// RegularGridSpringForceField.inl: linesStiffness, quadsStiffness, cubesStiffness (100 each) and
// linesDamping, quadsDamping, cubesDamping (5 each), stiffness and damping aliases of the three;
// a spring along each line of the grid, across each quad's two diagonals and through each cube's
// four, ks = K / L0, kd = D / L0: our mesh springs on the grid's hexahedra, by kind; on a 2D
// grid's quads its lines and diagonals, on a 1D grid's edges its lines.
void mapGridSprings(Reader& r, const SofaObject& o) {
  const bool line = r.gave("mesh.edges");
  if (!r.gave("mesh.hexahedra") && !r.gave("mesh.quadrangles") && !line)
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
      if (line) break;
    }
    r.key(line ? c.alias == std::string("stiffness") ? "springs.stiffness" : "springs.damping"
               : c.key,
          values);
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
// An end that a SubsetMapping or IdentityMapping drives from a body is that body's selected
// points: the spring's force reaches them as J^T f, its stiffness as J^T K J, a spring between
// those points (the mapping is linear: no geometric stiffness). An end that a BarycentricMapping
// drives from a body on a RegularGridTopology or a sparse grid is a weighted sum of its cube's
// corners (io/sofa_subset_points), the spring acting on the interpolated point (x = J x_body,
// v = J v_body; rest length as given).
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
  // Each end's points: a state's own, or those a SubsetMapping or IdentityMapping selects from
  // a body's state, on which the spring then acts.
  const auto endOf = [&](const char* field) {
    const SofaObject* state = o.field(field) ? linkedState(r, o, field) : contextState(o.node);
    SelectedPoints end = selectedPoints(r, *state, o, field);
    if (!end.body) {
      end.body = state;
      end.all = true;
    }
    return end;
  };
  const SelectedPoints first = endOf("object1"), second = endOf("object2");
  // From a RigidMapping child's points: rigid.mapped-springs of the frames' body to the other
  // end's body, the law being symmetric (either end the child).
  const bool fromPoints = first.rigid || second.rigid;
  const SelectedPoints& nodes = second.rigid ? first : second;
  if (fromPoints) {
    const auto frames = [&](const SelectedPoints& end) {
      return isRigidTemplate(r.text(*end.body, "template").value_or("Vec3d"));
    };
    if (nodes.rigid || frames(nodes))
      r.reject(o, second.rigid ? "object1" : "object2",
               "springs from a RigidMapping child's points to rigid frames or to another "
               "RigidMapping child are not supported yet");
    if (!nodes.weighted.empty())
      r.reject(o, second.rigid ? "object1" : "object2",
               "springs from a RigidMapping child's points to a BarycentricMapping child are "
               "not supported yet");
  }
  const std::string target = fromPoints                  ? nodes.body->node->path()
                             : first.body == second.body ? "self"
                                                         : second.body->node->path();
  // The body's point of an end's point m of spring k, or (BarycentricMapping) its body points
  // and weights, i:w/j:w/.. (model/interaction_springs.hpp).
  const auto point = [&](const SelectedPoints& end, long long m, std::size_t k) {
    if (end.all || end.rigid) return std::to_string(m);
    const bool weighted = !end.weighted.empty();
    const std::size_t count = weighted ? end.weighted.size() : end.indices.size();
    if (std::size_t(m) >= count)
      r.reject(o, r.given(o, "spring") ? "spring" : "indices1",
               "spring " + std::to_string(k) + ": point " + std::to_string(m) + " of the " +
                   std::to_string(count) +
                   (weighted ? " a BarycentricMapping drives" : " a SubsetMapping selects"));
    if (!weighted) return std::to_string(end.indices[std::size_t(m)]);
    std::string text;
    for (const auto& [node, w] : end.weighted[std::size_t(m)])
      text += (text.empty() ? "" : "/") + std::to_string(node) + ":" + parse::text(w);
    return text;
  };
  // Spring k's ends m1 (object1) and m2 (object2): the mapped point first from a child's points.
  const auto ends = [&](long long m1, long long m2, std::size_t k) {
    if (second.rigid) return point(second, m2, k) + " " + point(first, m1, k);
    return point(first, m1, k) + " " + point(second, m2, k);
  };
  std::vector<std::string> springs;
  if (r.given(o, "spring")) {
    const std::vector<double> values = r.reals(o, "spring");
    if (values.size() % 5 != 0)
      r.reject(o, "spring", "expected five values per spring: m1 m2 ks kd L");
    for (std::size_t i = 0; i < values.size(); i += 5) {
      for (std::size_t k = 0; k < 2; ++k)
        if (values[i + k] < 0 || values[i + k] != double(static_cast<long long>(values[i + k])))
          r.reject(o, "spring", "spring " + std::to_string(i / 5) + ": m1 and m2 are indices");
      springs.push_back(ends((long long)values[i], (long long)values[i + 1], i / 5) + " " +
                        parse::text(values[i + 2]) + " " + parse::text(values[i + 3]) + " " +
                        parse::text(values[i + 4]));
    }
  } else {
    const auto listOf = [&](const char* field, const char* alias) {
      // A NearestPointROI's indices1 or indices2 (io/sofa_subset_multi_mapping).
      for (const char* name : {alias, field})
        if (o.field(name))
          if (const auto pairs = nearestPointIndices(r, o, name)) {
            if (o.field(field) && o.field(alias))
              r.reject(o, alias, std::string("given with ") + field + ", which SOFA aliases to it");
            return *pairs;
          }
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
      springs.push_back(ends(first1[i], second2[i], i) + " " + parse::text(at(ks)) + " " +
                        parse::text(at(kd)) + " " + parse::text(at(lengths)));
    }
  }
  if (springs.empty()) return;
  std::string value = target;
  for (const std::string& spring : springs) value += " " + spring;
  r.key(fromPoints ? "rigid.mapped-springs" : "interaction.springs", value);
}

}  // namespace

const RegisterSofaMapping interactionSprings({"SpringForceField", "StiffSpringForceField"},
                                             mapInteractionSprings);
const RegisterSofaMapping meshSprings({"MeshSpringForceField"}, mapMeshSprings);
const RegisterSofaMapping gridSprings({"RegularGridSpringForceField"}, mapGridSprings);
const RegisterSofaMapping restShapeSprings({"RestShapeSpringsForceField"}, mapRestShapeSprings);

}  // namespace eis::sofa
