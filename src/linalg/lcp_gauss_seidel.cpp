#include "eis/linalg/lcp_gauss_seidel.hpp"

#include <cmath>
#include <string>

#include "eis/core/error.hpp"

namespace eis {

namespace {

// LocalBlock33::GS_State: one contact's new forces from its force-free d (dn, dt, ds, updated
// to the d of the new forces unless the contact opens); w = W's block (11 12 13 22 23 33).
void contactState(const double (&w)[6], double mu, double& dn, double& dt, double& ds, double& fn,
                  double& ft, double& fs) {
  fn -= (w[0] * fn + w[1] * ft + w[2] * fs + dn) / w[0];
  if (fn < 0) {
    fn = ft = fs = 0;
    return;
  }
  const double d1 = w[1] * fn + w[3] * ft + w[4] * fs + dt;
  const double d2 = w[2] * fn + w[4] * ft + w[5] * fs + ds;
  ft -= 2 * d1 / (w[3] + w[5]);
  fs -= 2 * d2 / (w[3] + w[5]);
  const double normFt = std::sqrt(ft * ft + fs * fs);
  if (normFt > mu * fn) {
    ft *= mu * fn / normFt;
    fs *= mu * fn / normFt;
  }
  dn += w[0] * fn + w[1] * ft + w[2] * fs;
  dt += w[1] * fn + w[3] * ft + w[4] * fs;
  ds += w[2] * fn + w[4] * ft + w[5] * fs;
}

GaussSeidelResult withFriction(const std::vector<double>& w, const std::vector<double>& dfree,
                               std::vector<double>& f, const LcpOptions& options) {
  const std::size_t m = dfree.size(), contacts = m / 3;
  if (m % 3 != 0)
    throw Error(
        "LCPConstraintSolver with mu > 0 solves contacts of 3 rows (normal and two "
        "tangents); the " +
        std::to_string(m) + " constraint rows are not");
  const auto W = [&](std::size_t i, std::size_t j) { return w[i * m + j]; };
  if (!options.initialGuess) f.assign(m, 0.0);
  GaussSeidelResult result;
  for (int it = 0; it < options.maxIterations; ++it) {
    double error = 0;
    for (std::size_t c = 0; c < contacts; ++c) {
      const std::size_t n = 3 * c;
      const double f1[3] = {f[n], f[n + 1], f[n + 2]};
      f[n] = f[n + 1] = f[n + 2] = 0;
      double d[3] = {dfree[n], dfree[n + 1], dfree[n + 2]};
      for (int r = 0; r < 3; ++r)
        for (std::size_t i = 0; i < m; ++i) d[r] += W(n + std::size_t(r), i) * f[i];
      double before[3];
      for (int r = 0; r < 3; ++r)
        before[r] = d[r] + W(n + std::size_t(r), n) * f1[0] + W(n + std::size_t(r), n + 1) * f1[1] +
                    W(n + std::size_t(r), n + 2) * f1[2];
      double fn = 0, ft = 0, fs = 0;
      if (!(options.minW != 0 && std::abs(W(n, n)) <= options.minW)) {
        const double block[6] = {W(n, n),         W(n, n + 1),     W(n, n + 2),
                                 W(n + 1, n + 1), W(n + 1, n + 2), W(n + 2, n + 2)};
        fn = f1[0];
        ft = f1[1];
        fs = f1[2];
        contactState(block, options.mu, d[0], d[1], d[2], fn, ft, fs);
      }
      error += std::sqrt((before[0] - d[0]) * (before[0] - d[0]) +
                         (before[1] - d[1]) * (before[1] - d[1]) +
                         (before[2] - d[2]) * (before[2] - d[2]));
      f[n] = fn;
      f[n + 1] = ft;
      f[n + 2] = fs;
    }
    result.iterations = it + 1;
    result.error = error;
    if (error < options.tolerance * double(contacts + 1)) {
      result.converged = true;
      if (options.maxF != 0)
        for (std::size_t c = 0; c < contacts; ++c)
          if (std::abs(f[3 * c]) >= options.maxF) f[3 * c] = f[3 * c + 1] = f[3 * c + 2] = 0;
      break;
    }
  }
  return result;
}

GaussSeidelResult frictionless(const std::vector<double>& w, const std::vector<double>& dfree,
                               std::vector<double>& f, const LcpOptions& options) {
  const std::size_t m = dfree.size();
  f.assign(m, 0.0);
  GaussSeidelResult result;
  for (int it = 0; it < options.maxIterations; ++it) {
    double error = 0;
    for (std::size_t k = 0; k < m; ++k) {
      double d = dfree[k];
      for (std::size_t j = 0; j < m; ++j) d += w[k * m + j] * f[j];
      const double wkk = w[k * m + k], previous = f[k];
      d -= wkk * previous;
      if (options.minW != 0 && std::abs(wkk) <= options.minW)
        f[k] = 0;
      else
        f[k] = d < 0 ? -d / wkk : 0;
      error += std::abs(wkk * (f[k] - previous));
    }
    result.iterations = it + 1;
    result.error = error;
    if (error < options.tolerance) {
      result.converged = true;
      break;
    }
  }
  if (options.maxF != 0)
    for (double& x : f)
      if (std::abs(x) >= options.maxF) x = 0;
  return result;
}

}  // namespace

GaussSeidelResult lcpGaussSeidel(const std::vector<double>& w, const std::vector<double>& dfree,
                                 std::vector<double>& force, const LcpOptions& options) {
  if (dfree.empty()) return {};
  return options.mu > 0 ? withFriction(w, dfree, force, options)
                        : frictionless(w, dfree, force, options);
}

}  // namespace eis
