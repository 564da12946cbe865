#pragma once
// SOFA's TetrahedronFEMForceField with method="small": linear (small-strain) elasticity on
// linear tetrahedra, stiffness computed once from the rest shape. f = -K (x - x0), and the
// element stiffness is |V| B^T C B with B the strain-displacement matrix (engineering shears,
// strain order xx yy zz xy yz zx) and C the isotropic material matrix.
#include <array>
#include <vector>

#include "eis/model/cell_shapes.hpp"
#include "eis/model/force_field.hpp"
#include "eis/model/isotropic_elasticity.hpp"

namespace eis {

class LinearElasticFEM : public ForceField {
public:
  // cells: four local vertex indices each; shapes: their rest geometry; rest: the rest positions
  // as a local array (3 per local vertex); lame: each cell's material.
  LinearElasticFEM(const Cells& cells, const CellShapes& shapes, std::vector<double> rest,
                   std::vector<LameParameters> lame);

  void addForce(const double* x, const double* v, double* f) override;
  void addDForce(const double* dx, double* df, double kFactor) const override;
  void addKToElementMatrices(double* elementMatrices, double kFactor,
                             CellRange range) const override;
  double potentialEnergy(const double* x) const override;
  std::vector<double> vonMisesStress(const double* x) const override;
  bool isLinear() const override { return true; }
  bool affine() const override { return true; }

private:
  using Strain = Voigt;
  // The cell's shape is computed once per cell and pass (CellShapes) and handed to both.
  Strain strain(std::size_t cell, const TetraShape& shape, const double* u,
                const double* origin) const;
  void addElementForce(std::size_t cell, const TetraShape& shape, const Strain& stress,
                       double factor, double* f) const;

  const Cells& cells_;
  const CellShapes shapes_;
  std::vector<double> rest_;
  std::vector<LameParameters> lame_;
};

}  // namespace eis
