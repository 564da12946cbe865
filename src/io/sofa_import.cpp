// A SOFA scene as the keys of its bodies: for each independent MechanicalObject (the walk,
// io/sofa_walk.cpp, finds them and what acts on each), its mesh, context, solvers and
// components. The masses, force fields and constraints are in io/sofa_components.cpp; reading
// the file and the scene.* keys, in io/sofa_scene_file.cpp.
#include "eis/io/sofa_import.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "eis/core/error.hpp"
#include "eis/core/input_file.hpp"
#include "eis/mesh/mesh_file.hpp"
#include "sofa_carried_points.hpp"
#include "sofa_data_fields.hpp"
#include "sofa_diffusion.hpp"
#include "sofa_distance_mapping.hpp"
#include "sofa_generate_mesh.hpp"
#include "sofa_gid_mesh.hpp"
#include "sofa_grid.hpp"
#include "sofa_grid_mesh.hpp"
#include "sofa_grid_mesh_creator.hpp"
#include "sofa_lagrangian.hpp"
#include "sofa_linear_systems.hpp"
#include "sofa_low_dimension.hpp"
#include "sofa_mapped_child.hpp"
#include "sofa_mapped_fem.hpp"
#include "sofa_reader.hpp"
#include "sofa_rigid.hpp"
#include "sofa_rigid_mapping.hpp"
#include "sofa_rigid_targets.hpp"
#include "sofa_selections.hpp"
#include "sofa_sparse_grid.hpp"
#include "sofa_split_body.hpp"
#include "sofa_subset_multi_mapping.hpp"
#include "sofa_subset_topology.hpp"
#include "sofa_topology_changes.hpp"
#include "sofa_transform_position.hpp"
#include "sofa_volume_mapping.hpp"
#include "sofa_walk.hpp"

