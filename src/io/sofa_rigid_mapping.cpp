// SOFA's RigidMapping (Sofa/Component/Mapping/NonLinear RigidMapping.inl), its geometricStiffness
// as rigid.mapped-geometric-stiffness, with a UniformMass,
// ConstantForceFields and PlaneForceFields in the mapped node, as rigid.mapped-points,
// rigid.mapped-mass, rigid.mapped-forces and rigid.mapped-plane (model/rigid_body.hpp), and a
// HexahedronFEMForceField or TetrahedronFEMForceField and a MeshMatrixMass on the hexahedra of
// the node's RegularGridTopology or the tetrahedra of its tetrahedron container (SOFA's
// rigidified sections) as rigid.mapped-hexahedra or rigid.mapped-tetrahedra and the keys of
// model/rigid_mapped_cells.hpp. Each component is read by its class's registered mapping, as on
// a body, and its keys become the mapped points'.
#include "sofa_rigid_mapping.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "eis/core/error.hpp"
#include "eis/mesh/serial_mesh.hpp"
#include "eis/model/rigid_mapping.hpp"
#include "sofa_grid.hpp"
#include "sofa_mapped_child.hpp"
#include "sofa_sparse_grid.hpp"
#include "sofa_subset_topology.hpp"

namespace eis::sofa {

namespace {

std::string named(const SofaObject& o) {
  return o.type + (o.name.empty() ? "" : " '" + o.name + "'");
}

// The points' local coordinates and frames. RigidMapping::reinit: initialPoints when given, else
// the child's positions, as local coordinates, or (globalToLocalCoords) world points turned into
// the frame, inverseRotate(p - c); getRigidIndex: rigidIndexPerPoint when it has one entry a
// point, else `index` (counted from the end with indexFromEnd).
std::vector<double> pointsOf(Reader& r, const MappedNode& child, const std::string& objFile,
                             std::size_t& count) {
  const SofaObject& mapping = *child.mapping;
  const SofaObject& state = *child.state;
  for (const char* field : {"useX0", "filename", "fileRigidMapping"})
    r.refuseIfGiven(mapping, field, "not supported: write the points in the child's position");
  const std::vector<double> frames = parse::reals("rigid.frames", r.gaveValue("rigid.frames"), 0);
  const long long frameCount = (long long)(frames.size() / 7);
  const bool initial = r.given(mapping, "initialPoints");
  // A regular grid's points, which SOFA computes, as written; a SubsetTopology's pointsInROI or
  // pointsOutROI, computed at init from its loader's file; a MeshOBJLoader's, scaled.
  std::optional<std::vector<double>> gridPoints = linkedGridPoints(r, state, "position");
  if (!gridPoints && !initial)
    if (const auto subset = linkedSubsetPoints(r, state, "position")) {
      gridPoints.emplace();
      for (const auto& p : *subset) gridPoints->insert(gridPoints->end(), p.begin(), p.end());
    }
  const SofaObject* loader = gridPoints ? nullptr : r.linked(state, "position");
  const bool meshLoader =
      loader && (loader->type == "MeshGmshLoader" || loader->type == "MeshVTKLoader");
  if (!initial && loader && objFile.empty() && !meshLoader)
    r.reject(state, "position",
             "a link is not supported here (but to a MeshOBJLoader's, MeshGmshLoader's or "
             "MeshVTKLoader's points, a regular grid's or a SubsetTopology's pointsInROI or "
             "pointsOutROI); write the points");
  std::vector<double> given;
  if (initial) {
    given = r.reals(mapping, "initialPoints");
  } else if (gridPoints) {
    given = *gridPoints;
  } else if (loader) {
    // A MeshOBJLoader's vertices, a MeshGmshLoader's or MeshVTKLoader's nodes, in file order;
    // MechanicalObject::init then scales them.
    for (const char* field : {"scale3d", "rotation", "translation", "transformation"})
      r.refuseIfGiven(*loader, field, "a transform in the loader of mapped points");
    const std::vector<std::array<double, 3>> nodes =
        meshLoader ? subsetSourceMesh(*loader, r.file(*loader, "filename")).nodes
                   : readObj(objFile).vertices;
    for (const auto& v : nodes) given.insert(given.end(), v.begin(), v.end());
    // MechanicalObject::parse: the legacy `scale` (single precision) replaces scale3d.
    std::array<double, 3> scale{1, 1, 1};
    const std::vector<double> s3 = r.reals(state, "scale3d");
    if (!s3.empty() && s3.size() != 3) r.reject(state, "scale3d", "expected 3 numbers");
    if (s3.size() == 3) scale = {s3[0], s3[1], s3[2]};
    if (r.given(state, "scale")) scale.fill(r.single(state, "scale", 1));
    for (std::size_t i = 0; i < given.size(); ++i) given[i] *= scale[i % 3];
  } else {
    given = r.reals(state, "position");
  }
  if (given.empty() || given.size() % 3 != 0)
    r.reject(initial ? mapping : state, initial ? "initialPoints" : "position",
             "expected X Y Z for each point");
  count = given.size() / 3;
  for (const char* field : {"translation", "rotation", "dx", "dy", "dz", "rx", "ry", "rz", "sx",
                            "sy", "sz", "rest_position"})
    r.refuseIfGiven(state, field, "a rigidly mapped child's points are read as written");
  if (!loader)
    for (const char* field : {"scale3d", "scale"})
      r.refuseIfGiven(state, field, "a rigidly mapped child's points are read as written");
  std::vector<long long> frameOf = r.integers(mapping, "rigidIndexPerPoint");
  if (frameOf.size() != count) {
    long long index = r.integers(mapping, "index").empty() ? 0 : r.integers(mapping, "index")[0];
    if (r.boolean(mapping, "indexFromEnd", false)) index = frameCount - 1 - index;
    frameOf.assign(count, index);
  }
  std::vector<int> frame(count);
  std::vector<Vec3d> points(count);
  for (std::size_t i = 0; i < count; ++i) {
    if (frameOf[i] < 0 || frameOf[i] >= frameCount)
      r.reject(mapping, "rigidIndexPerPoint",
               "frame " + std::to_string(frameOf[i]) + " of " + std::to_string(frameCount));
    frame[i] = int(frameOf[i]);
    points[i] = {given[3 * i], given[3 * i + 1], given[3 * i + 2]};
  }
  if (!initial && r.boolean(mapping, "globalToLocalCoords", false))
    points = RigidMapping::localCoordinates(frames, frame, points);
  std::vector<double> out;
  for (std::size_t i = 0; i < count; ++i)
    out.insert(out.end(), {double(frame[i]), points[i][0], points[i][1], points[i][2]});
  return out;
}

// HexahedronFEMForceField's and MeshMatrixMass's keys, as read by their registered mappings,
// turned into the mapped cells' ("KEY VALUE" each).
std::vector<std::string> cellKeys(const SofaObject& o, const std::vector<SofaKey>& own) {
  std::vector<std::string> out;
  std::string massType = "consistent";
  for (const SofaKey& k : own)
    if (k.key == "mass.type") massType = k.value;
  for (const SofaKey& k : own) {
    if (k.key == "material.cells" && (k.value == "hexahedron" || k.value == "tetrahedron"))
      continue;
    if (k.key == "material.model" || k.key == "mass.type") continue;
    if (k.key == "material.rotation") {
      out.push_back("rigid.mapped-fem-method " + k.value);
    } else if (k.key == "material.young-modulus") {
      out.push_back("rigid.mapped-young-modulus " + k.value);
    } else if (k.key == "material.poisson-ratio") {
      out.push_back("rigid.mapped-poisson-ratio " + k.value);
    } else if (k.key == "material.density" && o.type == "MeshMatrixMass") {
      out.push_back("rigid.mapped-cell-mass " + massType + " density " + k.value);
    } else if (k.key == "mass.total-mass" && o.type == "MeshMatrixMass") {
      out.push_back("rigid.mapped-cell-mass " + massType + " total " + k.value);
    } else {
      throw Error(o.where + ": " + named(o) + ": " + k.key + " = " + k.value +
                  " is not supported in a rigidly mapped child");
    }
  }
  for (const SofaKey& k : own)
    if (k.key == "material.model" && k.value == "linear")
      out.push_back("rigid.mapped-fem-method small");
  return out;
}

// The tetrahedra on the child's `count` points of `topology`, a TetrahedronSetTopologyContainer
// or MeshTopology in the child's node: written in its `tetrahedra`, linked to a SubsetTopology's
// tetrahedraInROI or tetrahedraOutROI (computed from its loader's file, its points numbered as
// its pointsInROI or pointsOutROI), or to a MeshGmshLoader's or MeshVTKLoader's (directly or
// through src). A subset's cells are read through the reader: its keys go elsewhere after this.
std::string childTetrahedra(Reader& r, const SofaObject& topology, std::size_t count) {
  std::string field;
  const SofaObject* from = r.linked(topology, "tetrahedra", &field);
  std::vector<long long> tetrahedra;
  if (from && from->type == "SubsetTopology") {
    const bool in = field == "tetrahedraInROI";
    if (!in && field != "tetrahedraOutROI")
      r.reject(topology, "tetrahedra",
               "expected " + from->label() + "'s tetrahedraInROI or tetrahedraOutROI");
    std::vector<SofaKey> subsetKeys;
    r.into(subsetKeys);
    const SofaObject& loader = subsetLoader(r, *from);
    mapSubsetMesh(r, *from, in ? "pointsInROI" : "pointsOutROI", &topology,
                  subsetSourceMesh(loader, r.file(loader, "filename")));
    for (const SofaKey& k : subsetKeys) {
      if (k.key == "mesh.nodes" && parse::tokens(k.value).size() != 3 * count)
        r.reject(topology, "tetrahedra",
                 std::to_string(parse::tokens(k.value).size() / 3) + " points in " + from->label() +
                     "'s " + (in ? "pointsInROI" : "pointsOutROI") + " for " +
                     std::to_string(count) + " mapped points");
      if (k.key == "mesh.tetrahedra")
        for (const std::string& t : parse::tokens(k.value)) tetrahedra.push_back(std::stoll(t));
    }
  } else if (from && (from->type == "MeshGmshLoader" || from->type == "MeshVTKLoader")) {
    const SerialMesh mesh = subsetSourceMesh(*from, r.file(*from, "filename"));
    if (mesh.cells.type() == CellType::Tetrahedron)
      tetrahedra.assign(mesh.cells.flat().begin(), mesh.cells.flat().end());
  } else if (from) {
    r.reject(topology, "tetrahedra",
             "a link to " + from->label() +
                 " is not read here (a SubsetTopology's, a MeshGmshLoader's or a "
                 "MeshVTKLoader's tetrahedra are)");
  } else {
    tetrahedra = r.integers(topology, "tetrahedra");
  }
  if (tetrahedra.empty() || tetrahedra.size() % 4 != 0)
    r.reject(topology, "tetrahedra",
             "no tetrahedra (4 point indices each) for the rigidly mapped child's FEM or mass");
  std::string out;
  for (long long v : tetrahedra) {
    if (v < 0 || std::size_t(v) >= count)
      r.reject(topology, "tetrahedra",
               "point " + std::to_string(v) + " of " + std::to_string(count) + " mapped points");
    out += (out.empty() ? "" : " ") + std::to_string(v);
  }
  return out;
}

}  // namespace

void mapRigidMappedChild(Reader& r, const MappedNode& child, std::vector<SofaKey>& keys,
                         const std::string& objFile) {
  const SofaObject& mapping = *child.mapping;
  const SofaObject& state = *child.state;
  r.from(mapping);
  if (mapping.type != "RigidMapping")
    throw Error(mapping.where + ": " + mapping.type +
                ": from rigid frames, only RigidMapping's mapped children are supported");
  checkMechanicalMapping(r, mapping);
  // NonLinearMappingData's options None, Exact, Stabilized, by name or index; RigidMapping's
  // constructor selects None.
  const std::string geometricText = r.text(mapping, "geometricStiffness").value_or("None");
  std::string geometric;
  if (geometricText == "None" || geometricText == "0") geometric = "none";
  if (geometricText == "Exact" || geometricText == "1") geometric = "exact";
  if (geometricText == "Stabilized" || geometricText == "2") geometric = "stabilized";
  if (geometric.empty())
    r.reject(mapping, "geometricStiffness", "expected None, Exact or Stabilized (0, 1 or 2)");
  const std::string tmpl = r.text(state, "template").value_or("Vec3d");
  if (tmpl != "Vec3d" && tmpl != "Vec3" && tmpl != "Vec3f")
    r.reject(state, "template", "a rigidly mapped child of points (Vec3d) is supported");
  // SOFA initialises a node's objects in order: a mass before the state sees its default size.
  const auto position = [&](const SofaObject* o) {
    std::size_t i = 0;
    while (i < child.node->objects.size() && &child.node->objects[i] != o) ++i;
    return i;
  };
  for (const SofaObject* o : child.components)
    if (position(o) < position(&state))
      throw Error(o->where + ": " + named(*o) + ": before " + state.label() +
                  " in its node: SOFA would initialise it on the state's default size");
  std::size_t count = 0;
  const std::vector<double> points = pointsOf(r, child, objFile, count);
  // What the child's components give, read by their registered mappings.
  std::vector<std::string> cells;  // the FEM's and the cell mass's keys (rigid.mapped-*)
  double mass = 0;
  std::vector<double> force(3 * count, 0.0);
  std::vector<std::string> planes;
  const SofaObject *hexahedronFem = nullptr, *tetrahedronFem = nullptr;
  for (const SofaObject* o : child.components) {
    const SofaMapping map = sofaMapping(o->type);
    const bool onCells = o->type == "HexahedronFEMForceField" ||
                         o->type == "TetrahedronFEMForceField" || o->type == "MeshMatrixMass";
    if (!map || (o->type != "UniformMass" && o->type != "ConstantForceField" &&
                 o->type != "PlaneForceField" && !onCells))
      throw Error(o->where + ": " + named(*o) +
                  ": not supported in a rigidly mapped child (its UniformMass, "
                  "ConstantForceField, PlaneForceField, HexahedronFEMForceField, "
                  "TetrahedronFEMForceField and MeshMatrixMass are)");
    if (o->type == "HexahedronFEMForceField") hexahedronFem = o;
    if (o->type == "TetrahedronFEMForceField") tetrahedronFem = o;
    std::vector<SofaKey> own;
    r.into(own);
    r.from(*o);
    map(r, *o);
    if (onCells) {
      const std::vector<std::string> more = cellKeys(*o, own);
      cells.insert(cells.end(), more.begin(), more.end());
      continue;
    }
    for (const SofaKey& k : own) {
      const Texts t = parse::tokens(k.value);
      const auto at = [&](std::size_t i) { return std::stod(t[i]); };
      if (k.key == "mass.vertex-mass") {
        mass = at(0);
      } else if (k.key == "mass.total-mass") {
        mass = at(0) / double(count);
      } else if (k.key == "load.constant-force" || k.key == "load.total-force") {
        std::vector<std::size_t> selected;
        if (t.size() == 4 && t[3] == "all") {
          for (std::size_t i = 0; i < count; ++i) selected.push_back(i);
        } else if (t.size() > 4 && t[3] == "indices") {
          for (std::size_t i = 4; i < t.size(); ++i) selected.push_back(std::stoul(t[i]));
        } else {
          throw Error(o->where + ": " + named(*o) +
                      ": in a rigidly mapped child, points are "
                      "selected by index or all (it gives " +
                      k.key + " = " + k.value + ")");
        }
        const double share = k.key == "load.total-force" ? 1.0 / double(selected.size()) : 1.0;
        for (std::size_t i : selected) {
          if (i >= count)
            r.reject(*o, "indices", "point " + std::to_string(i) + " of " + std::to_string(count));
          for (int d = 0; d < 3; ++d) force[3 * i + std::size_t(d)] += at(std::size_t(d)) * share;
        }
      } else if (k.key == "load.nodal-forces") {
        for (std::size_t j = 0; j + 3 < t.size(); j += 4) {
          const std::size_t i = std::stoul(t[j]);
          if (i >= count)
            r.reject(*o, "indices", "point " + std::to_string(i) + " of " + std::to_string(count));
          for (int d = 0; d < 3; ++d) force[3 * i + std::size_t(d)] += at(j + 1 + std::size_t(d));
        }
      } else if (k.key == "obstacle.plane") {
        planes.push_back(k.value);
      } else if (k.key != "mass.type") {
        throw Error(o->where + ": " + named(*o) + ": " + k.key + " = " + k.value +
                    " is not supported in a rigidly mapped child");
      }
    }
  }
  std::string pointsText, forcesText;
  for (double x : points) pointsText += (pointsText.empty() ? "" : " ") + parse::text(x);
  for (std::size_t i = 0; i < count; ++i)
    if (force[3 * i] != 0 || force[3 * i + 1] != 0 || force[3 * i + 2] != 0)
      forcesText += (forcesText.empty() ? "" : " ") + std::to_string(i) + " " +
                    parse::text(force[3 * i]) + " " + parse::text(force[3 * i + 1]) + " " +
                    parse::text(force[3 * i + 2]);
  r.into(keys);
  r.from(mapping);
  // No UniformMass on the frames: SOFA's frames have no mass of their own, only the child's.
  const bool cellMass = std::any_of(cells.begin(), cells.end(), [](const std::string& line) {
    return line.compare(0, 22, "rigid.mapped-cell-mass") == 0;
  });
  if ((mass != 0 || cellMass) && !r.gave("rigid.mass") && !r.gave("rigid.total-mass")) {
    r.note(mapping.label() +
           ": its input frames have no UniformMass: their mass is their mapped "
           "child's alone, as in SOFA");
    r.key("rigid.mass", "0");
  }
  r.key("rigid.mapped-points", pointsText);
  if (geometric != "none") r.key("rigid.mapped-geometric-stiffness", geometric);
  if (mass != 0) r.key("rigid.mapped-mass", parse::text(mass));
  if (!forcesText.empty()) r.key("rigid.mapped-forces", forcesText);
  for (const std::string& plane : planes) r.key("rigid.mapped-plane", plane);
  if (!cells.empty()) {
    const SofaObject* topology = topologyOf(child.node);
    if (hexahedronFem && tetrahedronFem)
      throw Error(tetrahedronFem->where + ": " + named(*tetrahedronFem) + ": beside " +
                  named(*hexahedronFem) + ": a rigidly mapped child's cells are of one kind");
    // The FEM's rest shape is SOFA's rest_position, the points as written; ours the points at the
    // frames' first pose: the same up to a rigid motion, which method small alone does not ignore.
    const SofaObject* fem = hexahedronFem ? hexahedronFem : tetrahedronFem;
    const bool small =
        std::find(cells.begin(), cells.end(), "rigid.mapped-fem-method small") != cells.end();
    const std::vector<double> frames = parse::reals("rigid.frames", r.gaveValue("rigid.frames"), 0);
    bool moved = r.given(mapping, "initialPoints");
    for (std::size_t i = 0; i < frames.size(); ++i)
      moved = moved || frames[i] != (i % 7 == 6 ? 1.0 : 0.0);
    if (fem && small && moved && !r.boolean(mapping, "globalToLocalCoords", false))
      r.reject(*fem, "method",
               "small on a rigidly mapped child whose points are local to a turned or moved frame "
               "(or given as initialPoints): SOFA's rest shape is the points as written, not "
               "supported (globalToLocalCoords or a corotational method is)");
    const bool grid = topology && topology->type == "RegularGridTopology";
    if (tetrahedronFem || (!hexahedronFem && topology && !grid)) {
      // TetrahedronFEMForceField and MeshMatrixMass read the tetrahedra of the node's container.
      if (!topology || topology->node != child.node ||
          (topology->type != "TetrahedronSetTopologyContainer" && topology->type != "MeshTopology"))
        throw Error(state.where + ": " + state.label() +
                    ": the tetrahedra of a rigidly mapped child's FEM or mass are read from a "
                    "TetrahedronSetTopologyContainer or MeshTopology in its node (" +
                    (topology ? topology->label() : std::string("none")) + ")");
      const std::string tetrahedra = childTetrahedra(r, *topology, count);
      r.into(keys);
      r.key("rigid.mapped-tetrahedra", tetrahedra);
    } else {
      // HexahedronFEMForceField and MeshMatrixMass read the node's topology: a regular grid of
      // the child's points, its hexahedra in SOFA's order.
      if (!grid)
        throw Error(state.where + ": " + state.label() +
                    ": the cells of a rigidly mapped child's FEM or mass are read from a "
                    "RegularGridTopology in its node (" +
                    (topology ? topology->label() : std::string("none")) + ")");
      const RegularGrid g = regularGrid(r, *topology);
      if (g.points.size() != count || g.hexahedra.empty())
        throw Error(topology->where + ": " + topology->label() + ": " +
                    std::to_string(g.points.size()) + " points and " +
                    std::to_string(g.hexahedra.size()) +
                    " hexahedra for a rigidly mapped child of " + std::to_string(count) +
                    " points: its hexahedra on the child's points are needed");
      std::string hexahedra;
      for (const auto& h : g.hexahedra)
        for (long long v : h) hexahedra += (hexahedra.empty() ? "" : " ") + std::to_string(v);
      r.key("rigid.mapped-hexahedra", hexahedra);
    }
    for (const std::string& line : cells) {
      const std::size_t space = line.find(' ');
      r.key(line.substr(0, space), line.substr(space + 1));
    }
  }
}

}  // namespace eis::sofa
