#include "sofa_subset_topology.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "eis/core/error.hpp"
#include "eis/core/parameters.hpp"
#include "eis/mesh/mesh_file.hpp"
#include "sofa_data_fields.hpp"
#include "sofa_sparse_grid.hpp"

namespace eis::sofa {

namespace {

const char* const kKinds[] = {"edges", "triangles", "quads", "tetrahedra", "hexahedra"};

std::size_t cornersOf(const std::string& kind) {
  return kind == "edges" ? 2 : kind == "triangles" ? 3 : kind == "hexahedra" ? 8 : 4;
}

bool isLoader(const SofaObject& o) {
  return o.type == "MeshGmshLoader" || o.type == "MeshVTKLoader" || o.type == "MeshOBJLoader";
}

}  // namespace

SubsetOutput computeSubset(const SubsetInput& input) {
  std::vector<std::array<double, 6>> boxes = input.boxes;
  for (auto& b : boxes)
    for (int d = 0; d < 3; ++d)
      if (b[d] > b[d + 3]) std::swap(b[d], b[d + 3]);
  const bool spheres = !input.centers.empty();
  const std::size_t regions = spheres ? input.centers.size() : boxes.size();
  const auto inside = [&](const std::array<double, 3>& p, std::size_t r) {
    if (!spheres) {
      const auto& b = boxes[r];
      return p[0] >= b[0] && p[0] <= b[3] && p[1] >= b[1] && p[1] <= b[4] && p[2] >= b[2] &&
             p[2] <= b[5];
    }
    const auto& c = input.centers[r];
    const double dx = p[0] - c[0], dy = p[1] - c[1], dz = p[2] - c[2];
    return !(std::sqrt(dx * dx + dy * dy + dz * dz) > input.radii[r]);
  };
  const auto cellsOf = [&](const std::string& kind) -> const std::vector<long long>& {
    static const std::vector<long long> none;
    const auto found = input.cells.find(kind);
    return found == input.cells.end() ? none : found->second;
  };
  SubsetOutput out;
  const bool local = input.localIndices;
  const std::size_t n = input.points.size();
  // findVertexOnBorder: the points in the first region of the cells with points in and out.
  std::vector<long long> border;
  if (local && regions > 0) {
    const std::string kind = cellsOf("tetrahedra").empty() ? "triangles" : "tetrahedra";
    const std::vector<long long>& cells = cellsOf(kind);
    const std::size_t corners = cornersOf(kind);
    std::vector<bool> onBorder(n, false);
    for (std::size_t c = 0; c + corners <= cells.size(); c += corners) {
      bool in = false, outside = false;
      for (std::size_t k = 0; k < corners; ++k)
        (inside(input.points[cells[c + k]], 0) ? in : outside) = true;
      if (in && outside)
        for (std::size_t k = 0; k < corners; ++k)
          if (inside(input.points[cells[c + k]], 0)) onBorder[cells[c + k]] = true;
    }
    for (std::size_t i = 0; i < n; ++i)
      if (onBorder[i]) border.push_back(static_cast<long long>(i));
  }
  out.border = static_cast<long long>(border.size());
  std::vector<long long> localIndex(n, 0);
  if (local) {
    out.indices.resize(border.size());
    out.pointsIn.resize(border.size());
    out.pointsOut.resize(border.size());
  }
  long long in = out.border, outside = out.border;
  std::size_t next = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto& p = input.points[i];
    if (local && next < border.size() && border[next] == static_cast<long long>(i)) {
      localIndex[i] = static_cast<long long>(next);
      out.indices[next] = static_cast<long long>(i);
      out.pointsIn[next] = out.pointsOut[next] = p;
      ++next;
      continue;
    }
    bool any = false;
    for (std::size_t r = 0; r < regions && !any; ++r) any = inside(p, r);
    if (any) {
      out.indices.push_back(static_cast<long long>(i));
      out.pointsIn.push_back(p);
      localIndex[i] = in++;
    } else {
      out.pointsOut.push_back(p);
      localIndex[i] = outside++;
    }
  }
  for (const char* kind : kKinds) {
    const std::vector<long long>& cells = cellsOf(kind);
    const std::size_t corners = cornersOf(kind);
    std::vector<long long>&cellsIn = out.cellsIn[kind], &cellsOut = out.cellsOut[kind],
                     &ids = out.cellIndices[kind];
    for (std::size_t c = 0; c + corners <= cells.size(); c += corners) {
      bool any = false;
      for (std::size_t r = 0; r < regions && !any; ++r) {
        any = true;
        for (std::size_t k = 0; k < corners && any; ++k)
          any = inside(input.points[cells[c + k]], r);
      }
      std::vector<long long>& to = any ? cellsIn : cellsOut;
      for (std::size_t k = 0; k < corners; ++k)
        to.push_back(local ? localIndex[cells[c + k]] : cells[c + k]);
      if (any) ids.push_back(static_cast<long long>(c / corners));
    }
  }
  return out;
}

