// SOFA's SparseGridTopology built from a finer one (io/sofa_sparse_grid.hpp: coarser,
// numberedByCubes), as its nbVirtualFinerLevels builds it.
#include <cstddef>

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
  for (int i = 0; i < cells[0]; ++i)
    for (int j = 0; j < cells[1]; ++j)
      for (int k = 0; k < cells[2]; ++k) {
        bool inside = true, outside = true;
        double sum = 0;
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
        }
        if (outside) continue;
        const std::size_t c =
            std::size_t(i) +
            std::size_t(cells[0]) * (std::size_t(j) + std::size_t(cells[1]) * std::size_t(k));
        out.types[c] = inside ? VoxelType::Inside : VoxelType::Boundary;
        out.stiffness[c] = sum / 8.0;
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
