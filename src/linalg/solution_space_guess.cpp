#include "eis/linalg/solution_space_guess.hpp"

// PetscObjectStateGet, declared here in PETSc 3.18 (see preconditioner_reuse.cpp).
#include <petsc/private/petscimpl.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "eis/core/error.hpp"

namespace eis {

namespace {

// Rows per block of the local dot products: the block of every vector stays in cache while all
// k x k + k products take their share of it.
constexpr PetscInt kBlock = 256;

// Local parts of G_ij = left_i . w_j and r_i = left_i . b, row-major G then r.
std::vector<double> localProducts(const std::vector<const PetscScalar*>& left,
                                  const std::vector<const PetscScalar*>& w, const PetscScalar* b,
                                  PetscInt rows) {
  const std::size_t k = w.size();
  std::vector<double> sums(k * k + k, 0.0);
  for (PetscInt begin = 0; begin < rows; begin += kBlock) {
    const PetscInt end = std::min(rows, begin + kBlock);
    for (std::size_t i = 0; i < k; ++i) {
      const PetscScalar* li = left[i];
      for (std::size_t j = 0; j < k; ++j) {
        const PetscScalar* wj = w[j];
        double s = 0;
        for (PetscInt row = begin; row < end; ++row) s += li[row] * wj[row];
        sums[i * k + j] += s;
      }
      double s = 0;
      for (PetscInt row = begin; row < end; ++row) s += li[row] * b[row];
      sums[k * k + i] += s;
    }
  }
  return sums;
}

}  // namespace

int solveSemidefinite(int n, std::vector<double> G, const std::vector<double>& r,
                      std::vector<double>& c, double dependence) {
  const auto at = [n](int row, int column) { return std::size_t(row) * n + column; };
  std::vector<double> scale(n, 0.0);
  for (int i = 0; i < n; ++i)
    if (G[at(i, i)] > 0) scale[i] = 1 / std::sqrt(G[at(i, i)]);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) G[at(i, j)] *= scale[i] * scale[j];
  // G becomes its Schur complements; L[at(a, j)]: row a (an original index) of the factor.
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::vector<double> L(std::size_t(n) * n, 0.0);
  int rank = 0;
  for (; rank < n; ++rank) {
    int best = rank;
    for (int t = rank + 1; t < n; ++t)
      if (G[at(order[t], order[t])] > G[at(order[best], order[best])]) best = t;
    const int a = order[best];
    if (!(G[at(a, a)] >= dependence)) break;
    std::swap(order[rank], order[best]);
    const double pivot = std::sqrt(G[at(a, a)]);
    L[at(a, rank)] = pivot;
    for (int t = rank + 1; t < n; ++t) L[at(order[t], rank)] = G[at(order[t], a)] / pivot;
    for (int t = rank + 1; t < n; ++t)
      for (int u = rank + 1; u < n; ++u)
        G[at(order[t], order[u])] -= L[at(order[t], rank)] * L[at(order[u], rank)];
  }
  // L L^T z = D r on the kept columns, then c = D z.
  std::vector<double> z(rank);
  for (int j = 0; j < rank; ++j) {
    double s = scale[order[j]] * r[order[j]];
    for (int i = 0; i < j; ++i) s -= L[at(order[j], i)] * z[i];
    z[j] = s / L[at(order[j], j)];
  }
  for (int j = rank - 1; j >= 0; --j) {
    double s = z[j];
    for (int i = j + 1; i < rank; ++i) s -= L[at(order[i], j)] * z[i];
    z[j] = s / L[at(order[j], j)];
  }
  c.assign(n, 0.0);
  for (int j = 0; j < rank; ++j) c[order[j]] = scale[order[j]] * z[j];
  return rank;
}

SolutionSpaceGuess::SolutionSpaceGuess(int capacity) : capacity_(capacity) {}

SolutionSpaceGuess::~SolutionSpaceGuess() {
  for (Vec& v : solutions_) VecDestroy(&v);
  for (Vec& v : products_) VecDestroy(&v);
}