bool isSubsetPoints(const SofaObject& o, const std::string& field) {
  return o.type == "SubsetTopology" && (field == "pointsInROI" || field == "pointsOutROI");
}

const SofaObject& subsetLoader(Reader& reader, const SofaObject& subset) {
  checkDataFields(reader, subset, false);
  reader.refuseIfGiven(subset, "tetrahedraInput",
                       "choosing the tetrahedra by index is not "
                       "supported yet (box and centers are)");
  std::string field;
  const SofaObject* loader = reader.linked(subset, "rest_position", &field);
  if (!loader || !isLoader(*loader) || field != "position")
    reader.reject(subset, "rest_position",
                  "expected a link to a MeshGmshLoader's, MeshVTKLoader's or MeshOBJLoader's "
                  "position (directly, or through a topology or MechanicalObject that takes it "
                  "with src)");
  // The first object on the way: a MechanicalObject moves its points by its own transform.
  const SofaLinkTarget first = reader.scene().resolve(
      *subset.node, *subset.field("rest_position"), reader.where(subset, "rest_position"), &subset);
  for (const SofaObject* o : {first.object, loader})
    for (const char* t : {"translation", "rotation", "scale3d", "scale", "transformation", "dx",
                          "dy", "dz", "rx", "ry", "rz", "sx", "sy", "sz"})
      if (o && o->type != "SubsetTopology" && o->field(t))
        reader.reject(*o, t, "a SubsetTopology reads the points as the file gives them here");
  if (loader->type == "MeshOBJLoader")
    for (const char* t : {"handleSeams", "triangulate"})
      if (reader.boolean(*loader, t, false))
        reader.reject(*loader, t,
                      "a SubsetTopology reads the file's vertices and faces as MeshOBJLoader "
                      "gives them by default");
  for (const char* kind : kKinds)
    if (const SofaObject* o = reader.linked(subset, kind, &field);
        o && (o != loader || field != kind))
      reader.reject(subset, kind,
                    "expected " + loader->label() + "'s " + kind +
                        " (the loader its rest_position reads), directly or through src");
  return *loader;
}

SerialMesh subsetSourceMesh(const SofaObject& loader, const std::string& path) {
  if (loader.type != "MeshOBJLoader") return readMeshFile(path);
  // MeshOBJLoader::readOBJ without handleSeams or triangulate: the `v` lines in file order; a
  // face of 2 vertices is an edge, of 4 a quad, any other a fan of triangles from its first.
  const Surface obj = readObj(path);
  SerialMesh mesh;
  mesh.nodes = obj.vertices;
  for (const auto& f : obj.facets)
    if (f.size() != 2 && f.size() != 4)
      for (std::size_t j = 2; j < f.size(); ++j) mesh.triangles.push_back({f[0], f[j - 1], f[j]});
  return mesh;
}

namespace {

// The cells the subset reads, by kind, from the loader's file; the kinds not known here (edges and
// quads, which the mesh readers leave out, and cells from another topology) are left out.
SubsetInput inputOf(Reader& reader, const SofaObject& subset, const SerialMesh& mesh) {
  SubsetInput input;
  input.points = mesh.nodes;
  std::string field;
  const SofaObject* loader = reader.linked(subset, "rest_position");
  const SofaObject* context = topologyOf(subset.node);
  for (const std::string kind : {"triangles", "tetrahedra", "hexahedra"}) {
    // SubsetTopology::init: a field not set takes its context topology's.
    const SofaObject* from = reader.linked(subset, kind, &field);
    if (!from && context && !reader.given(subset, kind))
      from = reader.linked(*context, kind, &field);
    if (!from && !(context && context->field(kind)) && !reader.given(subset, kind)) continue;
    if (from != loader || field != kind)
      reader.reject(subset, kind,
                    "expected " + loader->label() + "'s " + kind +
                        " (directly, through src or through the node's topology): other cells "
                        "are not read here");
    const bool cellsAre = (kind == "tetrahedra" && mesh.cells.type() == CellType::Tetrahedron) ||
                          (kind == "hexahedra" && mesh.cells.type() == CellType::Hexahedron) ||
                          (kind == "triangles" && mesh.cells.type() == CellType::Triangle);
    std::vector<long long>& cells = input.cells[kind];
    if (cellsAre)
      cells.assign(mesh.cells.flat().begin(), mesh.cells.flat().end());
    else if (kind == "triangles")
      for (const auto& t : mesh.triangles) cells.insert(cells.end(), t.begin(), t.end());
  }
  std::vector<double> boxes = reader.reals(subset, "box");
  if (!reader.given(subset, "box")) boxes = {0, 0, 0, 1, 1, 1};
  if (boxes.empty() || boxes.size() % 6 != 0)
    reader.reject(subset, "box", "expected 6 numbers per box, at least one box");
  for (std::size_t b = 0; b < boxes.size(); b += 6)
    input.boxes.push_back(
        {boxes[b], boxes[b + 1], boxes[b + 2], boxes[b + 3], boxes[b + 4], boxes[b + 5]});
  if (reader.given(subset, "centers")) {
    const std::vector<double> centers = reader.reals(subset, "centers");
    input.radii = reader.reals(subset, "radii");
    if (centers.empty() || centers.size() % 3 != 0 || input.radii.size() != centers.size() / 3)
      reader.reject(subset, "centers",
                    "expected 3 numbers per center and one radius each (SOFA computes nothing "
                    "otherwise)");
    for (std::size_t c = 0; c < centers.size(); c += 3)
      input.centers.push_back({centers[c], centers[c + 1], centers[c + 2]});
  }
  input.localIndices = reader.boolean(subset, "localIndices", false);
  return input;
}

}  // namespace

