// SOFA's SparseGridTopology built from a finer one (io/sofa_sparse_grid.hpp: coarser,
// numberedByCubes), as its nbVirtualFinerLevels builds it.
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "eis/core/error.hpp"
#include "sofa_sparse_grid.hpp"

namespace eis::sofa {

GridLevel coarser(const GridLevel& finer) {
  GridLevel out;
  std::array<int, 3> fineCells{};
  for (int a = 0; a < 3; ++a) {
    fineCells[a] = finer.n[a] - 1;
    out.n[a] = finer.n[a] / 2 + 1;
    // setXmax(getXmin() + (getNx() - 1) * 2.0 * dx[0]) over the fine regular grid's dx.
    const double fineStep = (finer.max[a] - finer.min[a]) / fineCells[a];
    out.min[a] = finer.min[a];
    out.max[a] = finer.min[a] + (out.n[a] - 1) * 2.0 * fineStep;
  }
  const std::array<int, 3> cells{out.n[0] - 1, out.n[1] - 1, out.n[2] - 1};
  const std::size_t count = std::size_t(cells[0]) * std::size_t(cells[1]) * std::size_t(cells[2]);
  out.types.assign(count, VoxelType::Outside);
  out.stiffness.assign(count, 0.0);
  out.mass.assign(count, 0.0);
  for (int i = 0; i < cells[0]; ++i)
    for (int j = 0; j < cells[1]; ++j)
      for (int k = 0; k < cells[2]; ++k) {
        bool inside = true, outside = true;
        double sum = 0, massSum = 0;
        // The children in SOFA's order (bit 0: x, bit 1: y, bit 2: z); one past the fine grid's
        // last cell (an odd number of fine cells) is no child.
        for (int w = 0; w < 8; ++w) {
          const int x = 2 * i + (w & 1), y = 2 * j + (w >> 1 & 1), z = 2 * k + (w >> 2 & 1);
          if (x >= fineCells[0] || y >= fineCells[1] || z >= fineCells[2]) {
            inside = false;
            continue;
          }
          const std::size_t c =
              std::size_t(x) + std::size_t(fineCells[0]) *
                                   (std::size_t(y) + std::size_t(fineCells[1]) * std::size_t(z));
          const VoxelType t = finer.types[c];
          if (t == VoxelType::Outside) {
            inside = false;
            continue;
          }
          if (t == VoxelType::Boundary) inside = false;
          outside = false;
          sum += finer.stiffness[c];
          massSum += finer.mass[c];
        }
        if (outside) continue;
        const std::size_t c =
            std::size_t(i) +
            std::size_t(cells[0]) * (std::size_t(j) + std::size_t(cells[1]) * std::size_t(k));
        out.types[c] = inside ? VoxelType::Inside : VoxelType::Boundary;
        out.stiffness[c] = sum / 8.0;
        out.mass[c] = massSum / 8.0;
      }
  return out;
}

namespace {

// The coefficients of the cells under cell (x, y, z) of finer[depth] down to finer[bottom],
// appended in child order; a cell past the level's grid or not kept gives zeros.
void appendFiner(const std::vector<GridLevel>& finer, std::size_t depth, std::size_t bottom,
                 long long x, long long y, long long z, std::vector<double>& out) {
  const GridLevel& level = finer[depth];
  const long long cx = level.n[0] - 1, cy = level.n[1] - 1, cz = level.n[2] - 1;
  const bool kept = x < cx && y < cy && z < cz &&
                    level.types[std::size_t(x + cx * (y + cy * z))] != VoxelType::Outside;
  if (depth == bottom) {
    out.push_back(kept ? level.stiffness[std::size_t(x + cx * (y + cy * z))] : 0.0);
    return;
  }
  if (!kept) {
    out.insert(out.end(), std::size_t(1) << (3 * (depth - bottom)), 0.0);
    return;
  }
  for (int w = 0; w < 8; ++w)
    appendFiner(finer, depth - 1, bottom, 2 * x + (w & 1), 2 * y + (w >> 1 & 1),
                2 * z + (w >> 2 & 1), out);
}

}  // namespace

std::vector<double> finerCoefficients(const SparseGrid& grid, const std::vector<GridLevel>& finer,
                                      int levels) {
  std::vector<double> out;
  if (levels == 0) return out;
  out.reserve(grid.regular.size() << (3 * levels));
  const long long cx = grid.n[0] - 1, cy = grid.n[1] - 1;
  const std::size_t top = finer.size() - 1, bottom = finer.size() - std::size_t(levels);
  for (long long c : grid.regular) {
    const long long x = c % cx, y = c / cx % cy, z = c / (cx * cy);
    for (int w = 0; w < 8; ++w)
      appendFiner(finer, top, bottom, 2 * x + (w & 1), 2 * y + (w >> 1 & 1), 2 * z + (w >> 2 & 1),
                  out);
  }
  return out;
}

namespace {

// ramifiedFinerCoefficients under hexahedron `h` of levels[l], `depth` levels down.
void appendRamified(const std::vector<RamifiedLevel>& levels, std::size_t l, long long h, int depth,
                    std::vector<double>& out) {
  const RamifiedLevel& level = levels[l];
  if (depth == 0) {
    const double c = level.stiffness[std::size_t(h)];
    if (c == 0) throw Error("a finer cell of stiffness coefficient 0 is not supported");
    out.push_back(c);
    return;
  }
  const RamifiedLevel& finer = levels[l - 1];
  const auto& children = level.children[std::size_t(h)];
  // The points of the children at each of the 27 positions of the cell (x fastest).
  std::array<long long, 27> at;
  at.fill(-1);
  const std::string where = "hexahedron " + std::to_string(h) + " of level " + std::to_string(l) +
                            " (0 the finest, " + std::to_string(levels.size() - 1) +
                            " the grid's own)";
  for (int w = 0; w < 8; ++w) {
    if (children[std::size_t(w)].size() > 1)
      throw Error(where +
                  " holds pieces of matter not joined in one child place: SOFA's ramified "
                  "homogenisation of split cells is not supported");
    for (long long child : children[std::size_t(w)])
      for (int k = 0; k < 8; ++k) {
        const int dx = k == 1 || k == 2 || k == 5 || k == 6, dy = k == 2 || k == 3 || k >= 6;
        const int position = (w & 1) + dx + 3 * ((w >> 1 & 1) + dy) + 9 * ((w >> 2 & 1) + k / 4);
        const long long point = finer.hexahedra[std::size_t(child)][std::size_t(k)];
        if (at[std::size_t(position)] >= 0 && at[std::size_t(position)] != point)
          throw Error(where +
                      " has two points at one place, its children touching there but not "
                      "joined: SOFA's ramified homogenisation of them is not supported");
        at[std::size_t(position)] = point;
      }
  }
  for (int w = 0; w < 8; ++w) {
    if (children[std::size_t(w)].empty())
      out.insert(out.end(), std::size_t(1) << (3 * (depth - 1)), 0.0);
    else
      appendRamified(levels, l - 1, children[std::size_t(w)].front(), depth - 1, out);
  }
}

}  // namespace

std::vector<double> ramifiedFinerCoefficients(const SparseGrid& grid, int levels) {
  std::vector<double> out;
  const std::size_t top = grid.ramified.size() - 1;
  for (std::size_t h = 0; h < grid.hexahedra.size(); ++h)
    appendRamified(grid.ramified, top, (long long)h, levels, out);
  return out;
}

SparseGrid numberedByCubes(const GridLevel& level) {
  const std::array<int, 3> cells{level.n[0] - 1, level.n[1] - 1, level.n[2] - 1};
  std::vector<long long> kept;
  for (long long i = 0; i < cells[0]; ++i)
    for (long long j = 0; j < cells[1]; ++j)
      for (long long k = 0; k < cells[2]; ++k) {
        const long long c = i + cells[0] * (j + cells[1] * k);
        if (level.types[std::size_t(c)] != VoxelType::Outside) kept.push_back(c);
      }
  if (kept.empty()) throw Error("the grid keeps no cell");
  return numberedCells(level, kept);
}

}  // namespace eis::sofa
