#include "eis/model/mooney_rivlin.hpp"

#include <cmath>
#include <limits>

namespace eis::mooney_rivlin {

using namespace mat3;

Point linearize(const Mat3& F, double J, const Parameters& p) {
  Point point;
  point.F = F;
  point.J = J;
  point.C = transposeMultiply(F, F);
  const Mat3 FinvT = inverseTranspose(F, J);
  point.inverseC = transposeMultiply(FinvT, FinvT);
  point.I1 = trace(point.C);
  point.I2 = 0.5 * (point.I1 * point.I1 - contract(point.C, point.C));
  const double X = std::pow(J, -2.0 / 3.0), Y = X * X;
  const Mat3& Ci = point.inverseC;
  const Mat3 first = addScaled(kIdentity, -point.I1 / 3, Ci);
  const Mat3 second =
      addScaled(addScaled(scaled(point.I1, kIdentity), -1.0, point.C), -2 * point.I2 / 3, Ci);
  point.S = addScaled(addScaled(scaled(2 * p.c10 * X, first), 2 * p.c01 * Y, second),
                      p.k0 * std::log(J), Ci);
  return point;
}

// With dC = F^T dF + dF^T F, t = C^-1 : dC, r = tr dC, X = J^(-2/3), Y = X^2 (dX = -X t/3,
// dY = -2 Y t/3), dI1 = r, dI2 = I1 r - C : dC, d(C^-1) = -C^-1 dC C^-1.
Mat3 piolaIncrement(const Point& point, const Mat3& dF, const Parameters& p) {
  const Mat3 dC = plusTranspose(transposeMultiply(point.F, dF));
  const Mat3& Ci = point.inverseC;
  const double t = contract(Ci, dC), r = trace(dC), I1 = point.I1, I2 = point.I2;
  const double X = std::pow(point.J, -2.0 / 3.0), Y = X * X;
  const Mat3 CdCC = multiply(Ci, multiply(dC, Ci));
  const Mat3 first = addScaled(kIdentity, -I1 / 3, Ci);
  const Mat3 second = addScaled(addScaled(scaled(I1, kIdentity), -1.0, point.C), -2 * I2 / 3, Ci);
  // d(first) = -r/3 C^-1 + I1/3 C^-1 dC C^-1
  const Mat3 dFirst = addScaled(scaled(-r / 3, Ci), I1 / 3, CdCC);
  // d(second) = r I - dC - 2/3 (I1 r - C : dC) C^-1 + 2 I2/3 C^-1 dC C^-1
  const Mat3 dSecond = addScaled(addScaled(addScaled(scaled(r, kIdentity), -1.0, dC),
                                           -2.0 / 3.0 * (I1 * r - contract(point.C, dC)), Ci),
                                 2 * I2 / 3, CdCC);
  Mat3 dS = addScaled(scaled(2 * p.c10 * X, dFirst), -2 * p.c10 * X * t / 3, first);
  dS = addScaled(addScaled(dS, 2 * p.c01 * Y, dSecond), -4 * p.c01 * Y * t / 3, second);
  dS = addScaled(addScaled(dS, 0.5 * p.k0 * t, Ci), -p.k0 * std::log(point.J), CdCC);
  return addScaled(multiply(dF, point.S), 1.0, multiply(point.F, dS));
}

// With E = (C - I)/2 = (H + H^T + H^T H)/2: I1 - 3 = 2 tr E, I2 - 3 = 4 tr E + 2 (tr E)^2
// - 2 E : E, and Ib - 3 = X (I - 3) + 3 (X - 1) with X - 1 = expm1(-2/3 ln J) (-4/3 for Ib2).
double energyDensity(const Mat3& H, const Parameters& p) {
  const double J = determinant(plusIdentity(H));
  if (!(J > 0)) return std::numeric_limits<double>::infinity();
  const Mat3 E = scaled(0.5, addScaled(plusTranspose(H), 1.0, transposeMultiply(H, H)));
  const double trE = trace(E), logJ = std::log(J);
  const double x = std::expm1(-2.0 / 3.0 * logJ), y = std::expm1(-4.0 / 3.0 * logJ);
  const double first = (1 + x) * 2 * trE + 3 * x;
  const double second = (1 + y) * (4 * trE + 2 * trE * trE - 2 * contract(E, E)) + 3 * y;
  return p.c10 * first + p.c01 * second + 0.5 * p.k0 * logJ * logJ;
}

}  // namespace eis::mooney_rivlin
