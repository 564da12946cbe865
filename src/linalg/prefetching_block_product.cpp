#include "eis/linalg/prefetching_block_product.hpp"

#include <algorithm>
#include <memory>
#include <vector>

#include "block_arrays.hpp"
#include "eis/core/error.hpp"
#include "eis/core/vector_clones.hpp"
#include "eis/linalg/composed_object.hpp"
#include "eis/linalg/single_blocks.hpp"

namespace eis {

namespace {

using block_products::BlockArrays;
using block_products::installUpperTriangleProduct;
using block_products::kPrefetchName;
using block_products::kSingleBlocksName;
using block_products::kSingleName;
using block_products::SingleValues;

// z = y + A x, or z = A x without y (ys null), over the blocks of b with values `values` (b's
// doubles or their float copy, widened as they multiply); the number of block rows with blocks.
template <int BS, int L, class T>
EIS_TEMPLATE_VECTOR_CLONES PetscInt rowLoop(const BlockArrays<BS, L>& b, const T* values,
                                            const PetscScalar* xs, const PetscScalar* ys,
                                            PetscScalar* zs) {
  PetscInt rowsWithBlocks = 0;
  for (PetscInt i = 0; i < b.blockRows; ++i) {
    const PetscInt end = b.offsets[i + 1];
    rowsWithBlocks += end > b.offsets[i];
    const T* v = values + BS * BS * b.offsets[i];
    PetscScalar sums[BS];
    for (int r = 0; r < BS; ++r) sums[r] = ys ? ys[BS * i + r] : 0.0;
    for (PetscInt k = b.offsets[i]; k < end; ++k, v += BS * BS) {
      b.fetchAhead(v, k);
      const PetscScalar* xb = xs + BS * b.columns[k];
      for (int r = 0; r < BS; ++r) {
        PetscScalar row = PetscScalar(v[r]) * xb[0];
        for (int c = 1; c < BS; ++c) row += PetscScalar(v[c * BS + r]) * xb[c];
        sums[r] += row;
      }
    }
    for (int r = 0; r < BS; ++r) zs[BS * i + r] = sums[r];
  }
  return rowsWithBlocks;
}

// z = y + A x, or z = A x without y, over a sequential BAIJ matrix of BS x BS blocks, each stored
// column by column: the sums of PETSc's MatMult_SeqBAIJ_3 / _6 and MatMultAdd_SeqBAIJ_3 / _6, in
// their order (row r of a block's product summed over the block's columns, then added to the
// row's sum), with each block fetched ahead; over the float values where the matrix holds them.
template <int BS, int L>
PetscErrorCode rowProducts(Mat A, Vec x, Vec y, Vec z) {
  BlockArrays<BS, L> b;
  const PetscScalar* xs;
  PetscScalar *ys = nullptr, *zs;
  PetscFunctionBeginUser;
  PetscCall(b.get(A));
  PetscCall(VecGetArrayRead(x, &xs));
  if (y)
    PetscCall(VecGetArrayPair(y, z, &ys, &zs));
  else
    PetscCall(VecGetArrayWrite(z, &zs));
  const PetscInt rowsWithBlocks =
      b.singles ? rowLoop(b, b.singles, xs, ys, zs) : rowLoop(b, b.values, xs, ys, zs);
  if (y)
    PetscCall(VecRestoreArrayPair(y, z, &ys, &zs));
  else
    PetscCall(VecRestoreArrayWrite(z, &zs));
  PetscCall(VecRestoreArrayRead(x, &xs));
  PetscCall(b.restore(A));
  PetscCall(PetscLogFlops(2.0 * BS * BS * double(b.blocks) -
                          (y ? 0.0 : double(BS) * double(rowsWithBlocks))));
  PetscFunctionReturn(0);
}

// z += A^T x over the blocks of b with values `values` (b's doubles or their float copy): each
// block's column c of the x block row into z's entry c of the block column, for blocks of 3 the
// sums of PETSc's MatMultTransposeAdd_SeqBAIJ in their order.
template <int BS, int L, class T>
EIS_TEMPLATE_VECTOR_CLONES void transposedLoop(const BlockArrays<BS, L>& b, const T* values,
                                               const PetscScalar* xs, PetscScalar* zs) {
  for (PetscInt i = 0; i < b.blockRows; ++i) {
    const PetscScalar* xb = xs + BS * i;
    const T* v = values + BS * BS * b.offsets[i];
    for (PetscInt k = b.offsets[i]; k < b.offsets[i + 1]; ++k, v += BS * BS) {
      b.fetchAhead(v, k);
      PetscScalar* zb = zs + BS * b.columns[k];
      for (int c = 0; c < BS; ++c) {
        PetscScalar sum = PetscScalar(v[c * BS]) * xb[0];
        for (int r = 1; r < BS; ++r) sum += PetscScalar(v[c * BS + r]) * xb[r];
        zb[c] += sum;
      }
    }
  }
}

// z = y + A^T x, or z = A^T x without y, over a sequential BAIJ matrix of BS x BS blocks (a
// multigrid's restriction by an interpolation): each block multiplies x's block row, transposed,
// into its column's entries of z, z starting from y or from zero, with each block fetched ahead;
// over the float values where the matrix holds them.
template <int BS, int L>
PetscErrorCode transposedProducts(Mat A, Vec x, Vec y, Vec z) {
  BlockArrays<BS, L> b;
  const PetscScalar* xs;
  PetscScalar* zs;
  PetscFunctionBeginUser;
  PetscCall(b.get(A));
  if (!y)
    PetscCall(VecSet(z, 0.0));
  else if (y != z)
    PetscCall(VecCopy(y, z));
  PetscCall(VecGetArrayRead(x, &xs));
  PetscCall(VecGetArray(z, &zs));
  if (b.singles)
    transposedLoop(b, b.singles, xs, zs);
  else
    transposedLoop(b, b.values, xs, zs);
  PetscCall(VecRestoreArray(z, &zs));
  PetscCall(VecRestoreArrayRead(x, &xs));
  PetscCall(b.restore(A));
  PetscCall(PetscLogFlops(2.0 * BS * BS * double(b.blocks)));
  PetscFunctionReturn(0);
}

template <int BS, int L>
PetscErrorCode product(Mat A, Vec x, Vec y) {
  return rowProducts<BS, L>(A, x, nullptr, y);
}
template <int BS, int L>
PetscErrorCode productAdd(Mat A, Vec x, Vec y, Vec z) {
  return rowProducts<BS, L>(A, x, y, z);
}
template <int BS, int L>
PetscErrorCode transposedProduct(Mat A, Vec x, Vec z) {
  return transposedProducts<BS, L>(A, x, nullptr, z);
}

// Installs the products of locality L on `part`: the upper triangle's, or those of bs x bs
// blocks. The restriction's loop replaces PETSc's for blocks of 3 (the same sums), and for blocks
// of 6 only over float values, which prolongation and restriction must then both read: the
// V-cycle stays symmetric.
template <int L>
void installProducts(Mat part, PetscInt bs, bool upper, bool single) {
  if (upper) {
    installUpperTriangleProduct<L>(part);
  } else if (bs == 3) {
    setOperation(part, MATOP_MULT, product<3, L>);
    setOperation(part, MATOP_MULT_ADD, productAdd<3, L>);
    setOperation(part, MATOP_MULT_TRANSPOSE, transposedProduct<3, L>);
    setOperation(part, MATOP_MULT_TRANSPOSE_ADD, transposedProducts<3, L>);
  } else {
    setOperation(part, MATOP_MULT, product<6, L>);
    setOperation(part, MATOP_MULT_ADD, productAdd<6, L>);
    if (single) {
      setOperation(part, MATOP_MULT_TRANSPOSE, transposedProduct<6, L>);
      setOperation(part, MATOP_MULT_TRANSPOSE_ADD, transposedProducts<6, L>);
    }
  }
}

// Composes the read-ahead `how` with `part` and installs its products of that locality.
void install(Mat part, BlockPrefetch how, PetscInt bs, bool upper, bool single) {
  composeOwned(reinterpret_cast<PetscObject>(part), kPrefetchName,
               std::make_unique<BlockPrefetch>(how));
  switch (how.locality) {
    case 0: installProducts<0>(part, bs, upper, single); break;
    case 1: installProducts<1>(part, bs, upper, single); break;
    case 2: installProducts<2>(part, bs, upper, single); break;
    default: installProducts<3>(part, bs, upper, single); break;
  }
}

}  // namespace

void prefetchBlockProducts(Mat B, BlockPrefetch how, bool singleValues) {
  PetscInt bs;
  EIS_CHECK(MatGetBlockSize(B, &bs));
  if (how.distance <= 0 || (bs != 3 && bs != 6)) return;
  Mat part = B;
  PetscBool parallel;
  EIS_CHECK(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(B), MATMPIBAIJ, &parallel));
  if (parallel) EIS_CHECK(MatMPIBAIJGetSeqBAIJ(B, &part, nullptr, nullptr));
  PetscBool sequential;
  EIS_CHECK(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(part), MATSEQBAIJ, &sequential));
  if (!sequential) return;
  if (singleValues) {
    composeOwned(reinterpret_cast<PetscObject>(part), kSingleName,
                 std::make_unique<SingleValues>());
    refreshSingleValues(part);
  }
  install(part, how, bs, false, singleValues);
}