void mapSubsetMesh(Reader& reader, const SofaObject& subset, const std::string& pointsField,
                   const SofaObject* topology, const SerialMesh& mesh) {
  const SubsetInput input = inputOf(reader, subset, mesh);
  const bool in = pointsField == "pointsInROI";
  std::string kind, field;
  for (const char* k : {"tetrahedra", "hexahedra", "triangles", "quads", "edges"}) {
    const SofaObject* source = topology ? reader.linked(*topology, k, &field) : nullptr;
    if (source != &subset) continue;
    if (!kind.empty())
      reader.reject(*topology, k, "beside " + kind + ": a body's mesh holds cells of one type");
    if (field != std::string(k) + (in ? "InROI" : "OutROI"))
      reader.reject(*topology, k,
                    "expected " + subset.label() + "'s " + k + (in ? "InROI" : "OutROI") +
                        ", the cells of its " + pointsField);
    kind = k;
  }
  if (kind.empty())
    throw Error(subset.where + ": " + subset.label() + ": its " + pointsField +
                " are a body's points, but no topology links the body's cells to its " +
                (in ? "<cells>InROI" : "<cells>OutROI"));
  if (kind == "quads" || kind == "edges" || !input.cells.count(kind))
    reader.reject(*topology, kind,
                  "a SubsetTopology's " + kind +
                      " are not read here (its tetrahedra, hexahedra "
                      "and triangles from a loader's file are)");
  if (!input.localIndices)
    reader.reject(subset, "localIndices",
                  "false: the cells keep the loader's point ids, which do not number " +
                      pointsField + "; only localIndices=\"1\" is read");
  const SubsetOutput out = computeSubset(input);
  const auto& points = in ? out.pointsIn : out.pointsOut;
  const auto& cells = in ? out.cellsIn.at(kind) : out.cellsOut.at(kind);
  if (cells.empty())
    throw Error(subset.where + ": " + subset.label() + ": no " + kind + " " +
                (in ? "in" : "out of") + " its regions: the body has no cells");
  std::string nodes, ids;
  for (const auto& p : points)
    for (double x : p) nodes += (nodes.empty() ? "" : " ") + parse::text(x);
  for (long long id : cells) ids += (ids.empty() ? "" : " ") + std::to_string(id);
  reader.key("mesh.nodes", nodes);
  reader.key(kind == "quads" ? "mesh.quadrangles" : "mesh." + kind, ids);
}

std::vector<std::array<double, 3>> subsetPoints(Reader& reader, const SofaObject& subset,
                                                const std::string& pointsField,
                                                const SerialMesh& mesh) {
  const SubsetOutput out = computeSubset(inputOf(reader, subset, mesh));
  return pointsField == "pointsInROI" ? out.pointsIn : out.pointsOut;
}

std::optional<std::vector<std::array<double, 3>>> linkedSubsetPoints(Reader& reader,
                                                                     const SofaObject& o,
                                                                     const std::string& field) {
  std::string linkedField;
  const SofaObject* subset = o.field(field) ? reader.linked(o, field, &linkedField) : nullptr;
  if (!subset || !isSubsetPoints(*subset, linkedField)) return std::nullopt;
  const SofaObject& loader = subsetLoader(reader, *subset);
  return subsetPoints(reader, *subset, linkedField,
                      subsetSourceMesh(loader, reader.file(loader, "filename")));
}

}  // namespace eis::sofa
