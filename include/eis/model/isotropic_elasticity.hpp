#pragma once
// Isotropic linear elasticity in Voigt notation, shared by the small-strain and corotational
// tetrahedra (and the Lame parameters by the hyperelastic laws). Strain order xx yy zz xy yz zx,
// engineering shears (xy = du_x/dy + du_y/dx), as SOFA's TetrahedronFEMForceField.
#include <array>
#include <cmath>

namespace eis {

using Voigt = std::array<double, 6>;

struct LameParameters {
  double lambda, mu;
};

// SOFA writes C as E(1-nu)/((1+nu)(1-2nu)) [1, nu/(1-nu), (1-2nu)/(2(1-nu))]: the same lambda,
// mu (its materialsStiffnesses).
inline LameParameters lameParameters(double youngModulus, double poissonRatio) {
  return {youngModulus * poissonRatio / ((1 + poissonRatio) * (1 - 2 * poissonRatio)),
          youngModulus / (2 * (1 + poissonRatio))};
}

// e += B_a d: one vertex's contribution to the strain, g = grad N_a, d its displacement.
inline void addVertexStrain(Voigt& e, const double* g, const double* d) {
  e[0] += g[0] * d[0];
  e[1] += g[1] * d[1];
  e[2] += g[2] * d[2];
  e[3] += g[1] * d[0] + g[0] * d[1];
  e[4] += g[2] * d[1] + g[1] * d[2];
  e[5] += g[2] * d[0] + g[0] * d[2];
}

// s = C e.
inline Voigt hookeStress(const LameParameters& lame, const Voigt& e) {
  const double trace = e[0] + e[1] + e[2];
  return {lame.lambda * trace + 2 * lame.mu * e[0],
          lame.lambda * trace + 2 * lame.mu * e[1],
          lame.lambda * trace + 2 * lame.mu * e[2],
          lame.mu * e[3],
          lame.mu * e[4],
          lame.mu * e[5]};
}

// The von Mises stress of a stress in Voigt order.
inline double vonMises(const Voigt& s) {
  const double dxy = s[0] - s[1], dyz = s[1] - s[2], dzx = s[2] - s[0];
  return std::sqrt(0.5 * (dxy * dxy + dyz * dyz + dzx * dzx) +
                   3 * (s[3] * s[3] + s[4] * s[4] + s[5] * s[5]));
}

}  // namespace eis
