#pragma once
// Hyperelasticity on linear tetrahedra, total Lagrangian. With the rest-shape gradients grad N_a,
// F = I + sum_a u_a (x) grad N_a, and for an energy psi(F) per unit rest volume the internal force
// is f_a = -|V| P grad N_a, P = dpsi/dF the first Piola-Kirchhoff stress. Two laws, with Lame
// parameters lambda, mu from (E, nu), C = F^T F, E = (C - I)/2, J = det F:
//   St Venant-Kirchhoff  psi = lambda/2 (tr E)^2 + mu tr(E^2)                (any F)
//   Neo-Hookean          psi = mu/2 (tr C - 3) - mu ln J + lambda/2 (ln J)^2  (J > 0 only)
// addDForce and addKToElementMatrices use the exact tangent (material and geometric parts) at
// the state of the last addForce, the rest state before the first one.
#include <array>
#include <vector>

#include "eis/core/tetra_geometry.hpp"
#include "eis/model/force_field.hpp"
#include "eis/model/isotropic_elasticity.hpp"

namespace eis {

class HyperelasticFEM : public ForceField {
public:
  enum class Law { StVenantKirchhoff, NeoHookean };

  // cells: four local vertex indices each; shapes: their rest geometry (both must outlive the
  // field); rest: the rest positions as a local array (3 per local vertex).
  HyperelasticFEM(const std::vector<std::array<PetscInt, 4>>& cells,
                  const std::vector<TetraShape>& shapes, std::vector<double> rest,
                  double youngModulus, double poissonRatio, Law law);

  // Throws eis::Error for a Neo-Hookean cell with J <= 0 (only this rank: the caller makes the
  // failure collective).
  void addForce(const double* x, const double* v, double* f) override;
  void addDForce(const double* dx, double* df, double kFactor) const override;
  void addKToElementMatrices(double* elementMatrices, double kFactor,
                             CellRange range) const override;
  // A Neo-Hookean cell with J <= 0 has infinite energy and a NaN stress.
  double potentialEnergy(const double* x) const override;
  // Von Mises stress of the Cauchy stress P F^T / J.
  std::vector<double> vonMisesStress(const double* x) const override;
  bool isLinear() const override { return false; }

private:
  using Mat3 = std::array<double, 9>;  // row-major 3x3

  // One cell's linearization point, reduced to what its law's tangent needs.
  struct StVKPoint {
    Mat3 F, S;  // deformation gradient, second Piola-Kirchhoff stress
  };
  struct NeoHookeanPoint {
    Mat3 inverseTransposeF;
    double logJ;
  };

  Mat3 gradient(std::size_t cell, const double* u, const double* origin) const;
  Mat3 linearizeStVK(std::size_t cell, const Mat3& H);
  Mat3 linearizeNeoHookean(std::size_t cell, const Mat3& H);
  void addCellForce(std::size_t cell, const Mat3& P, double factor, double* f) const;
  void addStVKTangent(std::size_t cell, double factor, double* block) const;
  void addNeoHookeanTangent(std::size_t cell, double factor, double* block) const;
  double energyDensity(const Mat3& H) const;
  Mat3 cauchyStress(const Mat3& H) const;

  const std::vector<std::array<PetscInt, 4>>& cells_;
  const std::vector<TetraShape>& shapes_;
  std::vector<double> rest_;
  LameParameters lame_;
  Law law_;
  std::vector<StVKPoint> stvk_;              // one per cell for St Venant-Kirchhoff, else empty
  std::vector<NeoHookeanPoint> neoHookean_;  // one per cell for Neo-Hookean, else empty
};

}  // namespace eis
