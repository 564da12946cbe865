#pragma once
// SOFA's HexahedralFEMForceField (master, HexahedralFEMForceField.inl; methods "large" and
// "polar"), a corotational hexahedron of its own, not HexahedronFEMForceField's
// (model/hexahedron_fem.hpp). What differs:
//  - The stiffness is a closed form for an axis-aligned box, not a Gauss rule on the element:
//    with the rest vertices X_a in world coordinates (not turned into the element's frame),
//    j = 2 / (X_6 - X_0) component by component and V = |X_1 - X_0| |X_3 - X_0| |X_4 - X_0|,
//    block (a, b) of K0 is V/8 times the 3x3 matrix
//      (m, m): j_m^2 (U I_mm + W (I_pp + I_qq))   (p, q the other two axes),
//      (m, l): j_m j_l (V' I_ml + W I_lm)          (m != l),
//    with U = lambda + 2 mu, V' = lambda, W = mu, and, s and t the reference signs of a and b
//    (vertex a at s_a in {-1, 1}^3) and k the third axis,
//      I_mm = s_m t_m / 8 (1 + s_p t_p / 3)(1 + s_q t_q / 3),  I_ml = s_m t_l / 8 (1 + s_k t_k /
//      3),
//    the integrals of the reference shape-function derivatives over [-1, 1]^3. SOFA's diagonal
//    blocks scale the shear terms by j_m^2 where the true integral has j_p^2 and j_q^2: exact on
//    a cube, not on other boxes; this class gives SOFA's numbers. Each of the nine entries is
//    rounded to single precision before the product with V/8 (SOFA's integrateStiffness casts
//    them to float), blocks a < b and a = b are computed and the lower triangle of K0 is copied
//    from the upper one, as SOFA does.
//  - The displacement is in absolute coordinates, d_a = R0 X_a - R x_a, as SOFA's: K0's rounding
//    to single precision leaves a translation a force of about 1e-7 of K0 |x| (a rigid motion is
//    free of force to that precision, not to double's).
//  - The frame from the mean edges u (0->1, 3->2, 4->5, 7->6), v (0->3, 1->2, 4->7, 5->6) and w
//    (0->4, 1->5, 3->7, 2->6), each the sum of its four edges times 0.25: large, x along u, z
//    along u cross v, y = z cross x; polar, SOFA's polar decomposition of the rows u, v, w.
// The force is f_a += R^T (K0 d)_a and the tangent R^T K0 R (no derivative of R), as
// HexahedronFEMForceField. HexahedralFEMForceField has no "small" method.
#include <petscsys.h>

#include <array>
#include <vector>

#include "eis/core/cells.hpp"
#include "eis/core/tetra_geometry.hpp"
#include "eis/model/force_field.hpp"
#include "eis/model/hexahedron_fem.hpp"
#include "eis/model/isotropic_elasticity.hpp"

namespace eis {

class HexahedralFEM : public ForceField {
public:
  static constexpr int kVertices = 8;
  static constexpr int kDofs = 3 * kVertices;
  using Stiffness = std::array<double, kDofs * kDofs>;  // row-major

  // cells: hexahedra in SOFA's vertex order (they must outlive the field); rest: the rest
  // positions as a local array; lame: each cell's material; method: Large or Polar. Throws
  // eis::Error for a cell whose rest diagonal 0->6 has a zero component (SOFA divides by it).
  HexahedralFEM(const Cells& cells, std::vector<double> rest, std::vector<LameParameters> lame,
                HexahedronMethod method);

  void addForce(const double* x, const double* v, double* f) override;
  void addDForce(const double* dx, double* df, double kFactor) const override;
  void addKToElementMatrices(double* elementMatrices, double kFactor,
                             CellRange range) const override;
  // 1/2 d^T K0 d with d the corotated displacement at x (SOFA's getPotentialEnergy is 0).
  double potentialEnergy(const double* x) const override;
  // SOFA's component reports no stress.
  std::vector<double> vonMisesStress(const double*) const override { return {}; }
  bool isLinear() const override { return false; }

  // K0 of a rest hexahedron (world coordinates, SOFA's vertex order) and its material.
  static Stiffness stiffness(const std::array<Vec3, kVertices>& rest, const LameParameters& lame);

private:
  using Mat3 = std::array<double, 9>;
  Mat3 frame(const std::array<Vec3, kVertices>& p) const;
  std::array<Vec3, kVertices> corners(std::size_t cell, const double* x) const;
  std::array<double, kDofs> displacement(std::size_t cell, const Mat3& r, const double* x) const;

  const Cells& cells_;
  HexahedronMethod method_;
  std::vector<Stiffness> k_;
  std::vector<std::array<Vec3, kVertices>> rotatedRest_;  // R0 X_a, absolute
  std::vector<Mat3> frames_;                              // R of the last addForce (R0 before)
};

}  // namespace eis
