#pragma once
// The mass (or, for diffusion, capacity) matrix of linear tetrahedra, as SOFA builds it:
// lumped = DiagonalMass (density |V| / 4 on each vertex), consistent = MeshMatrixMass
// (density |V| / 10 on the diagonal, density |V| / 20 between two vertices of a cell).
// Gravity is f = M g, which for both is the lumped vertex mass times g (row sums agree).
#include <petscsys.h>

#include <array>
#include <vector>

#include "eis/core/component.hpp"
#include "eis/core/tetra_geometry.hpp"
#include "eis/linalg/cell_range.hpp"

namespace eis {

enum class MassType { Lumped, Consistent };
inline constexpr Named<MassType> kMassTypes[] = {{"lumped", MassType::Lumped},
                                                 {"consistent", MassType::Consistent}};

class Mass {
public:
  Mass(const std::vector<std::array<PetscInt, 4>>& cells, const std::vector<TetraShape>& shapes,
       int dofsPerNode, double density, MassType type);

  // out += factor * M dx (local arrays).
  void addMDx(const double* dx, double* out, double factor) const;
  // elementMatrices += factor * M_e.
  void addMToElementMatrices(double* elementMatrices, double factor, CellRange range) const;
  // f += m_a g on every local vertex's share (g has dofsPerNode components).
  void addGravity(double* f, const double* g) const;
  // Sum of this rank's element masses.
  double localTotal() const;

private:
  const std::vector<std::array<PetscInt, 4>>& cells_;
  const std::vector<TetraShape>& shapes_;
  int dofs_;
  double density_;
  MassType type_;
};

// mass.type, and the coefficient of the mass matrix: material.density (elasticity) or
// material.capacity (diffusion).
const ComponentDeclaration& massComponent();
MassType massTypeOf(const Parameters& scene);
double massDensityOf(const Parameters& scene);

}  // namespace eis
