#pragma once
// SOFA's HexahedronFEMForceField (method "small", "large" or "polar", updateStiffnessMatrix
// false): the trilinear hexahedron, its stiffness computed once from the rest shape turned into
// the element's own frame R0, and the force f = R^T K0 (R0 X - R x) at a state x whose frame is
// R. The tangent is SOFA's R^T K0 R, without the derivative of R.
//
// Vertex order (SOFA's, as RegularGridTopology numbers a cell): (x,y,z), (x+1,y,z),
// (x+1,y+1,z), (x,y+1,z), then the same four at z+1. Vertex a sits at reference coordinates
// s_a in {-1,1}^3 and N_a = (1 + s_a0 xi)(1 + s_a1 eta)(1 + s_a2 zeta) / 8.
//
// The frame (rows are the element axes, so R maps world to element coordinates), from the
// element's mean edges u (mean of 0->1, 3->2, 4->5, 7->6), v (0->3, 1->2, 4->7, 5->6) and
// w (0->4, 1->5, 3->7, 2->6):
//   small: the identity, at rest and after;
//   large: x along u, z along u cross v, y = z cross x;
//   polar: the orthogonal factor of the matrix with rows u, v, w, by SOFA's polar
//          decomposition (a reflection for a negatively oriented element).
// The frame is recomputed at every addForce; R0 is the one of the rest shape (SOFA's
// _initialrotations), which only turns the rest shape.
//
// K0 is SOFA's computeElementStiffness on the turned rest shape: the 2x2x2 Gauss rule (points
// +-1/sqrt(3), weights 1), B from the isoparametric Jacobian at each point, C as SOFA writes it
// (U = lambda + 2 mu, V = lambda, W = mu on engineering shears). When the rest shape is a
// parallelepiped to within 0.1% of its edges (SOFA's test: 3 + (1 - 0) near 2, and 4, 5, 6, 7
// near 0, 1, 2, 3 shifted by 0->4) SOFA uses the constant Jacobian of the edges 0->1, 0->3, 0->4
// at every point instead, and so does this class.
//
// SOFA's displacement is R0 X_a - R x_a in absolute coordinates. K0 maps a uniform displacement
// to zero, so taking the coordinates relative to vertex 0 changes nothing but the rounding, which
// it keeps small far from the origin: this class uses R0 (X_a - X_0) - R (x_a - x_0).
//
// K0 is kept as SOFA keeps its stiffnessMatrices (576 doubles, 4.6 kB), but once for every cell
// whose K0 has the same bits: the cells of a grid share a few (a box of 200 x 40 x 40 cells has
// 324 distinct ones for its 320,000 cells), so the force, the product and the matrix, one 24x24
// product each with no integration per step, read them from cache instead of 4.6 kB of memory a
// cell. Sharing changes no number.
#include <petscsys.h>

#include <array>
#include <vector>

#include "eis/core/cells.hpp"
#include "eis/core/parameters.hpp"
#include "eis/core/tetra_geometry.hpp"
#include "eis/model/force_field.hpp"
#include "eis/model/isotropic_elasticity.hpp"

namespace eis {

struct HexahedronRefinement;  // model/nonuniform_hexahedron.hpp

enum class HexahedronMethod { Small, Large, Polar };
inline constexpr Named<HexahedronMethod> kHexahedronMethods[] = {
    {"small", HexahedronMethod::Small},
    {"large", HexahedronMethod::Large},
    {"polar", HexahedronMethod::Polar}};

class HexahedronFEM : public ForceField {
public:
  // cells: hexahedra, eight local vertex indices each in SOFA's order; they must outlive the
  // field. rest: the rest positions as a local array (3 per local vertex). lame: each cell's
  // material. Throws InvertedElement for a cell whose rest shape has det J <= 0 at a Gauss point in
  // its frame (see elementStiffness); "polar" accepts a mirrored cell, its frame being then a
  // reflection, as SOFA does.
  // `refinement` (none: nullptr) gives each cell the stiffness condensed from its finer cells
  // (SOFA's NonUniformHexahedronFEMForceFieldAndMass) instead of its own.
  HexahedronFEM(const Cells& cells, std::vector<double> rest, std::vector<LameParameters> lame,
                HexahedronMethod method, const HexahedronRefinement* refinement = nullptr);

