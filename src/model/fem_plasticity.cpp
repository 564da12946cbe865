#include "eis/model/fem_plasticity.hpp"

#include <cmath>

namespace eis {

namespace {

double norm2(const Voigt& e) {
  double sum = 0;
  for (double c : e) sum += c * c;
  return sum;
}

}  // namespace

Voigt plasticUpdate(const Plasticity& plasticity, double scale, const Voigt& total,
                    Voigt& plastic) {
  const double scale2 = scale * scale;
  Voigt elastic;
  for (int i = 0; i < 6; ++i) elastic[i] = total[i] - plastic[i];
  const double yield = plasticity.yieldThreshold;
  if (scale2 * norm2(elastic) > yield * yield)
    for (int i = 0; i < 6; ++i) plastic[i] += plasticity.creep * elastic[i];
  const double plastic2 = scale2 * norm2(plastic);
  const double max = plasticity.maxThreshold;
  if (plastic2 > max * max)
    for (int i = 0; i < 6; ++i) plastic[i] *= max / std::sqrt(plastic2);
  for (int i = 0; i < 6; ++i) elastic[i] = total[i] - plastic[i];
  return elastic;
}

}  // namespace eis
