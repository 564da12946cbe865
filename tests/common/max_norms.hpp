#pragma once
// Infinity norms the element tests compare with.
#include <algorithm>
#include <cmath>
#include <vector>

namespace testing_norms {

inline double largestMagnitude(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}

inline double largestDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::fabs(a[i] - b[i]));
  return m;
}

}  // namespace testing_norms