void multiplyAsUpperTriangle(Mat part, BlockPrefetch how) {
  PetscInt bs;
  PetscBool sequential;
  EIS_CHECK(MatGetBlockSize(part, &bs));
  EIS_CHECK(PetscObjectTypeCompareAny(reinterpret_cast<PetscObject>(part), &sequential, MATSEQBAIJ,
                                      MATSEQSBAIJ, ""));
  if (bs != 3 || !sequential || how.distance <= 0)
    throw Error(
        "internal: an upper triangle's product needs a sequential BAIJ or SBAIJ matrix of 3 x 3 "
        "blocks and a read-ahead");
  install(part, how, bs, true, false);
}

bool prefetchSingleBlockProducts(Mat A, BlockPrefetch how) {
  SingleBlocks* made = nullptr;
  EIS_CHECK(queryComposed(reinterpret_cast<PetscObject>(A), kSingleBlocksName, &made));
  if (made) return true;
  PetscInt bs;
  EIS_CHECK(MatGetBlockSize(A, &bs));
  if (how.distance <= 0 || (bs != 3 && bs != 6)) return false;
  std::unique_ptr<SingleBlocks> blocks = SingleBlocks::of(A);
  if (!blocks) return false;
  composeOwned(reinterpret_cast<PetscObject>(A), kSingleBlocksName, std::move(blocks));
  install(A, how, bs, false, true);
  return true;
}

