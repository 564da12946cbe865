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
#include <functional>

#include "sofa_sparse_grid.hpp"

namespace eis::sofa {

// The finest level of a grid from its settings (n, min, max, fillWeighted): its cells' types and
// coefficients over the regular grid.
using Voxelise = std::function<GridLevel(const SparseGridSettings&)>;

// The grid SOFA keeps with nbVirtualFinerLevels = `levels` and finestConnectivity, its finest
// level from `voxelise`, `surface` the one whose edges finestConnectivity tests. `settings` are
// the grid's own; its virtual finer levels take n, min, max and fillWeighted from it, as SOFA's
// buildVirtualFinerLevels does. With levels > 0 the result's `finest` holds what SOFA's findCube
// reads. Anything SOFA cannot build is an Error.
SparseGrid ramifiedGrid(const Voxelise& voxelise, const Surface& surface,
                        const SparseGridSettings& settings, int levels, bool finestConnectivity);

// SparseGridMultipleTopology's finest level (buildAsFinest, assembleRegularGrids): each surface
// voxelised over one grid (no min and max given: the box of all of them, 1% wider); a cell inside
// a surface (or on it, without fillWeighted) inside, at that surface's coefficients (`stiffness`
// and `mass`, one per surface); on a surface (fillWeighted) on the boundary unless already
// inside, each coefficient that surface's (`erasePrevious`) or the mean of it and the one before
// (0 at first), in single precision. Surfaces later in the list win.
GridLevel assembledLevel(const std::vector<Surface>& surfaces, const std::vector<float>& stiffness,
                         const std::vector<float>& mass, const SparseGridSettings& settings,
                         bool erasePrevious);

// The SparseGridMultipleTopology `grid` of the surfaces at `paths` (its fileTopologies, found),
// `surface` its fileTopology's (none: not given), with its stiffnessCoefs, massCoefs,
// computeRamifications, erasePreviousCoef and finestConnectivity. Anything refused is an Error
// naming the field.
SparseGrid multipleGrid(const Reader& reader, const SofaObject& grid, const Surface* surface,
                        const std::vector<std::string>& paths, const SparseGridSettings& settings,
                        int levels);

}  // namespace eis::sofa
