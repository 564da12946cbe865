#include "eis/linalg/prefetching_block_product.hpp"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <memory>
#include <vector>

#include "eis/core/error.hpp"
#include "eis/core/vector_clones.hpp"
#include "eis/linalg/composed_object.hpp"
#include "eis/linalg/single_blocks.hpp"

namespace eis {

namespace {

// The names the read-ahead and the single-precision values are composed with on the sequential
// part they apply to, and the float blocks on the AIJ matrix they replace.
constexpr const char* kPrefetchName = "eis_block_prefetch";
constexpr const char* kSingleName = "eis_single_values";
constexpr const char* kSingleBlocksName = "eis_single_blocks";

// A part's values rounded to float, which its products read instead of the doubles.
struct SingleValues {
  std::vector<float> values;
};

// The upper triangle's product as its own -log_view event, inside its MatMult: it reads about
// 2.3 bytes per flop where a whole block matrix reads 4.2, and the benchmark's roofline counts
// the two apart. Registered when the first such product is installed.
PetscLogEvent upperProductEvent = -1;

PetscErrorCode composedPrefetch(Mat A, BlockPrefetch* how) {
  BlockPrefetch* composed = nullptr;
  PetscFunctionBeginUser;
  PetscCall(queryComposed(reinterpret_cast<PetscObject>(A), kPrefetchName, &composed));
  PetscCheck(composed, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "a prefetching product lost its read-ahead");
  *how = *composed;
  PetscFunctionReturn(0);
}

// A sequential BAIJ matrix's arrays for one product, and how far ahead of a block to fetch, with
// locality L: the distance counts 3 x 3 blocks (72 bytes), so larger blocks are fetched as many
// bytes ahead. The addresses fetched are integers: they may lie past the arrays, where a pointer
// may not point; a prefetch of any address does not fault. L is a template argument because
// __builtin_prefetch takes a constant, and a switch over the four kept in the loop made GCC 12
// drop every prefetch of it.
template <int BS, int L>
struct BlockArrays {
  PetscInt blockRows = 0, blocks = 0;
  const PetscInt *offsets = nullptr, *columns = nullptr;
  PetscScalar* values = nullptr;
  const float* singles = nullptr;       // the values in float, where the part holds them
  SingleBlocks* floatBlocks = nullptr;  // A's float blocks, when A is an AIJ matrix that has them
  std::uintptr_t aheadBlocks = 0, indexAhead = 0;
  bool sbaij = false;  // an SBAIJ matrix: its arrays are PETSc's SBAIJ ones

  // Fetches the cache lines of the block `distance` after block k (values v, of type T) and its
  // column index.
  template <class T>
  void fetchAhead(const T* v, PetscInt k) const {
    constexpr std::uintptr_t kBlockBytes = BS * BS * sizeof(T);
    const std::uintptr_t block = reinterpret_cast<std::uintptr_t>(v) + aheadBlocks * kBlockBytes;
    for (std::uintptr_t line = 0; line < kBlockBytes; line += 64)
      __builtin_prefetch(reinterpret_cast<const void*>(block + line), 0, L);
    __builtin_prefetch(
        reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(columns + k) + indexAhead),
        0, L);
  }

  // A's arrays: those of its float blocks where it has them (an AIJ matrix, SingleBlocks, their
  // values rounded again first if A's changed), else those of the BAIJ or SBAIJ matrix A.
  PetscErrorCode get(Mat A) {
    BlockPrefetch how;
    PetscBool done, isSbaij;
    PetscFunctionBeginUser;
    PetscCall(composedPrefetch(A, &how));
    aheadBlocks = std::max<std::uintptr_t>(1, std::uintptr_t(how.distance) * 9 / (BS * BS));
    indexAhead = aheadBlocks * sizeof(PetscInt);
    PetscCall(queryComposed(reinterpret_cast<PetscObject>(A), kSingleBlocksName, &floatBlocks));
    if (floatBlocks) {
      try {
        floatBlocks->update(A);
      } catch (const std::exception& e) {
        SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "%s", e.what());
      }
      blockRows = floatBlocks->blockRows();
      offsets = floatBlocks->offsets();
      columns = floatBlocks->columns();
      blocks = offsets[blockRows];
      singles = floatBlocks->values();
      PetscFunctionReturn(0);
    }
    PetscCall(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(A), MATSEQSBAIJ, &isSbaij));
    sbaij = isSbaij;
    PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_TRUE, &blockRows, &offsets, &columns, &done));
    PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PETSc gave no block rows of a block matrix");
    blocks = offsets[blockRows];
    if (sbaij)
      PetscCall(MatSeqSBAIJGetArray(A, &values));
    else
      PetscCall(MatSeqBAIJGetArray(A, &values));
    SingleValues* single = nullptr;
    PetscCall(queryComposed(reinterpret_cast<PetscObject>(A), kSingleName, &single));
    if (single) singles = single->values.data();
    PetscFunctionReturn(0);
  }

  PetscErrorCode restore(Mat A) {
    PetscBool done;
    PetscFunctionBeginUser;
    if (floatBlocks) PetscFunctionReturn(0);
    if (sbaij)
      PetscCall(MatSeqSBAIJRestoreArray(A, &values));
    else
      PetscCall(MatSeqBAIJRestoreArray(A, &values));
    PetscCall(
        MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_TRUE, &blockRows, &offsets, &columns, &done));
    PetscFunctionReturn(0);
  }
};

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