namespace {

// A released matrix's diagonal, from its float blocks' record of it.
PetscErrorCode releasedDiagonal(Mat A, Vec d) {
  SingleBlocks* blocks = nullptr;
  PetscScalar* values;
  PetscFunctionBeginUser;
  PetscCall(queryComposed(reinterpret_cast<PetscObject>(A), kSingleBlocksName, &blocks));
  PetscCheck(blocks && blocks->released() && !blocks->diagonal().empty(), PETSC_COMM_SELF,
             PETSC_ERR_PLIB, "a released matrix lost its diagonal");
  PetscCall(VecGetArrayWrite(d, &values));
  std::copy(blocks->diagonal().begin(), blocks->diagonal().end(), values);
  PetscCall(VecRestoreArrayWrite(d, &values));
  PetscFunctionReturn(0);
}

}  // namespace

bool releaseAijStorage(Mat A) {
  SingleBlocks* blocks = nullptr;
  EIS_CHECK(queryComposed(reinterpret_cast<PetscObject>(A), kSingleBlocksName, &blocks));
  if (!blocks || blocks->released()) return false;
  blocks->release(A);
  if (!blocks->diagonal().empty()) setOperation(A, MATOP_GET_DIAGONAL, releasedDiagonal);
  return true;
}

void refreshSingleValues(Mat part) {
  SingleValues* single = nullptr;
  EIS_CHECK(queryComposed(reinterpret_cast<PetscObject>(part), kSingleName, &single));
  if (!single) return;
  PetscInt bs, blockRows;
  const PetscInt *offsets, *columns;
  PetscBool done;
  EIS_CHECK(MatGetBlockSize(part, &bs));
  EIS_CHECK(MatGetRowIJ(part, 0, PETSC_FALSE, PETSC_TRUE, &blockRows, &offsets, &columns, &done));
  if (!done) throw Error("internal: PETSc gave no block rows of a block matrix");
  const std::size_t count = std::size_t(offsets[blockRows]) * std::size_t(bs * bs);
  EIS_CHECK(
      MatRestoreRowIJ(part, 0, PETSC_FALSE, PETSC_TRUE, &blockRows, &offsets, &columns, &done));
  PetscScalar* values;
  EIS_CHECK(MatSeqBAIJGetArray(part, &values));
  single->values.assign(values, values + count);
  EIS_CHECK(MatSeqBAIJRestoreArray(part, &values));
}

}  // namespace eis
