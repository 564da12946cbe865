#pragma once
// SOFA's SparseGridRamificationTopology, per SOFA master's source
// (Topology/Container/Grid/SparseGridRamificationTopology.cpp): a SparseGridTopology
// (io/sofa_sparse_grid.hpp) whose cells hold one connected piece of matter each. At the finest
// level two neighbouring cells are joined across their common face unless both are boundary
// cells and, with finestConnectivity, no edge of the surface crosses that face; each cell of a
// coarser level becomes one cell per group of its children joined that way, and cells share
// points only across the faces of joined children. Points and cells are numbered as SOFA numbers
// them, so that indices in a scene name the same points. Private to io/sofa_grid_mesh.cpp and
// io/sofa_import.cpp.
#include "sofa_sparse_grid.hpp"

namespace eis::sofa {

// The grid SOFA keeps of `surface` with nbVirtualFinerLevels = `levels` and finestConnectivity.
// `settings` are the grid's own; its virtual finer levels take n, min, max and fillWeighted from
// it, as SOFA's buildVirtualFinerLevels does. With levels > 0 the result's `finest` holds what
// SOFA's findCube reads. Anything SOFA cannot build is an Error.
SparseGrid ramifiedGrid(const Surface& surface, const SparseGridSettings& settings, int levels,
                        bool finestConnectivity);

}  // namespace eis::sofa
