#include "eis/mesh/cell_removal.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <string>

#include "eis/core/error.hpp"

namespace eis {

CellRemoval removeCells(const std::vector<std::int64_t>& cells, int verticesPerCell,
                        std::int64_t points, const std::vector<std::int64_t>& indices) {
  const std::size_t k = static_cast<std::size_t>(verticesPerCell);
  const std::int64_t count = static_cast<std::int64_t>(cells.size() / k);
  CellRemoval out;
  std::vector<std::int64_t> valid;
  for (const std::int64_t index : indices)
    (index >= 0 && index < count ? valid : out.skipped).push_back(index);
  std::sort(valid.begin(), valid.end(), std::greater<>());
  if (std::adjacent_find(valid.begin(), valid.end()) != valid.end())
    throw Error("cell " + std::to_string(*std::adjacent_find(valid.begin(), valid.end())) +
                " is listed twice in one removal");
  std::vector<std::int64_t> usesBefore(static_cast<std::size_t>(points), 0);
  for (const std::int64_t p : cells) ++usesBefore[static_cast<std::size_t>(p)];
  // TetrahedronSetTopologyModifier::removeTetrahedraProcess: the removed cell's slot takes the
  // last cell.
  out.cells = cells;
  std::size_t last = static_cast<std::size_t>(count);
  for (const std::int64_t index : valid) {
    --last;
    std::copy_n(out.cells.begin() + static_cast<std::ptrdiff_t>(last * k), k,
                out.cells.begin() + static_cast<std::ptrdiff_t>(std::size_t(index) * k));
  }
  out.cells.resize(last * k);
  std::vector<std::int64_t> usesAfter(static_cast<std::size_t>(points), 0);
  for (const std::int64_t p : out.cells) ++usesAfter[static_cast<std::size_t>(p)];
  // The points whose shell of cells emptied, removed in descending order
  // (PointSetTopologyModifier::removePointsWarning), each slot taking the last point.
  std::vector<std::int64_t> isolated;
  for (std::int64_t p = points - 1; p >= 0; --p)
    if (usesBefore[std::size_t(p)] > 0 && usesAfter[std::size_t(p)] == 0) isolated.push_back(p);
  out.oldPoint.resize(static_cast<std::size_t>(points));
  std::iota(out.oldPoint.begin(), out.oldPoint.end(), std::int64_t{0});
  for (const std::int64_t p : isolated) {
    out.oldPoint[std::size_t(p)] = out.oldPoint.back();
    out.oldPoint.pop_back();
  }
  std::vector<std::int64_t> newPoint(static_cast<std::size_t>(points), -1);
  for (std::size_t i = 0; i < out.oldPoint.size(); ++i)
    newPoint[std::size_t(out.oldPoint[i])] = static_cast<std::int64_t>(i);
  for (std::int64_t& p : out.cells) p = newPoint[std::size_t(p)];
  return out;
}

}  // namespace eis
