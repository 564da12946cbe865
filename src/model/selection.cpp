#include "eis/model/selection.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "eis/core/error.hpp"
#include "eis/core/mpi_chunks.hpp"
#include "eis/model/mat3.hpp"

namespace eis {

namespace {

const char* const kGrammar =
    "all | indices I.. | box XMIN YMIN ZMIN XMAX YMAX ZMAX | sphere CX CY CZ R | group NAME|TAG | "
    "oriented-box P0 P1 P2 DEPTH | plane P0 P1 P2 DEPTH | pair-box OUTER INNER | "
    "nearest N CX CY CZ R ..";

std::vector<double> realsOf(const std::string& key, const std::string& text, const Texts& tokens,
                            std::size_t first, std::size_t count) {
  if (tokens.size() != first + count)
    parse::reject(
        key, text,
        "expected " + std::to_string(count) + " numbers after '" + tokens[first - 1] + "'");
  std::vector<double> values(count);
  for (std::size_t i = 0; i < count; ++i)
    if (!parse::number(tokens[first + i], values[i]))
      parse::reject(key, text, "'" + tokens[first + i] + "' is not a number");
  return values;
}

Selection parseSelection(const std::string& key, const std::string& text, const Texts& tokens,
                         std::size_t first) {
  if (tokens.size() <= first)
    parse::reject(key, text, std::string("expected a selection: ") + kGrammar);
  const std::string& kind = tokens[first];
  Selection s;
  if (kind == "all") {
    if (tokens.size() != first + 1) parse::reject(key, text, "nothing may follow 'all'");
  } else if (kind == "indices") {
    s.kind = Selection::Kind::Indices;
    if (tokens.size() == first + 1) parse::reject(key, text, "expected node ids after 'indices'");
    for (std::size_t i = first + 1; i < tokens.size(); ++i) {
      long long id;
      if (!parse::number(tokens[i], id) || id < 0)
        parse::reject(key, text, "'" + tokens[i] + "' is not a node id (an integer >= 0)");
      s.indices.push_back(id);
    }
  } else if (kind == "box") {
    s.kind = Selection::Kind::Box;
    s.box = Box::fromCorners(realsOf(key, text, tokens, first + 1, 6));
  } else if (kind == "sphere") {
    s.kind = Selection::Kind::Sphere;
    const auto v = realsOf(key, text, tokens, first + 1, 4);
    s.centre = {v[0], v[1], v[2]};
    s.radius = v[3];
    if (s.radius < 0) parse::reject(key, text, "the sphere's radius must be >= 0");
  } else if (kind == "oriented-box" || kind == "plane") {
    s.kind = kind == "plane" ? Selection::Kind::Plane : Selection::Kind::OrientedBox;
    const auto v = realsOf(key, text, tokens, first + 1, 10);
    std::copy(v.begin(), v.end(), s.shape.begin());
  } else if (kind == "pair-box") {
    s.kind = Selection::Kind::PairBox;
    const auto v = realsOf(key, text, tokens, first + 1, 12);
    s.box = Box::fromCorners({v.begin(), v.begin() + 6});
    s.inner = Box::fromCorners({v.begin() + 6, v.end()});
  } else if (kind == "nearest") {
    s.kind = Selection::Kind::Nearest;
    long long n = 0;
    if (tokens.size() <= first + 1 || !parse::number(tokens[first + 1], n) || n < 1)
      parse::reject(key, text, "expected a count N >= 1 after 'nearest'");
    s.nearest = n;
    const std::size_t count = tokens.size() - first - 2;
    if (count == 0 || count % 4 != 0)
      parse::reject(key, text, "expected 4 numbers a sphere (CX CY CZ R) after 'nearest N'");
    const auto v = realsOf(key, text, tokens, first + 2, count);
    for (std::size_t i = 0; i < count; i += 4)
      s.spheres.push_back({v[i], v[i + 1], v[i + 2], v[i + 3]});
  } else if (kind == "group") {
    s.kind = Selection::Kind::Group;
    if (tokens.size() != first + 2) parse::reject(key, text, "expected one group name or tag");
    s.group = tokens[first + 1];
  } else {
    parse::reject(key, text, "'" + kind + "' is not a selection: expected " + kGrammar);
  }
  return s;
}

using Vec3 = std::array<double, 3>;

using mat3::cross;
using mat3::dot;
using mat3::minus;
using mat3::plus;
using mat3::scaled;
// SOFA's Vec::normalize: a vector whose norm is at most the machine epsilon is left as it is.
Vec3 normalized(Vec3 a) {
  const double norm = std::sqrt(dot(a, a));
  if (norm > std::numeric_limits<double>::epsilon())
    for (double& c : a) c /= norm;
  return a;
}

// BoxROI.inl (computeOrientedBoxes, isPointInOrientedBox) and PlaneROI.inl (computePlane,
// isPointInPlane) on p0, p1, p2 and a depth: n the rectangle's unit normal, four side normals,
// and the point within `width` of p0 and of p2 along the first two, within `length` along the
// last two, and within |depth| / 2 of p0's plane. They differ only in the points that span the
// side normals: BoxROI n and p2 + n depth, PlaneROI p0 + n depth / 2 and p2 + n depth / 2.
struct Prism {
  Vec3 p0, p2, normal, side[4];
  double width, length, depth;

