#pragma once
// Runs of consecutive local cells: element matrices are built a run at a time, so that a run's
// dense blocks stay in cache and no array of every element's block is ever held.
#include <algorithm>
#include <cstddef>

namespace eis {

// The local cells begin..end-1. An element-matrix array passed with a range starts with the
// block of cell `begin`.
struct CellRange {
  std::size_t begin, end;
  std::size_t size() const { return end - begin; }
};

// 32 cells of 12 x 12 doubles are 36 KB: a run's blocks are zeroed, filled by each field and
// added to the matrix while they are still in a core's first or second cache. 1,024 cells
// (1.2 MB, more than most cores' second cache) took 7 to 8 % more of the assembly's profile
// samples on target 1's corotational beam (docs/performance.md, "Corotational assembly").
constexpr std::size_t kCellsPerRange = 32;

// work(range) for consecutive ranges of at most kCellsPerRange cells covering cells 0..count-1.
template <class Work>
void forEachCellRange(std::size_t count, Work&& work) {
  for (std::size_t begin = 0; begin < count; begin += kCellsPerRange)
    work(CellRange{begin, std::min(count, begin + kCellsPerRange)});
}

}  // namespace eis
