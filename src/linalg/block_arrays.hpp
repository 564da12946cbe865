#pragma once
// What the block products read, shared by the loops of prefetching_block_product.cpp and the
// upper triangle's of upper_triangle_product.cpp. Private to src/linalg.
#include <petscmat.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <vector>

#include "eis/linalg/composed_object.hpp"
#include "eis/linalg/prefetching_block_product.hpp"
#include "eis/linalg/single_blocks.hpp"

namespace eis::block_products {

// The names the read-ahead and the single-precision values are composed with on the sequential
// part they apply to, and the float blocks on the AIJ matrix they replace.
inline constexpr const char* kPrefetchName = "eis_block_prefetch";
inline constexpr const char* kSingleName = "eis_single_values";
inline constexpr const char* kSingleBlocksName = "eis_single_blocks";

// A part's values rounded to float, which its products read instead of the doubles.
struct SingleValues {
  std::vector<float> values;
};

// An upper triangle's values (a part given the triangle's product) held in two halves: its
// values' array of n doubles holds the high 32 bits of each (sign, exponent and the first 20
// bits of the significand) in its first n 32-bit words and the low 32 bits in the next n. The
// exact product joins the halves into the same doubles; while `highOnly` is set the product reads
// the high halves alone, each value cut toward zero to 20 bits of significand (at most 2^-20 of
// it off): half the bytes, for a multigrid's finest smoother, which needs a fixed symmetric
// operator close to the matrix, not the matrix to the last bit.
inline constexpr const char* kSplitName = "eis_split_values";
struct SplitValues {
  bool highOnly = false;
};

inline std::uint64_t bitsOf(double value) {
  std::uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

inline double doubleOf(std::uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

inline PetscErrorCode composedPrefetch(Mat A, BlockPrefetch* how) {
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
  const float* singles = nullptr;  // the values in float, where the part holds them
  const std::uint32_t *high = nullptr, *low = nullptr;  // the halves of a split triangle's
  bool split = false;                                   // values (SplitValues), where it is one
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
    SplitValues* halves = nullptr;
    PetscCall(queryComposed(reinterpret_cast<PetscObject>(A), kSplitName, &halves));
    if (halves) {
      split = true;
      high = reinterpret_cast<const std::uint32_t*>(values);
      low = high + std::size_t(blocks) * BS * BS;
    }
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

// Installs the upper triangle's product, reading ahead with locality L, as the MatMult of `part`
// (a sequential SBAIJ matrix, or a BAIJ one holding an upper triangle), with the read-ahead
// already composed (upper_triangle_product.cpp).
template <int L>
void installUpperTriangleProduct(Mat part);

}  // namespace eis::block_products
