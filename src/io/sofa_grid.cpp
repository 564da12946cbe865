// SOFA's RegularGridTopology, CylinderGridTopology and SphereGridTopology (io/sofa_grid.hpp).
#include "sofa_grid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "eis/core/error.hpp"

namespace eis::sofa {

namespace {

std::array<double, 3> vector3(const Reader& reader, const SofaObject& o, const char* field,
                              std::array<double, 3> fallback) {
  if (!reader.given(o, field)) return fallback;
  const std::vector<double> v = reader.reals(o, field);
  if (v.size() != 3) reader.reject(o, field, "expected 3 numbers");
  return {v[0], v[1], v[2]};
}

// The edges of a hexahedron along each axis, as vertex pairs (SOFA's geometry::Hexahedron
// xEdges, yEdges, zEdges): mirroring the hexahedron along that axis swaps each pair.
constexpr int kEdges[3][4][2] = {{{0, 1}, {4, 5}, {3, 2}, {7, 6}},
                                 {{4, 7}, {5, 6}, {1, 2}, {0, 3}},
                                 {{4, 0}, {5, 1}, {6, 2}, {7, 3}}};

// The two cutting patterns (Hexa2TetraTopologicalMapping's non-swapped and swapped ones; the
// second is the first with each tetrahedron's orientation reversed).
constexpr int kPatterns[2][6][4] = {
    {{0, 5, 1, 6}, {0, 1, 3, 6}, {1, 3, 6, 2}, {6, 3, 0, 7}, {6, 7, 0, 5}, {7, 5, 4, 0}},
    {{0, 5, 6, 1}, {0, 1, 6, 3}, {1, 3, 2, 6}, {6, 3, 7, 0}, {6, 7, 5, 0}, {7, 5, 0, 4}}};

// The point of grid coordinates (i, j, k) of a CylinderGridTopology or a SphereGridTopology
// (their getPointInGrid): a point of the square [-r, r]^2 (the cube [-r, r]^3) pushed out along
// its ray to the circle (sphere) whose radius is its largest coordinate; the cylinder's third
// coordinate runs from 0 to `length` along the axis. Written in SOFA's order of operations, so
// that the doubles are SOFA's.
class RoundGrid {
public:
  RoundGrid(const Reader& reader, const SofaObject& grid, std::array<int, 3> n)
      : n_(n), sphere_(grid.type == "SphereGridTopology") {
    center_ = vector3(reader, grid, "center", {0, 0, 0});
    radius_ = reader.real(grid, "radius", 1);
    length_ = reader.real(grid, "length", 1);
    // The frame: z along the axis, x along global x unless the axis is x (then global y), y =
    // z cross x, x = y cross z, each normalised as Vec::normalize does (divided by the norm).
    axis_[2] = vector3(reader, grid, "axis", {0, 0, 1});
    normalize(axis_[2]);
    const std::array<double, 3> zMinusX = {axis_[2][0] - 1, axis_[2][1], axis_[2][2]};
    axis_[0] =
        norm(zMinusX) < 0.000001 ? std::array<double, 3>{0, 1, 0} : std::array<double, 3>{1, 0, 0};
    axis_[1] = cross(axis_[2], axis_[0]);
    axis_[0] = cross(axis_[1], axis_[2]);
    for (auto& a : axis_) normalize(a);
  }

  std::array<double, 3> point(int i, int j, int k) const {
    const double r = radius_;
    std::array<double, 3> p = {i * 2 * r / (n_[0] - 1) - r, j * 2 * r / (n_[1] - 1) - r,
                               sphere_ ? k * 2 * r / (n_[2] - 1) - r : 0.0};
    if (norm(p) > 0.0000001) {
      double largest = std::max(std::abs(p[0]), std::abs(p[1]));
      if (sphere_) largest = std::max(largest, std::abs(p[2]));
      const double scale = largest / norm(p);
      for (double& x : p) x *= scale;
    }
    if (!sphere_ && n_[2] > 1) p[2] = k * length_ / (n_[2] - 1);
    std::array<double, 3> out = center_;
    for (int a = 0; a < 3; ++a)
      for (int c = 0; c < 3; ++c) out[c] += axis_[a][c] * p[a];
    return out;
  }

private:
  static double norm(const std::array<double, 3>& v) {
    return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  }
  static void normalize(std::array<double, 3>& v) {
    const double length = norm(v);
    if (length > std::numeric_limits<double>::epsilon())
      for (double& x : v) x /= length;
  }
  static std::array<double, 3> cross(const std::array<double, 3>& a,
                                     const std::array<double, 3>& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
  }