// z = A x over a sequential SBAIJ matrix of 3 x 3 blocks, the upper triangle of a symmetric
// matrix, each block row's diagonal block first: each block below that multiplies x into its own
// row and, transposed, into its column's. The sums of PETSc's MatMult_SeqSBAIJ_3 in their order
// (the diagonal block read from its upper entries, as PETSc reads it; a row's own sums added to
// what the rows above it gave), with each block fetched ahead: half the bytes of the whole
// matrix's product.
template <int L>
EIS_TEMPLATE_VECTOR_CLONES PetscErrorCode symmetricProduct(Mat A, Vec x, Vec z) {
  BlockArrays<3, L> b;
  const PetscScalar* xs;
  PetscScalar* zs;
  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(upperProductEvent, A, x, z, 0));
  PetscCall(b.get(A));
  PetscCall(VecGetArrayRead(x, &xs));
  PetscCall(VecGetArrayWrite(z, &zs));
  std::fill(zs, zs + 3 * b.blockRows, 0.0);
  PetscInt rowsWithBlocks = 0, diagonalBlocks = 0;
  for (PetscInt i = 0; i < b.blockRows; ++i) {
    PetscInt k = b.offsets[i];
    const PetscInt end = b.offsets[i + 1];
    rowsWithBlocks += end > k;
    const PetscScalar* v = b.values + 9 * k;
    const PetscScalar x1 = xs[3 * i], x2 = xs[3 * i + 1], x3 = xs[3 * i + 2];
    PetscScalar z1 = zs[3 * i], z2 = zs[3 * i + 1], z3 = zs[3 * i + 2];
    if (k < end && b.columns[k] == i) {
      z1 += v[0] * x1 + v[3] * x2 + v[6] * x3;
      z2 += v[3] * x1 + v[4] * x2 + v[7] * x3;
      z3 += v[6] * x1 + v[7] * x2 + v[8] * x3;
      b.fetchAhead(v, k);
      v += 9;
      ++k;
      ++diagonalBlocks;
    }
    for (; k < end; ++k, v += 9) {
      b.fetchAhead(v, k);
      const PetscInt c = 3 * b.columns[k];
      zs[c] += v[0] * x1 + v[1] * x2 + v[2] * x3;
      zs[c + 1] += v[3] * x1 + v[4] * x2 + v[5] * x3;
      zs[c + 2] += v[6] * x1 + v[7] * x2 + v[8] * x3;
      z1 += v[0] * xs[c] + v[3] * xs[c + 1] + v[6] * xs[c + 2];
      z2 += v[1] * xs[c] + v[4] * xs[c + 1] + v[7] * xs[c + 2];
      z3 += v[2] * xs[c] + v[5] * xs[c + 1] + v[8] * xs[c + 2];
    }
    zs[3 * i] = z1;
    zs[3 * i + 1] = z2;
    zs[3 * i + 2] = z3;
  }
  PetscCall(VecRestoreArrayWrite(z, &zs));
  PetscCall(VecRestoreArrayRead(x, &xs));
  PetscCall(b.restore(A));
  // The flops of the whole matrix's product, as its BAIJ copy would log them.
  PetscCall(
      PetscLogFlops(18.0 * double(2 * b.blocks - diagonalBlocks) - 3.0 * double(rowsWithBlocks)));
  PetscCall(PetscLogEventEnd(upperProductEvent, A, x, z, 0));
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
    if (upperProductEvent < 0)
      EIS_CHECK(PetscLogEventRegister("MatMultUpper", MAT_CLASSID, &upperProductEvent));
    setOperation(part, MATOP_MULT, symmetricProduct<L>);
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
  PetscBool sequential, upper;
  EIS_CHECK(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(part), MATSEQBAIJ, &sequential));
  EIS_CHECK(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(part), MATSEQSBAIJ, &upper));
  if (!sequential && !(upper && bs == 3)) return;
  const bool single = singleValues && !upper;
  if (single) {
    composeOwned(reinterpret_cast<PetscObject>(part), kSingleName,
                 std::make_unique<SingleValues>());
    refreshSingleValues(part);
  }
  install(part, how, bs, upper, single);
}

void multiplyAsUpperTriangle(Mat part, BlockPrefetch how) {
  PetscInt bs;
  PetscBool sequential;
  EIS_CHECK(MatGetBlockSize(part, &bs));
  EIS_CHECK(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(part), MATSEQBAIJ, &sequential));
  if (bs != 3 || !sequential || how.distance <= 0)
    throw Error(
        "internal: an upper triangle's product needs a sequential BAIJ matrix of 3 x 3 "
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
