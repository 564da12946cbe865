#pragma once
// The mass (or, for diffusion, capacity) matrix of linear tetrahedra, as SOFA builds it:
// lumped = DiagonalMass (density |V| / 4 on each vertex; MeshMatrixMass lumping="true" is the
// same, its vertex mass density |V| / 10 times 2.5), consistent = MeshMatrixMass
// (density |V| / 10 on the diagonal, density |V| / 20 between two vertices of a cell).
// Gravity is f = M g, which for both is the lumped vertex mass times g (row sums agree).
// uniform = UniformMass: the same mass on every node, whatever the cells' volumes; each cell
// holding a node carries an equal share of it, so that assembly stays cell by cell.
#include <petscsys.h>

#include <array>
#include <cstdint>
#include <vector>

#include "eis/core/component.hpp"
#include "eis/linalg/cell_range.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/cell_shapes.hpp"

namespace eis {

enum class MassType { Lumped, Consistent, Uniform };
inline constexpr Named<MassType> kMassTypes[] = {{"lumped", MassType::Lumped},
                                                 {"consistent", MassType::Consistent},
                                                 {"uniform", MassType::Uniform}};

class Mass {
public:
  // `coefficient` is the density for lumped and consistent, the mass of each node for uniform;
  // `cellsPerVertex` (uniform only) is the number of cells, over all ranks, holding each local
  // vertex.
  Mass(const Cells& cells, const CellShapes& shapes, int dofsPerNode,
       double coefficient, MassType type, const std::vector<double>& cellsPerVertex = {});

  // out += factor * M dx (local arrays).
  void addMDx(const double* dx, double* out, double factor) const;
  // elementMatrices += factor * M_e.
  void addMToElementMatrices(double* elementMatrices, double factor, CellRange range) const;
  // f += m_a g on every local vertex's share (g has dofsPerNode components).
  void addGravity(double* f, const double* g) const;
  // Sum of this rank's element masses.
  double localTotal() const;

private:
  // The diagonal mass the cell gives each of its 4 vertices (lumped and uniform).
  double lumpedShare(std::size_t cell, int vertex) const;

  const Cells& cells_;
  int dofs_;
  double coefficient_;
  MassType type_;
  std::vector<double> volumes_;       // of each cell (lumped and consistent)
  std::vector<double> vertexShares_;  // uniform: what each cell holding a vertex gives it
};

// Collective. The number of cells, over all ranks, that hold each local vertex.
std::vector<double> cellsPerVertex(const DistributedMesh& mesh);

// mass.type, and the coefficient of the mass matrix: material.density (elasticity) or
// material.capacity (diffusion), or with mass.total-mass (elasticity) the density
// mass.total-mass / meshVolume (SOFA DiagonalMass and MeshMatrixMass totalMass); for uniform,
// the mass of each of the mesh's nodes (mass.vertex-mass, or mass.total-mass shared equally).
// Collective.
const ComponentDeclaration& massComponent();
MassType massTypeOf(const Parameters& scene);
double massCoefficientOf(const Parameters& scene, const DistributedMesh& mesh);
// Collective. The sum of the absolute volumes of the mesh's cells.
double meshVolume(const DistributedMesh& mesh);

}  // namespace eis
