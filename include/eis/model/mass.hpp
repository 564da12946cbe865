#pragma once
// The mass (or, for diffusion, capacity) matrix as SOFA builds it, cell by cell.
// Tetrahedra: lumped = DiagonalMass (density |V| / 4 on each vertex; MeshMatrixMass
// lumping="true" is the same, its vertex mass density |V| / 10 times 2.5), consistent =
// MeshMatrixMass (density |V| / 10 on the diagonal, density |V| / 20 between two vertices).
// Hexahedra (V: SOFA's six-tetrahedron volume, hexahedronVolume): lumped = DiagonalMass, density
// V / 8 on each vertex (MeshMatrixMass lumping: V / 20 times 2.5); consistent = MeshMatrixMass,
// density V / 20 on the diagonal and V / 40 between the two ends of each of the 12 edges, nothing
// across a face or the body (not the trilinear element's mass matrix, but SOFA's: rows sum to
// V / 8). Gravity is f = M g, the lumped vertex mass times g (row sums agree).
// hexahedron-fem = HexahedronFEMForceFieldAndMass's element mass (sofaHexahedronMass: every
// entry 8/27 density V_e, V_e the product of the edges from vertex 0; hexahedron-fem-lumped its
// row sums on the diagonal), whose gravity is density V_e / 8 a vertex, not M g.
// Triangles, quadrangles, edges (their area or length, CellShapes::measure; the density a mass
// per area or length): lumped = DiagonalMass, a third, a quarter, a half a vertex; consistent =
// MeshMatrixMass, a triangle's |T| / 6 on the diagonal and |T| / 12 off it, a quadrangle's |Q| / 8
// and |Q| / 16 along its 4 edges (none across); SOFA's has none on edges: refused.
// uniform = UniformMass: the same mass on every node, whatever the cells' volumes; each cell
// holding a node carries an equal share of it, so that assembly stays cell by cell.
// none: M = 0, SOFA's EulerImplicitSolver on a state no mass component acts on (its step is then
// quasi-static, and gravity, which SOFA applies through the masses, pulls on nothing).
#include <petscsys.h>

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "eis/core/component.hpp"
#include "eis/linalg/cell_range.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/cell_shapes.hpp"
#include "eis/model/nonuniform_hexahedron.hpp"
#include "eis/model/physics.hpp"

namespace eis {

enum class MassType { Lumped, Consistent, Uniform, HexahedronFem, HexahedronFemLumped, None };
inline constexpr Named<MassType> kMassTypes[] = {
    {"lumped", MassType::Lumped},
    {"consistent", MassType::Consistent},
    {"uniform", MassType::Uniform},
    {"hexahedron-fem", MassType::HexahedronFem},
    {"hexahedron-fem-lumped", MassType::HexahedronFemLumped},
    {"none", MassType::None}};

class Mass {
public:
  // `coefficient` is the density for lumped and consistent, the mass of each node for uniform;
  // `cellsPerVertex` (uniform only) is the number of cells, over all ranks, holding each local
  // vertex; `cellFactors` (hexahedron-fem only; empty: all 1) scales each local cell's mass;
  // `refinement` (hexahedron-fem only) gives each cell the element mass condensed from its finer
  // cells (SOFA's NonUniformHexahedronFEMForceFieldAndMass; its lumped one the row sums; or,
  // homogenised statically, HexahedronCompositeFEMForceFieldAndMass's, hexahedron-fem only), the
  // mass gravity acts on staying the cell's own.
  Mass(const Cells& cells, const CellShapes& shapes, int dofsPerNode, double coefficient,
       MassType type, const std::vector<double>& cellsPerVertex = {},
       const std::vector<double>& cellFactors = {}, const HexahedronRefinement& refinement = {});

  // out += factor * M dx (local arrays).
  void addMDx(const double* dx, double* out, double factor) const;
  // elementMatrices += factor * M_e.
  void addMToElementMatrices(double* elementMatrices, double factor, CellRange range) const;
  // f += m_a g on every local vertex's share (g has dofsPerNode components).
  void addGravity(double* f, const double* g) const;
  // Sum of this rank's element masses that gravity acts on.
  double localTotal() const;

private:
  // The mass gravity acts on that the cell gives one of its vertices (lumped: the diagonal).
  double lumpedShare(std::size_t cell, int vertex) const;
  // out (an element's vector, n dofs a vertex) += factor M_e dx for the full element matrices.
  void addElementMDx(std::size_t cell, const double* dx, double* out, double factor) const;
  // M_e's entry between vertices a and b on axis `axis` (the same on every axis but with
  // finer cells homogenised statically).
  double entry(std::size_t cell, int a, int b, int axis) const;
  // hexahedron-fem-lumped: the row sum of M_e at vertex a.
  double lumpedEntry(std::size_t cell, int a) const;

  const Cells& cells_;
  int dofs_;
  double coefficient_;
  MassType type_;
  // Of each cell: its volume (lumped, consistent); hexahedron-fem: the mass gravity acts on at
  // each vertex.
  std::vector<double> volumes_;
  // Of each cell, hexahedron-fem: SOFA's element matrix entry; hexahedron-fem-lumped: its row sum;
  // with finer cells all 64 entries, or the 8 row sums; homogenised statically, 64 an axis.
  std::vector<double> entries_;
  bool refined_ = false;
  bool perAxis_ = false;
  std::vector<double> vertexShares_;  // uniform: what each cell holding a vertex gives it
};

// Collective. The number of cells, over all ranks, that hold each local vertex.
std::vector<double> cellsPerVertex(const DistributedMesh& mesh);

const ComponentDeclaration& massComponent();

// The mass component's parameters, read once from a scene by readMassParameters (the only reader
// of its keys, beside its declaration); a key not given reads as its declared default.
struct MassParameters {
  MassType type;                           // mass.type
  std::optional<double> totalMass;         // mass.total-mass: none unless given
  std::optional<double> vertexMass;        // mass.vertex-mass: none unless given
  std::optional<double> totalMassByCells;  // mass.total-mass-by-cells: none unless given
  double density;                          // material.density
  double capacity;                         // material.capacity
  std::vector<double> cellFactors;         // mass.cell-factor: empty unless given
  int finerLevels;                         // mass.virtual-finer-levels
  std::vector<double> finerFactors;        // mass.cell-finer-factor: empty unless given
  // mass.finer-homogenisation, and with static the material.young-modulus and
  // material.poisson-ratio whose stiffness weighs the finer masses.
  FinerHomogenisation finerHomogenisation;
  LameParameters finerLame;
};
MassParameters readMassParameters(const Parameters& scene);

// Collective. Each local cell's factor of `factors` (one per input cell, in its order), for
// Mass; empty when `factors` is. A list whose length is not the input cell count is an Error.
std::vector<double> localCellFactors(const DistributedMesh& mesh,
                                     const std::vector<double>& factors);

// Collective. The coefficient of the mass matrix: the density (elasticity) or the capacity
// (diffusion), or with a total mass (elasticity) the density totalMass / meshVolume (SOFA
// DiagonalMass and MeshMatrixMass totalMass); for uniform, the mass of each of the mesh's nodes
// (the vertex mass, the total mass shared equally, 1 by default as SOFA's, or the total mass by
// cells over the input cell count).
double massCoefficientOf(const MassParameters& mass, Physics physics, const DistributedMesh& mesh);
// Collective. The sum of the absolute volumes of the mesh's cells.
double meshVolume(const DistributedMesh& mesh);

}  // namespace eis
