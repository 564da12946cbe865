#pragma once
// SOFA's Ogden material, one term (TetrahedronHyperelasticityFEMForceField, material/Ogden.h),
// ParameterSet "MU1 ALPHA1 K0":
//   psi = MU1/ALPHA1^2 (J^(-ALPHA1/3) tr C^(ALPHA1/2) - 3) + K0/2 (ln J)^2,  J > 0,
//   S = MU1/ALPHA1 J^(-ALPHA1/3) (C^(ALPHA1/2 - 1) - tr C^(ALPHA1/2)/3 C^-1) + K0 ln J C^-1,
// the powers of C through its eigen-decomposition. SOFA's deriveSPKTensor is this S = 2 dpsi/dC,
// and its ElasticityTensor the exact derivative, the eigenvectors' variation included (equal
// eigenvalues, within SOFA's 1e-8 relative, take the power's derivative); ours too.
#include <array>

#include "eis/model/mat3.hpp"

namespace eis::ogden {

struct Parameters {
  double mu1, alpha1, k0;
};

// The linearization point at F = I + H (J = det F > 0).
struct Point {
  mat3::Mat3 F, inverseC, S;
  mat3::Mat3 V;                 // eigenvectors of C, as columns
  std::array<double, 3> eigen;  // the eigenvalues of C
  double J, T;                  // T = tr C^(ALPHA1/2)
};

Point linearize(const mat3::Mat3& H, double J, const Parameters& p);

// dP = dF S + F dS: the first Piola-Kirchhoff stress's increment along dF at the point.
mat3::Mat3 piolaIncrement(const Point& point, const mat3::Mat3& dF, const Parameters& p);

// psi at F = I + H (zero at rest); infinite for J <= 0.
double energyDensity(const mat3::Mat3& H, const Parameters& p);

}  // namespace eis::ogden
