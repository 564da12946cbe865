#pragma once
// SOFA's ArrudaBoyce material (TetrahedronHyperelasticityFEMForceField, material/BoyceAndArruda.h):
//   psi = mu sum_{i=1..5} c_i (Ib^i - 3^i) + k0/2 (ln J)^2,  Ib = J^(-2/3) tr C,
//   c = 1/2, 1/160, 11/67200, 19/3584000, 519/2759680000
// (the five-term Arruda-Boyce series with locking stretch lambda_m^2 = 8), mu and k0 SOFA's
// ParameterSet, defined for J > 0. S = 2 dpsi/dC = 2 w' J^(-2/3) (I - tr C / 3 C^-1)
// + k0 ln J C^-1 with w' = dpsi_dev/dIb; SOFA's tangent (applyElasticityTensor) is its exact
// derivative, and so is ours.
#include "eis/model/isotropic_elasticity.hpp"
#include "eis/model/mat3.hpp"

namespace eis::arruda_boyce {

struct Parameters {
  double mu, k0;
};

// From a cell's Lame pair: mu as is, k0 the bulk modulus lambda + 2 mu / 3.
Parameters fromLame(const LameParameters& lame);

// The linearization point at F (J = det F > 0): what the stress increment needs.
struct Point {
  mat3::Mat3 F, inverseC, S;
  double J, I1, dW, ddW;  // I1 = tr C; dW, ddW: first, second derivative of psi_dev in Ib
};

Point linearize(const mat3::Mat3& F, double J, const Parameters& p);

// dP = dF S + F dS: the first Piola-Kirchhoff stress's increment along dF at the point.
mat3::Mat3 piolaIncrement(const Point& point, const mat3::Mat3& dF, const Parameters& p);

// psi at F = I + H (zero at rest, computed without cancelling its small-strain digits);
// infinite for J <= 0.
double energyDensity(const mat3::Mat3& H, const Parameters& p);

}  // namespace eis::arruda_boyce
