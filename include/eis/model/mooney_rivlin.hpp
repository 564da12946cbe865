#pragma once
// SOFA's MooneyRivlin material (TetrahedronHyperelasticityFEMForceField, material/MooneyRivlin.h),
// ParameterSet "C10 C01 K0" (SOFA's c1, c2, k0: c1 weighs the first invariant):
//   psi = C10 (Ib1 - 3) + C01 (Ib2 - 3) + k0/2 (ln J)^2,
//   Ib1 = J^(-2/3) I1, Ib2 = J^(-4/3) I2, I1 = tr C, I2 = ((tr C)^2 - tr(C^2))/2, J > 0.
// SOFA's deriveSPKTensor and applyElasticityTensor are this psi's exact S = 2 dpsi/dC,
//   S = 2 C10 J^(-2/3) (I - I1/3 C^-1) + 2 C01 J^(-4/3) (I1 I - C - 2 I2/3 C^-1) + k0 ln J C^-1,
// and its exact derivative, and so are ours. (Its getStrainEnergy, which no force uses, writes
// the exponent -2/3 in integers, so 0, and leaves out C01's -3: ours is the psi above.)
#include "eis/model/mat3.hpp"

namespace eis::mooney_rivlin {

struct Parameters {
  double c10, c01, k0;
};

// The linearization point at F (J = det F > 0).
struct Point {
  mat3::Mat3 F, C, inverseC, S;
  double J, I1, I2;
};

Point linearize(const mat3::Mat3& F, double J, const Parameters& p);

// dP = dF S + F dS: the first Piola-Kirchhoff stress's increment along dF at the point.
mat3::Mat3 piolaIncrement(const Point& point, const mat3::Mat3& dF, const Parameters& p);

// psi at F = I + H (zero at rest, computed without cancelling its small-strain digits);
// infinite for J <= 0.
double energyDensity(const mat3::Mat3& H, const Parameters& p);

}  // namespace eis::mooney_rivlin