  Prism(const std::array<double, 10>& s, bool planeRoi) {
    p0 = {s[0], s[1], s[2]};
    const Vec3 p1{s[3], s[4], s[5]};
    p2 = {s[6], s[7], s[8]};
    depth = s[9];
    normal = normalized(cross(minus(p1, p0), minus(p2, p0)));
    const Vec3 p3 = plus(p0, minus(p2, p1));
    const Vec3 up = planeRoi ? minus(plus(p0, scaled(normal, depth / 2)), p0) : normal;
    const Vec3 p6 = plus(p2, scaled(normal, planeRoi ? depth / 2 : depth));
    side[0] = normalized(cross(minus(p1, p0), up));
    side[1] = normalized(cross(minus(p2, p3), minus(p6, p3)));
    side[2] = normalized(cross(minus(p3, p0), up));
    side[3] = normalized(cross(minus(p2, p1), minus(p6, p2)));
    width = std::abs(dot(minus(p2, p0), side[0]));
    length = std::abs(dot(minus(p2, p0), side[2]));
  }

  bool contains(const Vec3& p) const {
    const Vec3 a = minus(p, p0), b = minus(p, p2);
    return std::abs(dot(a, side[0])) <= width && std::abs(dot(b, side[1])) <= width &&
           std::abs(dot(a, side[2])) <= length && std::abs(dot(b, side[3])) <= length &&
           std::abs(dot(a, normal)) <= std::abs(depth / 2);
  }
};

}  // namespace

Selection Selection::ofBox(const Box& box) {
  Selection s;
  s.kind = Kind::Box;
  s.box = box;
  return s;
}

Selection Selection::ofGroup(const std::string& nameOrTag) {
  Selection s;
  s.kind = Kind::Group;
  s.group = nameOrTag;
  return s;
}

SelectionValue parseSelectionValue(const std::string& key, const std::string& text,
                                   std::size_t numbers) {
  const Texts tokens = parse::tokens(text);
  SelectionValue value;
  value.numbers.resize(numbers);
  for (std::size_t i = 0; i < numbers; ++i)
    if (i >= tokens.size() || !parse::number(tokens[i], value.numbers[i]))
      parse::reject(key, text,
                    "expected " + std::to_string(numbers) + " numbers, then a selection");
  value.selection = parseSelection(key, text, tokens, numbers);
  return value;
}

Check selectionValueCheck(std::size_t numbers) {
  return [numbers](const std::string& key, const std::string& text) {
    parseSelectionValue(key, text, numbers);
  };
}

SelectedNodes selectNodes(const DistributedMesh& mesh, const Selection& selection,
                          const std::string& key) {
  SelectedNodes nodes;
  const auto& coords = mesh.restCoords();
  const PetscInt n = PetscInt(coords.size());
  switch (selection.kind) {
    case Selection::Kind::All:
      for (PetscInt v = 0; v < n; ++v) nodes.vertices.push_back(v);
      break;
    case Selection::Kind::Indices: {
      std::vector<std::int64_t> ids = selection.indices;
      std::sort(ids.begin(), ids.end());
      ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
      for (PetscInt v = 0; v < n; ++v)
        if (std::binary_search(ids.begin(), ids.end(), mesh.nodeIds()[v]))
          nodes.vertices.push_back(v);
      std::int64_t found = 0;
      for (auto v : nodes.vertices) found += mesh.owned()[v];
      EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &found, 1, MPI_INT64_T, MPI_SUM, mesh.comm()));
      if (found != std::int64_t(ids.size()))
        throw Error(key + ": " + std::to_string(std::int64_t(ids.size()) - found) +
                    " of the indices name no node of a tetrahedron (ids are 0-based)");
      break;
    }
    case Selection::Kind::Box:
      for (PetscInt v = 0; v < n; ++v)
        if (selection.box.contains(coords[v])) nodes.vertices.push_back(v);
      break;
    case Selection::Kind::Sphere:
      for (PetscInt v = 0; v < n; ++v) {
        double r2 = 0;
        for (int d = 0; d < 3; ++d)
          r2 += (coords[v][d] - selection.centre[d]) * (coords[v][d] - selection.centre[d]);
        if (r2 <= selection.radius * selection.radius) nodes.vertices.push_back(v);
      }
      break;
    case Selection::Kind::OrientedBox:
    case Selection::Kind::Plane: {
      const Prism prism(selection.shape, selection.kind == Selection::Kind::Plane);
      for (PetscInt v = 0; v < n; ++v)
        if (prism.contains({coords[v][0], coords[v][1], coords[v][2]})) nodes.vertices.push_back(v);
      break;
    }
    case Selection::Kind::PairBox:
      for (PetscInt v = 0; v < n; ++v)
        if (selection.box.contains(coords[v]) && !selection.inner.contains(coords[v]))
          nodes.vertices.push_back(v);
      break;
    case Selection::Kind::Nearest: {
      // ProximityROI.inl (doUpdate): each point's smallest |c_k - p| with |c_k - p| < r_k; a
      // heap keeps the N smallest. Here: every rank's owned distances gathered, the N-th
      // smallest the bound.
      const double none = std::numeric_limits<double>::infinity();
      std::vector<double> distance(std::size_t(n), none), mine;
      for (PetscInt v = 0; v < n; ++v) {
        for (const auto& c : selection.spheres) {
          const Vec3 d{c[0] - coords[v][0], c[1] - coords[v][1], c[2] - coords[v][2]};
          const double length = std::sqrt(dot(d, d));
          if (length < c[3] && length < distance[v]) distance[v] = length;
        }
        if (distance[v] != none && mesh.owned()[v]) mine.push_back(distance[v]);
      }
      std::vector<double> all = allGatherChunks(mine, MPI_DOUBLE, mesh.comm());
      std::sort(all.begin(), all.end());
      double bound = none;
      if (std::int64_t(all.size()) > selection.nearest) {
        bound = all[std::size_t(selection.nearest - 1)];
        if (all[std::size_t(selection.nearest)] == bound)
          throw Error(key + ": nearest " + std::to_string(selection.nearest) +
                      ": several nodes at the N-th distance; which SOFA's ProximityROI keeps "
                      "depends on its heap order");
      }
      for (PetscInt v = 0; v < n; ++v)
        if (distance[v] != none && distance[v] <= bound) nodes.vertices.push_back(v);
      break;
    }
    case Selection::Kind::Group:
      try {
        nodes.vertices = mesh.groupVertices(mesh.findGroup(selection.group));
      } catch (const Error& e) {
        throw Error(key + ": " + e.what());
      }
      break;
  }
  for (auto v : nodes.vertices) nodes.count += mesh.owned()[v];
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &nodes.count, 1, MPI_INT64_T, MPI_SUM, mesh.comm()));
  return nodes;
}

}  // namespace eis
