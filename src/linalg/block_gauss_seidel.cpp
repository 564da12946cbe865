#include "eis/linalg/block_gauss_seidel.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
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

// A bilateral block's P W_b P^T = L D L^T (BilateralConstraintResolutionNDof::init, Eigen::LDLT):
// column by column, each one's pivot the remaining diagonal entry largest in magnitude (as
// given, before the column's update: Eigen's left-looking order, first of equals), L unit lower
// triangular, D diagonal; solve gives W_b^-1 d. A pivot that is zero (or below the smallest
// normal number, where Eigen's solve would drop the row) is an error.
class BlockLdlt {
public:
  BlockLdlt() = default;
  BlockLdlt(const std::vector<double>& w, int m, int row, int n)
      : n_(n), a_(std::size_t(n) * std::size_t(n)), d_(std::size_t(n)), swaps_(std::size_t(n)) {
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < n; ++k) at(i, k) = w[std::size_t(row + i) * std::size_t(m) + row + k];
    std::vector<double> t(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) {
      int p = k;
      for (int i = k + 1; i < n; ++i)
        if (std::abs(at(i, i)) > std::abs(at(p, p))) p = i;
      swaps_[std::size_t(k)] = p;
      if (p != k) {
        for (int c = 0; c < n; ++c) std::swap(at(k, c), at(p, c));
        for (int r = 0; r < n; ++r) std::swap(at(r, k), at(r, p));
      }
      for (int i = 0; i < k; ++i) t[std::size_t(i)] = d_[std::size_t(i)] * at(k, i);
      for (int i = 0; i < k; ++i) at(k, k) -= at(k, i) * t[std::size_t(i)];
      for (int r = k + 1; r < n; ++r)
        for (int i = 0; i < k; ++i) at(r, k) -= at(r, i) * t[std::size_t(i)];
      const double pivot = at(k, k);
      if (!(std::abs(pivot) >= std::numeric_limits<double>::min()) || !std::isfinite(pivot))
        throw Error("constraint rows " + std::to_string(row) + " to " +
                    std::to_string(row + n - 1) +
                    ": their block of the compliance W is singular (the rows constrain unknowns "
                    "that cannot move, or one another)");
      d_[std::size_t(k)] = pivot;
      for (int r = k + 1; r < n; ++r) at(r, k) /= pivot;
    }
  }

  // x = W_b^-1 d for the block's n values at d.
  std::vector<double> solve(const double* d) const {
    std::vector<double> x(d, d + n_);
    for (int k = 0; k < n_; ++k)
      std::swap(x[std::size_t(k)], x[std::size_t(swaps_[std::size_t(k)])]);
    for (int i = 0; i < n_; ++i)
      for (int k = 0; k < i; ++k) x[std::size_t(i)] -= at(i, k) * x[std::size_t(k)];
    for (int i = 0; i < n_; ++i) x[std::size_t(i)] /= d_[std::size_t(i)];
    for (int i = n_ - 1; i >= 0; --i)
      for (int k = i + 1; k < n_; ++k) x[std::size_t(i)] -= at(k, i) * x[std::size_t(k)];
    for (int k = n_ - 1; k >= 0; --k)
      std::swap(x[std::size_t(k)], x[std::size_t(swaps_[std::size_t(k)])]);
    return x;
  }

private:
  double& at(int i, int k) { return a_[std::size_t(i) * std::size_t(n_) + std::size_t(k)]; }
  double at(int i, int k) const { return a_[std::size_t(i) * std::size_t(n_) + std::size_t(k)]; }

  int n_ = 0;
  std::vector<double> a_;  // L below the diagonal, row-major
  std::vector<double> d_;
  std::vector<int> swaps_;  // the row swapped with row k before column k
};

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

  // The groups' first rows, for groups of 3 their inverse blocks, for blocks their LDL^T (the
  // resolutions' init).
  if (!resolutions.empty() && resolutions.size() != groups.size())
    throw Error("the constraint groups and their resolutions differ in number");
  std::vector<int> first;
  std::vector<Mat3> inverses;
  std::vector<BlockLdlt> blocks;
  std::vector<Kind> kinds;
  int largest = 1;
  for (int j = 0, g = 0; j < m; j += groups[g++]) {
    first.push_back(j);
    const Kind kind = resolutions.empty() ? Kind::Bilateral : resolutions[std::size_t(g)].kind;
    kinds.push_back(kind);
    largest = std::max(largest, groups[g]);
    Mat3 block{};
    if (kind == Kind::Block) {
      if (groups[g] < 1 || j + groups[g] > m)
        throw Error("constraint row " + std::to_string(j) + ": a block of " +
                    std::to_string(groups[g]) + " rows among " + std::to_string(m));
      blocks.emplace_back(w, m, j, groups[g]);
      inverses.push_back(block);
      continue;
    }
    blocks.emplace_back();
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
  std::vector<double> d(m), previous, before(std::size_t(largest), 0.0);
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
      } else if (kinds[g] == Kind::Block) {
        const std::vector<double> change = blocks[g].solve(&d[j]);
        for (int l = 0; l < nb; ++l) force[j + l] -= change[std::size_t(l)];
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
