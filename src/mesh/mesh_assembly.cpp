#include "mesh_assembly.hpp"

#include "eis/core/tetra_geometry.hpp"

#include <algorithm>
#include <cmath>

namespace eis {
namespace {

constexpr std::array<int, 32> kNodesPerType = {0,  2,  3,  4,  4, 8, 6,  5,  3,  6, 9,
                                               10, 27, 18, 14, 1, 8, 20, 15, 13, 9, 10,
                                               12, 15, 15, 21, 4, 5, 6,  20, 35, 56};

}  // namespace

int gmshNodesPerElement(std::int64_t type) {
  return type > 0 && type < static_cast<std::int64_t>(kNodesPerType.size()) ? kNodesPerType[type]
                                                                            : 0;
}

std::string gmshElementTypeName(int type) {
  switch (type) {
    case 1: return "line";
    case 2: return "triangle";
    case 3: return "quadrangle";
    case 4: return "tetrahedron";
    case 5: return "hexahedron";
    case 6: return "prism";
    case 7: return "pyramid";
    case 15: return "point";
    default: return "type " + std::to_string(type);
  }
}

void MeshAssembly::reserveNodes(std::int64_t count) {
  labels_.reserve(static_cast<std::size_t>(count));
  mesh_.nodes.reserve(static_cast<std::size_t>(count));
}

void MeshAssembly::addNode(std::int64_t label, const std::array<double, 3>& point) {
  labels_.push_back(label);
  const std::size_t position = mesh_.nodes.size();
  if (label < 0) fail(nodeName(position) + ": node tags must not be negative");
  if (!std::isfinite(point[0]) || !std::isfinite(point[1]) || !std::isfinite(point[2]))
    fail(nodeName(position) + " has a coordinate that is not finite (NaN or infinite)");
  mesh_.nodes.push_back(point);
}

void MeshAssembly::finishNodes() {
  const std::int64_t repeated = index_.build(labels_);
  if (repeated >= 0)
    fail("node " + std::to_string(repeated) + " repeats the tag " +
         std::to_string(labels_[repeated]) + " of an earlier node");
}

std::string MeshAssembly::nodeName(std::size_t position) const {
  if (afterReading_) return "point " + std::to_string(position);
  return "node " + std::to_string(position) + " (tag " + std::to_string(labels_[position]) + ")";
}

void MeshAssembly::fail(const std::string& what) const {
  if (afterReading_) in_.failFile(what);
  in_.fail(what);
}

void MeshAssembly::addElementByLabels(int type, std::int64_t tag, int nodeCount,
                                      std::int64_t* nodes, const std::vector<int>& physicals) {
  for (int j = 0; j < nodeCount; ++j) {
    const std::int64_t id = index_.find(nodes[j]);
    if (id < 0)
      fail("element " + std::to_string(elementCount_) + " (tag " + std::to_string(tag) +
           "): node tag " + std::to_string(nodes[j]) + " is out of range (no node has this tag)");
    nodes[j] = id;
  }
  addElement(type, tag, nodeCount, nodes, physicals, "");
}

void MeshAssembly::addElementByPositions(int type, std::int64_t tag, int nodeCount,
                                         const std::int64_t* nodes,
                                         const std::vector<int>& physicals,
                                         const std::string& typeName) {
  addElement(type, tag, nodeCount, nodes, physicals, typeName);
}

// Keeps tetrahedra or hexahedra and triangles, counts the others that no physical group holds,
// and adds the nodes to every physical group the element belongs to. An element of another type
// is ignored, unless a physical group holds it: then it is a selection of nodes (a clamped face),
// not something the mesh lost.
void MeshAssembly::addElement(int type, std::int64_t tag, int nodeCount, const std::int64_t* nodes,
                              const std::vector<int>& physicals, const std::string& typeName) {
  const bool grouped = std::any_of(physicals.begin(), physicals.end(), [](int p) { return p; });
  const int firstPhysical = physicals.empty() ? 0 : physicals.front();
  if (type == kTetrahedronElement) {
    addCell(CellType::Tetrahedron, tag, nodes, firstPhysical);
  } else if (type == kHexahedronElement) {
    addCell(CellType::Hexahedron, tag, nodes, firstPhysical);
  } else if (type == kTriangleElement) {
    mesh_.triangles.push_back({nodes[0], nodes[1], nodes[2]});
    mesh_.triangleTags.push_back(firstPhysical);
  } else if (type == kQuadrangleElement || type == kLineElement) {
    LowerCells& kept = type == kLineElement ? lines_ : quadrangles_;
    kept.cells.push_back(CellVertices<const std::int64_t>(nodes, kept.cells.corners()));
    kept.tags.push_back(firstPhysical);
    if (!grouped) ++kept.ungrouped[typeName.empty() ? gmshElementTypeName(type) : typeName];
  } else if (!grouped) {
    ++skipped_[typeName.empty() ? gmshElementTypeName(type) : typeName];
  }
  for (int physical : physicals)
    if (physical != 0) groups_.add(physical, nodes, nodeCount, mesh_.nodes.size());
  ++elementCount_;
}

// The first cell fixes the mesh's type: a mesh holds cells of one type, so a file mixing
// tetrahedra and hexahedra is refused rather than half read.
void MeshAssembly::addCell(CellType type, std::int64_t tag, const std::int64_t* nodes,
                           int physical) {
  const std::string name = nameOf(type) + " " + std::to_string(mesh_.cells.size()) +
                           (afterReading_ ? " (cell " : " (element tag ") + std::to_string(tag) +
                           ")";
  if (!hasCells_) {
    mesh_.cells = SerialCells(type);
    hasCells_ = true;
  } else if (mesh_.cells.type() != type) {
    fail(name + " follows " + pluralNameOf(mesh_.cells.type()) +
         ": a mesh holds cells of one type, tetrahedra or hexahedra, and this file mixes them");
  }
  const std::string problem = type == CellType::Tetrahedron
                                  ? degeneracy({nodes[0], nodes[1], nodes[2], nodes[3]})
                                  : hexahedronDegeneracy(nodes);
  if (!problem.empty()) fail(name + " is degenerate: " + problem);
  mesh_.cells.push_back(CellVertices<const std::int64_t>(nodes, cornersOf(type)));
  mesh_.cellTags.push_back(physical);
}

// A file of triangles and no volume cells is a body of triangles (a membrane, SOFA's
// TriangleSetTopologyContainer on a MeshGmshLoader): its triangles become its cells, in the
// file's vertex order with their tags. A triangle with a repeated node or no area is refused.
void MeshAssembly::promoteTriangles() {
  mesh_.cells = SerialCells(CellType::Triangle);
  for (std::size_t t = 0; t < mesh_.triangles.size(); ++t) {
    const auto& v = mesh_.triangles[t];
    const auto& a = mesh_.nodes[v[0]];
    const auto& b = mesh_.nodes[v[1]];
    const auto& c = mesh_.nodes[v[2]];
    const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    const double w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    const double n[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2],
                         u[0] * w[1] - u[1] * w[0]};
    if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2] ||
        std::hypot(n[0], n[1], n[2]) <= 1e-12 * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2] +
                                                 w[0] * w[0] + w[1] * w[1] + w[2] * w[2]))
      in_.failFile("triangle " + std::to_string(t) + " is degenerate (a repeated node or no area)");
    mesh_.cells.push_back(v);
    mesh_.cellTags.push_back(mesh_.triangleTags[t]);
  }
  mesh_.triangles.clear();
  mesh_.triangleTags.clear();
}

