#pragma once
// Hyperelasticity on linear tetrahedra, total Lagrangian. With the rest-shape gradients grad N_a,
// F = I + sum_a u_a (x) grad N_a, and for an energy psi(F) per unit rest volume the internal force
// is f_a = -|V| P grad N_a, P = dpsi/dF the first Piola-Kirchhoff stress. Four laws, with each
// cell's Lame parameters lambda, mu, C = F^T F, E = (C - I)/2, J = det F:
//   St Venant-Kirchhoff  psi = lambda/2 (tr E)^2 + mu tr(E^2)                (any F)
//   Neo-Hookean          psi = mu/2 (tr C - 3) - mu ln J + lambda/2 (ln J)^2  (J > 0 only)
//   stable Neo-Hookean   psi = mu/2 (tr C - 3) + k/2 (J - alpha)^2 - mu^2/(2k), k = lambda + mu,
//                        alpha = 1 + mu/k: SOFA's StableNeoHookean less its rest value (J != 0)
//   Arruda-Boyce         SOFA's ArrudaBoyce with k0 = lambda + 2 mu/3 (model/arruda_boyce.hpp,
//                        J > 0 only)
// and two with their own three parameters, SOFA's ParameterSet, the same in every cell:
//   Mooney-Rivlin        SOFA's MooneyRivlin, "C10 C01 K0" (model/mooney_rivlin.hpp, J > 0)
//   Ogden                SOFA's Ogden, "MU1 ALPHA1 K0" (model/ogden.hpp, J > 0)
// SOFA's StVenantKirchhoff, NeoHookean, StableNeoHookean, ArrudaBoyce, MooneyRivlin and Ogden
// (TetrahedronHyperelasticityFEMForceField) are these (docs/sofa-hyperelastic.md).
// addDForce and addKToElementMatrices use the exact tangent (material and geometric parts) at
// the state of the last addForce, the rest state before the first one.
#include <array>
#include <vector>

#include "eis/model/arruda_boyce.hpp"
#include "eis/model/cell_shapes.hpp"
#include "eis/model/force_field.hpp"
#include "eis/model/isotropic_elasticity.hpp"
#include "eis/model/mooney_rivlin.hpp"
#include "eis/model/ogden.hpp"

namespace eis {

class HyperelasticFEM : public ForceField {
public:
  enum class Law {
    StVenantKirchhoff,
    NeoHookean,
    StableNeoHookean,
    ArrudaBoyce,
    MooneyRivlin,
    Ogden
  };

  // cells: four local vertex indices each; shapes: their rest geometry (both must outlive the
  // field); rest: the rest positions as a local array (3 per local vertex); lame: each cell's
  // material (unused by Mooney-Rivlin and Ogden); parameters: those two laws' ParameterSet.
  HyperelasticFEM(const Cells& cells, const CellShapes& shapes, std::vector<double> rest,
                  std::vector<LameParameters> lame, Law law, std::array<double, 3> parameters = {});

  // Throws InvertedElement for a Neo-Hookean, Arruda-Boyce, Mooney-Rivlin or Ogden cell with J <=
  // 0, a stable Neo-Hookean one with J = 0 (only this rank: the caller makes the failure
  // collective).
  void addForce(const double* x, const double* v, double* f) override;
  // The same test at x, without linearizing there.
  void checkState(const double* x) const override;
  bool limitsState() const override { return law_ != Law::StVenantKirchhoff; }
  void addDForce(const double* dx, double* df, double kFactor) const override;
  void addKToElementMatrices(double* elementMatrices, double kFactor,
                             CellRange range) const override;
  // A Neo-Hookean or Arruda-Boyce cell with J <= 0 has infinite energy and a NaN stress (the stable
  // law: NaN stress at J = 0).
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
  // The Neo-Hookean family, P = mu F + v F^-T: F^-T, v and s = dv/d(ln J).
  struct VolumetricPoint {
    Mat3 inverseTransposeF;
    std::array<double, 2> terms;
  };

  using Nodal = std::array<Vec3, 4>;  // a cell's four shape-function gradients
  // The cell's shape is computed once per cell and pass (CellShapes) and handed down.
  Mat3 gradient(std::size_t cell, const TetraShape& shape, const double* u,
                const double* origin) const;
  Mat3 linearizeStVK(std::size_t cell, const Mat3& H);
  Mat3 linearizeVolumetric(std::size_t cell, const Mat3& H);
  Mat3 linearizeArrudaBoyce(std::size_t cell, const Mat3& H);
  Mat3 linearizeThreeParameter(std::size_t cell, const Mat3& H);  // Mooney-Rivlin, Ogden
  Mat3 linearize(std::size_t cell, const Mat3& H);                // stores the point, returns P
  Mat3 piolaIncrement(std::size_t cell, const Mat3& dF) const;
  void requireAdmissible(std::size_t cell, double J) const;
  std::array<double, 2> volumetricTerms(std::size_t cell, double J) const;
  bool admissible(double J) const;
  void addCellForce(std::size_t cell, const TetraShape& shape, const Mat3& P, double factor,
                    double* f) const;
  void addStVKTangent(std::size_t cell, const Nodal& g, double factor, double* block) const;
  void addVolumetricTangent(std::size_t cell, const Nodal& g, double factor, double* block) const;
  void addArrudaBoyceTangent(std::size_t cell, const Nodal& g, double factor, double* block) const;
  double energyDensity(std::size_t cell, const Mat3& H) const;
  Mat3 cauchyStress(std::size_t cell, const Mat3& H) const;

  const Cells& cells_;
  const CellShapes shapes_;
  std::vector<double> rest_;
  std::vector<LameParameters> lame_;
  Law law_;
  std::vector<StVKPoint> stvk_;              // one per cell for St Venant-Kirchhoff, else empty
  std::vector<VolumetricPoint> volumetric_;  // one per cell for the Neo-Hookean laws, else empty
  std::vector<arruda_boyce::Point> arruda_;  // one per cell for Arruda-Boyce, else empty
  mooney_rivlin::Parameters mooneyRivlin_;
  ogden::Parameters ogden_;
  std::vector<mooney_rivlin::Point> mooneyPoints_;  // one per cell for Mooney-Rivlin, else empty
  std::vector<ogden::Point> ogdenPoints_;           // one per cell for Ogden, else empty
};

}  // namespace eis