  // Also stores every element's frame at x (large, polar): the linearization point of the two
  // below.
  void addForce(const double* x, const double* v, double* f) override;
  void addDForce(const double* dx, double* df, double kFactor) const override;
  // 24x24 blocks (row 3 * vertex + component), -kFactor R^T K0 R each.
  void addKToElementMatrices(double* elementMatrices, double kFactor,
                             CellRange range) const override;
  // 1/2 d^T K0 d with d the corotated displacement at x: SOFA's m_potentialEnergy.
  double potentialEnergy(const double* x) const override;
  // The von Mises stress of C B d at the element's centre (reference point 0, 0, 0), in the
  // element frame (von Mises does not depend on it). SOFA's component reports no stress; on a
  // parallelepiped the centre's strain is the mean of the eight Gauss points' strains.
  std::vector<double> vonMisesStress(const double* x) const override;
  bool isLinear() const override { return method_ == HexahedronMethod::Small; }
  // How many distinct K0 the cells share.
  std::size_t distinctStiffnesses() const { return stiffnesses_.size(); }

  static constexpr int kVertices = 8;
  static constexpr int kDofs = 3 * kVertices;
  using Stiffness = std::array<double, kDofs * kDofs>;  // K0, row-major

private:
  using Mat3 = std::array<double, 9>;  // row-major
  using Nodal = std::array<Vec3, kVertices>;
  struct RestElement {
    Nodal shape;            // R0 (X_a - X_0): the turned rest shape
    Nodal centreGradients;  // grad N_a at the centre, in the element frame
    std::size_t stiffness;  // K0 is stiffnesses_[stiffness]
  };

  Mat3 frame(std::size_t cell, const double* x) const;
  // d_a = R0 (X_a - X_0) - R (x_a - x_0), as 24 numbers.
  std::array<double, kDofs> corotatedDisplacement(std::size_t cell, const Mat3& r,
                                                  const double* x) const;
  // f_a += scale R^T (K0 d)_a at the cell's vertices.
  void scatterForce(std::size_t cell, const Mat3& r, const std::array<double, kDofs>& d,
                    double scale, double* f) const;

  const Cells& cells_;
  std::vector<LameParameters> lame_;
  HexahedronMethod method_;
  std::vector<RestElement> restElements_;
  std::vector<Stiffness> stiffnesses_;  // the distinct K0 of the cells
  std::vector<Mat3> frames_;            // R of the last addForce (R0 before any)
};

// K0 of a turned rest shape `shape` (SOFA's computeElementStiffness; `cell` names it in an
// InvertedElement).
HexahedronFEM::Stiffness hexahedronStiffness(std::size_t cell, const std::array<Vec3, 8>& shape,
                                             const LameParameters& lame);

// SOFA's HexahedronFEMForceFieldAndMass element mass, per component: its 24x24 matrix is this 8x8
// one on each of x, y and z, in the vertex order above. SOFA's computeElementMass is not the
// integral of N_a N_b: its integrateMass squares the vertex signs (every entry gets the diagonal
// formula) and multiplies by V instead of det J = V/8, with V the product of the edge lengths
// |0->1| |0->3| |0->4|. Every entry is therefore 8/27 rho V, and the element's total mass (the
// sum of the entries) 512/27 rho V, about 19 times rho V. This gives SOFA's numbers as they are.
struct HexahedronMass {
  std::array<double, 64> consistent;  // row-major: SOFA's element matrix (lumpedMass="false")
  std::array<double, 8> lumped;       // its row sums: what lumpedMass="true" puts on a vertex
  std::array<double, 8> gravity;      // rho V / 8: the mass SOFA's addForce applies gravity to
};
HexahedronMass sofaHexahedronMass(const std::array<Vec3, 8>& rest, double density);

}  // namespace eis