int SolutionSpaceGuess::start(Mat A, Vec b, Vec x) {
  EIS_CHECK(VecZeroEntries(x));
  const std::size_t k = solutions_.size();
  if (k == 0) return 0;
  while (products_.size() < k) {
    products_.emplace_back();
    EIS_CHECK(VecDuplicate(solutions_[0], &products_.back()));
  }
  applyTo(A);
  PetscBool known = PETSC_FALSE, symmetric = PETSC_FALSE;
  EIS_CHECK(MatIsSymmetricKnown(A, &known, &symmetric));
  const bool galerkin = known && symmetric;
  const std::vector<Vec>& left = galerkin ? solutions_ : products_;

  PetscInt rows;
  EIS_CHECK(VecGetLocalSize(b, &rows));
  std::vector<const PetscScalar*> leftArrays(k), productArrays(k);
  const PetscScalar* bArray;
  for (std::size_t i = 0; i < k; ++i) {
    EIS_CHECK(VecGetArrayRead(left[i], &leftArrays[i]));
    if (galerkin) EIS_CHECK(VecGetArrayRead(products_[i], &productArrays[i]));
  }
  if (!galerkin) productArrays = leftArrays;
  EIS_CHECK(VecGetArrayRead(b, &bArray));
  std::vector<double> sums = localProducts(leftArrays, productArrays, bArray, rows);
  EIS_CHECK(VecRestoreArrayRead(b, &bArray));
  for (std::size_t i = 0; i < k; ++i) {
    EIS_CHECK(VecRestoreArrayRead(left[i], &leftArrays[i]));
    if (galerkin) EIS_CHECK(VecRestoreArrayRead(products_[i], &productArrays[i]));
  }
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, sums.data(), int(sums.size()), MPI_DOUBLE, MPI_SUM,
                              PetscObjectComm(reinterpret_cast<PetscObject>(A))));

  // X^T A X is symmetric up to rounding; its two halves averaged.
  std::vector<double> G(sums.begin(), sums.begin() + std::ptrdiff_t(k * k));
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < i; ++j)
      G[i * k + j] = G[j * k + i] = 0.5 * (G[i * k + j] + G[j * k + i]);
  const std::vector<double> r(sums.begin() + std::ptrdiff_t(k * k), sums.end());
  std::vector<double> c;
  const int kept = solveSemidefinite(int(k), G, r, c, kDependence);
  EIS_CHECK(VecMAXPY(x, PetscInt(k), c.data(), solutions_.data()));
  return kept;
}

// W = A X, reusing the products of the previous start where A is the same matrix with the same
// values: a constant operator (a linear model at a fixed step) then costs one product a start,
// for the solution stored since, instead of k.
void SolutionSpaceGuess::applyTo(Mat A) {
  PetscObjectId id;
  PetscObjectState state;
  EIS_CHECK(PetscObjectGetId(reinterpret_cast<PetscObject>(A), &id));
  EIS_CHECK(PetscObjectStateGet(reinterpret_cast<PetscObject>(A), &state));
  if (id != productsId_ || state != productsState_)
    std::fill(productKnown_.begin(), productKnown_.end(), false);
  for (std::size_t i = 0; i < solutions_.size(); ++i) {
    if (productKnown_[i]) continue;
    EIS_CHECK(MatMult(A, solutions_[i], products_[i]));
    productKnown_[i] = true;
  }
  productsId_ = id;
  productsState_ = state;
}

void SolutionSpaceGuess::store(Vec x) {
  if (int(solutions_.size()) < capacity_) {
    solutions_.emplace_back();
    productKnown_.push_back(false);
    EIS_CHECK(VecDuplicate(x, &solutions_.back()));
    EIS_CHECK(VecCopy(x, solutions_.back()));
    return;
  }
  EIS_CHECK(VecCopy(x, solutions_[next_]));
  productKnown_[next_] = false;
  next_ = (next_ + 1) % solutions_.size();
}

}  // namespace eis
