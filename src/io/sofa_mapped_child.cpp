// SOFA's IdentityMapping, SubsetMapping and BarycentricMapping with masses and force fields in
// the mapped node (Sofa/Component/Mapping/Linear), as the keys of our mapped-child
// (model/mapped_child.cpp). Each mass or force field of the child is read by the mapping
// registered for its class, as a body's would be, and its keys become the child's: the SOFA
// fields, defaults and refusals stay in one place. A HexahedronCompositeFEMMapping child's
// ConstantForceFields become mapped.composite-loads (io/sofa_composite_mapping).
#include "sofa_mapped_child.hpp"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "eis/core/error.hpp"
#include "sofa_composite_mapping.hpp"
#include "sofa_grid_mapper.hpp"
#include "sofa_selections.hpp"

namespace eis::sofa {

namespace {

// "Type 'name'" (the place is said first).
std::string named(const SofaObject& o) {
  return o.type + (o.name.empty() ? "" : " '" + o.name + "'");
}

}  // namespace

// The child's points: its MechanicalObject's position, written in the scene, or under a
// BarycentricMapping or HexahedronCompositeFEMMapping a MeshOBJLoader's vertices in file order
// (`objFile`, the loader's file the importer found; MeshOBJLoader::readOBJ without handleSeams
// keeps them so). MechanicalObject::init would move them by its transforms, and other loaders
// would give them from a file: neither is read here. SOFA initialises a node's objects in the
// order written, and UniformMass, ConstantForceField and RestShapeSpringsForceField take the
// state's size (their indices) and rest positions when they do: an IdentityMapping or
// SubsetMapping sizes the child when it initialises, so without written points (or before them)
// they would see the one default point. Written points of the right count give every one of them
// the child's size; a loader gives them when it is read, before any of them.
std::vector<double> childPoints(Reader& r, const SofaObject& state, const std::string& objFile,
                                bool fromLoader) {
  for (const char* field : {"translation", "rotation", "scale3d", "dx", "dy", "dz", "rx", "ry",
                            "rz", "sx", "sy", "sz", "rest_position"})
    r.refuseIfGiven(state, field, "a mapped child's points are read as written");
  const SofaObject* loader = r.linked(state, "position");
  if (fromLoader && loader && loader->type == "MeshOBJLoader" && !objFile.empty()) {
    for (const char* field : {"scale3d", "scale", "rotation", "translation", "transformation"})
      r.refuseIfGiven(*loader, field, "a transform in the loader of a mapped child's points");
    if (r.boolean(*loader, "handleSeams", false))
      r.reject(*loader, "handleSeams",
               "a mapped child's points renumbered at the file's texture seams are not supported");
    const Surface surface = readObj(objFile);
    std::vector<double> points;
    for (const auto& v : surface.vertices) points.insert(points.end(), v.begin(), v.end());
    if (points.empty()) r.reject(*loader, "filename", "the file gives no point");
    return points;
  }
  const std::optional<std::string> position = r.text(state, "position");
  if (!position || loader || r.reals(state, "position").empty())
    r.reject(
        state, "position",
        "a mapped child's points are read from its position written in the scene, or under "
        "a BarycentricMapping or HexahedronCompositeFEMMapping from a MeshOBJLoader (not from another loader or a topology; "
        "SOFA's IdentityMapping and SubsetMapping size the child only after the components "
        "before them took its size)");
  std::vector<double> points = r.reals(state, "position");
  if (points.size() % 3 != 0) r.reject(state, "position", "expected X Y Z for each point");
  return points;
}

namespace {

std::string pointsText(const std::vector<double>& points) {
  std::string text;
  for (double v : points) text += (text.empty() ? "" : " ") + parse::text(v);
  return text;
}

// SubsetMapping.inl init: `indices`, else first..last (last clamped to the parent's size), else
// the child's points matched to the parent's by position within `radius` (not done here).
std::string subsetIndices(Reader& r, const SofaObject& mapping) {
  r.refuseIfGiven(mapping, "resizeToModel", "resizing the child's state is not supported");
  const std::vector<long long> indices = r.integers(mapping, "indices");
  if (!indices.empty()) {
    std::string text;
    for (long long i : indices) {
      if (i < 0) r.reject(mapping, "indices", "an index must be >= 0");
      text += (text.empty() ? "" : " ") + std::to_string(i);
    }
    return text;
  }
  if (r.given(mapping, "first"))
    r.reject(mapping, "first", "a range of parent points is not supported: write `indices`");
  r.reject(mapping, "indices",
           "empty: SOFA would match the child's points to the parent's by position; write "
           "`indices`");
}

// What the child's components give, summed over them: the mass, the loads and springs on every
// point, and those on listed points (their keys are written once, at the end).
struct ChildLoads {
  bool mass = false;
  double force[3] = {0, 0, 0}, stiffness = 0;
  bool anyForce = false;
  std::string nodalForces, restNodes;
};

// The key a child's component gave, as the child's; refused when it is of a kind the child does
// not carry, or selects points other than by index. `points` gives the child's size.
void translate(Reader& r, const SofaObject& o, const SofaKey& k,
               const std::function<std::size_t()>& points, ChildLoads& loads) {
  const Texts tokens = parse::tokens(k.value);
  const auto refuse = [&](const std::string& why) {
    throw Error(o.where + ": " + named(o) + ": " + why + " (it gives " + k.key + " = " + k.value +
                ")");
  };
  // The listed points of a selection after `numbers` values: every point (empty) or indices.
  const auto listed = [&](std::size_t numbers, bool& all) {
    std::vector<std::string> indices;
    all = tokens.size() == numbers + 1 && tokens.back() == "all";
    if (all) return indices;
    if (tokens.size() < numbers + 2 || tokens[numbers] != "indices")
      refuse("in a mapped child, points are selected by index or all");
    indices.assign(tokens.begin() + long(numbers) + 1, tokens.end());
    return indices;
  };
  const auto append = [](std::string& list, const std::string& entry) {
    list += (list.empty() ? "" : " ") + entry;
  };
  bool all = false;
  if (k.key == "mass.type" && k.value == "uniform") {
    loads.mass = true;
  } else if (k.key == "mass.total-mass" || k.key == "mass.vertex-mass") {
    r.key("mapped." + k.key.substr(5), k.value);
  } else if (k.key == "load.constant-force" || k.key == "load.total-force") {
    const std::vector<std::string> indices = listed(3, all);
    // ConstantForceField's totalForce is shared equally by the points it selects.
    const double share =
        k.key == "load.total-force" ? 1.0 / double(all ? points() : indices.size()) : 1.0;
    double f[3];
    for (int d = 0; d < 3; ++d) f[d] = std::stod(tokens[std::size_t(d)]) * share;
    if (all) {
      for (int d = 0; d < 3; ++d) loads.force[d] += f[d];
      loads.anyForce = true;
    }
    for (const std::string& i : indices)
      append(loads.nodalForces,
             i + " " + parse::text(f[0]) + " " + parse::text(f[1]) + " " + parse::text(f[2]));
  } else if (k.key == "load.nodal-forces") {
    append(loads.nodalForces, k.value);
  } else if (k.key == "obstacle.plane") {
    r.key("mapped.plane", k.value);
  } else if (k.key == "springs.rest-shape") {
    const std::vector<std::string> indices = listed(1, all);
    if (all) loads.stiffness += std::stod(tokens[0]);
    for (const std::string& i : indices) append(loads.restNodes, i + " " + tokens[0]);
  } else if (k.key == "springs.rest-shape-nodes") {
    append(loads.restNodes, k.value);
  } else if (k.key.rfind("constraint.", 0) == 0) {
    // MechanicalApplyConstraintsVisitor projects the child's own copy of a vector, after J^T
    // has carried the child's forces up; MechanicalProjectPositionAndVelocityVisitor stops at
    // the mapping.
    refuse(
        "a projective constraint on a mapped state holds nothing SOFA integrates: SOFA projects "
        "only the child's own copy of the response, after J^T has carried the child's forces to "
        "the body, and not its positions and velocities (the projection of those stops at the "
        "mapping); constrain the body's nodes instead");
  } else {
    refuse(
        "not supported in a mapped child (its UniformMass, ConstantForceField, "
        "PlaneForceField and RestShapeSpringsForceField are)");
  }
}

}  // namespace

void checkMechanicalMapping(const Reader& r, const SofaObject& mapping) {
  // BaseMapping: a mapping that does not carry the child's forces or masses to its parent
  // (mapForces, mapMasses, mapMatrices: isMechanical), or that maps the rest positions too.
  for (const char* field : {"mapForces", "mapMasses", "mapMatrices", "isMechanical"})
    if (!r.boolean(mapping, field, true))
      r.reject(mapping, field, "a mapped child whose forces or masses stay in the child");
  if (r.boolean(mapping, "applyRestPosition", false))
    r.reject(mapping, "applyRestPosition", "mapping the rest positions is not supported");
}

void mapMappedChild(Reader& r, const MappedNode& child, std::vector<SofaKey>& keys,
                    const SparseGrid* sparse, const std::vector<GridLevel>* finer,
                    const std::string& objFile) {
  const SofaObject& mapping = *child.mapping;
  r.into(keys);
  r.from(mapping);
  checkMechanicalMapping(r, mapping);
  const auto position = [&](const SofaObject* o) {
    const auto& objects = child.node->objects;
    for (std::size_t i = 0; i < objects.size(); ++i)
      if (&objects[i] == o) return i;
    return objects.size();
  };
  for (const SofaObject* o : child.components)
    if (position(o) < position(child.state))
      throw Error(o->where + ": " + named(*o) + ": before " + child.state->label() +
                  " in its node: SOFA would initialise it on the state's default size");
  ChildLoads loads;
  // The child's points, read when first needed (so that what is refused first stays so).
  std::optional<std::vector<double>> read;
  const auto positions = [&]() -> const std::vector<double>& {
    if (!read)
      read = childPoints(
          r, *child.state, objFile,
          mapping.type == "BarycentricMapping" || mapping.type == "HexahedronCompositeFEMMapping");
    return *read;
  };
  for (const SofaObject* o : child.components) {
    // A pressure's triangle or quadrangle joins child points that may lie in different parent
    // cells: io/sofa_mapped_pressure reads SurfacePressureForceField's.
    if (o->type == "SurfacePressureForceField") {
      r.from(*o);
      mapMappedChildPressure(r, *o, child, objFile, positions().size() / 3);
      continue;
    }
    if (o->type == "TrianglePressureForceField" || o->type == "QuadPressureForceField")
      throw Error(o->where + ": " + named(*o) +
                  ": a pressure on a mapped child's own triangles or quadrangles is not "
                  "supported (in node " +
                  child.node->path() + "); SurfacePressureForceField's is");
    // HexahedronCompositeFEMMapping has no applyJ of the child's masses or stiffnesses here:
    // only constant forces, which applyJT alone carries.
    if (mapping.type == "HexahedronCompositeFEMMapping" && o->type != "ConstantForceField")
      throw Error(o->where + ": " + named(*o) +
                  ": in a HexahedronCompositeFEMMapping child (in node " + child.node->path() +
                  ") only ConstantForceField is carried");
    const SofaMapping map = sofaMapping(o->type);
    if (!map)
      throw Error(o->where + ": " + named(*o) + ": not supported in a mapped child (in node " +
                  child.node->path() + ")");
    std::vector<SofaKey> own;
    r.into(own);
    r.from(*o);
    map(r, *o);
    r.into(keys);
    for (const SofaKey& k : own)
      translate(
          r, *o, k, [&] { return positions().size() / 3; }, loads);
  }
  r.from(mapping);
  if (mapping.type == "HexahedronCompositeFEMMapping") {
    if (!sparse || !finer)
      throw Error(mapping.where +
                  ": HexahedronCompositeFEMMapping: its input is not on a "
                  "SparseGridTopology (SOFA exits)");
    const std::vector<double>& points = positions();
    std::map<long long, Vec3> forces;
    const auto add = [&](long long point, const double* f) {
      Vec3& sum = forces.try_emplace(point, Vec3{0, 0, 0}).first->second;
      for (int d = 0; d < 3; ++d) sum[std::size_t(d)] += f[d];
    };
    if (loads.anyForce)
      for (std::size_t p = 0; p < points.size() / 3; ++p) add((long long)p, loads.force);
    const Texts nodal = parse::tokens(loads.nodalForces);
    for (std::size_t i = 0; i + 3 < nodal.size(); i += 4) {
      const double f[3] = {std::stod(nodal[i + 1]), std::stod(nodal[i + 2]),
                           std::stod(nodal[i + 3])};
      add(std::stoll(nodal[i]), f);
    }
    if (!forces.empty())
      r.key("mapped.composite-loads",
            compositeMappingLoads(r, mapping, *sparse, *finer, points, forces));
    return;
  }
  if (mapping.type == "IdentityMapping") {
    r.key("mapped.mapping", "identity");
    r.key("mapped.points", pointsText(positions()));
  } else if (mapping.type == "SubsetMapping") {
    r.key("mapped.mapping", "subset");
    const std::string indices = subsetIndices(r, mapping);
    r.key("mapped.indices", indices);
    const std::size_t points = positions().size() / 3;
    if (parse::tokens(indices).size() != points)
      r.reject(*child.state, "position",
               std::to_string(points) + " points for the " +
                   std::to_string(parse::tokens(indices).size()) + " indices of " +
                   mapping.label());
    r.key("mapped.points", pointsText(positions()));
  } else {
    // BarycentricMapping.cpp createMapperFromTopology: a grid gets its cubes' own mapper
    // (BarycentricMapperRegularGridTopology, ...SparseGridTopology), not the mesh mapper's rule
    // read here.
    const SofaObject* topology = topologyOf(mapping.node->parent);
    const bool regular = topology && topology->type == "RegularGridTopology",
               sparseGrid = topology && isSparseGrid(topology->type) && sparse;
    if (topology &&
        (topology->type.find("GridTopology") != std::string::npos ||
         isSparseGrid(topology->type)) &&
        !((regular || sparseGrid) && r.gave("mesh.hexahedra")))
      throw Error(mapping.where + ": BarycentricMapping: from " + topology->label() +
                  ": SOFA maps onto the grid's cubes (its grid mappers), which is supported only "
                  "for a RegularGridTopology or SparseGridTopology whose hexahedra are the "
                  "body's (a HexahedronFEMForceField on it); a mesh of tetrahedra or hexahedra is");
    if (r.boolean(mapping, "useRestPosition", false))
      r.reject(mapping, "useRestPosition",
               "locating the points at the rest positions is not supported");
    r.key("mapped.mapping", "barycentric");
    r.key("mapped.points", pointsText(positions()));
    if (regular) r.key("mapped.cells", regularGridCubes(regularGrid(r, *topology), positions()));
    if (sparseGrid) r.key("mapped.cells", sparseGridCubes(*sparse, positions()));
  }
  if (loads.mass) r.key("mapped.gravity", r.gaveValue("load.gravity"));
  if (loads.anyForce)
    r.key("mapped.constant-force", parse::text(loads.force[0]) + " " + parse::text(loads.force[1]) +
                                       " " + parse::text(loads.force[2]));
  if (!loads.nodalForces.empty()) r.key("mapped.nodal-forces", loads.nodalForces);
  if (loads.stiffness != 0) r.key("mapped.rest-shape-stiffness", parse::text(loads.stiffness));
  if (!loads.restNodes.empty()) r.key("mapped.rest-shape-nodes", loads.restNodes);
}

}  // namespace eis::sofa
