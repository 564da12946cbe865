#include "eis/linalg/null_space_regularization.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace eis {

namespace {

// The eigenvalues and eigenvectors (columns of v, row-major) of the symmetric a, by cyclic
// Jacobi rotations until the off-diagonal part is below the rounding of the diagonal's: for a
// symmetric positive semi-definite W these are its singular values and vectors.
void symmetricEigen(std::vector<double> a, std::size_t m, std::vector<double>& values,
                    std::vector<double>& v) {
  v.assign(m * m, 0.0);
  for (std::size_t i = 0; i < m; ++i) v[i * m + i] = 1;
  const auto A = [&](std::size_t i, std::size_t j) -> double& { return a[i * m + j]; };
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0, diagonal = 0;
    for (std::size_t i = 0; i < m; ++i) {
      diagonal += A(i, i) * A(i, i);
      for (std::size_t j = i + 1; j < m; ++j) off += A(i, j) * A(i, j);
    }
    if (off <=
        std::numeric_limits<double>::epsilon() * std::numeric_limits<double>::epsilon() * diagonal)
      break;
    for (std::size_t p = 0; p < m; ++p)
      for (std::size_t q = p + 1; q < m; ++q) {
        if (A(p, q) == 0) continue;
        const double theta = (A(q, q) - A(p, p)) / (2 * A(p, q));
        const double t = (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::hypot(theta, 1.0));
        const double c = 1 / std::hypot(t, 1.0), s = t * c;
        for (std::size_t k = 0; k < m; ++k) {  // columns p, q of A and of v
          const double akp = A(k, p), akq = A(k, q);
          A(k, p) = c * akp - s * akq;
          A(k, q) = s * akp + c * akq;
          const double vkp = v[k * m + p], vkq = v[k * m + q];
          v[k * m + p] = c * vkp - s * vkq;
          v[k * m + q] = s * vkp + c * vkq;
        }
        for (std::size_t k = 0; k < m; ++k) {  // rows p, q of A
          const double apk = A(p, k), aqk = A(q, k);
          A(p, k) = c * apk - s * aqk;
          A(q, k) = s * apk + c * aqk;
        }
      }
  }
  values.resize(m);
  for (std::size_t i = 0; i < m; ++i) values[i] = A(i, i);
}

}  // namespace

std::vector<bool> regularizeNullSpace(std::vector<double>& w, double regularization,
                                      double valueFactor, double vectorFactor) {
  const std::size_t m = std::size_t(std::llround(std::sqrt(double(w.size()))));
  std::vector<bool> regularized(m, false);
  if (m == 0 || !(regularization > std::numeric_limits<double>::epsilon())) return regularized;
  std::vector<double> symmetric(m * m), values, vectors;
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < m; ++j) symmetric[i * m + j] = 0.5 * (w[i * m + j] + w[j * m + i]);
  symmetricEigen(symmetric, m, values, vectors);
  // The singular values |lambda| in decreasing order, as an SVD gives them.
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::abs(values[a]) > std::abs(values[b]);
  });
  const double largest = std::abs(values[order[0]]);
  std::size_t begin = m;
  for (std::size_t i = 0; i < m && begin == m; ++i)
    if (std::abs(values[order[i]]) < largest * valueFactor) begin = i;
  for (std::size_t i = begin; i < m; ++i)
    for (std::size_t j = 0; j < m; ++j)
      if (std::abs(vectors[j * m + order[i]]) > vectorFactor) regularized[j] = true;
  for (std::size_t i = 0; i < m; ++i)
    if (regularized[i]) w[i * m + i] += regularization;
  return regularized;
}

}  // namespace eis
