// SOFA's MeshSplittingEngine (io/sofa_mesh_splitting.hpp).
#include "sofa_mesh_splitting.hpp"

#include <algorithm>
#include <utility>

#include "eis/core/error.hpp"
#include "eis/mesh/serial_mesh.hpp"
#include "sofa_selections.hpp"
#include "sofa_subset_topology.hpp"

namespace eis::sofa {

namespace {

using Points = std::vector<std::array<double, 3>>;

// The fields of MeshSplittingEngine (its constructor) and the vectorData names numbered from 1
// (indices1, ..., tetrahedronIndices<nbInputs>, position1 .. position<nbInputs + 1>).
const char* const kInputs[] = {"position", "edges",      "triangles",
                               "quads",    "tetrahedra", "hexahedra"};
const char* const kRegions[] = {"indices",     "edgeIndices",        "triangleIndices",
                                "quadIndices", "tetrahedronIndices", "hexahedronIndices"};

// Whether `name` is `prefix` followed by a number in 1 .. last.
bool numbered(const std::string& name, const std::string& prefix, long long last) {
  if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) return false;
  const std::string tail = name.substr(prefix.size());
  if (!std::all_of(tail.begin(), tail.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
      tail.size() > 6 || tail[0] == '0')
    return false;
  const long long k = std::stoll(tail);
  return k >= 1 && k <= last;
}

void checkFields(const Reader& r, const SofaObject& engine, long long parts) {
  for (const xml::Attribute& a : engine.data) {
    const std::string& n = a.name;
    bool known = n == "name" || n == "src" || n == "template" || n == "nbInputs" ||
                 n == "indexPairs" || n == "printLog" || n == "tags" || n == "listening" ||
                 numbered(n, "position", parts + 1);
    for (const char* input : kInputs) known = known || n == input;
    for (const char* region : kRegions) known = known || numbered(n, region, parts);
    if (!known)
      throw Error(r.where(engine, n) + ": " + engine.label() + ": unknown data field '" + n +
                  "' (with nbInputs = " + std::to_string(parts) +
                  "; SOFA ignores it and keeps the default)");
  }
  for (const char* output : {"indexPairs"})
    r.refuseIfGiven(engine, output, "an output of the engine, which it computes");
}

// A BoxROI's tetrahedronIndices over the engine's mesh (BaseROI::doUpdate): its position and
// tetrahedra must be the same loader's.
std::vector<long long> boxTetrahedra(const Reader& r, const SofaObject& roi,
                                     const SofaObject& loader, const SerialMesh& mesh) {
  for (const char* field : {"position", "tetrahedra"}) {
    std::string linkedField;
    if (r.linked(roi, field, &linkedField) != &loader || linkedField != field)
      r.reject(roi, field,
               std::string("a BoxROI read by a MeshSplittingEngine is read on the engine's "
                           "mesh: expected ") +
                   loader.label() + "'s " + field + " (directly or through src)");
  }
  for (const char* field : {"orientedBox", "doUpdate"})
    r.refuseIfGiven(roi, field, "not read for a MeshSplittingEngine's region");
  if (!r.boolean(roi, "computeTetrahedra", true))
    r.reject(roi, "computeTetrahedra", "the engine reads the tetrahedra it would not compute");
  const std::vector<std::array<double, 6>> boxes = alignedBoxes(r, roi);
  const auto inRoi = [&](const std::array<double, 3>& p) { return inAlignedBoxes(boxes, p); };
  const bool strict = r.boolean(roi, "strict", true);
  std::vector<long long> in;
  const auto& corners = mesh.cells.flat();
  for (std::size_t t = 0; 4 * t < corners.size(); ++t) {
    bool all = true;
    std::array<double, 3> centre{0, 0, 0};
    for (std::size_t j = 0; j < 4; ++j) {
      const auto& p = mesh.nodes[std::size_t(corners[4 * t + j])];
      all = all && inRoi(p);
      for (std::size_t d = 0; d < 3; ++d) centre[d] += p[d];
    }
    for (double& c : centre) c /= 4;
    if (strict ? all : inRoi(centre)) in.push_back(static_cast<long long>(t));
  }
  return in;
}

}  // namespace

std::optional<MeshSplitLink> meshSplitLink(const Reader& r, const SofaObject& o,
                                           const std::string& field) {
  const std::string* text = o.field(field);
  if (!text || !isSofaLink(*text)) return std::nullopt;
  const SofaLinkTarget target = r.scene().resolve(*o.node, *text, r.where(o, field), &o);
  if (!target.object || target.object->type != "MeshSplittingEngine") return std::nullopt;
  return MeshSplitLink{target.object, target.field};
}

MeshSplit computeMeshSplit(Reader& r, const SofaObject& engine, const std::string& file) {
  const long long parts =
      r.integers(engine, "nbInputs").empty() ? 0 : r.integers(engine, "nbInputs").front();
  if (parts < 0 || parts > 1000)
    r.reject(engine, "nbInputs", "expected a count of regions from 0 to 1000");
  checkFields(r, engine, parts);
  MeshSplit split;
  std::string linkedField;
  split.loader = r.linked(engine, "position", &linkedField);
  if (!split.loader || linkedField != "position" ||
      (split.loader->type != "MeshGmshLoader" && split.loader->type != "MeshVTKLoader" &&
       split.loader->type != "MeshOBJLoader"))
    r.reject(engine, "position",
             "expected a MeshGmshLoader's, MeshVTKLoader's or MeshOBJLoader's position (src or "
             "a link)");
  for (const char* t : {"translation", "rotation", "scale3d", "transformation"})
    r.refuseIfGiven(*split.loader, t,
                    "a MeshSplittingEngine reads the points as the file gives them here");
  for (const char* kind : {"edges", "triangles", "quads", "hexahedra"})
    if (engine.field(kind))
      r.reject(engine, kind, "only a mesh's points and tetrahedra are read for the engine");
  const SofaObject* cells = r.linked(engine, "tetrahedra", &linkedField);
  if (cells && (cells != split.loader || linkedField != "tetrahedra"))
    r.reject(engine, "tetrahedra", "expected " + split.loader->label() + "'s tetrahedra");
  const SerialMesh mesh = subsetSourceMesh(*split.loader, file);
  const bool tetrahedra = cells && mesh.cells.type() == CellType::Tetrahedron;
  const std::size_t n = mesh.nodes.size();
  split.points = mesh.nodes;
  split.indexPairs.assign(2 * n, 0);
  for (std::size_t i = 0; i < n; ++i) split.indexPairs[2 * i] = parts;
  for (long long k = parts - 1; k >= 0; --k) {
    const std::string number = std::to_string(k + 1);
    for (const char* region :
         {"edgeIndices", "triangleIndices", "quadIndices", "hexahedronIndices"})
      r.refuseIfGiven(engine, region + number, "only regions of points and tetrahedra are read");
    // parseIndices: an index past the points is skipped, as SOFA skips it.
    for (long long i : engine.field("indices" + number) ? r.integers(engine, "indices" + number)
                                                        : std::vector<long long>{})
      if (i >= 0 && std::size_t(i) < n) split.indexPairs[2 * std::size_t(i)] = k;
    const std::string field = "tetrahedronIndices" + number;
    // A region not written is empty (src gives only the inputs the loader has).
    const std::string* written = engine.field(field);
    std::string roiField;
    const SofaObject* roi =
        written && isSofaLink(*written) ? r.linked(engine, field, &roiField) : nullptr;
    std::vector<long long> chosen;
    if (written && !tetrahedra)
      r.reject(engine, field, "the engine reads no tetrahedra from " + split.loader->label());
    if (roi && roi->type == "BoxROI" && roiField == "tetrahedronIndices")
      chosen = boxTetrahedra(r, *roi, *split.loader, mesh);
    else if (written && isSofaLink(*written) && !r.given(engine, field))
      r.reject(engine, field, "read when written, or a BoxROI's tetrahedronIndices");
    else if (written)
      chosen = r.integers(engine, field);
    const auto& corners = mesh.cells.flat();
    for (long long t : chosen) {
      if (t < 0 || std::size_t(4 * t) >= corners.size())
        r.reject(engine, field,
                 "tetrahedron " + std::to_string(t) + " of " + std::to_string(corners.size() / 4));
      for (std::size_t j = 0; j < 4; ++j)
        split.indexPairs[2 * std::size_t(corners[4 * std::size_t(t) + j])] = k;
    }
  }
  split.parts.resize(std::size_t(parts) + 1);
  for (std::size_t i = 0; i < n; ++i) {
    Points& part = split.parts[std::size_t(split.indexPairs[2 * i])];
    split.indexPairs[2 * i + 1] = static_cast<long long>(part.size());
    part.push_back(mesh.nodes[i]);
  }
  return split;
}

}  // namespace eis::sofa
