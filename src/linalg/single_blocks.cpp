#include "eis/linalg/single_blocks.hpp"

// PetscObjectStateGet is declared here in PETSc 3.18 (see preconditioner_reuse.cpp).
#include <petsc/private/petscimpl.h>

#include <algorithm>

#include "eis/core/error.hpp"

namespace eis {

namespace {

// The row structure of a sequential AIJ matrix, one entry per row (not compressed by inodes).
struct AijRows {
  Mat matrix;
  PetscInt n = 0;
  const PetscInt *offsets = nullptr, *columns = nullptr;
  explicit AijRows(Mat A) : matrix(A) {
    PetscBool done;
    EIS_CHECK(MatGetRowIJ(matrix, 0, PETSC_FALSE, PETSC_FALSE, &n, &offsets, &columns, &done));
    if (!done) throw Error("internal: PETSc gave no row structure of a matrix");
  }
  ~AijRows() {
    PetscBool done;
    MatRestoreRowIJ(matrix, 0, PETSC_FALSE, PETSC_FALSE, &n, &offsets, &columns, &done);
  }
  AijRows(const AijRows&) = delete;
  AijRows& operator=(const AijRows&) = delete;
};

}  // namespace

std::unique_ptr<SingleBlocks> SingleBlocks::of(Mat A) {
  PetscBool aij;
  PetscInt bs;
  EIS_CHECK(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(A), MATSEQAIJ, &aij));
  EIS_CHECK(MatGetBlockSize(A, &bs));
  if (!aij || bs < 2) return nullptr;
  std::unique_ptr<SingleBlocks> blocks(new SingleBlocks(bs));
  if (!blocks->build(A)) return nullptr;
  blocks->copyValues(A);
  return blocks;
}

void SingleBlocks::update(Mat A) {
  PetscObjectState state, nonzeroState;
  EIS_CHECK(PetscObjectStateGet(reinterpret_cast<PetscObject>(A), &state));
  if (state == state_) return;
  if (released_)
    throw Error("internal: a multigrid matrix whose storage was released changed afterwards");
  EIS_CHECK(MatGetNonzeroState(A, &nonzeroState));
  if (nonzeroState != nonzeroState_ && !build(A))
    throw Error("internal: a multigrid matrix multiplied in float is no longer made of blocks");
  copyValues(A);
}

void SingleBlocks::release(Mat A) {
  PetscObjectState state;
  EIS_CHECK(PetscObjectStateGet(reinterpret_cast<PetscObject>(A), &state));
  if (released_ || state != state_)
    throw Error("internal: float blocks released from a matrix they no longer hold");
  PetscInt rows, columns;
  EIS_CHECK(MatGetSize(A, &rows, &columns));
  if (rows == columns) {
    Vec d;
    EIS_CHECK(MatCreateVecs(A, nullptr, &d));
    EIS_CHECK(MatGetDiagonal(A, d));
    const PetscScalar* values;
    EIS_CHECK(VecGetArrayRead(d, &values));
    diagonal_.assign(values, values + rows);
    EIS_CHECK(VecRestoreArrayRead(d, &values));
    EIS_CHECK(VecDestroy(&d));
  }
  EIS_CHECK(MatSeqAIJSetPreallocation(A, 0, nullptr));
  EIS_CHECK(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  EIS_CHECK(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  EIS_CHECK(PetscObjectStateSet(reinterpret_cast<PetscObject>(A), state));
  EIS_CHECK(MatGetNonzeroState(A, &nonzeroState_));
  released_ = true;
}

// Each block row's blocks from the columns of its first row, which every row of the block row
// must repeat, in runs of bs from a multiple of bs.
bool SingleBlocks::build(Mat A) {
  const AijRows a(A);
  offsets_.assign(1, 0);
  columns_.clear();
  if (a.n % bs_ != 0) return false;
  // Exactly the blocks a matrix of full blocks has: no room to spare beside the AIJ storage.
  offsets_.reserve(std::size_t(a.n / bs_) + 1);
  columns_.reserve(std::size_t(a.offsets[a.n] / (bs_ * bs_)));
  for (PetscInt i = 0; i < a.n / bs_; ++i) {
    const PetscInt* first = a.columns + a.offsets[bs_ * i];
    const PetscInt count = a.offsets[bs_ * i + 1] - a.offsets[bs_ * i];
    if (count % bs_ != 0) return false;
    for (PetscInt r = 1; r < bs_; ++r)
      if (a.offsets[bs_ * i + r + 1] - a.offsets[bs_ * i + r] != count ||
          !std::equal(first, first + count, a.columns + a.offsets[bs_ * i + r]))
        return false;
    for (PetscInt k = 0; k < count; k += bs_) {
      if (first[k] % bs_ != 0) return false;
      for (PetscInt c = 1; c < bs_; ++c)
        if (first[k + c] != first[k] + c) return false;
      columns_.push_back(first[k] / bs_);
    }
    offsets_.push_back(PetscInt(columns_.size()));
  }
  EIS_CHECK(MatGetNonzeroState(A, &nonzeroState_));
  return true;
}

// Row r of block row i holds, for each block k, its bs columns: entry (r, c) of block k, kept at
// (k * bs + c) * bs + r as PETSc's BAIJ keeps it.
void SingleBlocks::copyValues(Mat A) {
  const PetscInt bs = bs_;
  values_.resize(columns_.size() * std::size_t(bs * bs));
  const AijRows a(A);
  const PetscScalar* from;
  EIS_CHECK(MatSeqAIJGetArrayRead(A, &from));
  for (PetscInt i = 0; i < blockRows(); ++i) {
    const PetscInt blocks = offsets_[i + 1] - offsets_[i];
    float* to = values_.data() + offsets_[i] * bs * bs;
    for (PetscInt r = 0; r < bs; ++r) {
      const PetscScalar* row = from + a.offsets[bs * i + r];
      for (PetscInt k = 0; k < blocks; ++k)
        for (PetscInt c = 0; c < bs; ++c) to[(k * bs + c) * bs + r] = float(row[bs * k + c]);
    }
  }
  EIS_CHECK(MatSeqAIJRestoreArrayRead(A, &from));
  EIS_CHECK(PetscObjectStateGet(reinterpret_cast<PetscObject>(A), &state_));
}

}  // namespace eis
