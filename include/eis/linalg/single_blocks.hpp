#pragma once
// A sequential AIJ matrix made of full bs x bs blocks, held a second time as its blocks'
// structure and its values rounded to float, column by column in each block as PETSc's BAIJ
// stores them: what a multigrid's coarser level or interpolation multiplies by on one rank with
// solver.single-precision-levels (prefetching_block_product.hpp). Its BAIJ copy in double
// (block_copy.hpp) would be read by no product there, and at 1e6 unknowns it took 340 MB.
#include <petscmat.h>

#include <memory>
#include <vector>

namespace eis {

class SingleBlocks {
public:
  // The blocks of A, a sequential AIJ matrix of (row) block size bs >= 2, its values rounded to
  // float; nullptr when A is another matrix, or when the bs rows of some block row do not hold
  // the same whole blocks, bs columns from a multiple of bs.
  static std::unique_ptr<SingleBlocks> of(Mat A);

  // Rounds A's values again when A changed since (PETSc's object state); its structure is made
  // again when A's nonzero structure changed. Throws when A is no longer made of full blocks, or
  // changed after release().
  void update(Mat A);

  // Frees A's own storage: A, which the blocks were made of, is emptied (no nonzeros), and these
  // blocks, with A's diagonal in double for a square A, become the only copy of its values. A
  // keeps its identity, its composed objects and PETSc's object state (the operator it stands for
  // is unchanged), so that nothing PETSc made from it (a smoother's diagonal, its eigenvalue
  // bounds) is made again. Throws when A is not the matrix the blocks hold.
  void release(Mat A);
  bool released() const { return released_; }
  // A's diagonal as release() found it (square A only; empty otherwise).
  const std::vector<PetscScalar>& diagonal() const { return diagonal_; }

  PetscInt blockRows() const { return PetscInt(offsets_.size()) - 1; }
  // Block row i's blocks are offsets()[i] .. offsets()[i + 1] - 1; block k's column block is
  // columns()[k] and its bs x bs values start at values() + bs * bs * k.
  const PetscInt* offsets() const { return offsets_.data(); }
  const PetscInt* columns() const { return columns_.data(); }
  const float* values() const { return values_.data(); }

private:
  explicit SingleBlocks(PetscInt bs) : bs_(bs) {}
  bool build(Mat A);
  void copyValues(Mat A);

  PetscInt bs_;
  std::vector<PetscInt> offsets_, columns_;
  std::vector<float> values_;
  std::vector<PetscScalar> diagonal_;
  PetscObjectState state_ = -1, nonzeroState_ = -1;
  bool released_ = false;
};

}  // namespace eis
