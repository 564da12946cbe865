#pragma once
// SOFA's TetrahedronFEMForceField with method="large" or method="polar": the linear element of
// LinearElasticFEM, evaluated in a frame that turns with each element.
//
// At construction each rest element is rotated into its own frame R0 (world -> element) and its
// stiffness K0 = |V| B^T C B is built there. At a state x the element frame R is found again, the
// corotated displacement is d = R0 (X_i - X_0) - R (x_i - x_0) (vertex 0 as origin) and the
// force is f = R^T K0 d. The tangent is SOFA's approximation R^T K0 R, without the derivative
// of R. The frame:
//   large: x axis along edge 0->1, y from edge 0->2 by Gram-Schmidt, z = x cross y, so it
//          depends on the cell's vertex order;
//   polar: the orthogonal factor of the polar decomposition of the matrix whose rows are the
//          edges 0->1, 0->2, 0->3 (a reflection for a negatively oriented element, at rest and
//          when deformed alike), computed by SOFA's scaled Newton iteration. Being that of the
//          edge matrix and not of the deformation gradient, it too depends (less) on the order;
//   svd:   SOFA's method="svd" (accumulateForceSVD), which is polar's frame while the element's
//          deformation gradient F = A A0^-1 has det F >= 1e-6; below that SOFA switches to a
//          stable SVD of F, which is not implemented here: such an element is an error;
//   polar-gradient: SOFA's FastTetrahedralCorotationalForceField method="polar", the orthogonal
//          factor R of the polar decomposition F = R S of the deformation gradient
//          F = sum_a (x_a - x_0) grad N_a^T (a = 1..3), the frame R^T and R0 = I, so it does not
//          depend on the vertex order. (That field's "qr" is large's frame and its "polar2"
//          polar's, and its force and tangent R K0 (R^T x - X) and R K0 R^T are these.)
#include <array>
#include <vector>

#include "eis/core/parameters.hpp"
#include "eis/model/cell_shapes.hpp"
#include "eis/model/fem_plasticity.hpp"
#include "eis/model/force_field.hpp"
#include "eis/model/isotropic_elasticity.hpp"

namespace eis {

// How the corotational model finds an element's rotation (SOFA TetrahedronFEMForceField method).
enum class RotationMethod { Large, Polar, Svd, PolarGradient };
inline constexpr Named<RotationMethod> kRotationMethods[] = {
    {"large", RotationMethod::Large},
    {"polar", RotationMethod::Polar},
    {"svd", RotationMethod::Svd},
    {"polar-gradient", RotationMethod::PolarGradient}};

class CorotationalFEM : public ForceField {
public:
  // cells: four local vertex indices each, which must outlive the field; shapes: their rest
  // geometry, read here only (each rest element keeps what it needs). rest: the rest positions
  // as a local array (3 per local vertex); lame: each cell's material; plasticity: SOFA's
  // (model/fem_plasticity.hpp), off by default.
  CorotationalFEM(const Cells& cells, const CellShapes& shapes, std::vector<double> rest,
                  std::vector<LameParameters> lame, RotationMethod method,
                  Plasticity plasticity = {});

  // Also stores every element's frame at x: the linearization point of the two below. With
  // plasticity, it updates every element's plastic strain, as SOFA's addForce does.
  void addForce(const double* x, const double* v, double* f) override;
  void addDForce(const double* dx, double* df, double kFactor) const override;
  void addKToElementMatrices(double* elementMatrices, double kFactor,
                             CellRange range) const override;
  // 1/2 d^T K0 d with d the corotated displacement at x (SOFA reports no energy for these
  // methods).
  double potentialEnergy(const double* x) const override;
  // Von Mises stress of C B d, the strain the force uses.
  std::vector<double> vonMisesStress(const double* x) const override;
  bool isLinear() const override { return false; }
  // Each cell's material from the next force evaluation on, one per cell (SOFA's
  // updateStiffness: computeMaterialStiffness again at AnimateBeginEvent, from the
  // localStiffnessFactor a controller wrote). Throws eis::Error for a count that is not the
  // cells'.
  void setCellMaterials(std::vector<LameParameters> lame);

private:
  using Mat3 = std::array<double, 9>;  // row-major
  using Strain = Voigt;
  using Nodal = std::array<Vec3, 4>;
  // What the rest shape gives, in the element's rest frame.
  struct RestElement {
    std::array<Vec3, 3> edges;  // R0 (X_a - X_0), a = 1..3
    Nodal gradients;            // grad N_a
    double volume;              // |V|, read where the stiffness is
  };

  Mat3 frame(std::size_t cell, const double* x) const;
  // det of the edge matrix (rows x_a - x_0, a = 1..3) at x.
  double edgeDeterminant(std::size_t cell, const double* x) const;
  Nodal corotatedDisplacement(std::size_t cell, const Mat3& r, const double* x) const;
  Strain strain(const Nodal& gradients, const Nodal& d) const;
  // w B^T s: the element force of stress s, per vertex.
  static Nodal nodalForces(const Nodal& gradients, const Strain& s, double w);
  // f_a += R^T local_a at the cell's vertices.
  void scatterRotated(std::size_t cell, const Mat3& r, const Nodal& local, double* f) const;

  const Cells& cells_;
  std::vector<LameParameters> lame_;
  RotationMethod method_;
  std::vector<RestElement> restElements_;
  std::vector<Mat3> frames_;  // R of the last addForce (R0 before any)
  // svd: det A0 of each rest element's edge matrix, to find det F = det A / det A0.
  std::vector<double> restDeterminants_;
  Plasticity plasticity_;
  std::vector<Strain> plasticStrains_;  // one per cell where plasticity is on
};

}  // namespace eis
