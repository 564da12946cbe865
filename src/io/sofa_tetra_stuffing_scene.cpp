// MeshTetraStuffing read from a scene (io/sofa_tetra_stuffing.hpp): its settings, its surface,
// and the links of the topology that takes its outputs.
#include <string>
#include <vector>

#include "eis/core/error.hpp"
#include "eis/core/parameters.hpp"
#include "sofa_sparse_grid.hpp"
#include "sofa_tetra_stuffing.hpp"

namespace eis::sofa {

namespace {

// The link of `topology`'s field (or its alias) to `engine`: the engine's field it names, or
// "" when neither is a link to it.
std::string linkTo(Reader& reader, const SofaObject& topology, const SofaObject& engine,
                   const char* field, const char* alias) {
  for (const char* f : {field, alias}) {
    std::string linkedField;
    const SofaObject* source = reader.linked(topology, f, &linkedField);
    if (!source) continue;
    if (source != &engine)
      reader.reject(topology, f,
                    "its points come from " + engine.label() + ", its cells from elsewhere");
    return linkedField;
  }
  return "";
}

// The surface the engine's inputPoints and inputTriangles link to: an OBJ file's vertices and
// triangles, as a MeshTopology (filename) or MeshOBJLoader reads them.
void readSurface(Reader& reader, const SofaObject& engine,
                 std::vector<std::array<double, 3>>& points,
                 std::vector<std::array<long long, 3>>& triangles) {
  std::string pointsField, trianglesField;
  const SofaObject* source = reader.linked(engine, "inputPoints", &pointsField);
  const SofaObject* cells = reader.linked(engine, "inputTriangles", &trianglesField);
  const bool known = source && (source->type == "MeshTopology" || source->type == "MeshOBJLoader");
  if (!known || cells != source || trianglesField != "triangles" ||
      (pointsField != "position" && pointsField != "points"))
    reader.reject(engine, "inputPoints",
                  "expected links to the position (or points) and triangles of one MeshTopology "
                  "or MeshOBJLoader reading an OBJ file");
  for (const char* field : {"translation", "rotation", "scale3d", "scale", "transformation"})
    reader.refuseIfGiven(*source, field,
                         "a transformed surface under a MeshTetraStuffing is not supported");
  if (reader.boolean(*source, "handleSeams", false))
    reader.reject(*source, "handleSeams",
                  "renumbers the file's vertices: not supported under a MeshTetraStuffing");
  const std::string path = reader.file(*source, "filename");
  if (path.size() < 4 || path.compare(path.size() - 4, 4, ".obj") != 0)
    reader.reject(*source, "filename", "only an OBJ file is read as MeshTetraStuffing's surface");
  const Surface surface = readObj(path);
  points = surface.vertices;
  for (const auto& facet : surface.facets) {
    if (facet.size() != 3)
      reader.reject(*source, "filename",
                    path + ": a facet of " + std::to_string(facet.size()) +
                        " corners: MeshTetraStuffing's surface must be triangles here");
    triangles.push_back({facet[0], facet[1], facet[2]});
  }
}

}  // namespace

void mapTetraStuffing(Reader& reader, const SofaObject& engine, const SofaObject& topology,
                      const std::string* movedField) {
  const std::string pointsLink =
      movedField ? *movedField : linkTo(reader, topology, engine, "position", "points");
  if (pointsLink != "outputPoints")
    reader.reject(topology, "position", "expected a link to " + engine.label() + "'s outputPoints");
  const std::string cellsLink = linkTo(reader, topology, engine, "tetrahedra", "tetras");
  if (cellsLink != "outputTetrahedra" && cellsLink != "outputTetras")
    reader.reject(topology, "tetrahedra",
                  "expected a link to " + engine.label() + "'s outputTetrahedra");
  for (const char* field : {"hexahedra", "hexas", "triangles", "quads", "edges"})
    if (reader.linked(topology, field) == &engine)
      reader.reject(topology, field, "MeshTetraStuffing makes tetrahedra only");
  reader.refuseIfGiven(engine, "inputQuads", "not supported: give the surface as triangles");
  StuffingSettings settings;
  settings.size = reader.real(engine, "size", settings.size);
  settings.alphaLong = reader.real(engine, "alphaLong", settings.alphaLong);
  settings.alphaShort = reader.real(engine, "alphaShort", settings.alphaShort);
  settings.snapPoints = reader.boolean(engine, "snapPoints", false);
  settings.splitTetrahedra =
      reader.boolean(engine, "splitTetrahedra", reader.boolean(engine, "splitTetras", false));
  if (reader.given(engine, "vbbox")) {
    const std::vector<double> box = reader.reals(engine, "vbbox");
    if (box.size() != 6) reader.reject(engine, "vbbox", "expected 6 numbers (min, then max)");
    settings.boxMin = {box[0], box[1], box[2]};
    settings.boxMax = {box[3], box[4], box[5]};
  }
  if (settings.size == 0) reader.reject(engine, "size", "expected a width (or -cells), not 0");
  std::vector<std::array<double, 3>> points;
  std::vector<std::array<long long, 3>> triangles;
  readSurface(reader, engine, points, triangles);
  StuffedMesh mesh;
  try {
    mesh = stuffTetrahedra(points, triangles, settings);
  } catch (const Error& e) {
    throw Error(engine.label() + ": " + e.what());
  }
  for (const std::string& w : mesh.warnings)
    reader.warn(engine.label() + ": " + w + " (SOFA reports it as an error and carries on)");
  std::string nodes, cells;
  for (const auto& p : mesh.points)
    for (double x : p) nodes += (nodes.empty() ? "" : " ") + parse::text(x);
  for (const auto& t : mesh.tetrahedra)
    for (long long id : t) cells += (cells.empty() ? "" : " ") + std::to_string(id);
  reader.key("mesh.nodes", nodes);
  reader.key("mesh.tetrahedra", cells);
}

}  // namespace eis::sofa
