#include "eis/model/surface_selection.hpp"

#include <algorithm>

#include "eis/core/error.hpp"
#include "eis/mesh/boundary_faces.hpp"

namespace eis {

namespace {

const char* const kGrammar =
    "all | group NAME|TAG | triangles I.. | box XMIN YMIN ZMIN XMAX YMAX ZMAX | "
    "boundary-triangles I.. | boundary-triangles-in SELECTION";

SurfaceSelection parseSurface(const std::string& key, const std::string& text, const Texts& tokens,
                              std::size_t first) {
  if (tokens.size() <= first)
    parse::reject(key, text, std::string("expected a surface: ") + kGrammar);
  const std::string& kind = tokens[first];
  SurfaceSelection s;
  if (kind == "all") {
    if (tokens.size() != first + 1) parse::reject(key, text, "nothing may follow 'all'");
  } else if (kind == "group") {
    s.kind = SurfaceSelection::Kind::Group;
    if (tokens.size() != first + 2) parse::reject(key, text, "expected one group name or tag");
    s.group = tokens[first + 1];
  } else if (kind == "boundary-triangles-in") {
    s.kind = SurfaceSelection::Kind::BoundaryIn;
    std::string selection;
    for (std::size_t i = first + 1; i < tokens.size(); ++i) selection += tokens[i] + " ";
    s.nodes = parseSelectionValue(key, selection, 0).selection;
  } else if (kind == "triangles" || kind == "boundary-triangles") {
    s.kind =
        kind == "triangles" ? SurfaceSelection::Kind::Triangles : SurfaceSelection::Kind::Boundary;
    if (tokens.size() == first + 1)
      parse::reject(key, text, "expected triangle indices after '" + kind + "'");
    for (std::size_t i = first + 1; i < tokens.size(); ++i) {
      long long id;
      if (!parse::number(tokens[i], id) || id < 0)
        parse::reject(key, text, "'" + tokens[i] + "' is not a triangle index (an integer >= 0)");
      s.ids.push_back(id);
    }
  } else if (kind == "box") {
    s.kind = SurfaceSelection::Kind::Box;
    if (tokens.size() != first + 7) parse::reject(key, text, "expected 6 numbers after 'box'");
    for (int i = 0; i < 6; ++i) {
      double value;
      if (!parse::number(tokens[first + 1 + i], value))
        parse::reject(key, text, "'" + tokens[first + 1 + i] + "' is not a number");
      (i < 3 ? s.box.min : s.box.max)[i % 3] = value;
    }
  } else {
    parse::reject(key, text, "'" + kind + "' is not a surface: expected " + kGrammar);
  }
  return s;
}

std::string describe(const UnattachedTriangle& t) {
  return "triangle " + std::to_string(t.id) + " of the mesh file is a face of " +
         std::to_string(t.tetrahedra) + " tetrahedra" +
         (t.tetrahedra == 0 ? "" : " (an interior face)") +
         "; a surface load needs a face of exactly one";
}

}  // namespace

SurfaceValue parseSurfaceValue(const std::string& key, const std::string& text,
                               std::size_t numbers) {
  const Texts tokens = parse::tokens(text);
  SurfaceValue value;
  value.numbers.resize(numbers);
  for (std::size_t i = 0; i < numbers; ++i)
    if (i >= tokens.size() || !parse::number(tokens[i], value.numbers[i]))
      parse::reject(key, text, "expected " + std::to_string(numbers) + " numbers, then a surface");
  value.surface = parseSurface(key, text, tokens, numbers);
  return value;
}

Check surfaceValueCheck(std::size_t numbers) {
  return [numbers](const std::string& key, const std::string& text) {
    parseSurfaceValue(key, text, numbers);
  };
}

namespace {

// The boundary triangles (SOFA's Tetra2TriangleTopologicalMapping) a surface selects.
std::vector<SurfaceTriangle> boundaryTriangles(const DistributedMesh& mesh,
                                               const SurfaceSelection& surface,
                                               const std::string& key) {
  const BoundaryFaces faces = boundaryTriangles(mesh, false);
  const std::int64_t count = std::int64_t(faces.nodes.size());
  for (std::int64_t id : surface.ids)
    if (id >= count)
      throw Error(key + ": boundary triangle " + std::to_string(id) + " is past the body's " +
                  std::to_string(count) + " boundary triangles (indices are 0-based)");
  std::vector<PetscInt> picked;
  if (surface.kind == SurfaceSelection::Kind::BoundaryIn) {
    picked = selectNodes(mesh, surface.nodes, key).vertices;
    std::sort(picked.begin(), picked.end());
  }
  std::vector<std::int64_t> ids = surface.ids;
  std::sort(ids.begin(), ids.end());
  std::vector<SurfaceTriangle> selected;
  for (std::size_t i = 0; i < faces.local.size(); ++i) {
    const BoundaryFace& face = faces.local[i];
    const auto cell = mesh.cells()[std::size_t(face.cell)];
    const bool in = surface.kind == SurfaceSelection::Kind::Boundary
                        ? std::binary_search(ids.begin(), ids.end(), faces.localIndex[i])
                        : std::all_of(face.slots.begin(), face.slots.begin() + 3, [&](int slot) {
                            return std::binary_search(picked.begin(), picked.end(), cell[slot]);
                          });
    if (in)
      selected.push_back(
          {faces.localIndex[i], 0, face.cell, {face.slots[0], face.slots[1], face.slots[2]}});
  }
  return selected;
}

}  // namespace

SelectedTriangles selectTriangles(const DistributedMesh& mesh, const SurfaceSelection& surface,
                                  const std::string& key, bool atRest) {
  const SurfaceTriangles& all = mesh.surfaceTriangles();
  using Kind = SurfaceSelection::Kind;
  if (surface.kind == Kind::Boundary || surface.kind == Kind::BoundaryIn) {
    SelectedTriangles selected;
    selected.local = boundaryTriangles(mesh, surface, key);
    std::int64_t count = std::int64_t(selected.local.size());
    EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &count, 1, MPI_INT64_T, MPI_SUM, mesh.comm()));
    selected.count = count;
    return selected;
  }
  int tag = 0;
  if (surface.kind == Kind::Group) {
    try {
      tag = mesh.findGroup(surface.group);
    } catch (const Error& e) {
      throw Error(key + ": " + e.what());
    }
  }
  std::vector<std::int64_t> ids = surface.ids;
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  if (!ids.empty() && ids.back() >= all.count)
    throw Error(key + ": triangle " + std::to_string(ids.back()) + " is past the mesh file's " +
                std::to_string(all.count) + " triangles (indices are 0-based)");
  const auto& rest = mesh.restCoords();
  const auto& cells = mesh.cells();
  auto inBox = [&](const auto& point) { return surface.box.contains(point); };
  // A box tests the rest positions when `restBox`, else every triangle is its candidate.
  auto picks = [&](std::int64_t id, int triangleTag, const auto& restNodes, bool restBox) {
    switch (surface.kind) {
      case Kind::All: return true;
      case Kind::Group: return triangleTag == tag;
      case Kind::Triangles: return std::binary_search(ids.begin(), ids.end(), id);
      case Kind::Box: return !restBox || std::all_of(restNodes.begin(), restNodes.end(), inBox);
      case Kind::Boundary:
      case Kind::BoundaryIn: return false;
    }
    return false;
  };
  for (const UnattachedTriangle& t : all.unattached)
    if (picks(t.id, t.tag, t.nodes, true)) throw Error(key + ": " + describe(t));
  SelectedTriangles selected;
  for (const SurfaceTriangle& t : all.local) {
    std::array<std::array<double, 3>, 3> nodes;
    for (int j = 0; j < 3; ++j)
      nodes[j] = rest[std::size_t(cells[std::size_t(t.cell)][t.slots[j]])];
    if (picks(t.id, t.tag, nodes, atRest)) selected.local.push_back(t);
  }
  std::int64_t count = std::int64_t(selected.local.size());
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &count, 1, MPI_INT64_T, MPI_SUM, mesh.comm()));
  selected.count = count;
  return selected;
}

}  // namespace eis
