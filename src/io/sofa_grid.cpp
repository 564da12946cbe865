// SOFA's RegularGridTopology as tetrahedra (io/sofa_grid.hpp).
#include "sofa_grid.hpp"

#include <cmath>

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
    if (out.n[a] < (pointsOnly ? 1 : 2))
      reader.reject(grid, "n",
                    "a grid with fewer than 2 points along an axis has no hexahedra (a 1D or 2D "
                    "grid is not supported yet)");
  // setPos: the step (max - min) / (n - 1) along each axis; p0 = min unless p0 is given.
  std::array<double, 3> step{}, middle = min;
  for (int a = 0; a < 3; ++a) {
    step[a] = out.n[a] > 1 ? (max[a] - min[a]) / (out.n[a] - 1) : max[a] - min[a];
    if (out.n[a] == 1 && a < 2) middle[a] = (max[a] + min[a]) / 2;
  }
  const std::array<double, 3> p0 = vector3(reader, grid, "p0", middle);
  // GridTopology::getIndex: i + n0 (j + n1 k); getPointInGrid: p0 + dx i + dy j + dz k.
  const long long n0 = out.n[0], n1 = out.n[1];
  for (int k = 0; k < out.n[2]; ++k)
    for (int j = 0; j < out.n[1]; ++j)
      for (int i = 0; i < out.n[0]; ++i)
        out.points.push_back({p0[0] + step[0] * i, p0[1] + step[1] * j, p0[2] + step[2] * k});
  if (pointsOnly) return out;
  const auto point = [&](long long i, long long j, long long k) { return i + n0 * (j + n1 * k); };
  for (int z = 0; z + 1 < out.n[2]; ++z)
    for (int y = 0; y + 1 < out.n[1]; ++y)
      for (int x = 0; x + 1 < out.n[0]; ++x)
        out.hexahedra.push_back({point(x, y, z), point(x + 1, y, z), point(x + 1, y + 1, z),
                                 point(x, y + 1, z), point(x, y, z + 1), point(x + 1, y, z + 1),
                                 point(x + 1, y + 1, z + 1), point(x, y + 1, z + 1)});
  return out;
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

}  // namespace eis::sofa
