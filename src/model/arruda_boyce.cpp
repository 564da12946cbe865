#include "eis/model/arruda_boyce.hpp"

#include <cmath>
#include <limits>

namespace eis::arruda_boyce {

namespace {

using namespace mat3;

// SOFA's coefficients: 1/2, 1/(20 lm2), 11/(1050 lm2^2), 19/(7000 lm2^3), 519/(673750 lm2^4),
// lm2 = 8.
constexpr double kCoefficients[5] = {1.0 / 2.0, 1.0 / 160.0, 11.0 / 67200.0, 19.0 / 3584000.0,
                                     519.0 / 2759680000.0};

// dpsi_dev/dIb and d2psi_dev/dIb2.
std::array<double, 2> derivatives(double Ib, double mu) {
  double first = 0, second = 0, power = 1;  // power = Ib^(i-1)
  for (int i = 1; i <= 5; ++i) {
    first += kCoefficients[i - 1] * i * power;
    if (i >= 2) second += kCoefficients[i - 1] * i * (i - 1) * power / Ib;
    power *= Ib;
  }
  return {mu * first, mu * second};
}

}  // namespace

Parameters fromLame(const LameParameters& lame) {
  return {lame.mu, lame.lambda + 2.0 * lame.mu / 3.0};
}

Point linearize(const Mat3& F, double J, const Parameters& p) {
  Point point;
  point.F = F;
  point.J = J;
  const Mat3 FinvT = inverseTranspose(F, J);
  point.inverseC = transposeMultiply(FinvT, FinvT);
  point.I1 = trace(transposeMultiply(F, F));
  const double X = std::pow(J, -2.0 / 3.0);
  const auto [dW, ddW] = derivatives(X * point.I1, p.mu);
  point.dW = dW;
  point.ddW = ddW;
  const Mat3 D = addScaled(kIdentity, -point.I1 / 3, point.inverseC);
  point.S = addScaled(scaled(2 * dW * X, D), p.k0 * std::log(J), point.inverseC);
  return point;
}

// With dC = F^T dF + dF^T F, t = C^-1 : dC, r = tr dC, X = J^(-2/3), Ib = X I1,
// D = I - I1/3 C^-1: dIb = X r - Ib t / 3, dD = -r/3 C^-1 + I1/3 C^-1 dC C^-1 and
// dS = 2 X [(w'' dIb - w' t/3) D + w' dD] + k0 t/2 C^-1 - k0 ln J C^-1 dC C^-1.
Mat3 piolaIncrement(const Point& point, const Mat3& dF, const Parameters& p) {
  const Mat3 dC = plusTranspose(transposeMultiply(point.F, dF));
  const Mat3& Ci = point.inverseC;
  const double t = contract(Ci, dC), r = trace(dC);
  const double X = std::pow(point.J, -2.0 / 3.0), Ib = X * point.I1;
  const double dIb = X * r - Ib * t / 3;
  const Mat3 CdCC = multiply(Ci, multiply(dC, Ci));
  const Mat3 D = addScaled(kIdentity, -point.I1 / 3, Ci);
  const Mat3 dD = addScaled(scaled(-r / 3, Ci), point.I1 / 3, CdCC);
  Mat3 dS =
      addScaled(scaled(2 * X * (point.ddW * dIb - point.dW * t / 3), D), 2 * X * point.dW, dD);
  dS = addScaled(addScaled(dS, 0.5 * p.k0 * t, Ci), -p.k0 * std::log(point.J), CdCC);
  return addScaled(multiply(dF, point.S), 1.0, multiply(point.F, dS));
}

// Ib - 3 = X (tr C - 3) + 3 (X - 1) with tr C - 3 = 2 tr H + |H|^2 and X - 1 = expm1(-2/3 ln J),
// and Ib^i - 3^i = (Ib - 3) sum_{m < i} Ib^m 3^(i-1-m).
double energyDensity(const Mat3& H, const Parameters& p) {
  const double J = determinant(plusIdentity(H));
  if (!(J > 0)) return std::numeric_limits<double>::infinity();
  const double logJ = std::log(J), X = std::exp(-2.0 / 3.0 * logJ);
  const double excess = X * (2 * trace(H) + contract(H, H)) + 3 * std::expm1(-2.0 / 3.0 * logJ);
  const double Ib = 3 + excess;
  double deviatoric = 0, sum = 0, power = 1;  // sum = sum_{m < i} Ib^m 3^(i-1-m), power = Ib^(i-1)
  for (int i = 1; i <= 5; ++i) {
    sum = 3 * sum + power;
    deviatoric += kCoefficients[i - 1] * excess * sum;
    power *= Ib;
  }
  return p.mu * deviatoric + 0.5 * p.k0 * logJ * logJ;
}

}  // namespace eis::arruda_boyce