// Quadrangles first (a surface), else lines; each checked for a repeated node and, for a
// quadrangle, for no area at vertex 0. They leave the counts of skipped elements.
void MeshAssembly::promoteLowerCells() {
  LowerCells& kept = quadrangles_.cells.empty() ? lines_ : quadrangles_;
  if (kept.cells.empty()) return;
  const CellType type = kept.cells.type();
  for (std::size_t c = 0; c < kept.cells.size(); ++c) {
    const auto v = kept.cells[c];
    for (int a = 0; a < v.size(); ++a)
      for (int b = a + 1; b < v.size(); ++b)
        if (v[a] == v[b])
          in_.failFile(nameOf(type) + " " + std::to_string(c) + " is degenerate: node " +
                       std::to_string(v[a]) + " is repeated");
    if (type == CellType::Quadrangle &&
        triangleArea(mesh_.nodes[v[0]], mesh_.nodes[v[1]], mesh_.nodes[v[3]]) == 0)
      in_.failFile(nameOf(type) + " " + std::to_string(c) + " is degenerate: no area");
  }
  mesh_.cells = std::move(kept.cells);
  mesh_.cellTags = std::move(kept.tags);
  kept.cells = SerialCells(type);
  kept.ungrouped.clear();
}

// A repeated vertex, or a flat corner at vertex 0: its edges to vertices 1, 3 and 4 span no
// volume (the frame SOFA's HexahedronFEMForceField builds there would be singular).
std::string MeshAssembly::hexahedronDegeneracy(const std::int64_t* hex) const {
  for (int a = 0; a < 8; ++a)
    for (int b = a + 1; b < 8; ++b)
      if (hex[a] == hex[b]) return "node " + std::to_string(hex[a]) + " is repeated";
  return degeneracy({hex[0], hex[1], hex[3], hex[4]});
}

