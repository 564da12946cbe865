// SOFA's SparseGridRamificationTopology (io/sofa_sparse_grid_ramification.hpp), after SOFA
// master's SparseGridRamificationTopology.cpp: buildAsFinest, findConnexionsAtFinestLevel,
// sharingTriangle, intersectionSegmentTriangle, buildRamifiedFinestLevel, buildFromFiner,
// buildVirtualFinerLevels, findCoarsestParents. The pieces' points are numbered in
// io/sofa_sparse_grid_pieces.cpp.
#include "sofa_sparse_grid_ramification.hpp"

#include <cmath>
#include <set>

#include "eis/core/error.hpp"
#include "sofa_sparse_grid_pieces.hpp"

namespace eis::sofa {

namespace {

using ramification::Before;
using ramification::Directions;
using ramification::Down;
using ramification::Left;
using ramification::Level;
using ramification::opposite;
using ramification::Piece;
using ramification::Point;

Point minus(const Point& a, const Point& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
double dot(const Point& a, const Point& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
Point cross(const Point& a, const Point& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

// intersectionSegmentTriangle: whether the line through s0 and s1 meets the triangle at a
// distance from s0 no greater than |s1 - s0| (either side of s0, as SOFA tests it); parallel
// counts as no.
bool segmentMeetsTriangle(const Point& s0, const Point& s1, const Point& t0, const Point& t1,
                          const Point& t2) {
  const Point diff = minus(s0, t0), edge1 = minus(t1, t0), edge2 = minus(t2, t0);
  const Point normal = cross(edge1, edge2);
  Point dir = minus(s1, s0);
  const double length = std::sqrt(dot(dir, dir));
  if (length == 0) return false;  // SOFA's direction is NaN then, and every test fails
  for (double& d : dir) d /= length;
  double dn = dot(dir, normal), sign;
  if (dn > 1.0e-10) {
    sign = 1;
  } else if (dn < -1.0e-10) {
    sign = -1;
    dn = -dn;
  } else {
    return false;
  }
  const double b1 = sign * dot(dir, cross(diff, edge2));
  if (b1 < 0) return false;
  const double b2 = sign * dot(dir, cross(edge1, diff));
  if (b2 < 0 || b1 + b2 > dn) return false;
  const double qn = -sign * dot(diff, normal), extent = length * dn;
  return -extent <= qn && qn <= extent;
}

// sharingTriangle with finestConnectivity: two boundary cells are joined across the face of
// `corners` (a, b, c, d) when an edge of the surface (consecutive vertices of a facet, the
// closing edge left out as SOFA leaves it) meets the triangles abc or acd.
bool surfaceCrosses(const Surface& surface, const std::array<Point, 4>& face) {
  for (const auto& facet : surface.facets)
    for (std::size_t j = 1; j < facet.size(); ++j) {
      const Point& a = surface.vertices[std::size_t(facet[j - 1])];
      const Point& b = surface.vertices[std::size_t(facet[j])];
      if (segmentMeetsTriangle(a, b, face[0], face[1], face[2]) ||
          segmentMeetsTriangle(a, b, face[0], face[2], face[3]))
        return true;
    }
  return false;
}

// buildAsFinest and findConnexionsAtFinestLevel (and buildRamifiedFinestLevel with
// finestConnectivity): SparseGridTopology's cells, one piece each, joined to their neighbours.
Level finest(const GridLevel& grid, const Surface& surface, bool finestConnectivity) {
  Level out;
  out.setGrid(grid.n, grid.min, grid.max);
  for (VoxelType wanted : {VoxelType::Boundary, VoxelType::Inside})
    for (std::size_t r = 0; r < grid.types.size(); ++r)
      if (grid.types[r] == wanted) {
        out.sparseOf[r] = (long long)out.regularOf.size();
        out.regularOf.push_back((long long)r);
        out.types.push_back(wanted);
        out.stiffness.push_back(float(grid.stiffness[r]));
        out.mass.push_back(float(grid.mass[r]));
      }
  if (out.regularOf.empty()) throw Error("the grid keeps no cell");
  const std::size_t cells = out.regularOf.size();
  out.pieces.resize(cells);
  out.piecesOf.resize(cells);
  for (std::size_t c = 0; c < cells; ++c) {
    out.piecesOf[c] = {(long long)c};
    out.pieces[c].hexahedron = out.pieces[c].cell = (long long)c;
  }
  std::vector<std::array<Point, 8>> corners(cells);
  for (std::size_t c = 0; c < cells; ++c) corners[c] = out.corners(out.regularOf[c]);
  // From each cell to its neighbours at -x, -y and -z, the face's corners on the cell's side.
  for (long long z = 0; z < out.cells(2); ++z)
    for (long long y = 0; y < out.cells(1); ++y)
      for (long long x = 0; x < out.cells(0); ++x) {
        const long long c = out.sparseOf[std::size_t(out.regular(x, y, z))];
        if (c < 0) continue;
        const auto& k = corners[std::size_t(c)];
        const struct {
          bool exists;
          long long regular;
          int direction;
          std::array<Point, 4> face;
        } sides[3] = {
            {x > 0, x > 0 ? out.regular(x - 1, y, z) : 0, Left, {k[0], k[4], k[7], k[3]}},
            {y > 0, y > 0 ? out.regular(x, y - 1, z) : 0, Down, {k[0], k[1], k[5], k[4]}},
            {z > 0, z > 0 ? out.regular(x, y, z - 1) : 0, Before, {k[0], k[1], k[2], k[3]}}};
        for (const auto& side : sides) {
          if (!side.exists) continue;
          const long long other = out.sparseOf[std::size_t(side.regular)];
          if (other < 0) continue;
          const bool bothBoundary = out.types[std::size_t(c)] == VoxelType::Boundary &&
                                    out.types[std::size_t(other)] == VoxelType::Boundary;
          if (finestConnectivity && bothBoundary && !surfaceCrosses(surface, side.face)) continue;
          out.pieces[std::size_t(c)].neighbours[std::size_t(side.direction)].insert(other);
          out.pieces[std::size_t(other)].neighbours[std::size_t(opposite(side.direction))].insert(
              c);
        }
      }
  if (finestConnectivity) {
    numberPieces(out, corners);
  } else {
    const SparseGrid plain = numberedCells(grid, out.regularOf);
    out.points = plain.points;
    out.hexahedra = plain.hexahedra;
  }
  return out;
}

// buildFromFiner: each cell of the level one coarser, split into the groups of its children's
// pieces joined to one another, SOFA's indexing of the finer level's lists kept (it reads the
// finer level's types and coefficients, listed per hexahedron, at cell numbers).
Level coarser(Level& fine) {
  Level out;
  std::array<int, 3> n{};
  Point hi{};
  for (int a = 0; a < 3; ++a) {
    n[std::size_t(a)] = fine.n[std::size_t(a)] / 2 + 1;
    hi[a] = fine.min[a] + (n[std::size_t(a)] - 1) * 2.0 * fine.step[a];
  }
  out.setGrid(n, fine.min, hi);
  std::vector<std::array<long long, 8>> children;
  std::vector<VoxelType> cellTypes;
  for (long long i = 0; i < out.cells(0); ++i)
    for (long long j = 0; j < out.cells(1); ++j)
      for (long long k = 0; k < out.cells(2); ++k) {
        std::array<long long, 8> fineCells;
        bool inside = true, outside = true;
        for (int w = 0; w < 8; ++w) {
          const long long x = 2 * i + (w & 1), y = 2 * j + (w >> 1 & 1), z = 2 * k + (w >> 2 & 1);
          fineCells[std::size_t(w)] = x < fine.cells(0) && y < fine.cells(1) && z < fine.cells(2)
                                          ? fine.sparseOf[std::size_t(fine.regular(x, y, z))]
                                          : -1;
          const long long c = fineCells[std::size_t(w)];
          if (c < 0) {
            inside = false;
          } else if (fine.types[std::size_t(c)] == VoxelType::Boundary) {
            inside = outside = false;
          } else {
            outside = false;
          }
        }
        if (outside) continue;
        const long long r = out.regular(i, j, k);
        out.sparseOf[std::size_t(r)] = (long long)out.regularOf.size();
        out.regularOf.push_back(r);
        children.push_back(fineCells);
        cellTypes.push_back(inside ? VoxelType::Inside : VoxelType::Boundary);
      }
  if (out.regularOf.empty()) throw Error("the grid keeps no cell");
  const std::size_t cells = out.regularOf.size();
  out.piecesOf.resize(cells);
  for (std::size_t c = 0; c < cells; ++c) {
    std::vector<long long> all;
    std::vector<int> place;
    for (int w = 0; w < 8; ++w) {
      const long long child = children[c][std::size_t(w)];
      if (child < 0) continue;
      for (long long p : fine.piecesOf[std::size_t(child)]) {
        all.push_back(p);
        place.push_back(w);
        fine.pieces[std::size_t(p)].number = -1;
      }
    }
    const std::set<long long> members(all.begin(), all.end());
    for (std::size_t i = 0; i < all.size(); ++i) {
      std::vector<long long> todo{all[i]};
      while (!todo.empty()) {
        Piece& p = fine.pieces[std::size_t(todo.back())];
        todo.pop_back();
        if (p.number != -1) continue;
        p.number = (long long)i;
        for (const auto& side : p.neighbours)
          for (long long q : side)
            if (members.count(q)) todo.push_back(q);
      }
    }
    std::set<long long> groups;
    for (long long p : all) groups.insert(fine.pieces[std::size_t(p)].number);
    for (long long g : groups) {
      const long long id = (long long)out.pieces.size();
      out.pieces.emplace_back();
      out.pieces.back().cell = (long long)c;
      out.piecesOf[c].push_back(id);
      for (std::size_t i = 0; i < all.size(); ++i)
        if (fine.pieces[std::size_t(all[i])].number == g) {
          out.pieces.back().children.emplace_back(place[i], all[i]);
          fine.pieces[std::size_t(all[i])].parent = id;
        }
    }
  }
  // Pieces of different cells are joined where any of their children are.
  for (long long z = 0; z < fine.cells(2); ++z)
    for (long long y = 0; y < fine.cells(1); ++y)
      for (long long x = 0; x < fine.cells(0); ++x) {
        const long long c = fine.sparseOf[std::size_t(fine.regular(x, y, z))];
        if (c < 0) continue;
        for (long long p : fine.piecesOf[std::size_t(c)]) {
          const long long a = fine.pieces[std::size_t(p)].parent;
          for (int d = 0; d < Directions; ++d)
            for (long long q : fine.pieces[std::size_t(p)].neighbours[std::size_t(d)]) {
              const long long b = fine.pieces[std::size_t(q)].parent;
              if (out.pieces[std::size_t(a)].cell == out.pieces[std::size_t(b)].cell) continue;
              out.pieces[std::size_t(a)].neighbours[std::size_t(d)].insert(b);
              out.pieces[std::size_t(b)].neighbours[std::size_t(opposite(d))].insert(a);
            }
        }
      }
  std::vector<std::array<Point, 8>> corners(cells);
  for (std::size_t c = 0; c < cells; ++c) corners[c] = out.corners(out.regularOf[c]);
  numberPieces(out, corners);
  // Each hexahedron's children (_hierarchicalCubeMap): a cell of one piece keeps its children's
  // cell numbers; a piece of a split cell keeps, as SOFA does, only its last child (at that
  // child's place, by its hexahedron number).
  std::vector<std::array<long long, 8>> hierarchy;
  for (std::size_t c = 0; c < cells; ++c) {
    if (out.piecesOf[c].size() == 1) {
      hierarchy.push_back(children[c]);
      out.types.push_back(cellTypes[c]);
      continue;
    }
    for (long long p : out.piecesOf[c]) {
      std::array<long long, 8> kept{};
      for (const auto& [where, child] : out.pieces[std::size_t(p)].children) {
        const Piece& fp = fine.pieces[std::size_t(child)];
        for (int w = 0; w < 8; ++w)
          kept[std::size_t(w)] = fp.cell == children[c][std::size_t(w)] ? fp.hexahedron : -1;
      }
      hierarchy.push_back(kept);
      out.types.push_back(VoxelType::Boundary);
    }
  }
  // The coefficients: the children's summed over 8, read from the finer level's per-hexahedron
  // lists at those numbers.
  for (const auto& h : hierarchy) {
    float sum = 0, massSum = 0;
    for (long long child : h)
      if (child >= 0) {
        massSum += fine.mass[std::size_t(child)];
        sum += fine.stiffness[std::size_t(child)];
      }
    out.stiffness.push_back(float(double(sum) / 8.0));
    out.mass.push_back(float(double(massSum) / 8.0));
  }
  return out;
}

}  // namespace

SparseGrid ramifiedGrid(const Voxelise& voxelise, const Surface& surface,
                        const SparseGridSettings& settings, int levels, bool finestConnectivity) {
  std::vector<Level> all;
  if (levels == 0) {
    all.push_back(finest(voxelise(settings), surface, finestConnectivity));
  } else {
    // buildVirtualFinerLevels: the finest grid of (n - 1) 2^levels + 1 points, with the grid's
    // min, max and fillWeighted (nothing else of it).
    SparseGridSettings virtualSettings;
    for (int a = 0; a < 3; ++a)
      virtualSettings.n[std::size_t(a)] = (settings.n[std::size_t(a)] - 1) * (1 << levels) + 1;
    virtualSettings.min = settings.min;
    virtualSettings.max = settings.max;
    virtualSettings.fillWeighted = settings.fillWeighted;
    all.push_back(finest(voxelise(virtualSettings), surface, finestConnectivity));
    for (int l = 0; l < levels; ++l) all.push_back(coarser(all.back()));
  }
  const Level& top = all.back();
  SparseGrid out;
  out.n = top.n;
  out.min = top.min;
  out.max = top.max;
  out.points = top.points;
  out.hexahedra = top.hexahedra;
  for (std::size_t h = 0; h < top.hexahedra.size(); ++h) {
    out.stiffness.push_back(double(top.stiffness[h]));
    out.mass.push_back(double(top.mass[h]));
    out.boundary.push_back(top.types[h] == VoxelType::Boundary);
    out.boundaryCells += out.boundary.back();
  }
  if (levels == 0) return out;
  for (std::size_t l = 0; l < all.size(); ++l) {
    const Level& level = all[l];
    RamifiedLevel kept;
    kept.hexahedra = level.hexahedra;
    kept.stiffness.assign(level.stiffness.begin(), level.stiffness.end());
    kept.regular.resize(level.hexahedra.size());
    for (const Piece& piece : level.pieces)
      kept.regular[std::size_t(piece.hexahedron)] = level.regularOf[std::size_t(piece.cell)];
    for (VoxelType type : level.types) kept.boundary.push_back(type == VoxelType::Boundary);
    if (l > 0) {
      kept.children.resize(level.hexahedra.size());
      for (const Piece& piece : level.pieces)
        for (const auto& [place, child] : piece.children)
          kept.children[std::size_t(piece.hexahedron)][std::size_t(place)].push_back(
              all[l - 1].pieces[std::size_t(child)].hexahedron);
    }
    out.ramified.push_back(std::move(kept));
  }
  // findCoarsestParents: each finest cell's (first) piece followed up to the grid.
  const Level& base = all.front();
  FinestCells cells;
  cells.n = base.n;
  cells.min = base.min;
  cells.max = base.max;
  cells.parent.assign(base.sparseOf.size(), -1);
  for (std::size_t r = 0; r < base.sparseOf.size(); ++r) {
    const long long c = base.sparseOf[r];
    if (c < 0) continue;
    long long p = base.piecesOf[std::size_t(c)].front();
    for (std::size_t l = 0; l + 1 < all.size(); ++l) p = all[l].pieces[std::size_t(p)].parent;
    cells.parent[r] = top.pieces[std::size_t(p)].hexahedron;
  }
  for (std::size_t c = 0; c < base.regularOf.size(); ++c)
    if (base.types[c] == VoxelType::Boundary) cells.boundary.push_back(base.regularOf[c]);
  out.finest = std::move(cells);
  return out;
}

}  // namespace eis::sofa
