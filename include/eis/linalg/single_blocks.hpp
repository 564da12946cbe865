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
  // again when A's nonzero structure changed. Throws when A is no longer made of full blocks.
  void update(Mat A);

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
  PetscObjectState state_ = -1, nonzeroState_ = -1;
};

}  // namespace eis
