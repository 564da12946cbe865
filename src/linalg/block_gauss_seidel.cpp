#include "eis/linalg/block_gauss_seidel.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "eis/core/error.hpp"

namespace eis {

namespace {

using Mat3 = std::array<std::array<double, 3>, 3>;

// sofa::type::invertMatrix for 3 x 3: the adjugate over the determinant.
Mat3 inverse3(const Mat3& a, int row) {
  const double det = a[0][0] * (a[1][1] * a[2][2] - a[2][1] * a[1][2]) -
                     a[1][0] * (a[0][1] * a[2][2] - a[2][1] * a[0][2]) +
                     a[2][0] * (a[0][1] * a[1][2] - a[1][1] * a[0][2]);
  if (!(std::abs(det) > 0) || !std::isfinite(det))
    throw Error("constraint rows " + std::to_string(row) + " to " + std::to_string(row + 2) +
                ": their 3 x 3 block of the compliance W is singular (the rows constrain "
                "unknowns that cannot move, or one another)");
  Mat3 b;
  b[0][0] = (a[1][1] * a[2][2] - a[2][1] * a[1][2]) / det;
  b[1][0] = (a[1][2] * a[2][0] - a[2][2] * a[1][0]) / det;
  b[2][0] = (a[1][0] * a[2][1] - a[2][0] * a[1][1]) / det;
  b[0][1] = (a[2][1] * a[0][2] - a[0][1] * a[2][2]) / det;
  b[1][1] = (a[2][2] * a[0][0] - a[0][2] * a[2][0]) / det;
  b[2][1] = (a[2][0] * a[0][1] - a[0][0] * a[2][1]) / det;
  b[0][2] = (a[0][1] * a[1][2] - a[1][1] * a[0][2]) / det;
  b[1][2] = (a[0][2] * a[1][0] - a[1][2] * a[0][0]) / det;
  b[2][2] = (a[0][0] * a[1][1] - a[1][0] * a[0][1]) / det;
  return b;
}

}  // namespace

GaussSeidelResult blockGaussSeidel(const std::vector<double>& w, const std::vector<int>& groups,
                                   const std::vector<double>& dfree, std::vector<double>& force,
                                   const GaussSeidelOptions& options) {
  const int m = int(dfree.size());
  GaussSeidelResult result;
  if (m == 0) return result;
  const auto W = [&](int i, int j) { return w[std::size_t(i) * m + j]; };
  double tol = options.tolerance;
  if (options.scaleTolerance && !options.allVerified) tol *= m;

  // The groups' first rows and, for groups of 3, their inverse blocks (the resolutions' init).
  std::vector<int> first;
  std::vector<Mat3> inverses;
  for (int j = 0, g = 0; j < m; j += groups[g++]) {
    first.push_back(j);
    Mat3 block{};
    if (groups[g] == 3)
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) block[a][b] = W(j + a, j + b);
    else if (groups[g] != 1)
      throw Error("a constraint group of " + std::to_string(groups[g]) +
                  " rows: the Gauss-Seidel resolves groups of 1 or 3");
    else if (!(W(j, j) != 0))
      throw Error("constraint row " + std::to_string(j) + ": its diagonal entry of W is zero");
    inverses.push_back(groups[g] == 3 ? inverse3(block, j) : block);
  }

  std::vector<double> d(m), previous, before(3);
  for (int it = 0; it < options.maxIterations; ++it) {
    if (options.sor != 1.0) previous = force;
    bool verified = true;
    double error = 0;
    for (std::size_t g = 0; g < first.size(); ++g) {
      const int j = first[g], nb = groups[g];
      std::copy_n(&force[j], nb, before.begin());
      for (int l = 0; l < nb; ++l) {
        d[j + l] = dfree[j + l];
        for (int k = 0; k < m; ++k) d[j + l] += W(j + l, k) * force[k];
      }
      if (nb == 3) {
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b) force[j + a] -= d[j + b] * inverses[g][a][b];
      } else {
        force[j] -= d[j] / W(j, j);
      }
      double groupError = 0;
      if (nb > 1) {
        for (int l = 0; l < nb; ++l) {
          double line = 0;
          for (int c = 0; c < nb; ++c) {
            const double e = W(j + l, j + c) * (force[j + c] - before[c]);
            line += e * e;
          }
          line = std::sqrt(line);
          if (line > tol) verified = false;
          groupError += line;
        }
      } else {
        groupError = std::abs(W(j, j) * (force[j] - before[0]));
        if (groupError > tol) verified = false;
      }
      error += groupError;
    }
    if (options.sor != 1.0)
      for (int k = 0; k < m; ++k)
        force[k] = options.sor * force[k] + (1 - options.sor) * previous[k];
    result.iterations = it + 1;
    result.error = error;
    if (options.allVerified ? verified : error < tol) {
      result.converged = true;
      break;
    }
  }
  return result;
}

}  // namespace eis
