#pragma once
// SOFA's removal of cells from a dynamic topology container, as TopologicalChangeProcessor's
// REMOVE= asks it (TetrahedronSetTopologyModifier::removeTetrahedra): the numbering the cells
// and points have afterwards, which every later event's indices and every output follow.
#include <cstdint>
#include <vector>

namespace eis {

struct CellRemoval {
  // The cells left, `verticesPerCell` point indices each, in SOFA's new order and numbering.
  std::vector<std::int64_t> cells;
  // New point i was old point oldPoint[i].
  std::vector<std::int64_t> oldPoint;
  // Indices at or past the cell count, which SOFA skips (a warning in its debug builds).
  std::vector<std::int64_t> skipped;
};

// Removes `indices` from `cells` (flat, `verticesPerCell` per cell) of a container of `points`
// points. SOFA's order: the valid indices sorted in descending order, each cell overwritten by
// the last one, which is dropped; then the points that lost their last cell (not those no cell
// used before) are removed the same way, in descending order, each by the last point, and the
// cells renamed. Points no cell used before keep their place in that numbering. A repeated
// index is an eis::Error (SOFA would remove another cell in its place).
CellRemoval removeCells(const std::vector<std::int64_t>& cells, int verticesPerCell,
                        std::int64_t points, const std::vector<std::int64_t>& indices);

}  // namespace eis
