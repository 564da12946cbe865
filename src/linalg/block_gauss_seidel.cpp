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

// UnilateralConstraintResolutionWithFriction::resolution on one contact's rows (normal, two
// tangents): w its 3 x 3 block of W, d the rows' displacements under the current forces.
void resolveFriction(const Mat3& w, double mu, double* d, double* force) {
  const double normalBefore = force[0];
  force[0] -= d[0] / w[0][0];
  if (force[0] < 0) {
    force[0] = force[1] = force[2] = 0;
    return;
  }
  d[1] += w[0][1] * (force[0] - normalBefore);
  d[2] += w[0][2] * (force[0] - normalBefore);
  force[1] -= 2 * d[1] / (w[1][1] + w[2][2]);
  force[2] -= 2 * d[2] / (w[1][1] + w[2][2]);
  const double tangent = std::sqrt(force[1] * force[1] + force[2] * force[2]);
  const double limit = mu * force[0];
  if (tangent > limit) {
    force[1] *= limit / tangent;
    force[2] *= limit / tangent;
  }
}

// NNCGConstraintSolver::doSolve: a first sweep, then sweeps whose force changes are
// accelerated along conjugate directions (the direction dropped when beta exceeds 1); it stops
// on the sweep's error as the Gauss-Seidel does, or once the force change's norm is below the
// tolerance; sor is not applied.
template <class Sweep>
GaussSeidelResult nonsmoothConjugateGradient(std::vector<double>& force, double tol,
                                             const GaussSeidelOptions& options, Sweep sweep) {
  const std::size_t m = force.size();
  GaussSeidelResult result;
  const auto dot = [](const std::vector<double>& a, const std::vector<double>& b) {
    double s = 0;
    for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
    return s;
  };
  std::vector<double> lambda = force, deltaF(m), deltaFNew(m), p(m);
  double error;
  bool verified;
  sweep(error, verified);
  for (std::size_t j = 0; j < m; ++j) {
    deltaF[j] = -(force[j] - lambda[j]);
    p[j] = -deltaF[j];
  }
  for (int i = 1; i < options.maxIterations; ++i) {
    ++result.iterations;
    lambda = force;
    sweep(error, verified);
    result.error = error;
    if (options.allVerified ? verified : error < tol) {
      result.converged = true;
      break;
    }
    for (std::size_t j = 0; j < m; ++j) deltaFNew[j] = -(force[j] - lambda[j]);
    const double beta = dot(deltaFNew, deltaFNew) / dot(deltaF, deltaF);
    deltaF = deltaFNew;
    if (beta > 1) {
      std::fill(p.begin(), p.end(), 0.0);
    } else {
      for (std::size_t j = 0; j < m; ++j) {
        force[j] += beta * p[j];
        p[j] = beta * p[j] - deltaF[j];
      }
    }
    if (std::sqrt(dot(deltaFNew, deltaFNew)) < tol) break;
  }
  return result;
}

}  // namespace

GaussSeidelResult blockGaussSeidel(const std::vector<double>& w, const std::vector<int>& groups,
                                   const std::vector<double>& dfree, std::vector<double>& force,
                                   const GaussSeidelOptions& options,
                                   const std::vector<GroupResolution>& resolutions) {
  using Kind = GroupResolution::Kind;
  const int m = int(dfree.size());
  GaussSeidelResult result;
  if (m == 0) return result;
  const auto W = [&](int i, int j) { return w[std::size_t(i) * m + j]; };
  double tol = options.tolerance;
  if (options.scaleTolerance && !options.allVerified) tol *= m;

  // The groups' first rows and, for groups of 3, their inverse blocks (the resolutions' init).
  if (!resolutions.empty() && resolutions.size() != groups.size())
    throw Error("the constraint groups and their resolutions differ in number");
  std::vector<int> first;
  std::vector<Mat3> inverses;
  std::vector<Kind> kinds;
  for (int j = 0, g = 0; j < m; j += groups[g++]) {
    first.push_back(j);
    const Kind kind = resolutions.empty() ? Kind::Bilateral : resolutions[std::size_t(g)].kind;
    kinds.push_back(kind);
    Mat3 block{};
    if ((kind == Kind::Unilateral && groups[g] != 1) || (kind == Kind::Friction && groups[g] != 3))
      throw Error("constraint row " + std::to_string(j) +
                  ": a unilateral group has 1 row, a contact with friction 3");
    if (kind == Kind::Friction) {
      if (!(W(j, j) != 0))
        throw Error("constraint row " + std::to_string(j) + ": its diagonal entry of W is zero");
      // UnilateralConstraintResolutionWithFriction::init keeps the block's upper triangle.
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) block[a][b] = W(j + a, j + b);
      inverses.push_back(block);
      continue;
    }
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

  // One sweep over the groups (gaussSeidel_increment): each group's displacement under the
  // current forces, its resolution, and the error its force change causes.
  std::vector<double> d(m), previous, before(3);
  const auto sweep = [&](double& error, bool& verified) {
    error = 0;
    verified = true;
    for (std::size_t g = 0; g < first.size(); ++g) {
      const int j = first[g], nb = groups[g];
      std::copy_n(&force[j], nb, before.begin());
      for (int l = 0; l < nb; ++l) {
        d[j + l] = dfree[j + l];
        for (int k = 0; k < m; ++k) d[j + l] += W(j + l, k) * force[k];
      }
      if (kinds[g] == Kind::Friction) {
        resolveFriction(inverses[g], resolutions[g].mu, &d[j], &force[j]);
      } else if (kinds[g] == Kind::Unilateral) {
        force[j] = std::max(0.0, force[j] - d[j] / W(j, j));
      } else if (nb == 3) {
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
  };
  // UnbuiltGaussSeidelConstraintSolver erases the forces it starts from.
  if (options.zeroStart) std::fill(force.begin(), force.end(), 0.0);
  if (options.method == GaussSeidelOptions::Method::NonsmoothNonlinearConjugateGradient)
    return nonsmoothConjugateGradient(force, tol, options, sweep);
  for (int it = 0; it < options.maxIterations; ++it) {
    if (options.sor != 1.0) previous = force;
    bool verified;
    double error;
    sweep(error, verified);
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
