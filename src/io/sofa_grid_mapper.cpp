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

// SparseGridRamificationTopology::findCube with finer levels: the point's cell in the finest
// level, else (findNearestCube) the nearest of its boundary cells; the hexahedron that cell ended
// in; the coordinates in the grid's own regular cube, clamped to the grid as
// RegularGridTopology::findNearestCube clamps them (a point found lies inside it already).
std::vector<GridCube> finestCells(const SparseGrid& grid, const std::vector<double>& points) {
  const FinestCells& finest = *grid.finest;
  Point step, fineStep;
  std::array<long long, 3> cells, fineCells;
  for (int a = 0; a < 3; ++a) {
    cells[a] = grid.n[std::size_t(a)] - 1;
    step[a] = (grid.max[a] - grid.min[a]) / double(cells[a]);
    fineCells[a] = finest.n[std::size_t(a)] - 1;
    fineStep[a] = (finest.max[a] - finest.min[a]) / double(fineCells[a]);
  }
  const auto corner = [&](long long r, long long shift) {
    const long long i[3] = {r % fineCells[0], r / fineCells[0] % fineCells[1],
                            r / fineCells[0] / fineCells[1]};
    Point c;
    for (int a = 0; a < 3; ++a) c[a] = finest.min[a] + fineStep[a] * double(i[a] + shift);
    return c;
  };
  std::vector<GridCube> out;
  for (std::size_t p = 0; p + 2 < points.size(); p += 3) {
    const GridIndex fine = gridIndex(finest.min, fineStep, &points[p]);
    bool inside = true;
    long long r = 0, stride = 1;
    for (int a = 0; a < 3; ++a) {
      inside = inside && fine.i[a] >= 0 && fine.i[a] < fineCells[a];
      r += fine.i[a] * stride;
      stride *= fineCells[a];
    }
    long long cube = inside ? finest.parent[std::size_t(r)] : -1;
    if (cube < 0) {
      float least = 99999999.0f;
      long long nearest = finest.boundary.front();
      for (long long b : finest.boundary) {
        const Point lo = corner(b, 0), hi = corner(b, 1);
        double d2 = 0;
        for (int k = 0; k < 3; ++k) {
          const double d = points[p + std::size_t(k)] - (lo[k] + hi[k]) * 0.5;
          d2 += d * d;
        }
        const float length = float(std::sqrt(d2));
        if (length < least) least = length, nearest = b;
      }
      cube = finest.parent[std::size_t(nearest)];
    }
    GridIndex g = gridIndex(grid.min, step, &points[p]);
    Point f;
    for (int a = 0; a < 3; ++a) {
      g.i[a] = std::min(std::max(g.i[a], 0LL), cells[a] - 1);
      f[a] = g.x[a] - double(g.i[a]);
    }
    out.push_back({cube, f});
  }
  return out;
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

std::vector<GridCube> sparseGridCells(const SparseGrid& grid, const std::vector<double>& points) {
  if (grid.finest) return finestCells(grid, points);
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
  std::vector<GridCube> out;
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
      out.push_back({it->second,
                     {g.x[0] - double(g.i[0]), g.x[1] - double(g.i[1]), g.x[2] - double(g.i[2])}});
      continue;
    }
    std::size_t nearest = 0;
    float least = 99999999.0f;
    // findNearestCube skips the cells whose type is not BOUNDARY (with finer levels the cells
    // are numbered by cube, boundary and inside ones mixed).
    for (std::size_t h = 0; h < grid.hexahedra.size(); ++h) {
      if (!grid.boundary[h]) continue;
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
    out.push_back({(long long)nearest, f});
  }
  return out;
}

std::string sparseGridCubes(const SparseGrid& grid, const std::vector<double>& points) {
  std::string text;
  for (const GridCube& c : sparseGridCells(grid, points)) append(text, entry(c.cube, c.f));
  return text;
}

}  // namespace eis::sofa
