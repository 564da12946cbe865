// SOFA's SparseGridTopology from a surface (io/sofa_sparse_grid.hpp).
#include "sofa_sparse_grid.hpp"

#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include "eis/core/error.hpp"
#include "eis/core/parameters.hpp"
#include "sofa_cube_intersection.hpp"
#include "sofa_sparse_grid_ramification.hpp"

namespace eis::sofa {

namespace {

using Point = std::array<double, 3>;
using CellType = VoxelType;

// The regular grid underneath (RegularGridTopology::setPos with p0 = min): point (i, j, k) at
// min + step * (i, j, k), cell (x, y, z) numbered x + (nx - 1) (y + (ny - 1) z).
struct Lattice {
  std::array<int, 3> cells;  // along each axis
  Point min, max, step;

  Point point(long long i, long long j, long long k) const {
    return {min[0] + step[0] * double(i), min[1] + step[1] * double(j),
            min[2] + step[2] * double(k)};
  }
  long long cell(long long x, long long y, long long z) const {
    return x + cells[0] * (y + cells[1] * z);
  }
  std::array<long long, 3> coordinates(long long c) const {
    return {c % cells[0], c / cells[0] % cells[1], c / cells[0] / cells[1]};
  }
  long long count() const { return (long long)cells[0] * cells[1] * cells[2]; }

