#pragma once
// SOFA's BeamFEMForceField<Rigid3d> (master: Sofa/Component/SolidMechanics/FEM/Elastic,
// BeamFEMForceField.inl), its one method, "large": each line of the topology joins two frames a
// and b by a 12 x 12 linear beam element (Przemieniecki's, with SOFA's shear areas 0: the
// Euler-Bernoulli element), set up in frame a's current orientation.
//
// The section (the material law): a circular, possibly hollow, section of radius r and inner
// radius ri, A = pi (r^2 - ri^2), Iy = Iz = pi (r^4 - ri^4) / 4, J = Iy + Iz, G = E / (2 (1 + nu)).
// The element: its local stiffness on (u_a, theta_a, u_b, theta_b), L the rest distance of the
// centres. The force (accumulateForceLarge): b's displacement in a's frame, the change of the
// centres' offset turned back by a's orientation, R_a^-1 (c_b - c_a) - R0_a^-1 (c0_b - c0_a), and
// its turn, the rotation vector of dQ0^-1 dQ with dQ = q_a^-1 q_b (a's side 0); the local forces
// k d turned by R_a and subtracted from both frames. Its stiffness (applyStiffnessLarge,
// addKToMatrix): -R k R^T by 3 x 3 blocks, R frame a's orientation at the last force computation
// (before any, the orientation halfway from a to b at rest, initLarge), which SOFA uses in place
// of the force's exact derivative.
#include <array>
#include <vector>

namespace eis {

// A BeamFEMForceField's data: SOFA's defaults (BaseLinearElasticityFEMForceField: E 5000,
// nu 0.45; radius 0.1, radiusInner 0); lines are pairs of frames.
struct BeamParameters {
  std::vector<std::array<int, 2>> lines;
  double youngModulus = 5000, poissonRatio = 0.45, radius = 0.1, radiusInner = 0;
};

// SOFA's BeamInfo::init: the section's and the material's constants.
struct BeamSection {
  double youngModulus = 0, shearModulus = 0, area = 0, iy = 0, iz = 0, polar = 0;
};
// Throws eis::Error for a radius not > 0, an inner radius not in [0, radius), a Young's modulus
// not > 0 or a Poisson ratio outside [0, 0.5).
BeamSection circularSection(double youngModulus, double poissonRatio, double radius,
                            double radiusInner);
// BeamFEMForceField::computeStiffness with both shear areas 0: the 12 x 12 local stiffness, row
// by row, of an element of length `length`.
std::array<double, 144> beamLocalStiffness(const BeamSection& section, double length);

class BeamForceField {
public:
  // `rest`: the frames at rest, 7 numbers a frame. Throws eis::Error for a line's frame out of
  // range, a line joining a frame to itself or two frames at the same centre.
  BeamForceField(const BeamParameters& parameters, const std::vector<double>& rest);

  const std::vector<std::array<int, 2>>& lines() const { return lines_; }
  // f (6 numbers a frame) += the beams' forces at the frames x (7 numbers a frame); keeps each
  // line's frame a orientation for the stiffness.
  void addForce(const double* x, double* f);
  // df += kFactor K dx (6 numbers a frame each).
  void addDForce(const double* dx, double* df, double kFactor) const;
  // The dense row-major matrix of n = 6 x frames columns += kFactor K.
  void addToMatrix(double kFactor, double* dense, std::size_t n) const;

private:
  // K = -R k R^T of line `line`: the 12 x 12 block, row by row.
  std::array<double, 144> worldStiffness(std::size_t line) const;

  std::vector<std::array<int, 2>> lines_;
  std::vector<double> rest_;
  std::vector<std::array<double, 144>> local_;   // each line's k
  std::vector<std::array<double, 4>> rotation_;  // each line's R, a unit quaternion
};

}  // namespace eis
