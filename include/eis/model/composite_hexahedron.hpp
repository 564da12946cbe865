#pragma once
// SOFA's HexahedronCompositeFEMForceFieldAndMass (Sofa.Component.SolidMechanics.FEM.NonUniform,
// computeMechanicalMatricesRecursively, homogenizationMethod 0, finestToCoarse false): a
// hexahedron's stiffness and mass homogenised from its cells on `levels` finer levels of a sparse
// grid, level by level. The 8 children of a cell (child w at offset (w & 1, w >> 1 & 1, w >> 2 & 1)
// halves of its edges, as in model/nonuniform_hexahedron.hpp) share 27 vertices, numbered
// x + 3 y + 9 z over {0, 1, 2}^3. Their stiffnesses are assembled on those 27 vertices twice: as
// they are, and with a stiff element in each empty child (SOFA's RIGID_STIFFNESS, see
// rigidHexahedronStiffness). Holding the 8 corners and solving the other 19 vertices' equilibrium
// in the second gives each vertex's displacement as weights of the corners' (a static
// condensation); a vertex then keeps, on each axis, only the weights of the corners it lies
// between (a corner itself, the 2 ends of its edge, the 4 corners of its face, all 8 at the
// centre) and none across axes, scaled to sum to 1: the 81 x 24 matrix W. The cell's stiffness
// is W^T K W of the first assembly and its mass W^T M W; the finest cells take
// HexahedronFEMForceField's stiffness and HexahedronFEMForceFieldAndMass's mass, each times its
// grid coefficient (SOFA's getStiffnessCoef, for both), as in NonUniformHexahedron.
//
// A cell's children's shapes are its own interpolated at their corners (on a sparse grid's box,
// SOFA's finer grid's cubes, to rounding).
#include <array>
#include <vector>

#include "eis/model/hexahedron_fem.hpp"
#include "eis/model/isotropic_elasticity.hpp"

namespace eis {

using ElementMatrix = std::array<double, 24 * 24>;  // row-major, vertex-major: 3 a + axis

// Whether the 27-vertex slot `slot` of a cell lies between corner `corner` of it on each axis.
bool compositeSupport(int slot, int corner);

// The stiff element SOFA puts in an empty child: the element stiffness of a unit cube of
// Young's modulus 1.02e12 and Poisson's ratio 0, as SOFA's table holds it (6 significant
// digits, single precision).
const ElementMatrix& rigidHexahedronStiffness();

// Which weights of the finest cells compositeHexahedron computes: none; each level's W (SOFA's
// completeInterpolation false); each level's before the mask (completeInterpolation true on a
// SparseGridRamificationTopology).
enum class CompositeWeights { None, Masked, Complete };

struct CompositeHexahedron {
  ElementMatrix stiffness{};
  ElementMatrix mass{};
  // Per finest cell (8^levels, in child order, the first level slowest): the 24 x 24 weights
  // of its 8 vertices' displacements (rows) in the cell's (columns), the product of each level's
  // weights; zero for a cell that is empty; none with CompositeWeights::None.
  std::vector<ElementMatrix> finestWeights;
};

// The composite cell whose turned rest shape is `shape`, `factors` its 8^levels finest cells'
// coefficients (0: not in the grid; a cell is empty when all its finest cells are), `density`
// the finest cells' density before them.
CompositeHexahedron compositeHexahedron(const std::array<Vec3, 8>& shape,
                                        const LameParameters& lame, double density, int levels,
                                        const double* factors, CompositeWeights weights);

}  // namespace eis
