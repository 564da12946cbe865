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

// 1024 cells of 12 x 12 doubles are 1.2 MB: they fit in L2 beside the matrix rows they touch.
constexpr std::size_t kCellsPerRange = 1024;

// work(range) for consecutive ranges of at most kCellsPerRange cells covering cells 0..count-1.
template <class Work>
void forEachCellRange(std::size_t count, Work&& work) {
  for (std::size_t begin = 0; begin < count; begin += kCellsPerRange)
    work(CellRange{begin, std::min(count, begin + kCellsPerRange)});
}

}  // namespace eis