  std::array<int, 3> n_;
  bool sphere_;
  std::array<double, 3> center_{};
  double radius_ = 1, length_ = 1;
  std::array<std::array<double, 3>, 3> axis_{};
};

}  // namespace

RegularGrid regularGrid(const Reader& reader, const SofaObject& grid, bool pointsOnly) {
  RegularGrid out;
  // GridTopology: n (2 2 2), or nx ny nz when all three are given (read as integers).
  if (reader.given(grid, "nx") && reader.given(grid, "ny") && reader.given(grid, "nz")) {
    const char* names[3] = {"nx", "ny", "nz"};
    for (int a = 0; a < 3; ++a) {
      const std::vector<long long> v = reader.integers(grid, names[a]);
      if (v.size() != 1) reader.reject(grid, names[a], "expected one integer");
      out.n[a] = int(v[0]);
    }
  } else if (reader.given(grid, "n")) {
    const std::vector<long long> v = reader.integers(grid, "n");
    if (v.size() != 3) reader.reject(grid, "n", "expected 3 integers");
    for (int a = 0; a < 3; ++a) out.n[a] = int(v[a]);
  }
  // RegularGridTopology::parse: xmin .. zmax (all six, each read in single precision, then
  // times the legacy `scale` in double) replace min and max.
  std::array<double, 3> min = vector3(reader, grid, "min", {0, 0, 0});
  std::array<double, 3> max = vector3(reader, grid, "max", {1, 1, 1});
  const char* legacyMin[3] = {"xmin", "ymin", "zmin"};
  const char* legacyMax[3] = {"xmax", "ymax", "zmax"};
  bool legacy = true;
  for (int a = 0; a < 3; ++a)
    legacy = legacy && reader.given(grid, legacyMin[a]) && reader.given(grid, legacyMax[a]);
  if (legacy) {
    const double scale = reader.single(grid, "scale", 1);
    for (int a = 0; a < 3; ++a) {
      min[a] = reader.single(grid, legacyMin[a], 0) * scale;
      max[a] = reader.single(grid, legacyMax[a], 1) * scale;
    }
  }
  // RegularGridTopology::init: cellWidth > 0 sets n = ceil((max - min) / w) + 1.
  const double width = reader.real(grid, "cellWidth", 0);
  if (width < 0) reader.reject(grid, "cellWidth", "expected a width >= 0");
  if (width > 0)
    for (int a = 0; a < 3; ++a) out.n[a] = int(std::ceil((max[a] - min[a]) / width)) + 1;
  for (int a = 0; a < 3; ++a)
    if (out.n[a] < 1) reader.reject(grid, "n", "a grid needs at least one point along each axis");
  if (!pointsOnly && out.dimension() == 0)
    reader.reject(grid, "n", "a grid of one point has no cells");
  // GridTopology::getIndex: i + n0 (j + n1 k); the point of (i, j, k) is the grid's own.
  const long long n0 = out.n[0], n1 = out.n[1];
  if (grid.type == "CylinderGridTopology" || grid.type == "SphereGridTopology") {
    const RoundGrid round(reader, grid, out.n);
    for (int k = 0; k < out.n[2]; ++k)
      for (int j = 0; j < out.n[1]; ++j)
        for (int i = 0; i < out.n[0]; ++i) out.points.push_back(round.point(i, j, k));
  } else {
    // setPos: the step (max - min) / (n - 1) along each axis (max - min for one point, which
    // lies midway along x and y, at min along z); p0 = min unless p0 is given;
    // getPointInGrid: p0 + dx i + dy j + dz k.
    std::array<double, 3> step{}, middle = min;
    for (int a = 0; a < 3; ++a) {
      step[a] = out.n[a] > 1 ? (max[a] - min[a]) / (out.n[a] - 1) : max[a] - min[a];
      if (out.n[a] == 1 && a < 2) middle[a] = (max[a] + min[a]) / 2;
    }
    const std::array<double, 3> p0 = vector3(reader, grid, "p0", middle);
    out.p0 = p0, out.step = step;
    for (int k = 0; k < out.n[2]; ++k)
      for (int j = 0; j < out.n[1]; ++j)
        for (int i = 0; i < out.n[0]; ++i)
          out.points.push_back({p0[0] + step[0] * i, p0[1] + step[1] * j, p0[2] + step[2] * k});
  }
  if (pointsOnly) return out;
  const auto point = [&](long long i, long long j, long long k) { return i + n0 * (j + n1 * k); };
  const int nx = out.n[0], ny = out.n[1], nz = out.n[2];
  if (out.dimension() == 2) {  // updateQuads: the XY, XZ and YZ planes in turn (one has quads)
    for (int z = 0; z < nz; ++z)
      for (int y = 0; y + 1 < ny; ++y)
        for (int x = 0; x + 1 < nx; ++x)
          out.quads.push_back(
              {point(x, y, z), point(x + 1, y, z), point(x + 1, y + 1, z), point(x, y + 1, z)});
    for (int z = 0; z + 1 < nz; ++z)
      for (int y = 0; y < ny; ++y)
        for (int x = 0; x + 1 < nx; ++x)
          out.quads.push_back(
              {point(x, y, z), point(x + 1, y, z), point(x + 1, y, z + 1), point(x, y, z + 1)});
    for (int z = 0; z + 1 < nz; ++z)
      for (int y = 0; y + 1 < ny; ++y)
        for (int x = 0; x < nx; ++x)
          out.quads.push_back(
              {point(x, y, z), point(x, y + 1, z), point(x, y + 1, z + 1), point(x, y, z + 1)});
    return out;
  }
  if (out.dimension() == 1) {  // updateEdges: the lines along x, y, then z (one axis has them)
    for (int z = 0; z < nz; ++z)
      for (int y = 0; y < ny; ++y)
        for (int x = 0; x + 1 < nx; ++x) out.edges.push_back({point(x, y, z), point(x + 1, y, z)});
    for (int z = 0; z < nz; ++z)
      for (int y = 0; y + 1 < ny; ++y)
        for (int x = 0; x < nx; ++x) out.edges.push_back({point(x, y, z), point(x, y + 1, z)});
    for (int z = 0; z + 1 < nz; ++z)
      for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) out.edges.push_back({point(x, y, z), point(x, y, z + 1)});
    return out;
  }
  for (int z = 0; z + 1 < out.n[2]; ++z)
    for (int y = 0; y + 1 < out.n[1]; ++y)
      for (int x = 0; x + 1 < out.n[0]; ++x)
        out.hexahedra.push_back({point(x, y, z), point(x + 1, y, z), point(x + 1, y + 1, z),
                                 point(x, y + 1, z), point(x, y, z + 1), point(x + 1, y, z + 1),
                                 point(x + 1, y + 1, z + 1), point(x, y + 1, z + 1)});
  return out;
}