namespace eis {

namespace {

using sofa::objectPath;
using sofa::Reader;

// The file a loader names (in `field`), found in the scene's folder, then in each data path.
std::string findNamedFile(const Reader& reader, const SofaObject& loader,
                          const SofaImportOptions& options, const std::string& field,
                          const std::optional<std::string>& name) {
  if (!name || name->empty()) reader.reject(loader, field, "a loader needs a file");
  namespace fs = std::filesystem;
  if (fs::path(*name).is_absolute()) {
    if (!inputFileProblem(*name).empty()) reader.reject(loader, field, inputFileProblem(*name));
    return *name;
  }
  std::vector<std::string> folders = {options.sceneFolder};
  folders.insert(folders.end(), options.dataPaths.begin(), options.dataPaths.end());
  for (const std::string& folder : folders) {
    const std::string path = (fs::path(folder) / *name).lexically_normal().string();
    if (inputFileProblem(path).empty()) return path;
  }
  reader.reject(loader, field,
                "no such file in the scene's folder" +
                    std::string(options.dataPaths.empty() ? "" : " or any scene.data-path"));
}

std::string findFile(const Reader& reader, const SofaObject& loader,
                     const SofaImportOptions& options, const std::string& field = "filename") {
  return findNamedFile(reader, loader, options, field, reader.text(loader, field));
}

// MeshLoader (reinit: one matrix translation * rotation * scale) and MechanicalObject (init:
// applyScale, applyRotation, applyTranslation) move the points the same way: scale3d (times
// MeshLoader's `scale`), then rotation (degrees, Quat::createQuaterFromEuler), then translation.
// Each becomes one mesh.transform operation, the loader's before the MechanicalObject's; neutral
// ones (scale 1, rotation 0, translation 0) are left out. A MeshLoader's `transformation` (a 4x4
// matrix, row by row, identity by default) other than the identity replaces its three
// (MeshLoader::reinit), and applyTransformation leaves the points as they are when the matrix is
// not affine (its fourth row not 0 0 0 1): said in a warning.
void mapTransform(Reader& reader, const SofaObject& o, bool loader) {
  if (loader && reader.given(o, "transformation")) {
    const std::vector<double> m = reader.reals(o, "transformation");
    if (m.size() != 16) reader.reject(o, "transformation", "expected 16 numbers (a 4x4 matrix)");
    bool identity = true;
    for (std::size_t i = 0; i < 16; ++i) identity = identity && m[i] == (i % 5 == 0 ? 1.0 : 0.0);
    if (!identity) {
      if (m[12] != 0 || m[13] != 0 || m[14] != 0 || m[15] != 1) {
        reader.warn(o.label() +
                    ": transformation is not affine (its fourth row is not 0 0 0 1): SOFA "
                    "ignores it, and so does the import");
        return;
      }
      std::string matrix = "matrix";
      for (std::size_t i = 0; i < 12; ++i) matrix += " " + parse::text(m[i]);
      reader.key("mesh.transform", matrix);
      return;
    }
  }
  // A MeshLoader's translation, rotation and scale3d are not auto-linked (MeshLoader's
  // constructor: setAutoLink(false)), so a MechanicalObject with src="@loader" does not take them:
  // its transform is only what it writes itself.
  const auto own = [&](const char* field) { return loader || o.field(field) != nullptr; };
  auto three = [&](const char* field, double neutral) {
    std::vector<double> v = own(field) ? reader.reals(o, field) : std::vector<double>{};
    if (v.empty()) v.assign(3, neutral);
    if (v.size() != 3) reader.reject(o, field, "expected three numbers");
    return v;
  };
  std::vector<double> scale = three("scale3d", 1), rotation = three("rotation", 0),
                      translation = three("translation", 0);
  if (loader) {
    // MeshLoader::parse: a `scale` (read in single precision) multiplies scale3d; one that is not
    // one number (getAttributeAsFloat) leaves 1, with an error message, and SOFA runs on.
    double uniform = 1;
    if (const auto text = reader.text(o, "scale"); text && parse::tokens(*text).size() > 1)
      reader.warn(o.label() + ": scale = '" + *text +
                  "': not one number; SOFA's MeshLoader reads 1 instead, and so does the import");
    else
      uniform = reader.single(o, "scale", 1);
    for (double& s : scale) s *= uniform;
  } else {
    // MechanicalObject::parse, after the data fields, in this order: `scale` replaces scale3d
    // with (s, s, s); any of sx sy sz replaces it with (sx, sy, sz), 1 for those not given;
    // rx ry rz replace rotation and dx dy dz translation likewise, 0 for those not given. All
    // are read in single precision (getAttributeAsFloat).
    if (own("scale")) scale.assign(3, reader.single(o, "scale", 1));
    const auto legacy = [&](const char* names[3], double neutral, std::vector<double>& v) {
      if (!own(names[0]) && !own(names[1]) && !own(names[2])) return;
      for (int i = 0; i < 3; ++i)
        v[i] = own(names[i]) ? reader.single(o, names[i], neutral) : neutral;
    };
    const char* scales[3] = {"sx", "sy", "sz"};
    const char* rotations[3] = {"rx", "ry", "rz"};
    const char* translations[3] = {"dx", "dy", "dz"};
    legacy(scales, 1, scale);
    legacy(rotations, 0, rotation);
    legacy(translations, 0, translation);
  }
  const std::vector<std::pair<const char*, std::vector<double>>> operations = {
      {"scale", scale}, {"rotate", rotation}, {"translate", translation}};
  for (const auto& [operation, v] : operations) {
    const double neutral = std::string(operation) == "scale" ? 1 : 0;
    if (v[0] == neutral && v[1] == neutral && v[2] == neutral) continue;
    reader.key("mesh.transform", std::string(operation) + " " + parse::text(v[0]) + " " +
                                     parse::text(v[1]) + " " + parse::text(v[2]));
  }
}

// TransformEngine (doUpdate) between a grid or a mesh source and the MechanicalObject or its
// topology container: scale, then rotation (degrees, Quat::createQuaterFromEuler), then
// translation, as mesh.transform operations after the source's and before the
// MechanicalObject's own; its quaternion and inverse are refused. `input` names the field of
// the source its input_position must link to.
void mapEngineTransform(Reader& reader, const SofaObject& engine, const std::string& input) {
  sofa::checkDataFields(reader, engine, false);
  std::string field;
  const SofaObject* from = reader.linked(engine, "input_position", &field);
  if (field != input)
    reader.reject(
        engine, "input_position",
        "expected a link to " + (from ? from->label() : std::string("the grid")) + "'s " + input);
  const std::vector<double> q = reader.reals(engine, "quaternion");
  if (!q.empty() && q != std::vector<double>{0, 0, 0, 1})
    reader.reject(engine, "quaternion", "a rotation by quaternion is not supported yet");
  if (reader.boolean(engine, "inverse", false))
    reader.reject(engine, "inverse", "the inverse transform is not supported yet");
  const std::pair<const char*, const char*> operations[] = {
      {"scale", "scale"}, {"rotation", "rotate"}, {"translation", "translate"}};
  for (const auto& [name, operation] : operations) {
    const double neutral = std::string(name) == "scale" ? 1 : 0;
    std::vector<double> v = reader.reals(engine, name);
    if (v.empty()) continue;
    if (v.size() != 3) reader.reject(engine, name, "expected three numbers");
    if (v[0] == neutral && v[1] == neutral && v[2] == neutral) continue;
    reader.key("mesh.transform", std::string(operation) + " " + parse::text(v[0]) + " " +
                                     parse::text(v[1]) + " " + parse::text(v[2]));
  }
}

// The grids read as a body's mesh (io/sofa_grid_mesh.hpp).
bool isReadGrid(const std::string& type) {
  return type == "RegularGridTopology" || type == "CylinderGridTopology" ||
         type == "SphereGridTopology" || sofa::isSparseGrid(type);
}

// The mesh: the loader the MechanicalObject or its node's topology reads. A child's FEM force
// field that reads the body's hexahedra (`childHexahedral`, io/sofa_mapped_fem) makes a
// RegularGridTopology's cells hexahedra. Returns the grid, when the mesh is a RegularGridTopology
// or SparseGridTopology.
const SofaObject* mapMesh(Reader& reader, const SofaObject& state, const SofaImportOptions& options,
                          const std::vector<const SofaObject*>& components,
                          const SofaObject* childHexahedral = nullptr) {
  const std::string tmpl = reader.text(state, "template").value_or("Vec3d");
  if (tmpl != "Vec3d" && tmpl != "Vec3" && tmpl != "Vec3f" && sofa::templateDimensions(tmpl) == 3)
    reader.reject(state, "template",
                  "only Vec3d (3D points), Vec2d and Vec1d (on a grid) and Rigid3d (frames) are "
                  "supported");
  // MechanicalObject::resetForce zeroes `force` before every force computation, so its values
  // written in the scene count for nothing; accumulateForce adds `externalForce` to every one:
  // a constant load, which a scene may write as zeros.
  if (state.field("externalForce") && !isSofaLink(*state.field("externalForce")))
    for (double f : reader.reals(state, "externalForce"))
      if (f != 0)
        reader.reject(state, "externalForce", "a constant external force is not supported yet");
  // A velocity or rest_position linked to another object's field takes the values written there
  // (Reader::text follows the link); a rest_position linked to a regular grid's points, which
  // SOFA computes, makes that grid the body's mesh (below). Other computed values are refused.
  const SofaObject* restGrid = nullptr;
  for (const std::string field : {"velocity", "rest_position"}) {
    if (!state.field(field) || !isSofaLink(*state.field(field))) continue;
    const SofaObject* target = reader.linked(state, field);
    if (field == "rest_position" && target && isReadGrid(target->type) &&
        !sofa::isSparseGrid(target->type)) {
      restGrid = target;
      continue;
    }
    if (!reader.text(state, field))
      reader.reject(state, field,
                    "a link to values SOFA computes is not supported (of those, a rest_position "
                    "linked to a regular grid's points is); write the values in the scene");
  }
  // rx2 ry2 rz2 are MechanicalObject::parse's legacy names of rotation2.
  for (const char* field : {"rotation2", "translation2", "rx2", "ry2", "rz2"})
    for (double x : reader.reals(state, field))
      if (x != 0) reader.reject(state, field, "moving the position but not the rest position");
  if (state.field("rest_position"))
    for (const char* field : {"translation", "rotation", "scale3d", "scale", "dx", "dy", "dz", "rx",
                              "ry", "rz", "sx", "sy", "sz"})
      if (state.field(field))
        reader.reject(state, field, "a transform of the position with a rest_position of its own");
  const SofaObject* topology = nullptr;
  const SofaObject* grid = nullptr;
  const SofaObject* surface = nullptr;  // a container of triangles, quads or edges
  for (const SofaObject& o : state.node->objects) {
    if (o.type == "TetrahedronSetTopologyContainer" || o.type == "MeshTopology" ||
        o.type == "HexahedronSetTopologyContainer")
      topology = &o;
    if (o.type == "TriangleSetTopologyContainer" || o.type == "QuadSetTopologyContainer" ||
        o.type == "EdgeSetTopologyContainer")
      surface = &o;
    if (isReadGrid(o.type) && !grid) grid = &o;
  }
  if (!topology) topology = surface;
  // MechanicalObject::init takes a grid's points when it has none of its own (a position and a
  // velocity of at most one point each: "0 0 0" is the default's size); a position linked to a
  // grid's ("@grid.position") is the same.
  const SofaObject* linked = reader.linked(state, "position");
  // A grid's points moved by a TransformEngine or TransformPosition
  // ("@transform.output_position", whose input_position is "@grid.position"; TransformPosition's
  // aliases outputPosition and inputPosition).
  const SofaObject* engine = nullptr;
  if (linked && (linked->type == "TransformEngine" || linked->type == "TransformPosition")) {
    engine = linked;
    const bool position = engine->type == "TransformPosition";
    std::string field, input;
    reader.linked(state, "position", &field);
    linked = reader.linked(
        *engine, position && !engine->field("input_position") ? "inputPosition" : "input_position",
        &input);
    if ((field != "output_position" && !(position && field == "outputPosition")) || !linked ||
        !isReadGrid(linked->type))
      throw Error(engine->where + ": " + engine->type + ": gives " + state.label() +
                  " its position; supported only from a grid's position to output_position");
    // The body's cells are the grid's, the one its force fields find in the node.
    if (position && (input != "position" || linked != grid || topology))
      throw Error(engine->where + ": TransformPosition: moves the position of " + linked->label() +
                  "; supported only on the position of the grid beside " + state.label() +
                  ", whose cells are the body's");
  }
  // A position linked to another MechanicalObject's, which takes its node's grid's points, with
  // the body's topology holding that grid's cells: a container linking a SparseGridTopology's
  // hexahedra, or one a Hexa2TetraTopologicalMapping fills from the grid. The grid is the body's
  // mesh (SOFA's BarycentricMapping benchmarks and BilateralLagrangianConstraint_Soft_Rigid_Bodies
  // keep the grid and its state in a node of their own).
  if (linked && linked->type == "MechanicalObject" && linked != &state && topology) {
    std::string field;
    reader.linked(state, "position", &field);
    const SofaObject* other = nullptr;
    for (const SofaObject& o : linked->node->objects)
      if (isReadGrid(o.type) && !other) other = &o;
    bool own = false;
    for (const char* f : {"position", "rest_position", "translation", "rotation", "scale3d",
                          "scale", "dx", "dy", "dz", "rx", "ry", "rz", "sx", "sy", "sz", "src"})
      own = own || linked->field(f);
    bool cut = false;
    for (const SofaObject* o : reader.scene().objects())
      cut = cut || (o->type == "Hexa2TetraTopologicalMapping" && other &&
                    reader.linked(*o, "output") == topology && reader.linked(*o, "input") == other);
    const bool hexahedra = other && other->type == "SparseGridTopology" &&
                           reader.linked(*topology, "hexahedra") == other;
    if (field == "position" && other && !own && (cut || hexahedra)) linked = other;
  }
  if (linked && isReadGrid(linked->type)) grid = linked;
  // A state without points of its own takes its topology's: a container that copies (src) one a
  // Hexa2TetraTopologicalMapping fills, its position the grid's, holds the grid's points and cut
  // (SOFA's BarycentricTetraMapping.scn keeps the grid in a node of its own, without a state).
  if (!grid && !linked && !state.field("position") && topology) {
    const SofaObject* points = reader.linked(*topology, "position");
    const SofaObject* cells = reader.linked(*topology, "tetrahedra");
    for (const SofaObject* o : reader.scene().objects())
      if (o->type == "Hexa2TetraTopologicalMapping" && points && isReadGrid(points->type) &&
          !sofa::isSparseGrid(points->type) && cells && reader.linked(*o, "input") == points &&
          reader.linked(*o, "output") == cells)
        grid = points;
  }
  if (restGrid) grid = restGrid;
  // The mesh's objects and the loaders they link to, checked like the body's components.
  sofa::checkLinkedDataFields(reader, state, options.skipUnsupported);
  for (const SofaObject* o : {topology, grid})
    if (o) {
      sofa::checkDataFields(reader, *o, options.skipUnsupported);
      sofa::checkLinkedDataFields(reader, *o, options.skipUnsupported);
    }
  const bool onePoint = !linked && state.field("position") &&
                        reader.reals(state, "position").size() <= 3 &&
                        reader.reals(state, "velocity").size() <= 3;
  if (grid &&
      (restGrid || (!state.field("rest_position") &&
                    (linked == grid || (!linked && (!state.field("position") || onePoint)))))) {
    // MechanicalObject::init keeps a rest_position as long as the position: the grid's points
    // are the mesh, the position (written, or another grid's points) the starting state.
    if (restGrid && state.field("position")) {
      std::vector<double> x;
      if (linked && isReadGrid(linked->type) && !sofa::isSparseGrid(linked->type)) {
        for (const auto& p : sofa::regularGrid(reader, *linked, true).points)
          x.insert(x.end(), p.begin(), p.end());
      } else if (linked && !reader.text(state, "position")) {
        reader.reject(state, "position", "a link to positions SOFA computes is not supported");
      } else {
        x = reader.reals(state, "position");
      }
      const std::size_t restCount = 3 * sofa::regularGrid(reader, *restGrid, true).points.size();
      if (x.size() != restCount)
        reader.reject(state, "position",
                      std::to_string(x.size() / 3) + " positions for the " +
                          std::to_string(restCount / 3) + " points of " + restGrid->label());
      reader.key("initial.positions", sofa::joined(x, 0, x.size()));
    }
    if (sofa::isSparseGrid(grid->type)) {
      sofa::mapSparseGrid(reader, *grid, components);
    } else {
      sofa::mapGrid(reader, *grid, components, childHexahedral);
    }
    if (state.field("velocity")) reader.key("initial.velocities", *reader.text(state, "velocity"));
    if (engine && engine->type == "TransformPosition")
      sofa::mapTransformPosition(reader, *engine,
                                 [&] { return findFile(reader, *engine, options); });
    else if (engine)
      mapEngineTransform(reader, *engine, "position");
    mapTransform(reader, state, false);
    return grid->type == "RegularGridTopology" || sofa::isSparseGrid(grid->type) ? grid : nullptr;
  }
  // A grid of a kind not read here is the real reason a body has no mesh.
  const auto refuseOtherGrid = [&] {
    for (const SofaObject& o : state.node->objects)
      if (o.type.find("Grid") != std::string::npos && o.type.size() > 8 &&
          o.type.compare(o.type.size() - 8, 8, "Topology") == 0)
        throw Error(o.where + ": " + o.type +
                    ": not supported yet (of SOFA's grids, RegularGridTopology, "
                    "CylinderGridTopology, SphereGridTopology, SparseGridTopology, "
                    "SparseGridRamificationTopology and SparseGridMultipleTopology are); it "
                    "gives " +
                    state.label() + " its points");
  };
  if (!grid) refuseOtherGrid();
  // The positions come from a loader (linked, or through the topology), else they are written in
  // the scene: on the MechanicalObject or its topology, with the topology's tetrahedra or
  // hexahedra. MechanicalObject::init takes the topology's points as it takes a grid's: when its
  // own position and velocity hold at most one point each (Demos/liverConfiguration.scn writes
  // position="0 0 0" beside a loader's topology).
  const bool topologyPoints =
      topology && !state.field("rest_position") && (!state.field("position") || onePoint) &&
      (reader.given(*topology, "position") || reader.linked(*topology, "position"));
  const SofaObject* source = reader.linked(state, "position");
  if (!source && (!state.field("position") || topologyPoints) && topology) {
    source = reader.linked(*topology, "position");
    if (!source) source = reader.linked(*topology, "tetrahedra");
    if (!source) source = reader.linked(*topology, "hexahedra");
    // A MeshTetraStuffing's outputs, linked by the aliases its liver example uses.
    for (const char* alias : {"points", "tetras"})
      if (const SofaObject* o = reader.linked(*topology, alias);
          !source && o && o->type == "MeshTetraStuffing")
        source = o;
  }
  const auto isLoader = [](const SofaObject& o) {
    return o.type == "MeshGmshLoader" || o.type == "MeshVTKLoader";
  };
  // A container whose points a TransformEngine or TransformPosition moves
  // ("@transform.output_position", its input_position a mesh source's points): the mesh is the
  // source's, moved by the engine after the source's own transform (SOFA's container holds the
  // engine's output, and the MechanicalObject takes the container's points).
  const SofaObject* mover = nullptr;
  std::string moverInput;
  if (source && topology && source == reader.linked(*topology, "position") &&
      (source->type == "TransformEngine" || source->type == "TransformPosition")) {
    mover = source;
    const bool position = mover->type == "TransformPosition";
    std::string output;
    reader.linked(*topology, "position", &output);
    source = reader.linked(
        *mover, position && !mover->field("input_position") ? "inputPosition" : "input_position",
        &moverInput);
    const bool generator = source && sofa::isMeshGenerator(source->type);
    if ((output != "output_position" && !(position && output == "outputPosition")) || !source ||
        !(isLoader(*source) || generator || source->type == "GridMeshCreator" ||
          source->type == "GIDMeshLoader") ||
        (!generator && moverInput != "position"))
      throw Error(mover->where + ": " + mover->type + ": gives " + topology->label() +
                  " its points; supported only from the position of a MeshGmshLoader, "
                  "MeshVTKLoader, GridMeshCreator, GIDMeshLoader, GenerateGrid, GenerateCylinder "
                  "or StringMeshCreator to output_position");
  }
  const bool gid = source && source->type == "GIDMeshLoader";
  // A topology whose points a GenerateGrid or GenerateCylinder gives takes its cells too.
  const bool generated = source && topology && sofa::isMeshGenerator(source->type);
  // Points that are a SubsetTopology's pointsInROI or pointsOutROI, linked by the
  // MechanicalObject or its topology.
  std::string subsetField;
  if (source && source->type == "SubsetTopology" &&
      reader.linked(state, "position", &subsetField) != source && topology)
    reader.linked(*topology, "position", &subsetField);
  const bool subset = source && sofa::isSubsetPoints(*source, subsetField);
  // The cells written in the topology (MeshTopology's `tetrahedra` and `hexahedra`, aliases
  // `tetras` and `hexas`), when the positions are written too.
  const auto written = [&](const char* field, const char* alias) -> std::optional<std::string> {
    if (!topology || (source && source != topology)) return std::nullopt;
    std::optional<std::string> cells = reader.text(*topology, field);
    if (!cells) cells = reader.text(*topology, alias);
    if (cells && parse::tokens(*cells).empty()) cells.reset();
    return cells;
  };
  const std::optional<std::string> tets = written("tetrahedra", "tetras"),
                                   hexas = written("hexahedra", "hexas");
  if (tets && hexas)
    throw Error(topology->where + ": " + topology->type +
                ": both tetrahedra and hexahedra written: a body's mesh holds cells of one type");
  // Without volume cells, the topology's triangles, else its quads, else its edges are the body's
  // cells (a membrane, a cloth, a line of springs); SOFA lists a surface's edges beside its
  // triangles or quads.
  std::optional<std::pair<const char*, std::string>> lower;
  if (!tets && !hexas) {
    const std::optional<std::string> triangles = written("triangles", "triangles"),
                                     quads = written("quads", "quads");
    if (triangles && quads)
      throw Error(topology->where + ": " + topology->type +
                  ": both triangles and quads written: a body's mesh holds cells of one type");
    if (triangles) lower = {"mesh.triangles", *triangles};
    if (quads) lower = {"mesh.quadrangles", *quads};
    if (!lower)
      if (const std::optional<std::string> edges = written("edges", "edges"))
        lower = {"mesh.edges", *edges};
  }
  // HexahedronFEMForceField and HexahedralFEMForceField read hexahedra, which a grid, a mesh
  // file or the topology's hexahedra give here (the file's cells are checked when read:
  // material.cells).
  for (const SofaObject* c : components)
    if (sofa::readsHexahedra(c->type) && !(source && isLoader(*source)) && !hexas && !gid &&
        !((generated || subset) && topology && reader.linked(*topology, "hexahedra")))
      throw Error(c->where + ": " + c->type + ": its hexahedra would come from " +
                  (grid ? grid->label() + ", which is not the body's mesh"
                        : std::string("a topology container or positions written in the scene, "
                                      "read here for tetrahedra only; a MeshGmshLoader, a "
                                      "MeshVTKLoader, a RegularGridTopology, a SparseGridTopology "
                                      "or a MeshTopology's hexas gives them")));
  if (source && source->type == "MeshSplittingEngine")
    throw Error(reader.where(state, "position") + ": " + state.label() + ": its points are " +
                source->label() +
                "'s part, which is read only as a state a SubsetMultiMapping joins into a body "
                "of its own (io/sofa_split_body), not as a body's mesh");
  const bool creator = source && source->type == "GridMeshCreator";
  if (source && !isLoader(*source) && source != topology && !creator && !generated && !subset &&
      !gid)
    throw Error(source->where + ": " + source->type +
                ": not a mesh of tetrahedra this importer reads (MeshGmshLoader, MeshVTKLoader, "
                "or position and tetrahedra written in the scene)");
  const bool rest = state.field("rest_position") != nullptr;
  if (rest && source)
    reader.reject(state, "rest_position",
                  "beside positions from " + source->label() +
                      ": not supported; write position and tetrahedra in the scene");
  if (source && isLoader(*source)) {
    reader.key("mesh.file", findFile(reader, *source, options));
    // A triangle, quad or edge container takes only those cells of its loader's file.
    if (topology == surface && surface)
      reader.key("mesh.file-cells", surface->type == "TriangleSetTopologyContainer" ? "triangle"
                                    : surface->type == "QuadSetTopologyContainer"   ? "quadrangle"
                                                                                    : "edge");
    mapTransform(reader, *source, true);
  } else if (creator) {
    sofa::mapGridMeshCreator(reader, *source);
    mapTransform(reader, *source, true);
  } else if (gid) {
    sofa::mapGidMesh(reader, findFile(reader, *source, options));
    mapTransform(reader, *source, true);
  } else if (generated) {
    sofa::mapGeneratedMesh(reader, *source, *topology, mover ? &moverInput : nullptr);
    if (source->type == "StringMeshCreator") mapTransform(reader, *source, true);
  } else if (subset) {
    const SofaObject& loader = sofa::subsetLoader(reader, *source);
    sofa::mapSubsetMesh(reader, *source, subsetField, topology,
                        sofa::subsetSourceMesh(loader, findFile(reader, loader, options)));
  } else {
    std::optional<std::string> nodes = state.field("position") && !topologyPoints
                                           ? reader.text(state, "position")
                                       : topology ? reader.text(*topology, "position")
                                                  : std::nullopt;
    // MechanicalObject's constructor: `size` points (parse; default 1) at the origin, when
    // nothing gives it positions.
    if (!nodes && !rest && !topology && !source) {
      const double size = reader.real(state, "size", 1);
      if (size < 1 || size != std::floor(size))
        reader.reject(state, "size", "no position and no positive whole size: no points");
      std::string origin;
      for (double i = 0; i < size; ++i) origin += i > 0 ? " 0 0 0" : "0 0 0";
      nodes = origin;
    }
    if (!(nodes || rest) || !(tets || hexas || lower)) {
      refuseOtherGrid();
      // A topological mapping that would give the points (Mesh2PointTopologicalMapping).
      for (const SofaObject& o : state.node->objects)
        if (o.type.size() > 18 && o.type.compare(o.type.size() - 18, 18, "TopologicalMapping") == 0)
          throw Error(o.where + ": " + o.type + ": gives " + state.label() +
                      " its points, which it computes: not supported yet");
      if (!(nodes || rest))
        throw Error(state.where +
                    ": MechanicalObject: no mesh (no loader, and no position and tetrahedra "
                    "written in the scene, nor hexahedra, triangles, quads or edges)");
      // Cells the topology links from elsewhere are not read here; without them the body would
      // be taken for a body of points.
      if (topology)
        for (const char* field : {"src", "tetrahedra", "tetras", "hexahedra", "hexas", "triangles",
                                  "quads", "edges", "lines"})
          if (const SofaObject* from = reader.linked(*topology, field))
            throw Error(topology->where + ": " + topology->type + ": its cells would come from " +
                        from->label() + " (" + field +
                        "), not read here: not supported (a body of points is one with no "
                        "cells at all)");
    }
    // MechanicalObject::init: a rest_position longer than the position becomes the position,
    // else the rest_position is kept; the elastic forces measure from it: it is the mesh, and
    // its own position the starting state.
    reader.key("mesh.nodes", rest ? *reader.text(state, "rest_position") : *nodes);
    // Without cells, mesh.nodes alone: a body of points, each its own cell.
    if (lower)
      reader.key(lower->first, lower->second);
    else if (tets || hexas)
      reader.key(tets ? "mesh.tetrahedra" : "mesh.hexahedra", tets ? *tets : *hexas);
    if (rest && state.field("position")) {
      const std::size_t restCount = reader.reals(state, "rest_position").size(),
                        count = reader.reals(state, "position").size();
      if (count != restCount)
        reader.reject(state, "position",
                      std::to_string(count / 3) + " positions for " +
                          std::to_string(restCount / 3) + " rest positions");
      reader.key("initial.positions", *reader.text(state, "position"));
    }
    const std::size_t points =
        parse::tokens(rest ? *reader.text(state, "rest_position") : *nodes).size() / 3;
    if (state.field("velocity") && reader.reals(state, "velocity").size() > 3 * points)
      reader.reject(state, "velocity",
                    std::to_string(reader.reals(state, "velocity").size() / 3) +
                        " velocities for " + std::to_string(points) + " points");
  }
  if (mover && mover->type == "TransformPosition")
    sofa::mapTransformPosition(reader, *mover, [&] { return findFile(reader, *mover, options); });
  else if (mover)
    mapEngineTransform(reader, *mover, moverInput);
  // MechanicalObject::init: fewer velocities than points, the last one for the points after it.
  if (state.field("velocity")) reader.key("initial.velocities", *reader.text(state, "velocity"));
  mapTransform(reader, state, false);
  return nullptr;
}

// EulerImplicitSolver.cpp: rayleighStiffness 0, rayleighMass 0, vdamping 0, firstOrder false,
// trapezoidalScheme false, solveConstraint false (read by io/sofa_lagrangian), computeResidual
// false.
bool mapOdeSolver(Reader& r, const SofaObject& o) {
  if (o.type == "StaticSolver")
    throw Error(o.where +
                ": StaticSolver: a static solve is not implemented; "
                "EulerImplicitSolver is");
  if (o.type == "NewtonRaphsonSolver") {
    r.key("solver.newton", "full");
    return true;
  }
  // EulerExplicitSolver.cpp: symplectic true; threadSafeVisitor (how visitors are allocated)
  // and linearSolver (used for a mass that is not diagonal, which the run refuses) change no
  // result.
  if (o.type == "EulerExplicitSolver") {
    r.key("solver.explicit", "true");
    r.key("solver.symplectic", r.boolean(o, "symplectic", true) ? "true" : "false");
    return true;
  }
  if (o.type != "EulerImplicitSolver") return false;
  r.key("solver.rayleigh-stiffness", parse::text(r.real(o, "rayleighStiffness", 0)));
  r.key("solver.rayleigh-mass", parse::text(r.real(o, "rayleighMass", 0)));
  r.key("solver.vdamping", parse::text(r.real(o, "vdamping", 0)));
  r.key("solver.first-order", r.boolean(o, "firstOrder", false) ? "true" : "false");
  r.key("solver.trapezoidal", r.boolean(o, "trapezoidalScheme", false) ? "true" : "false");
  r.key("solver.compute-residual", r.boolean(o, "computeResidual", false) ? "true" : "false");
  return true;
}

// CGLinearSolver.inl: iterations 25, tolerance 1e-5, threshold 1e-5; each iteration stops once
// |r| / |b| <= tolerance (r = b - A x, no preconditioner) or |p^T A p| <= threshold. The
// threshold has no KSP counterpart (PETSc's CG stops on a zero or negative p^T A p).
bool mapLinearSolver(Reader& r, const SofaObject& o, bool sceneLimits) {
  if (sofa::isDirectSolver(o.type)) {
    r.key("solver.linear", "direct");
    r.note(o.label() + " -> solver.linear = direct (MUMPS Cholesky through PETSc)");
    return true;
  }
  // SVDLinearSolver.inl: a full SVD of the system, each singular value <= minSingularValue
  // (1e-6) taken as 0. A system with a mass whose singular values all exceed it (fixed rows keep
  // 1 on the diagonal) has one solution, which it gives as a direct solve does.
  if (o.type == "SVDLinearSolver") {
    const double minSingular = r.real(o, "minSingularValue", 1e-6);
    if (!(minSingular >= 0)) r.reject(o, "minSingularValue", "expected a number >= 0");
    r.key("solver.linear", "direct");
    r.note(o.label() + " -> solver.linear = direct (MUMPS Cholesky through PETSc): SOFA's SVD " +
           "solve, exact when no singular value of the system is <= minSingularValue " +
           parse::text(minSingular) + " (it would drop those directions)");
    return true;
  }
  if (o.type != "CGLinearSolver" && o.type != "PCGLinearSolver") return false;
  const long long iterations = std::llround(r.real(o, "iterations", 25));
  const double tolerance = r.real(o, "tolerance", 1e-5);
  const double threshold = r.real(o, "threshold", 1e-5);
  if (iterations < 1) r.reject(o, "iterations", "expected at least 1");
  if (!(tolerance > 0)) r.reject(o, "tolerance", "expected a number > 0");
  // |r| / |b| = 1 before the first iteration: SOFA's CG stops there, with x = 0.
  if (tolerance >= 1) {
    if (sceneLimits)
      r.reject(o, "tolerance",
               "at least 1: SOFA's CG stops before its first iteration (a zero solution each "
               "step), which scene.linear-solver-limits = scene does not reproduce");
    r.warnOnce(o.label() + ": tolerance " + parse::text(tolerance) +
               " >= 1: SOFA's CG would stop before its first iteration (a zero solution); "
               "solved to rtol 1e-8 here");
  }
  const double rtol = sceneLimits ? tolerance : std::min(tolerance, 1e-8);
  const long long maxIts = sceneLimits ? iterations : std::max<long long>(iterations, 1000);
  r.key("solver.linear", "iterative");
  r.key("solver.residual-norm", "unpreconditioned");
  r.key("solver.rtol", parse::text(rtol));
  r.key("solver.max-iterations", std::to_string(maxIts));
  r.key("solver.iteration-limit", sceneLimits ? "accept" : "error");
  r.note(o.label() + ": iterations " + std::to_string(iterations) + ", tolerance " +
         parse::text(tolerance) + " (SOFA stops when |r|/|b| <= tolerance), threshold " +
         parse::text(threshold) + " (on p^T A p; no KSP counterpart) -> CG, " +
         "unpreconditioned residual, solver.rtol = " + parse::text(rtol) +
         ", solver.max-iterations = " + std::to_string(maxIts) +
         (sceneLimits ? ", the limit accepted as SOFA does (scene.linear-solver-limits = scene)"
                      : ", converged: never weaker than rtol 1e-8 "
                        "(scene.linear-solver-limits = scene keeps the scene's)"));
  return true;
}

// Gravity as the mechanical node's context has it (the nearest node, up from it, that sets it)
// and the root's dt (BaseContext: gravity 0 -9.81 0, dt 0.01). A Gravity component sets its
// node's context gravity after the node has taken its parent's (Node::initializeContexts runs
// the context objects' apply, in order, after copySimulationContext), so at a node it wins over
// the node's own gravity field, the last of several winning; its gravity defaults to 0 0 0.
void mapContext(Reader& r, const SofaScene& scene, const SofaNode& mechanical,
                bool skipUnsupported) {
  auto value = [](const std::string* text, const char* fallback) {
    std::string joined;
    for (const std::string& t : parse::tokens(text ? *text : fallback))
      joined += (joined.empty() ? "" : " ") + t;
    return joined;
  };
  const std::string* gravity = nullptr;
  const SofaObject* component = nullptr;
  for (const SofaNode* node = &mechanical; node && !gravity && !component; node = node->parent) {
    for (const SofaObject& o : node->objects)
      if (o.type == "Gravity") component = &o;
    if (!component) gravity = node->field("gravity");
  }
  if (component) {
    sofa::checkDataFields(r, *component, skipUnsupported);
    const std::vector<double> g = r.reals(*component, "gravity");
    if (!g.empty() && g.size() != 3)
      r.reject(*component, "gravity", "expected three components (x y z)");
    r.from(*component);
    r.key("load.gravity",
          g.empty() ? "0 0 0"
                    : parse::text(g[0]) + " " + parse::text(g[1]) + " " + parse::text(g[2]));
  } else {
    r.key("load.gravity", value(gravity, "0 -9.81 0"));
  }
  r.key("solver.dt", value(scene.root().field("dt"), "0.01"));
}

std::string listed(std::vector<std::string> types) {
  std::sort(types.begin(), types.end());
  std::string text;
  for (std::size_t i = 0; i < types.size();) {
    std::size_t j = i;
    while (j < types.size() && types[j] == types[i]) ++j;
    text += (text.empty() ? "" : ", ") + types[i] + (j - i > 1 ? " x" + std::to_string(j - i) : "");
    i = j;
  }
  return text;
}

void unsupported(Reader& reader, const SofaObject& o, const std::string& why,
                 const SofaImportOptions& options) {
  if (!options.skipUnsupported)
    throw Error(o.where + ": " + o.type + (o.name.empty() ? "" : " '" + o.name + "'") + ": " + why +
                " (--scene.skip-unsupported=true skips it with a warning)");
  reader.warn("skipped " + o.label() + ": " + why);
}

// The body's components whose matrices a controller may read: SOFA's force fields with a
// stiffness (a ConstantForceField has none) and masses.
SofaMatrixSources matrixSources(const sofa::Body& body) {
  const auto ends = [](const std::string& type, const std::string& end) {
    return type.size() >= end.size() &&
           type.compare(type.size() - end.size(), end.size(), end) == 0;
  };
  SofaMatrixSources sources;
  for (const SofaObject* o : body.components) {
    if ((o->type.find("ForceField") != std::string::npos || ends(o->type, "Springs")) &&
        o->type != "ConstantForceField")
      sources.stiffness.push_back(objectPath(*o));
    if (ends(o->type, "Mass")) sources.masses.push_back(objectPath(*o));
    if (o->type == "MatrixLinearSystem" || o->type == "ConstantSparsityPatternSystem")
      sources.systems.push_back(objectPath(*o));
  }
  sources.mapped = !body.mapped.empty();
  sources.python = std::any_of(body.components.begin(), body.components.end(),
                               [](const SofaObject* o) { return o->type == "PythonForceField"; });
  return sources;
}

// SOFA's CGLinearSolver (a GraphScatteredMatrix) assembles no matrix: it multiplies by
// addDForce and never calls addKToMatrix. A force field written in Python with addDForce (the
// methods the scene driver recorded) is then run matrix-free, as SOFA runs it, whatever its
// addKToMatrix gives (SofaPython3's emptyForceField.py returns nothing from it); under a solver
// that assembles, a missing or unreadable matrix stays an error (model/gathered_force_field).
void matrixFreeUnderCG(Reader& r, const SofaObject& o, const SofaObject* linearSolver) {
  if (!linearSolver || linearSolver->type != "CGLinearSolver" || r.gave("solver.operator")) return;
  const auto methods = parse::tokens(r.text(o, "methods").value_or(""));
  const auto defines = [&methods](const char* m) {
    return std::find(methods.begin(), methods.end(), m) != methods.end();
  };
  if (!defines("addDForce")) return;
  r.key("solver.operator", "matrix-free");
  r.key("python.add-k-to-matrix", "false");
  r.note(o.label() +
         ": the step's matrix is matrix-free (addDForce; addKToMatrix is never called), as "
         "SOFA's CGLinearSolver multiplies by addDForce and assembles none");
}

// A pressure on a mapped child's faces has a tangent J^T K J between body nodes of different
// cells, which no element matrix holds (model/mapped_pressure.hpp): under SOFA's CGLinearSolver,
// which multiplies by addDForce and assembles none, the step's operator is matrix-free; a solver
// that assembles is refused.
void matrixFreeForMappedPressure(Reader& r, const sofa::MappedNode& child,
                                 const SofaObject* linearSolver) {
  const SofaObject* pressure = nullptr;
  for (const SofaObject* o : child.components)
    if (o->type == "SurfacePressureForceField") pressure = o;
  if (r.gave("solver.operator") && r.gaveValue("solver.operator") == "matrix-free") return;
  if (!linearSolver || linearSolver->type != "CGLinearSolver" || r.gave("solver.operator"))
    throw Error(pressure->where + ": " + pressure->label() +
                ": a pressure on a mapped child's faces is supported under a CGLinearSolver "
                "(matrix-free) only: its tangent J^T K J couples body nodes of different cells, "
                "which the assembled matrix here cannot hold (linear solver: " +
                (linearSolver ? linearSolver->label() : std::string("none")) + ")");
  r.key("solver.operator", "matrix-free");
  r.note(pressure->label() +
         ": the step's matrix is matrix-free (its tangent couples body nodes of different "
         "cells), as SOFA's CGLinearSolver multiplies by addDForce and assembles none");
}

// SOFA's InteractionEllipsoidForceField has no stiffness matrix (no addKToMatrix): under its
// CGLinearSolver SOFA multiplies by addDForce, and the step's operator is matrix-free here; a
// solver that assembles is refused.
void matrixFreeForInteractionEllipsoid(Reader& r, const SofaObject& o,
                                       const SofaObject* linearSolver) {
  if (r.gave("solver.operator") && r.gaveValue("solver.operator") == "matrix-free") return;
  if (!linearSolver || linearSolver->type != "CGLinearSolver" || r.gave("solver.operator"))
    throw Error(o.where + ": " + o.label() +
                ": supported under a CGLinearSolver (matrix-free) only: SOFA gives it no "
                "stiffness matrix (no addKToMatrix), so an assembling solver would miss its "
                "stiffness (linear solver: " +
                (linearSolver ? linearSolver->label() : std::string("none")) + ")");
  r.key("solver.operator", "matrix-free");
  r.note(o.label() +
         ": the step's matrix is matrix-free (SOFA gives the field no stiffness matrix), as "
         "SOFA's CGLinearSolver multiplies by addDForce and assembles none");
}

// The load a ConstantForceField gave (the key its mapping added after `before`), as the
// ordinal of that key's value among the body's keys, for a Python controller to write.
void noteForceLoad(const SofaObject& o, const std::vector<SofaKey>& keys, std::size_t before,
                   std::vector<SofaForceLoad>& forces) {
  for (std::size_t i = before; i < keys.size(); ++i) {
    const std::string& key = keys[i].key;
    if (key != "load.constant-force" && key != "load.total-force" && key != "load.nodal-forces")
      continue;
    const auto ordinal = std::count_if(keys.begin(), keys.begin() + std::ptrdiff_t(i),
                                       [&key](const SofaKey& k) { return k.key == key; });
    forces.push_back({objectPath(o), key, int(ordinal)});
  }
}

// One body's keys: its context and mesh, the solvers that integrate it, then every component
// that acts on it, in the order written; the loads of its ConstantForceFields in `forces`.
void importBody(Reader& reader, const SofaScene& scene, const sofa::Body& body,
                const SofaImportOptions& options, std::vector<SofaKey>& keys,
                std::vector<SofaForceLoad>& forces) {
  const SofaObject& state = *body.state;
  // A misspelt data field would run with SOFA's default: every object read is checked first.
  for (const SofaObject* o : {body.state, body.odeSolver, body.nonlinearSolver, body.linearSolver})
    if (o) sofa::checkDataFields(reader, *o, options.skipUnsupported);
  for (const SofaObject* o : body.components) {
    sofa::checkDataFields(reader, *o, options.skipUnsupported);
    sofa::checkLinkedDataFields(reader, *o, options.skipUnsupported);
  }
  // SOFA leaves a state no ODE solver integrates where it is; what acts on it (a mass, a force,
  // a constraint, a mapping read by a solver: the walk keeps only those as bodies) would act on
  // a state that never moves, which this importer does not model.
  if (!body.odeSolver)
    throw Error(state.where + ": " + state.label() +
                ": no EulerImplicitSolver in its node or above integrates it, yet " +
                (body.components.empty() ? std::string("a mapping under an ODE solver reads it")
                                         : body.components.front()->label() + " acts on it") +
                ": a state SOFA never moves is supported only as a collision obstacle");
  reader.from(state);
  mapContext(reader, scene, *state.node, options.skipUnsupported);
  reader.from(state);
  // Rigid frames are a body of their own kind (io/sofa_rigid), with its own few components.
  const bool rigid = sofa::isRigidTemplate(reader.text(state, "template").value_or("Vec3d"));
  const bool lowDimension =
      !rigid && sofa::templateDimensions(reader.text(state, "template").value_or("Vec3d")) < 3;
  // A Vec1 temperature on a Vec3 state's tetrahedra (io/sofa_diffusion).
  const bool diffusion = lowDimension && sofa::isDiffusionBody(reader, body);
  if (lowDimension && !diffusion)
    sofa::checkLowDimensionBody(reader, state, body.components, !body.mapped.empty());
  // Children that carry only a hexahedral FEM force field act on the body's hexahedra
  // (io/sofa_mapped_fem); the others are mapped children (io/sofa_mapped_child), and every child
  // of frames (io/sofa_rigid_mapping).
  std::vector<const sofa::MappedNode*> femChildren, mappedChildren, distanceChildren,
      subsetMultiChildren;
  for (const sofa::MappedNode& child : body.mapped)
    if (child.mapping->type == "VolumeMapping")
      sofa::mapVolumeMappedChild(reader, child, state, options.skipUnsupported);
    else if (child.mapping->type == "SubsetMultiMapping")
      subsetMultiChildren.push_back(&child);
    else if (child.mapping->type == "DistanceMapping")
      distanceChildren.push_back(&child);
    else
      (!rigid && sofa::carriesOnlyFem(child) ? femChildren : mappedChildren).push_back(&child);
  const SofaObject* bodyGrid = nullptr;
  if (rigid)
    sofa::mapRigidState(reader, state);
  else if (diffusion)
    bodyGrid = mapMesh(reader, sofa::diffusionGeometry(reader, body), options, body.components);
  else
    bodyGrid = mapMesh(reader, state, options, body.components,
                       femChildren.empty() || sofa::readsTetrahedra(*femChildren.front())
                           ? nullptr
                           : femChildren.front()->components.front());
  // SubsetMultiMapping children's springs join the bodies of their inputs
  // (io/sofa_subset_multi_mapping).
  for (const sofa::MappedNode* child : subsetMultiChildren) {
    for (const SofaObject* o : child->components)
      sofa::checkDataFields(reader, *o, options.skipUnsupported);
    for (const SofaObject* o : {child->mapping, child->state})
      sofa::checkDataFields(reader, *o, options.skipUnsupported);
    sofa::mapSubsetMultiMappedChild(reader, *child);
  }
  reader.from(state);
  // DistanceMapping children read the body's edges (io/sofa_distance_mapping).
  for (const sofa::MappedNode* child : distanceChildren)
    sofa::mapDistanceMappedChild(reader, *child, state, options.skipUnsupported);
  // Vec1 and Vec2 states: 3D points held in the first d coordinates (io/sofa_low_dimension).
  if (lowDimension && !diffusion) sofa::mapLowDimensionBody(reader, state, bodyGrid, keys);
  const std::string why = "not supported: it may change the mechanics";
  for (const SofaObject* solver : {body.odeSolver, body.nonlinearSolver}) {
    if (!solver) continue;
    reader.from(*solver);
    if (!mapOdeSolver(reader, *solver)) unsupported(reader, *solver, why, options);
  }
  if (body.linearSolver) {
    reader.from(*body.linearSolver);
    // BTDLinearSolver.inl: Thomas' algorithm reads only the blocks (i, i-1), (i, i), (i, i+1)
    // of the system, 6 x 6 (BTDMatrix6d): a chain of frames numbered along it, where it is a
    // direct solve (the run checks that the frames' matrix has no other block:
    // rigid.block-tridiagonal); a mesh's matrix has others, which it would drop.
    if (rigid && body.linearSolver->type == "BTDLinearSolver") {
      if (reader.boolean(*body.linearSolver, "subpartSolve", false))
        reader.reject(*body.linearSolver, "subpartSolve",
                      "a solve of a part of the system is not supported");
      reader.key("solver.linear", "direct");
      reader.key("rigid.block-tridiagonal", "true");
      reader.note(body.linearSolver->label() +
                  " -> solver.linear = direct (MUMPS through PETSc), exact where the frames' "
                  "matrix is block-tridiagonal (rigid.block-tridiagonal, checked by the run)");
    } else if (!mapLinearSolver(reader, *body.linearSolver, options.sceneLinearLimits))
      unsupported(reader, *body.linearSolver,
                  body.linearSolver->type == "BTDLinearSolver"
                      ? "not supported: it solves a block-tridiagonal system (Thomas' algorithm "
                        "on the blocks next to the diagonal, a beam's chain of frames) and drops "
                        "every other block, which a direct solve would not"
                      : why,
                  options);
  }
  if (diffusion) {
    const SofaObject* loader = reader.linked(state, "position");
    sofa::mapDiffusionBody(
        reader, body,
        loader && loader->type == "MeshOBJLoader" ? findFile(reader, *loader, options) : "", keys);
  }
  for (const SofaObject* o : body.components) {
    if (diffusion) break;
    reader.from(*o);
    if (rigid) {
      // UniformMass<Rigid3>::init reads its mass file, found as a loader's file is.
      if (o->type == "UniformMass" && reader.text(*o, "filename").value_or("unused") != "unused")
        reader.key("rigid.mass", sofa::rigidMassFromFile(findFile(reader, *o, options),
                                                         reader.where(*o, "filename")));
      if (!sofa::mapRigidComponent(reader, *o))
        unsupported(reader, *o, sofa::refusalOnFrames(o->type) + " (" + state.label() + ")",
                    options);
      continue;
    }
    // The constraint solver that the ODE solver's solveConstraint calls: io/sofa_lagrangian's.
    if (sofa::isConstraintSolver(o->type) && o->node == body.odeSolver->node &&
        sofa::solvesConstraintInStep(reader, body.odeSolver))
      continue;
    // Its file is found as a loader's is (io/sofa_topology_changes).
    if (o->type == "TopologicalChangeProcessor") {
      sofa::mapTopologicalChanges(reader, *o, findFile(reader, *o, options));
      continue;
    }
    const std::size_t before = keys.size();
    if (const sofa::SofaMapping map = sofa::sofaMapping(o->type))
      map(reader, *o);
    else
      unsupported(reader, *o, why, options);
    if (o->type == "ConstantForceField") noteForceLoad(*o, keys, before, forces);
    if (o->type == "PythonForceField") matrixFreeUnderCG(reader, *o, body.linearSolver);
    if (o->type == "InteractionEllipsoidForceField")
      matrixFreeForInteractionEllipsoid(reader, *o, body.linearSolver);
  }
  // Points a frame carries from the body (io/sofa_carried_points), located in its sparse grid's
  // cubes as SOFA's sparse grid mapper locates them.
  for (const sofa::CarriedNode& carried : body.carried) {
    if (&carried != &body.carried.front())
      throw Error(carried.frameMapping->where + ": " + state.label() +
                  " has a second child a frame carries (the first: " +
                  body.carried.front().frameMapping->node->path() + "): one is supported");
    for (const SofaObject* o : {carried.frameMapping, carried.child.mapping, carried.child.state})
      sofa::checkDataFields(reader, *o, options.skipUnsupported);
    for (const SofaObject* o : carried.child.components)
      sofa::checkDataFields(reader, *o, options.skipUnsupported);
    if (!bodyGrid || !sofa::isSparseGrid(bodyGrid->type))
      throw Error(carried.child.mapping->where + ": " + carried.child.mapping->label() +
                  ": points a frame carries are read from a body on a SparseGridTopology (SOFA's "
                  "sparse grid mapper); " +
                  state.label() + " is on " +
                  (bodyGrid ? bodyGrid->label() : std::string("no grid")));
    const SofaObject* loader = reader.linked(*carried.child.state, "position");
    sofa::mapCarriedNode(
        reader, carried, *bodyGrid, sofa::sceneSparseGrid(reader, *bodyGrid),
        loader && loader->type == "MeshOBJLoader" ? findFile(reader, *loader, options) : "", keys);
    reader.from(state);
  }
  // A SubsetMultiMapping's child read as a body: its held points and its free inputs' mass
  // (io/sofa_split_body).
  if (body.splitMapping) {
    for (const SofaObject* o : body.splitMasses)
      sofa::checkDataFields(reader, *o, options.skipUnsupported);
    sofa::checkDataFields(reader, *body.splitMapping, options.skipUnsupported);
    sofa::mapSplitBody(reader, body);
  }
  // EulerExplicitSolver inverts a diagonal mass itself; a mass that is not diagonal (a consistent
  // MeshMatrixMass, a hexahedral FEM's, a mapped child's) needs the node's linear solver, or SOFA
  // flags an error and leaves the state where it is.
  const std::string massType = reader.gaveValue("mass.type");
  if (!rigid && body.odeSolver->type == "EulerExplicitSolver" && !body.linearSolver &&
      (massType == "consistent" || massType == "hexahedron-fem" || !mappedChildren.empty() ||
       !femChildren.empty()))
    throw Error(body.odeSolver->where + ": EulerExplicitSolver: the mass of " + state.label() +
                " is not diagonal" + (massType.empty() ? "" : " (mass.type = " + massType + ")") +
                " or comes from a mapped child, and no linear solver is in its node: SOFA's "
                "\"the solver requires a linear solver\" error");
  // Without a mass component SOFA's M is 0: its system matrix is -h B - h (h + rayleighStiffness)
  // K, a quasi-static step, and gravity, which acts through the mass, pulls on nothing: our
  // mass.type = none. A body whose mass would come from a mapped child, or whose stiffness from a
  // mapped child's FEM, and a diffusion body stay refused (not carried with M = 0 here).
  const bool massless = !rigid && !reader.gave("mass.type");
  if (massless) {
    if (diffusion || !femChildren.empty() || !mappedChildren.empty())
      throw Error(state.where + ": " + state.type +
                  (state.name.empty() ? "" : " '" + state.name + "'") +
                  ": no mass component: SOFA's step would have M = 0, which is simulated here "
                  "only for a body with no mapped child and no diffusion; give it a mass "
                  "(UniformMass, DiagonalMass, MeshMatrixMass, ...)");
    reader.key("mass.type", "none");
    reader.note(state.label() +
                ": no mass component -> mass.type = none (SOFA's M = 0: a quasi-static step, "
                "no gravity force)");
    // Its K may be singular (a chain of springs has no stiffness across itself): SOFA's CG,
    // unpreconditioned from x = 0, then gives the answer with no part in K's null space, which
    // a preconditioner or another start would add. A body a frame carries is solved with the
    // frame, whose mass the system has (and whose solver keys it shares).
    if (body.linearSolver && body.linearSolver->type == "CGLinearSolver" && body.carried.empty() &&
        !reader.gave("solver.preconditioner") && !reader.gave("solver.initial-guess")) {
      reader.key("solver.preconditioner", "none");
      reader.key("solver.initial-guess", "zero");
      reader.note(state.label() +
                  ": massless under a CGLinearSolver -> solver.preconditioner = none, "
                  "solver.initial-guess = zero (SOFA's plain CG from x = 0)");
    }
  }
  if (!femChildren.empty()) {
    const SofaObject& fem = *femChildren.front()->components.front();
    if (bodyGrid && bodyGrid->type != "RegularGridTopology")
      throw Error(fem.where + ": " + fem.label() + ": a mapped child's FEM force field is " +
                  "carried only from a body on a RegularGridTopology, or on the body's own " +
                  "topology (" + state.label() + " is on " + bodyGrid->label() + ")");
    if (reader.gave("material.model"))
      throw Error(fem.where + ": " + fem.label() + ": " + state.label() +
                  " has a FEM force field of its own; one beside a mapped child's is not "
                  "supported");
    for (const char* field : {"translation", "rotation", "scale3d", "scale", "dx", "dy", "dz", "rx",
                              "ry", "rz", "sx", "sy", "sz"})
      reader.refuseIfGiven(state, field,
                           "a body moved by its MechanicalObject is not supported "
                           "under a mapped child's FEM force field");
    for (const sofa::MappedNode* child : femChildren) {
      for (const SofaObject* o : {child->mapping, child->state, child->components.front()})
        sofa::checkDataFields(reader, *o, options.skipUnsupported);
      for (const SofaObject& o : child->node->objects)
        if (o.type == "RegularGridTopology" || o.type == "MeshTopology" ||
            o.type == "TetrahedronSetTopologyContainer" ||
            o.type == "HexahedronSetTopologyContainer")
          sofa::checkDataFields(reader, o, options.skipUnsupported);
    }
    if (bodyGrid)
      sofa::mapMappedFems(reader, *bodyGrid, femChildren, keys);
    else
      sofa::mapSharedTopologyFem(reader, state, femChildren);
  }
  // Points a RigidMapping drives from frames: the body's rigid.mapped-* keys
  // (io/sofa_rigid_mapping).
  if (rigid && !mappedChildren.empty()) {
    const sofa::MappedNode& child = *mappedChildren.front();
    if (mappedChildren.size() > 1)
      throw Error(mappedChildren[1]->mapping->where + ": " + state.label() +
                  " has a second mapped child with masses or force fields (the first: " +
                  child.node->path() + "): one a body is supported");
    for (const SofaObject* o : child.components)
      sofa::checkDataFields(reader, *o, options.skipUnsupported);
    for (const SofaObject* o : {child.mapping, child.state})
      sofa::checkDataFields(reader, *o, options.skipUnsupported);
    // Points from a MeshOBJLoader (`src` or `position` linked to it): its file, found here.
    const SofaObject* loader = reader.linked(*child.state, "position");
    const std::string objFile =
        loader && loader->type == "MeshOBJLoader" ? findFile(reader, *loader, options) : "";
    sofa::mapRigidMappedChild(reader, child, keys, objFile);
    mappedChildren.clear();
  }
  // Frames with no UniformMass and no mass in a mapped child: SOFA's M is 0 and gravity, which
  // acts through the mass, pulls on nothing; rigid.mass would give them 1 each.
  if (rigid && !reader.gave("rigid.mass") && !reader.gave("rigid.total-mass"))
    throw Error(state.where + ": " + state.type +
                ": rigid frames with no mass (no UniformMass on them, nor a mass in a child "
                "that a RigidMapping drives from them): not supported; give them a mass");
  for (const sofa::MappedNode* each : mappedChildren) {
    const sofa::MappedNode& child = *each;
    if (child.mapping->type == "RigidMapping")
      throw Error(child.mapping->where + ": RigidMapping: its input " + state.label() +
                  " is not a Rigid3d state");
    if (each != mappedChildren.front())
      throw Error(child.mapping->where + ": " + state.label() +
                  " has a second mapped child with masses or force fields (the first: " +
                  mappedChildren.front()->node->path() + "): one a body is supported");
    for (const SofaObject* o : child.components)
      sofa::checkDataFields(reader, *o, options.skipUnsupported);
    for (const SofaObject* o : {child.mapping, child.state})
      sofa::checkDataFields(reader, *o, options.skipUnsupported);
    // SOFA's mapper of a sparse grid reads the grid's cubes (io/sofa_mapped_child).
    std::optional<sofa::SparseGrid> sparse;
    std::vector<sofa::GridLevel> finer;
    if (bodyGrid && sofa::isSparseGrid(bodyGrid->type) &&
        (child.mapping->type == "BarycentricMapping" ||
         child.mapping->type == "HexahedronCompositeFEMMapping"))
      sparse = sofa::sceneSparseGrid(reader, *bodyGrid, &finer);
    // Points from a MeshOBJLoader (`src` or `position` linked to it): its file, found here.
    const SofaObject* loader = reader.linked(*child.state, "position");
    const bool obj = loader && loader->type == "MeshOBJLoader";
    for (const SofaObject* o : child.components)
      if (o->type == "SurfacePressureForceField") {
        for (const SofaObject& each : child.node->objects)
          if (each.type == "MeshTopology" || &each == loader)
            sofa::checkDataFields(reader, each, options.skipUnsupported);
        if (const SofaObject* l = reader.linked(*o, "topology"))
          sofa::checkDataFields(reader, *l, options.skipUnsupported);
      }
    sofa::mapMappedChild(reader, child, keys, sparse ? &*sparse : nullptr, &finer,
                         obj ? findFile(reader, *loader, options) : "");
    if (reader.gave("mapped.pressure") || reader.gave("mapped.pressure-pulse"))
      matrixFreeForMappedPressure(reader, child, body.linearSolver);
  }
  // Every force comes from a component the scene names: without a FEM force field (the
  // mappings that give material.model), none; diffusion's force field is its physics'.
  if (!rigid && !diffusion && !reader.gave("material.model")) {
    reader.from(state);
    reader.key("material.model", "none");
    reader.note("no FEM force field acts on " + state.label() +
                ": material.model = none (no elastic force field)");
  }
}

// SOFA's CGLinearSolver (a GraphScatteredMatrix) is matrix-free for every state its ODE solver
// integrates: where the import made one body's operator matrix-free (springs that lie in no
// cell), the other bodies of its solver take it too, so that their solver keys agree.
void shareMatrixFree(Reader& reader, const sofa::Walk& walk, SofaImport& out) {
  const auto given = [](const std::vector<SofaKey>& keys, const std::string& value) {
    return std::any_of(keys.begin(), keys.end(), [&](const SofaKey& k) {
      return k.key == "solver.operator" && (value.empty() || k.value == value);
    });
  };
  // A body read as an object of its own, or nullptr: some states (a kinematic frame whose points
  // only constraints read) are no object, so the objects are found by path, not by position.
  const auto objectOf = [&](const sofa::Body& body) -> SofaObjectKeys* {
    for (SofaObjectKeys& o : out.objects)
      if (o.path == body.state->node->path()) return &o;
    return nullptr;
  };
  for (const sofa::Body& body : walk.bodies) {
    const SofaObjectKeys* object = objectOf(body);
    if (!object || !given(object->keys, "matrix-free")) continue;
    for (const sofa::Body& other : walk.bodies) {
      SofaObjectKeys* target = objectOf(other);
      if (!target || other.odeSolver != body.odeSolver || given(target->keys, "")) continue;
      reader.into(target->keys);
      reader.from(*body.odeSolver);
      reader.key("solver.operator", "matrix-free");
      reader.note(other.state->label() + ": the step's matrix is matrix-free, as " +
                  body.state->label() + "'s under the same ODE solver");
    }
  }
}

}  // namespace

SofaImport importSofaScene(const SofaScene& scene, const SofaImportOptions& options) {
  SofaImport out;
  Reader reader(scene, out);
  reader.findFilesWith(
      [&](const SofaObject& o, const std::string& field, const std::optional<std::string>& name) {
        return findNamedFile(reader, o, options, field, name);
      });
  const sofa::Walk walk = sofa::walkScene(scene, reader, options.skipUnsupported);
  // The scene's animation loop and constraint solver act on every body (io/sofa_lagrangian).
  const SofaObject *loop = nullptr, *constraintSolver = nullptr;
  for (const SofaObject* o : walk.orphans) {
    const bool isLoop = sofa::isFreeMotionLoop(o->type);
    // Node::animationManager is a single link: each animation loop added replaces the last.
    if (isLoop && loop && loop->node == o->node) {
      sofa::checkDataFields(reader, *o, options.skipUnsupported);
      reader.note(loop->label() + " (" + loop->where + "): replaced by " + o->label() + " (" +
                  o->where + "), the last animation loop of its node, as SOFA's single link does");
      loop = o;
    } else if ((isLoop && !loop) || (sofa::isConstraintSolver(o->type) && !constraintSolver)) {
      sofa::checkDataFields(reader, *o, options.skipUnsupported);
      (isLoop ? loop : constraintSolver) = o;
    } else if (o->type == "ConstantSparsityPatternSystem" || o->type == "MatrixLinearSystem" ||
               o->type == "CompositeLinearSystem") {
      // In a solver's node above the states it assembles: read as in a body's node.
      sofa::checkDataFields(reader, *o, options.skipUnsupported);
      sofa::sofaMapping(o->type)(reader, *o);
    } else {
      unsupported(reader, *o, "not supported: it may change the mechanics", options);
    }
  }
  // Contacts first: where a collision pipeline makes them they are the scene's constraints,
  // before what a body lacks for them.
  if (loop) sofa::refuseContacts(*loop, walk.collision);
  if (walk.bodies.empty() && !walk.obstacles.empty())
    throw Error(walk.obstacles.front()->where + ": " + walk.obstacles.front()->label() +
                ": no EulerImplicitSolver in its node or above integrates it, nor any other "
                "MechanicalObject of the scene: nothing to simulate");
  if (walk.bodies.empty() && !walk.still.empty())
    throw Error(walk.still.front()->where + ": " + walk.still.front()->label() +
                ": nothing acts on it and SOFA leaves it where Mesh2PointTopologicalMapping puts "
                "it, nor is there any other MechanicalObject: nothing to simulate");
  if (walk.bodies.empty()) throw Error(scene.root().where + ": the scene has no MechanicalObject");
  std::vector<std::string> collision = walk.collision;
  const std::set<const SofaObject*> targets = sofa::bilateralTargets(reader, walk);
  for (const SofaObject* o : walk.obstacles) {
    if (targets.count(o)) {
      reader.note(o->label() + " in " + o->node->path() +
                  ": no ODE solver integrates it and nothing acts on it; SOFA never moves it: "
                  "the fixed points a Lagrangian constraint holds others to");
      continue;
    }
    reader.note(o->label() + " in " + o->node->path() +
                ": no ODE solver integrates it and nothing acts on it; SOFA never moves it: "
                "a collision obstacle, skipped");
    collision.push_back("MechanicalObject without an ODE solver");
  }
  for (const SofaObject* o : walk.still)
    reader.note(o->label() + " in " + o->node->path() +
                ": Mesh2PointTopologicalMapping gives it its points and nothing acts on it (no "
                "mass, force field, constraint or mapping reading it): its rows of the step are "
                "zero and SOFA leaves it where the mapping puts it; skipped");
  const std::set<const SofaObject*> frames = sofa::targetFrames(reader, targets);
  for (const sofa::Body& body : walk.bodies) {
    // A frame that only LinearMovementProjectiveConstraints move, read with the points it maps
    // (io/sofa_rigid_targets), as SOFA's FreeMotionAnimationLoop projects it and maps them.
    if (!body.odeSolver && frames.count(body.state) &&
        std::all_of(body.components.begin(), body.components.end(), [](const SofaObject* o) {
          return o->type == "LinearMovementProjectiveConstraint";
        })) {
      sofa::checkDataFields(reader, *body.state, options.skipUnsupported);
      for (const SofaObject* o : body.components)
        sofa::checkDataFields(reader, *o, options.skipUnsupported);
      reader.note(body.state->label() + " in " + body.state->node->path() +
                  ": no ODE solver integrates it; its projective constraints move the points "
                  "a BilateralLagrangianConstraint holds others to");
      continue;
    }
    out.objects.push_back({body.state->node->path(), {}, {}, matrixSources(body), {}});
    for (const SofaObject* o : body.components)
      if (o->type == "TetrahedronFEMForceField")
        out.objects.back().stiffnessFactors.push_back(
            {objectPath(*o), reader.boolean(*o, "updateStiffness", false)});
    reader.into(out.objects.back().keys);
    importBody(reader, scene, body, options, out.objects.back().keys, out.objects.back().forces);
    // Every state below one ODE solver is one system (SOFA's MechanicalOperations visit them
    // all): the bodies of a solver node that integrates several are one solver.group.
    const auto shared =
        std::count_if(walk.bodies.begin(), walk.bodies.end(),
                      [&](const sofa::Body& other) { return other.odeSolver == body.odeSolver; });
    if (shared > 1) {
      reader.from(*body.odeSolver);
      reader.key("solver.group", body.odeSolver->node->path());
    }
    sofa::mapConstraintSolving(reader, loop, constraintSolver, body.components, body.odeSolver,
                               body.linearSolver, walk.collision);
  }
  shareMatrixFree(reader, walk, out);
  sofa::readerSystems(reader, out);
  for (const SofaObject* o : walk.controllers)
    out.controllers.push_back(o->label() + ", class " + reader.text(*o, "class").value_or("?"));
  if (!walk.visual.empty()) reader.note("skipped (visual only): " + listed(walk.visual));
  if (!collision.empty())
    reader.warn("skipped collision and contact components (contact is not simulated): " +
                listed(collision));
  return out;
}

}  // namespace eis
