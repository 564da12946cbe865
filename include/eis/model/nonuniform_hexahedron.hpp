#pragma once
// SOFA's NonUniformHexahedronFEMForceFieldAndMass (Sofa.Component.SolidMechanics.FEM.NonUniform):
// a hexahedron's stiffness and mass condensed from its cells on nbVirtualFinerLevels finer
// levels of a sparse grid. A cell of level l splits into 8 children (child w at offset
// (w & 1, w >> 1 & 1, w >> 2 & 1) halves of its edges, SOFA's _hierarchicalCubeMap order); the
// finest ones get HexahedronFEMForceField's element stiffness and
// HexahedronFEMForceFieldAndMass's element mass, each times its grid coefficient (SOFA's
// getStiffnessCoef, for both), and a child's matrix M_f adds P^T M_f P to its parent's, P the
// 8x8 trilinear interpolation of the parent's vertices at the child's (on each of x, y, z).
// SOFA's addFineToCoarse sums in this order: A = M_f P, then the parent += P^T A term by term.
//
// The finest cells' shapes are the parent's rest shape interpolated at their corners: on a box
// (a sparse grid's cell) they are SOFA's finer grid's cubes, to rounding.
#include <array>
#include <string>
#include <vector>

#include "eis/core/parameters.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/hexahedron_fem.hpp"
#include "eis/model/isotropic_elasticity.hpp"

namespace eis {

// How a cell's finer cells make its matrices: NonUniformHexahedronFEMForceFieldAndMass's
// trilinear pull-back, or HexahedronCompositeFEMForceFieldAndMass's static condensation
// (model/composite_hexahedron.hpp).
enum class FinerHomogenisation { Trilinear, Static };
inline constexpr Named<FinerHomogenisation> kFinerHomogenisations[] = {
    {"trilinear", FinerHomogenisation::Trilinear}, {"static", FinerHomogenisation::Static}};

// The finer cells of each of a mesh's hexahedra.
struct HexahedronRefinement {
  int levels = 0;  // SOFA's nbVirtualFinerLevels of the force field: 0 for none
  // 8^levels coefficients per cell, finest cells in child order (the first level's child the
  // slowest); 0 for a cell the grid does not keep (SOFA's InvalidID, skipped).
  std::vector<double> factors;
  FinerHomogenisation homogenisation = FinerHomogenisation::Trilinear;
  // Static: the material whose stiffness condenses the mass (SOFA's first cell's).
  LameParameters lame{};
};

// Collective. The refinement of this rank's cells from `factors`, 8^levels per input cell in
// its order; a list of another length (or levels past 8) is an Error naming `key`.
HexahedronRefinement localRefinement(const DistributedMesh& mesh, int levels,
                                     const std::vector<double>& factors, const std::string& key);

// P of child `child`: row = the child's vertex, column = the parent's vertex (SOFA's
// FINE_TO_COARSE[child]).
std::array<double, 64> fineToCoarse(int child);

// The condensed stiffness of a cell whose turned rest shape is `shape` (see HexahedronFEM),
// `factors` its 8^levels coefficients.
HexahedronFEM::Stiffness condensedHexahedronStiffness(std::size_t cell,
                                                      const std::array<Vec3, 8>& shape,
                                                      const LameParameters& lame, int levels,
                                                      const double* factors);

// The condensed 8x8 element mass (each of x, y, z) of a cell at rest `rest`.
std::array<double, 64> condensedHexahedronMass(const std::array<Vec3, 8>& rest, double density,
                                               int levels, const double* factors);

}  // namespace eis
