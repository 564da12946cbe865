#pragma once
// SOFA's HexahedronCompositeFEMMapping (Sofa.Component.SolidMechanics.FEM.NonUniform) carrying a
// mapped child's constant forces to the body's coarse cells (model/composite_mapped_load). Private
// to io/sofa_mapped_child.cpp.
#include <map>
#include <string>
#include <vector>

#include "eis/core/tetra_geometry.hpp"
#include "sofa_sparse_grid.hpp"

namespace eis::sofa {

// The mapped.composite-loads text of forces `forces` (by child point) on the child points
// `points` (3 a point), as HexahedronCompositeFEMMapping's init and applyJT carry them: each
// point's finest cell (findCube on the level nbVirtualFinerLevels finer than the plain sparse
// grid `grid`, else findNearestCube) and trilinear weights there; each corner of it, a fine node,
// shares its part equally among the n coarse cells its kept finest cells lie in, and a cell's
// share is W^T R g (g its part over n, W the node's 3 rows of the finest weights of the last of
// its finest cells in that coarse cell, R the cell's rotation), summed per cell as the 24 x 9
// matrix A with W^T R g = A vec(R). The weights are model/composite_hexahedron's (masked: SOFA's
// completeInterpolation false) of the material and finer coefficients the body's keys already
// give. `finer`: the grid's virtual finer levels, the finest first. Anything else is refused,
// naming `mapping`'s field.
std::string compositeMappingLoads(const Reader& r, const SofaObject& mapping,
                                  const SparseGrid& grid, const std::vector<GridLevel>& finer,
                                  const std::vector<double>& points,
                                  const std::map<long long, Vec3>& forces);

}  // namespace eis::sofa
