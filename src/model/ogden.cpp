#include "eis/model/ogden.hpp"

#include <cmath>
#include <limits>

namespace eis::ogden {

namespace {

using namespace mat3;

// V diag(d) V^T for d, or V M V^T for a full M given in the eigenbasis.
Mat3 fromEigenbasis(const Mat3& V, const Mat3& M) {
  return multiplyTranspose(multiply(V, M), V);
}

Mat3 diagonal(double a, double b, double c) {
  return {a, 0, 0, 0, b, 0, 0, 0, c};
}

}  // namespace

// The eigenvectors of C = I + 2 E are E's: E = (H + H^T + H^T H)/2 keeps the small strains'
// digits, and each eigenvalue of C is 1 + 2 e.
Point linearize(const Mat3& H, double J, const Parameters& p) {
  Point point;
  point.F = plusIdentity(H);
  point.J = J;
  Mat3 E = transposeMultiply(H, H);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) E[3 * i + j] = 0.5 * (E[3 * i + j] + H[3 * i + j] + H[3 * j + i]);
  std::array<double, 3> e;
  symmetricEigen(E, e, point.V);
  const double half = p.alpha1 / 2;
  point.T = 0;
  std::array<double, 3> power;  // lambda^(ALPHA1/2 - 1)
  for (int i = 0; i < 3; ++i) {
    point.eigen[i] = 1 + 2 * e[i];
    power[i] = std::pow(point.eigen[i], half - 1);
    point.T += power[i] * point.eigen[i];
  }
  const Mat3 FinvT = inverseTranspose(point.F, J);
  point.inverseC = transposeMultiply(FinvT, FinvT);
  const Mat3 Cq = fromEigenbasis(point.V, diagonal(power[0], power[1], power[2]));
  const double Z = std::pow(J, -p.alpha1 / 3);
  point.S = addScaled(scaled(p.mu1 / p.alpha1 * Z, addScaled(Cq, -point.T / 3, point.inverseC)),
                      p.k0 * std::log(J), point.inverseC);
  return point;
}

// With dC = F^T dF + dF^T F, t = C^-1 : dC, q = ALPHA1/2 - 1, Z = J^(-ALPHA1/3):
// dZ = -ALPHA1 Z t / 6, dT = ALPHA1/2 C^q : dC, and in the eigenbasis (dC' = V^T dC V)
// d(C^q)'_IJ = g_IJ dC'_IJ with g_IJ = (l_I^q - l_J^q)/(l_I - l_J), or q l_I^(q-1) where
// l_I = l_J (relative 1e-8, as SOFA). d(C^-1) = -C^-1 dC C^-1.
Mat3 piolaIncrement(const Point& point, const Mat3& dF, const Parameters& p) {
  const Mat3 dC = plusTranspose(transposeMultiply(point.F, dF));
  const Mat3& Ci = point.inverseC;
  const double q = p.alpha1 / 2 - 1, t = contract(Ci, dC);
  const auto& l = point.eigen;
  std::array<double, 3> power;
  for (int i = 0; i < 3; ++i) power[i] = std::pow(l[i], q);
  Mat3 dCq = transposeMultiply(point.V, multiply(dC, point.V));
  for (int I = 0; I < 3; ++I)
    for (int K = 0; K < 3; ++K) {
      const bool equal = std::fabs(l[I] - l[K]) < 1e-8 * std::max(std::fabs(l[I]), std::fabs(l[K]));
      dCq[3 * I + K] *= equal ? q * power[I] / l[I] : (power[I] - power[K]) / (l[I] - l[K]);
    }
  dCq = fromEigenbasis(point.V, dCq);
  const Mat3 Cq = fromEigenbasis(point.V, diagonal(power[0], power[1], power[2]));
  const double Z = std::pow(point.J, -p.alpha1 / 3), dZ = -p.alpha1 * Z * t / 6;
  const double dT = p.alpha1 / 2 * contract(Cq, dC);
  const Mat3 CdCC = multiply(Ci, multiply(dC, Ci));
  const Mat3 inner = addScaled(Cq, -point.T / 3, Ci);
  const Mat3 dInner = addScaled(addScaled(dCq, -dT / 3, Ci), point.T / 3, CdCC);
  const double m = p.mu1 / p.alpha1;
  Mat3 dS = addScaled(scaled(m * dZ, inner), m * Z, dInner);
  dS = addScaled(addScaled(dS, 0.5 * p.k0 * t, Ci), -p.k0 * std::log(point.J), CdCC);
  return addScaled(multiply(dF, point.S), 1.0, multiply(point.F, dS));
}

// J^(-ALPHA1/3) tr C^(ALPHA1/2) - 3 = sum_I expm1(ALPHA1/2 ln l_I - ALPHA1/3 ln J), with
// ln l_I = log1p(2 e_I).
double energyDensity(const Mat3& H, const Parameters& p) {
  const double J = determinant(plusIdentity(H));
  if (!(J > 0)) return std::numeric_limits<double>::infinity();
  Mat3 E = transposeMultiply(H, H), V;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) E[3 * i + j] = 0.5 * (E[3 * i + j] + H[3 * i + j] + H[3 * j + i]);
  std::array<double, 3> e;
  symmetricEigen(E, e, V);
  const double logJ = std::log(J);
  double isochoric = 0;
  for (double ei : e)
    isochoric += std::expm1(p.alpha1 / 2 * std::log1p(2 * ei) - p.alpha1 / 3 * logJ);
  return p.mu1 / (p.alpha1 * p.alpha1) * isochoric + 0.5 * p.k0 * logJ * logJ;
}

}  // namespace eis::ogden