  // RegularGridTopology::findCube: floor(((p - p0) . dx) / (dx . dx)) along each axis; -1 when
  // outside the grid.
  long long find(const Point& p) const {
    long long c[3];
    for (int a = 0; a < 3; ++a) {
      const double u = ((p[a] - min[a]) * step[a]) * (1 / (step[a] * step[a]));
      if (!(u >= 0 && u < cells[a])) return -1;
      c[a] = (long long)std::floor(u);
    }
    return cell(c[0], c[1], c[2]);
  }
};

// The cell standing for a surface vertex outside the grid (voxelizeTriangleMesh): along each
// axis where it lies below min or above max, give or take single-precision epsilon, it is moved
// to the middle of the first or last cell. That cell only bounds the cells its triangles test.
long long movedCell(const Lattice& grid, const Point& v, std::size_t index) {
  const double eps = std::numeric_limits<float>::epsilon();
  Point moved = v;
  for (int a = 0; a < 3; ++a) {
    if (moved[a] - eps < grid.min[a])
      moved[a] = grid.min[a] + grid.step[a] / 2;
    else if (moved[a] + eps > grid.max[a])
      moved[a] = grid.max[a] - grid.step[a] / 2;
  }
  const long long c = grid.find(moved);
  if (c < 0)
    throw Error("surface vertex " + std::to_string(index + 1) +
                " lies outside the grid (min and max leave it out)");
  return c;
}

// The cells the surface crosses (voxelizeTriangleMesh): each vertex's cell, then, for each
// triangle of each facet's fan, the cells of the box of its vertices' cells that it touches.
void markBoundary(const Surface& surface, const Lattice& grid, std::vector<CellType>& types) {
  std::vector<long long> cellOf(surface.vertices.size());
  for (std::size_t i = 0; i < surface.vertices.size(); ++i) {
    // A vertex inside the grid marks its cell as crossed.
    const long long inside = grid.find(surface.vertices[i]);
    if (inside >= 0) types[std::size_t(inside)] = CellType::Boundary;
    cellOf[i] = inside >= 0 ? inside : movedCell(grid, surface.vertices[i], i);
  }
  for (const auto& f : surface.facets)
    for (std::size_t j = 2; j < f.size(); ++j) {
      const long long v[3] = {f[0], f[j - 1], f[j]};
      const long long c[3] = {cellOf[v[0]], cellOf[v[1]], cellOf[v[2]]};
      if (c[0] == c[1] && c[0] == c[2] && types[std::size_t(c[0])] == CellType::Boundary) continue;
      std::array<long long, 3> lo = grid.coordinates(c[0]), hi = lo;
      for (int k = 1; k < 3; ++k) {
        const std::array<long long, 3> at = grid.coordinates(c[k]);
        for (int a = 0; a < 3; ++a) lo[a] = std::min(lo[a], at[a]), hi[a] = std::max(hi[a], at[a]);
      }
      for (long long x = lo[0]; x <= hi[0]; ++x)
        for (long long y = lo[1]; y <= hi[1]; ++y)
          for (long long z = lo[2]; z <= hi[2]; ++z) {
            CellType& type = types[std::size_t(grid.cell(x, y, z))];
            if (type == CellType::Boundary) continue;
            // The triangle in the frame of the cell, scaled to the unit cube, in single
            // precision as SOFA hands it over.
            const Point first = grid.point(x, y, z), last = grid.point(x + 1, y + 1, z + 1);
            UnitCubeTriangle t;
            for (int a = 0; a < 3; ++a) {
              const double diagonal = last[a] - first[a];
              const double centre = first[a] + diagonal * .5;
              for (int k = 0; k < 3; ++k)
                t[k][a] = float((surface.vertices[std::size_t(v[k])][a] - centre) / diagonal);
            }
            if (touchesUnitCube(t)) type = CellType::Boundary;
          }
    }
}

// SOFA's fill: the cells reached from the grid's border without crossing a boundary cell are
// outside; the others stay inside. What is reached does not depend on the order of the visits, so
// an open surface is filled as SOFA fills it: where a hole leaves a path of cells the surface
// does not cross, the fill runs in through it, and every cell it reaches is outside.
void markOutside(const Lattice& grid, std::vector<CellType>& types) {
  std::vector<std::array<long long, 3>> todo;
  std::vector<bool> seen(types.size(), false);
  const auto& n = grid.cells;
  for (long long z = 0; z < n[2]; ++z)
    for (long long y = 0; y < n[1]; ++y)
      for (long long x = 0; x < n[0]; ++x)
        if (x == 0 || y == 0 || z == 0 || x == n[0] - 1 || y == n[1] - 1 || z == n[2] - 1)
          todo.push_back({x, y, z});
  while (!todo.empty()) {
    const std::array<long long, 3> at = todo.back();
    todo.pop_back();
    const std::size_t c = std::size_t(grid.cell(at[0], at[1], at[2]));
    if (seen[c] || types[c] == CellType::Boundary) continue;
    seen[c] = true;
    types[c] = CellType::Outside;
    for (int a = 0; a < 3; ++a)
      for (int step : {-1, 1}) {
        std::array<long long, 3> next = at;
        next[a] += step;
        if (next[a] >= 0 && next[a] < n[a]) todo.push_back(next);
      }
  }
}

}  // namespace

Surface readObj(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw Error("cannot read " + path);
  Surface out;
  std::string line;
  for (long long number = 1; std::getline(file, line); ++number) {
    std::istringstream values(line);
    std::string token;
    values >> token;
    const std::string where = path + ":" + std::to_string(number) + ": ";
    if (token == "v") {
      Point p;
      if (!(values >> p[0] >> p[1] >> p[2])) throw Error(where + "a vertex needs 3 numbers");
      out.vertices.push_back(p);
    } else if (token == "f" || token == "l") {
      std::vector<long long> facet;
      std::string corner;
      while (values >> corner) {
        const std::string first = corner.substr(0, corner.find('/'));
        std::size_t used = 0;
        long long index = 0;
        try {
          index = std::stoll(first, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (first.empty() || used != first.size())
          throw Error(where + "invalid vertex index '" + corner + "'");
        facet.push_back(index - 1);
      }
      out.facets.push_back(facet);
    }
  }
  for (const auto& f : out.facets)
    for (long long v : f)
      if (v < 0 || v >= (long long)out.vertices.size())
        throw Error(path + ": a facet names vertex " + std::to_string(v + 1) + " of " +
                    std::to_string(out.vertices.size()) + " (1-based, negative ones unsupported)");
  return out;
}

GridLevel finestLevel(const Surface& surface, const SparseGridSettings& settings) {
  if (surface.vertices.empty()) throw Error("the surface has no vertices");
  GridLevel out;
  out.n = settings.n;
  out.min = settings.min;
  out.max = settings.max;
  // buildFromTriangleMesh: no box given, the vertices' box widened by 1% of its size each way.
  if (out.min == Point{0, 0, 0} && out.max == Point{0, 0, 0}) {
    out.min = out.max = surface.vertices[0];
    for (const Point& v : surface.vertices)
      for (int a = 0; a < 3; ++a)
        out.min[a] = std::min(out.min[a], v[a]), out.max[a] = std::max(out.max[a], v[a]);
    for (int a = 0; a < 3; ++a) {
      const double widen = (out.max[a] - out.min[a]) / 100.0;
      out.min[a] -= widen;
      out.max[a] += widen;
    }
  }
  if (settings.cellWidth != 0)
    for (int a = 0; a < 3; ++a) {
      const double cells = std::ceil((out.max[a] - out.min[a]) / settings.cellWidth);
      if (!(cells < 1e9))
        throw Error("cellWidth " + parse::text(settings.cellWidth) + " gives too many cells");
      out.n[a] = int(cells) + 1;
    }
  Lattice grid;
  for (int a = 0; a < 3; ++a) {
    if (!(out.max[a] > out.min[a]))
      throw Error("the grid's box is flat or inverted along axis " + std::to_string(a));
    if (out.n[a] < 2)
      throw Error("a grid needs at least 2 points along each axis (n = " +
                  std::to_string(out.n[a]) + " along axis " + std::to_string(a) + ")");
    grid.cells[a] = out.n[a] - 1;
    grid.step[a] = (out.max[a] - out.min[a]) / grid.cells[a];
  }
  grid.min = out.min;
  grid.max = out.max;
  // SOFA numbers cells and points with 32-bit indices.
  if ((double)grid.cells[0] * grid.cells[1] * grid.cells[2] >= 4294967295.0)
    throw Error("a grid of " + std::to_string(out.n[0]) + " x " + std::to_string(out.n[1]) + " x " +
                std::to_string(out.n[2]) + " points is beyond SOFA's 32-bit indices");
  std::vector<CellType> types(std::size_t(grid.count()), CellType::Inside);
  markBoundary(surface, grid, types);
  markOutside(grid, types);
  out.stiffness.assign(types.size(), 0.0);
  for (std::size_t c = 0; c < types.size(); ++c) {
    // Cells onlyInsideCells leaves out are no cells of this level, for a coarser one too.
    if (types[c] == CellType::Boundary && settings.onlyInsideCells) types[c] = CellType::Outside;
    if (types[c] != CellType::Outside)
      out.stiffness[c] = types[c] == CellType::Boundary && settings.fillWeighted ? 0.5 : 1.0;
  }
  out.mass = out.stiffness;  // buildAsFinest gives both coefficients alike
  out.types = std::move(types);
  return out;
}

namespace {

// The lattice of a level (RegularGridTopology::setPos).
Lattice latticeOf(const GridLevel& level) {
  Lattice grid;
  for (int a = 0; a < 3; ++a) {
    grid.cells[a] = level.n[a] - 1;
    grid.step[a] = (level.max[a] - level.min[a]) / grid.cells[a];
  }
  grid.min = level.min;
  grid.max = level.max;
  return grid;
}

}  // namespace

SparseGrid numberedCells(const GridLevel& level, const std::vector<long long>& kept) {
  const Lattice grid = latticeOf(level);
  SparseGrid out;
  out.n = level.n;
  out.min = level.min;
  out.max = level.max;
  // Corners numbered in the order of their positions (SOFA keys them in a std::map of Vec3: by
  // x, then y, then z).
  std::vector<std::array<Point, 8>> corners;
  std::map<Point, long long> numbers;
  for (long long c : kept) {
    const auto [x, y, z] = grid.coordinates(c);
    corners.push_back({grid.point(x, y, z), grid.point(x + 1, y, z), grid.point(x + 1, y + 1, z),
                       grid.point(x, y + 1, z), grid.point(x, y, z + 1),
                       grid.point(x + 1, y, z + 1), grid.point(x + 1, y + 1, z + 1),
                       grid.point(x, y + 1, z + 1)});
    for (const Point& p : corners.back()) numbers[p] = 0;
  }
  for (auto& [p, number] : numbers) {
    number = (long long)out.points.size();
    out.points.push_back(p);
  }
  for (std::size_t h = 0; h < corners.size(); ++h) {
    std::array<long long, 8> hexahedron;
    for (int k = 0; k < 8; ++k) hexahedron[k] = numbers.at(corners[h][k]);
    out.hexahedra.push_back(hexahedron);
    out.stiffness.push_back(level.stiffness[std::size_t(kept[h])]);
    out.mass.push_back(level.mass[std::size_t(kept[h])]);
    out.boundary.push_back(level.types[std::size_t(kept[h])] == CellType::Boundary);
    out.boundaryCells += out.boundary.back();
  }
  out.regular = kept;
  return out;
}

SparseGrid voxelize(const Surface& surface, const SparseGridSettings& settings) {
  const GridLevel level = finestLevel(surface, settings);
  // buildFromRegularGridTypes: the boundary cells (unless onlyInsideCells, which finestLevel
  // has made outside), then the inside ones, each in the regular grid's order.
  std::vector<long long> kept;
  for (CellType wanted : {CellType::Boundary, CellType::Inside})
    for (std::size_t c = 0; c < level.types.size(); ++c)
      if (level.types[c] == wanted) kept.push_back((long long)c);
  // SOFA leaves such a grid invalid, and the body would have no point.
  if (kept.empty())
    throw Error(
        "the grid keeps no cell" +
        std::string(settings.onlyInsideCells ? " (none lies wholly inside the surface)" : ""));
  return numberedCells(level, kept);
}

SparseGrid sparseGrid(const Reader& reader, const SofaObject& grid, const std::string& surfacePath,
                      const std::vector<std::string>& surfaces,
                      const std::vector<std::array<double, 3>>* linkedPoints,
                      std::vector<GridLevel>* finer) {
  const double levels = reader.real(grid, "nbVirtualFinerLevels", 0);
  if (levels != std::floor(levels) || levels < 0 || levels > 8)
    reader.reject(grid, "nbVirtualFinerLevels", "expected an integer from 0 to 8");
  reader.refuseIfGiven(grid, "facets", "facets written in the scene are not supported yet");
  // buildAsFinest: a VoxelGridLoader in the grid's node or above replaces the surface.
  for (const SofaNode* node = grid.node; node; node = node->parent)
    for (const SofaObject& o : node->objects)
      if (o.type == "VoxelGridLoader")
        throw Error(o.where + ": " + o.type + ": gives " + grid.label() +
                    " its voxels, which is not supported yet (a surface is)");
  SparseGridSettings settings;
  if (reader.given(grid, "n")) {
    const std::vector<long long> n = reader.integers(grid, "n");
    if (n.size() != 3) reader.reject(grid, "n", "expected 3 integers");
    for (int a = 0; a < 3; ++a) settings.n[a] = int(n[a]);
  }
  for (const char* field : {"min", "max"})
    if (reader.given(grid, field)) {
      const std::vector<double> v = reader.reals(grid, field);
      if (v.size() != 3) reader.reject(grid, field, "expected 3 numbers");
      (std::string(field) == "min" ? settings.min : settings.max) = {v[0], v[1], v[2]};
    }
  settings.cellWidth = reader.real(grid, "cellWidth", 0);
  if (settings.cellWidth < 0) reader.reject(grid, "cellWidth", "expected a width >= 0");
  settings.onlyInsideCells = reader.boolean(grid, "onlyInsideCells", false);
  settings.fillWeighted = reader.boolean(grid, "fillWeighted", true);
  // SOFA's init raises n below 2 to 2 without a word; a scene asking for it is refused here.
  if (!settings.cellWidth)
    for (int a = 0; a < 3; ++a)
      if (settings.n[a] < 2)
        reader.reject(grid, "n", "a grid needs at least 2 points along each axis");
  Surface surface;
  const char* field = grid.field("fileTopology") ? "fileTopology" : "filename";
  // SparseGridMultipleTopology voxelises its fileTopologies; fileTopology, when given, is the
  // surface finestConnectivity tests.
  const bool multiple = grid.type == "SparseGridMultipleTopology";
  if (multiple && surfacePath.empty()) {
    reader.refuseIfGiven(grid, "position", "SparseGridMultipleTopology reads fileTopologies");
  } else if (surfacePath.empty()) {
    // buildAsFinest: no file, the surface written in the scene (position, triangles, quads).
    if (!linkedPoints && grid.field("position") && isSofaLink(*grid.field("position")) &&
        !reader.given(grid, "position"))
      reader.reject(grid, "position",
                    "a link to points SOFA computes is not supported here (but to a "
                    "SubsetTopology's pointsInROI or pointsOutROI); write the surface");
    if (!linkedPoints && !reader.given(grid, "position"))
      reader.reject(grid, field, "no surface: neither a file nor a position");
    field = "position";
    const std::vector<double> x =
        linkedPoints ? std::vector<double>{} : reader.reals(grid, "position");
    if (x.size() % 3 != 0) reader.reject(grid, "position", "expected 3 numbers per point");
    for (std::size_t i = 0; i < x.size(); i += 3)
      surface.vertices.push_back({x[i], x[i + 1], x[i + 2]});
    // SOFA's voxelisation marks the cell of each point as crossed (voxelizeTriangleMesh), whether
    // or not facets join them.
    if (linkedPoints) surface.vertices = *linkedPoints;
    for (const auto& [name, size] :
         {std::pair<const char*, std::size_t>{"triangles", 3}, {"quads", 4}}) {
      if (grid.field(name) && isSofaLink(*grid.field(name)) && !reader.given(grid, name))
        reader.reject(grid, name, "a link to facets SOFA computes is not supported; write them");
      const std::vector<long long> v = reader.integers(grid, name);
      if (v.size() % size != 0) reader.reject(grid, name, "a partial facet");
      for (std::size_t i = 0; i < v.size(); i += size) {
        surface.facets.emplace_back(v.begin() + long(i), v.begin() + long(i + size));
        for (long long k : surface.facets.back())
          if (k < 0 || k >= (long long)surface.vertices.size())
            reader.reject(grid, name,
                          "names point " + std::to_string(k) + " of " +
                              std::to_string(surface.vertices.size()));
      }
    }
  } else {
    // helper::io::Mesh::Create picks the reader by the text after the last dot.
    const std::size_t dot = surfacePath.rfind('.');
    const std::string extension = dot == std::string::npos ? "" : surfacePath.substr(dot + 1);
    if (extension == "raw" || extension == "voxel")
      reader.reject(grid, field, "voxel files are not supported yet (surfaces are)");
    // SOFA's MeshGmsh (".gmsh") fills triangles but not the facets the voxelisation reads, so
    // only the cells holding a vertex would count as crossed; there is no STL reader there.
    if (extension == "gmsh")
      reader.reject(grid, field,
                    "a Gmsh surface is not supported (SOFA reads its vertices but none of its "
                    "facets into the grid); an OBJ one is");
    if (extension != "obj" && extension != "OBJ")
      reader.reject(grid, field, "SOFA's SparseGridTopology reads surfaces from .obj files only");
    try {
      surface = readObj(surfacePath);
    } catch (const Error& e) {
      reader.reject(grid, field, e.what());
    }
  }
  if (levels != 0 && settings.cellWidth != 0)
    reader.reject(grid, "cellWidth", "together with nbVirtualFinerLevels: not supported");
  if (multiple)
    return multipleGrid(reader, grid, surfacePath.empty() ? nullptr : &surface, surfaces, settings,
                        int(levels));
  try {
    if (grid.type == "SparseGridRamificationTopology")
      return ramifiedGrid([&](const SparseGridSettings& s) { return finestLevel(surface, s); },
                          surface, settings, int(levels),
                          reader.boolean(grid, "finestConnectivity", true));
    if (levels == 0) return voxelize(surface, settings);
    // buildVirtualFinerLevels: the surface voxelised on (n - 1) 2^levels + 1 points along each
    // axis, then each grid built from the one below it, this one last.
    for (int a = 0; a < 3; ++a) settings.n[a] = (settings.n[a] - 1) * (1 << int(levels)) + 1;
    GridLevel level = finestLevel(surface, settings);
    for (int l = 0; l < int(levels); ++l) {
      GridLevel next = coarser(level);
      if (finer) finer->push_back(std::move(level));
      level = std::move(next);
    }
    return numberedByCubes(level);
  } catch (const Error& e) {
    reader.reject(grid, field, e.what());
  }
}

}  // namespace eis::sofa