std::vector<std::array<long long, 3>> gridTriangles(const RegularGrid& grid) {
  std::vector<std::array<long long, 3>> triangles;
  triangles.reserve(2 * grid.quads.size());
  for (const auto& q : grid.quads) {
    triangles.push_back({q[0], q[1], q[2]});
    triangles.push_back({q[0], q[2], q[3]});
  }
  return triangles;
}

std::vector<std::array<long long, 4>> cutIntoTetrahedra(const RegularGrid& grid, GridCut cut) {
  const std::size_t nx = std::size_t(grid.n[0] - 1), ny = std::size_t(grid.n[1] - 1);
  std::vector<std::array<long long, 4>> tetrahedra;
  tetrahedra.reserve(6 * grid.hexahedra.size());
  for (std::size_t i = 0; i < grid.hexahedra.size(); ++i) {
    std::array<long long, 8> c = grid.hexahedra[i];
    int mirrored = 0;
    if (cut != GridCut::MappingWithoutSwapping) {
      // Every other hexahedron along x from the first, along y and z from the second.
      const bool mirror[3] = {(i % nx) % 2 == 0, (i / nx) % ny % 2 == 1, (i / (nx * ny)) % 2 == 1};
      for (int axis = 0; axis < 3; ++axis) {
        if (!mirror[axis]) continue;
        for (const auto& edge : kEdges[axis]) std::swap(c[edge[0]], c[edge[1]]);
        ++mirrored;
      }
    }
    const int pattern = cut == GridCut::MappingWithSwapping ? mirrored % 2 : 0;
    for (const auto& t : kPatterns[pattern])
      tetrahedra.push_back({c[t[0]], c[t[1]], c[t[2]], c[t[3]]});
  }
  return tetrahedra;
}

std::optional<std::vector<double>> linkedGridPoints(const Reader& reader, const SofaObject& o,
                                                    const std::string& field) {
  if (!o.field(field) || !isSofaLink(*o.field(field))) return std::nullopt;
  std::string linkedField;
  const SofaObject* grid = reader.linked(o, field, &linkedField);
  if (!grid || linkedField != "position" || grid->field("position") ||
      (grid->type != "RegularGridTopology" && grid->type != "CylinderGridTopology" &&
       grid->type != "SphereGridTopology"))
    return std::nullopt;
  // GridTopology::init fills the grid's position; SOFA's init visitor reaches the objects depth
  // first, a node's own before its children's (SofaScene::objects' order): an object before the
  // grid reads no points at its own init.
  const std::vector<const SofaObject*> order = reader.scene().objects();
  if (std::find(order.begin(), order.end(), grid) > std::find(order.begin(), order.end(), &o))
    reader.reject(o, field,
                  "links the points of " + grid->label() +
                      ", which SOFA computes when it initialises the grid, after this object: "
                      "put the grid first");
  std::vector<double> points;
  for (const std::array<double, 3>& p : regularGrid(reader, *grid, true).points)
    points.insert(points.end(), p.begin(), p.end());
  return points;
}

}  // namespace eis::sofa
