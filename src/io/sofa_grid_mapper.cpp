// SOFA's grid mappers (io/sofa_grid_mapper.hpp), after SOFA master's
// Mapping/Linear BarycentricMappers/BarycentricMapperRegularGridTopology.inl and
// BarycentricMapperSparseGridTopology.inl, and Topology/Container/Grid RegularGridTopology.cpp and
// SparseGridTopology.cpp (findCube, findNearestCube).
#include "sofa_grid_mapper.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace eis::sofa {

namespace {

using Point = std::array<double, 3>;

// The regular grid's (ix, iy, iz) of p, unclamped, and x, y, z.
struct GridIndex {
  std::array<long long, 3> i;
  Point x;
};

GridIndex gridIndex(const Point& p0, const Point& step, const double* p) {
  GridIndex out;
  for (int a = 0; a < 3; ++a) {
    out.x[a] = (p[a] - p0[a]) * step[a] * (1.0 / (step[a] * step[a]));
    out.i[a] = (long long)std::floor(out.x[a]);
  }
  return out;
}

std::string entry(long long cube, const Point& f) {
  return std::to_string(cube) + " " + parse::text(f[0]) + " " + parse::text(f[1]) + " " +
         parse::text(f[2]);
}

void append(std::string& text, const std::string& more) {
  text += (text.empty() ? "" : " ") + more;
}

}  // namespace

std::string regularGridCubes(const RegularGrid& grid, const std::vector<double>& points) {
  std::string text;
  for (std::size_t p = 0; p + 2 < points.size(); p += 3) {
    GridIndex g = gridIndex(grid.p0, grid.step, &points[p]);
    long long cube = 0, stride = 1;
    Point f;
    for (int a = 0; a < 3; ++a) {
      const long long cells = grid.n[std::size_t(a)] - 1;
      g.i[a] = std::min(std::max(g.i[a], 0LL), cells - 1);
      f[a] = g.x[a] - double(g.i[a]);
      cube += g.i[a] * stride;
      stride *= cells;
    }
    append(text, entry(cube, f));
  }
  return text;
}

std::string sparseGridCubes(const SparseGrid& grid, const std::vector<double>& points) {
  Point step;
  std::array<long long, 3> cells;
  for (int a = 0; a < 3; ++a) {
    cells[a] = grid.n[std::size_t(a)] - 1;
    step[a] = (grid.max[a] - grid.min[a]) / double(cells[a]);
  }
  // The regular cube of each kept one, from its corner 0 (a grid point: min + step (i, j, k)).
  std::map<long long, long long> kept;
  for (std::size_t h = 0; h < grid.hexahedra.size(); ++h) {
    const Point& c0 = grid.points[std::size_t(grid.hexahedra[h][0])];
    long long cube = 0, stride = 1;
    for (int a = 0; a < 3; ++a) {
      cube += std::llround((c0[a] - grid.min[a]) / step[a]) * stride;
      stride *= cells[a];
    }
    kept.emplace(cube, (long long)h);
  }
  std::string text;
  for (std::size_t p = 0; p + 2 < points.size(); p += 3) {
    const GridIndex g = gridIndex(grid.min, step, &points[p]);
    bool inside = true;
    long long cube = 0, stride = 1;
    for (int a = 0; a < 3; ++a) {
      inside = inside && g.i[a] >= 0 && g.i[a] < cells[a];
      cube += g.i[a] * stride;
      stride *= cells[a];
    }
    if (const auto it = kept.find(cube); inside && it != kept.end()) {
      append(text, entry(it->second, {g.x[0] - double(g.i[0]), g.x[1] - double(g.i[1]),
                                      g.x[2] - double(g.i[2])}));
      continue;
    }
    std::size_t nearest = 0;
    float least = 99999999.0f;
    for (std::size_t h = 0; h < grid.boundaryCells; ++h) {
      const Point& a = grid.points[std::size_t(grid.hexahedra[h][0])];
      const Point& b = grid.points[std::size_t(grid.hexahedra[h][6])];
      double d2 = 0;
      for (int k = 0; k < 3; ++k) {
        const double d = points[p + std::size_t(k)] - (a[k] + b[k]) * 0.5;
        d2 += d * d;
      }
      const float length = float(std::sqrt(d2));
      if (length < least) least = length, nearest = h;
    }
    const Point& a = grid.points[std::size_t(grid.hexahedra[nearest][0])];
    const Point& b = grid.points[std::size_t(grid.hexahedra[nearest][6])];
    Point f;
    for (int k = 0; k < 3; ++k) f[k] = (points[p + std::size_t(k)] - a[k]) / (b[k] - a[k]);
    append(text, entry((long long)nearest, f));
  }
  return text;
}

}  // namespace eis::sofa
