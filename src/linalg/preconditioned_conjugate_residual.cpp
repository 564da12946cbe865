#include "eis/linalg/preconditioned_conjugate_residual.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "eis/core/error.hpp"

namespace eis {

GaussSeidelResult preconditionedConjugateResidual(const std::vector<double>& w,
                                                  const std::vector<int>& groups,
                                                  const std::vector<double>& dfree,
                                                  std::vector<double>& force,
                                                  const GaussSeidelOptions& options) {
  const std::size_t m = dfree.size();
  GaussSeidelResult result;
  force.assign(m, 0.0);
  if (m == 0) return result;
  std::vector<double> scale(m);  // 1 / sqrt(W_jj)
  for (std::size_t j = 0; j < m; ++j) {
    const double diagonal = w[j * m + j];
    if (!(diagonal > 0))
      throw Error("PreconditionedConjugateResidual: W's diagonal entry " + std::to_string(j) +
                  " is " + std::to_string(diagonal) +
                  ": its Jacobi preconditioner needs a positive diagonal");
    scale[j] = 1 / std::sqrt(diagonal);
  }
  std::vector<double> mw(w.size());
  for (std::size_t j = 0; j < m; ++j)
    for (std::size_t k = 0; k < m; ++k) mw[j * m + k] = w[j * m + k] * scale[j] * scale[k];
  const auto product = [&](const std::vector<double>& x, std::vector<double>& out) {
    for (std::size_t j = 0; j < m; ++j) {
      double s = 0;
      for (std::size_t k = 0; k < m; ++k) s += mw[j * m + k] * x[k];
      out[j] = s;
    }
  };
  const auto dot = [](const std::vector<double>& a, const std::vector<double>& b) {
    double s = 0;
    for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
    return s;
  };
  std::vector<double> r(m), wp(m), wr(m);
  for (std::size_t j = 0; j < m; ++j) r[j] = -dfree[j] * scale[j];
  std::vector<double> p = r;
  product(p, wp);
  product(r, wr);
  double rwr = dot(r, wr);
  double tol = options.tolerance;
  if (options.scaleTolerance && !options.allVerified) tol *= double(m);
  const std::size_t iterations = std::min(std::size_t(std::max(options.maxIterations, 0)), m);
  for (std::size_t i = 0; i < iterations; ++i) {
    // An exact solution leaves W p = 0, where SOFA's next alpha is 0 / 0: stop there instead.
    const double wpwp = dot(wp, wp);
    if (wpwp == 0) {
      result.converged = true;
      break;
    }
    ++result.iterations;
    const double alpha = rwr / wpwp;
    for (std::size_t j = 0; j < m; ++j) {
      force[j] += alpha * p[j];
      r[j] -= alpha * wp[j];
    }
    product(r, wr);
    const double previous = rwr;
    rwr = dot(r, wr);
    const double beta = rwr / previous;
    for (std::size_t j = 0; j < m; ++j) p[j] = r[j] + beta * p[j];
    double error = 0;
    bool verified = true;
    for (const int rows : groups) {
      double groupError = 0;
      for (int l = 0; l < rows; ++l) {
        groupError += r[i] * r[i];
        verified = verified && groupError < tol * tol;
      }
      error += std::sqrt(groupError);
    }
    result.error = error;
    if (options.allVerified ? verified : error < tol && i > 0) {
      result.converged = true;
      break;
    }
    for (std::size_t j = 0; j < m; ++j) wp[j] = wr[j] + beta * wp[j];
  }
  for (std::size_t j = 0; j < m; ++j) force[j] *= scale[j];
  return result;
}

}  // namespace eis
