#include "eis/model/sofa_polar.hpp"

#include <algorithm>
#include <cmath>

namespace eis {

namespace {

using Mat3 = std::array<double, 9>;
using Row = std::array<double, 3>;

Row cross(const Row& a, const Row& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double oneNorm(const Mat3& m) {  // largest column sum
  double best = 0;
  for (int j = 0; j < 3; ++j)
    best = std::max(best, std::fabs(m[j]) + std::fabs(m[3 + j]) + std::fabs(m[6 + j]));
  return best;
}
double infNorm(const Mat3& m) {  // largest row sum
  double best = 0;
  for (int i = 0; i < 3; ++i)
    best = std::max(best, std::fabs(m[3 * i]) + std::fabs(m[3 * i + 1]) + std::fabs(m[3 * i + 2]));
  return best;
}
Mat3 transposed(const Mat3& m) {
  return {m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]};
}

}  // namespace

std::array<double, 9> sofaPolarRotation(const std::array<double, 9>& m) {
  constexpr double tolerance = 1e-8;  // SOFA's Decompose<double>::zeroTolerance()
  constexpr int maxSteps = 100;
  Mat3 x = transposed(m);
  double xOne = oneNorm(x), xInf = infNorm(x);
  for (int step = 0; step < maxSteps; ++step) {
    const Row r0{x[0], x[1], x[2]}, r1{x[3], x[4], x[5]}, r2{x[6], x[7], x[8]};
    const Row c0 = cross(r1, r2), c1 = cross(r2, r0), c2 = cross(r0, r1);
    const Mat3 cof{c0[0], c0[1], c0[2], c1[0], c1[1], c1[2], c2[0], c2[1], c2[2]};
    const double det = x[0] * cof[0] + x[1] * cof[1] + x[2] * cof[2];
    if (det == 0.0) break;
    const double gamma =
        std::sqrt(std::sqrt(oneNorm(cof) * infNorm(cof) / (xOne * xInf)) / std::fabs(det));
    const double g1 = 0.5 * gamma, g2 = 0.5 / (gamma * det);
    Mat3 change;
    for (int i = 0; i < 9; ++i) {
      const double next = g1 * x[i] + g2 * cof[i];
      change[i] = x[i] - next;
      x[i] = next;
    }
    xOne = oneNorm(x);
    xInf = infNorm(x);
    if (!(oneNorm(change) > xOne * tolerance)) break;
  }
  return transposed(x);
}

}  // namespace eis