// Empty for a usable tetrahedron; otherwise what is wrong with it. Orientation is not checked:
// negatively oriented tetrahedra are the caller's to count.
std::string MeshAssembly::degeneracy(const std::array<std::int64_t, 4>& tet) const {
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b)
      if (tet[a] == tet[b]) return "node " + std::to_string(tet[a]) + " is repeated";
  std::array<std::array<double, 3>, 4> p;
  for (int a = 0; a < 4; ++a) p[a] = mesh_.nodes[tet[a]];
  double longest = 0;
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b)
      longest =
          std::max(longest, std::hypot(p[b][0] - p[a][0], p[b][1] - p[a][1], p[b][2] - p[a][2]));
  // The edges in units of the longest one, so the test does not depend on the mesh's units and
  // neither 1e-200 nor 1e200 coordinates under- or overflow.
  const auto edge = [&](int b) {
    return std::array<double, 3>{(p[b][0] - p[0][0]) / longest, (p[b][1] - p[0][1]) / longest,
                                 (p[b][2] - p[0][2]) / longest};
  };
  const auto e1 = edge(1), e2 = edge(2), e3 = edge(3);
  const double relativeSixVolume = e1[0] * (e2[1] * e3[2] - e2[2] * e3[1]) -
                                   e1[1] * (e2[0] * e3[2] - e2[2] * e3[0]) +
                                   e1[2] * (e2[0] * e3[1] - e2[1] * e3[0]);
  if (!std::isfinite(longest))
    return "its edges are too long for double precision (coordinates near 1e308)";
  if (std::abs(relativeSixVolume) <= 1e-12)
    return "zero volume (6V / longest edge^3 = " + std::to_string(relativeSixVolume) + ")";
  return {};
}

SerialMesh MeshAssembly::finish(const std::string& noCellsHint) {
  if (mesh_.cells.empty() && !mesh_.triangles.empty()) promoteTriangles();
  if (mesh_.cells.empty()) promoteLowerCells();
  if (mesh_.cells.empty())
    in_.failFile("no tetrahedra, hexahedra, triangles, quadrangles or lines (" + noCellsHint +
                 ") in the mesh");
  for (const LowerCells* kept : {&quadrangles_, &lines_})
    for (const auto& [name, count] : kept->ungrouped) skipped_[name] += count;
  mesh_.skippedElements = skipped_;
  mesh_.groupNodes = groups_.sortedGroups();
  return std::move(mesh_);
}

std::int64_t MeshAssembly::NodeIndex::build(const std::vector<std::int64_t>& labels) {
  const std::int64_t count = static_cast<std::int64_t>(labels.size());
  const std::int64_t maxLabel =
      labels.empty() ? 0 : *std::max_element(labels.begin(), labels.end());
  dense_ = maxLabel <= 2 * count + 1024;
  if (dense_)
    table_.assign(static_cast<std::size_t>(maxLabel) + 1, -1);
  else
    map_.reserve(labels.size());
  for (std::int64_t i = 0; i < count; ++i) {
    const bool fresh = dense_ ? table_[labels[i]] < 0 : map_.emplace(labels[i], i).second;
    if (!fresh) return i;
    if (dense_) table_[labels[i]] = i;
  }
  return -1;
}

std::int64_t MeshAssembly::NodeIndex::find(std::int64_t label) const {
  if (dense_)
    return label >= 0 && label < static_cast<std::int64_t>(table_.size()) ? table_[label] : -1;
  const auto it = map_.find(label);
  return it == map_.end() ? -1 : it->second;
}

void MeshAssembly::GroupCollector::add(int tag, const std::int64_t* ids, int count,
                                       std::size_t nodeCount) {
  Group& group = groups_[tag];
  if (!group.started) {
    group.started = true;
    const std::size_t bytes = nodeCount / 8 + 1;
    if (bitmapBytes_ + bytes <= kBitmapBudget) {
      group.seen.assign(nodeCount, false);
      bitmapBytes_ += bytes;
    }
  }
  for (int i = 0; i < count; ++i) {
    if (!group.seen.empty()) {
      if (group.seen[ids[i]]) continue;
      group.seen[ids[i]] = true;
    }
    group.ids.push_back(ids[i]);
  }
}

std::map<int, std::vector<std::int64_t>> MeshAssembly::GroupCollector::sortedGroups() {
  std::map<int, std::vector<std::int64_t>> result;
  for (auto& [tag, group] : groups_) {
    std::vector<std::int64_t>& ids = group.ids;
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    result[tag] = std::move(ids);
  }
  return result;
}

}  // namespace eis
