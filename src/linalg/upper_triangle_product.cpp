// The upper triangle's product: the MatMult of a symmetric step matrix's block copy that holds
// only its upper triangle of 3 x 3 blocks (solver.symmetric-blocks), its values split in halves
// (block_arrays.hpp, SplitValues), in plain C++ and, where the processor has it, in AVX2
// registers, both with PETSc's SBAIJ sums in their order; and the same from the high halves
// alone, a smoother's.
#include "block_arrays.hpp"

#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <memory>

#include "eis/core/error.hpp"
#include "eis/linalg/composed_object.hpp"

namespace eis::block_products {

namespace {

// The upper triangle's product as its own -log_view event, inside its MatMult: it reads about
// 2.3 bytes per flop where a whole block matrix reads 4.2, and the benchmark's roofline counts
// the two apart. Registered when the first such product is installed.
PetscLogEvent upperProductEvent = -1;
// The product from the high halves alone, a smoother's, apart: it reads half the matrix's bytes.
PetscLogEvent highHalvesEvent = -1;

// A block's values as a product reads them from the triangle's halves (SplitValues): joined
// into the doubles they are, or, for a smoother's product, the high halves alone.
template <bool HighOnly>
struct SplitBlocks {
  const std::uint32_t *high = nullptr, *low = nullptr;

  double operator[](std::size_t k) const {
    const std::uint64_t top = std::uint64_t(high[k]) << 32;
    return doubleOf(HighOnly ? top : top | low[k]);
  }
  void block(std::size_t k, double v[9]) const {
    for (int j = 0; j < 9; ++j) v[j] = (*this)[k + j];
  }
};

// What a product by the upper triangle holds from its start to its end: A's arrays, x's and
// z's, and the counts its flops are logged by, those of the whole matrix's product, as its BAIJ
// copy would log them (z zeroed: each row adds to what the rows above it gave).
template <int L, bool HighOnly>
struct UpperProduct {
  BlockArrays<3, L> b;
  SplitBlocks<HighOnly> values;
  const PetscScalar* xs = nullptr;
  PetscScalar* zs = nullptr;
  PetscInt rowsWithBlocks = 0, diagonalBlocks = 0;

  PetscErrorCode begin(Mat A, Vec x, Vec z) {
    PetscFunctionBeginUser;
    PetscCall(PetscLogEventBegin(HighOnly ? highHalvesEvent : upperProductEvent, A, x, z, 0));
    PetscCall(b.get(A));
    PetscCheck(b.split, PETSC_COMM_SELF, PETSC_ERR_PLIB, "an upper triangle lost its split values");
    values.high = b.high;
    values.low = b.low;
    PetscCall(VecGetArrayRead(x, &xs));
    PetscCall(VecGetArrayWrite(z, &zs));
    std::fill(zs, zs + 3 * b.blockRows, 0.0);
    PetscFunctionReturn(0);
  }
  PetscErrorCode end(Mat A, Vec x, Vec z) {
    PetscFunctionBeginUser;
    PetscCall(VecRestoreArrayWrite(z, &zs));
    PetscCall(VecRestoreArrayRead(x, &xs));
    PetscCall(b.restore(A));
    PetscCall(
        PetscLogFlops(18.0 * double(2 * b.blocks - diagonalBlocks) - 3.0 * double(rowsWithBlocks)));
    PetscCall(PetscLogEventEnd(HighOnly ? highHalvesEvent : upperProductEvent, A, x, z, 0));
    PetscFunctionReturn(0);
  }
  // The halves block k's read-ahead fetches: the high ones, and the low ones when they are read.
  void fetchAhead(PetscInt k) const {
    b.fetchAhead(values.high + 9 * std::size_t(k), k);
    if (!HighOnly) b.fetchAhead(values.low + 9 * std::size_t(k), k);
  }
  // Block row i's first block, k, when it is the diagonal one: x's row block into the row's
  // sums z1 to z3, read from its upper entries as PETSc reads it; k then past it.
  void diagonal(PetscInt i, PetscInt& k, PetscInt end, PetscScalar& z1, PetscScalar& z2,
                PetscScalar& z3) {
    if (k == end || b.columns[k] != i) return;
    double v[9];
    values.block(9 * std::size_t(k), v);
    const PetscScalar x1 = xs[3 * i], x2 = xs[3 * i + 1], x3 = xs[3 * i + 2];
    z1 += v[0] * x1 + v[3] * x2 + v[6] * x3;
    z2 += v[3] * x1 + v[4] * x2 + v[7] * x3;
    z3 += v[6] * x1 + v[7] * x2 + v[8] * x3;
    fetchAhead(k);
    ++k;
    ++diagonalBlocks;
  }
};

// z = A x over a sequential matrix of 3 x 3 blocks holding the upper triangle of a symmetric
// matrix (SBAIJ, or BAIJ for a rank's diagonal part), each block row's diagonal block first:
// each block right of it multiplies x into its own row and, transposed, into its column's. The
// sums of PETSc's MatMult_SeqSBAIJ_3 in their order (a row's own sums added to what the rows
// above it gave), with each block fetched ahead: half the bytes of the whole matrix's product.
template <int L, bool HighOnly>
PetscErrorCode symmetricProduct(Mat A, Vec x, Vec z) {
  UpperProduct<L, HighOnly> p;
  PetscFunctionBeginUser;
  PetscCall(p.begin(A, x, z));
  const PetscScalar* xs = p.xs;
  PetscScalar* zs = p.zs;
  for (PetscInt i = 0; i < p.b.blockRows; ++i) {
    PetscInt k = p.b.offsets[i];
    const PetscInt end = p.b.offsets[i + 1];
    p.rowsWithBlocks += end > k;
    const PetscScalar x1 = xs[3 * i], x2 = xs[3 * i + 1], x3 = xs[3 * i + 2];
    PetscScalar z1 = zs[3 * i], z2 = zs[3 * i + 1], z3 = zs[3 * i + 2];
    p.diagonal(i, k, end, z1, z2, z3);
    for (; k < end; ++k) {
      p.fetchAhead(k);
      double v[9];
      p.values.block(9 * std::size_t(k), v);
      const PetscInt c = 3 * p.b.columns[k];
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
  PetscCall(p.end(A, x, z));
  PetscFunctionReturn(0);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define EIS_UPPER_TRIANGLE_AVX2 1
// Four of a half's 32-bit words from `at` (three, the fourth zero, with Three).
template <bool Three>
__attribute__((target("avx2"))) inline __m128i halves(const std::uint32_t* at) {
  const auto* words = reinterpret_cast<const int*>(at);
  return Three ? _mm_maskload_epi32(words, _mm_set_epi32(0, -1, -1, -1))
               : _mm_loadu_si128(reinterpret_cast<const __m128i*>(words));
}

// Four values from k as doubles (three, the fourth lane zero, with Three): the high halves
// widened and shifted up with HighOnly, else each low half paired with its high half (the
// interleaving took 11.4 ms a product at 1e6 unknowns where widening both and joining them took
// 11.8 to 12.8).
template <bool HighOnly, bool Three = false>
__attribute__((target("avx2"))) inline __m256d splitLoad(const SplitBlocks<HighOnly>& values,
                                                         std::size_t k) {
  const __m128i high = halves<Three>(values.high + k);
  if (HighOnly) return _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_cvtepu32_epi64(high), 32));
  const __m128i low = halves<Three>(values.low + k);
  return _mm256_castsi256_pd(
      _mm256_set_m128i(_mm_unpackhi_epi32(low, high), _mm_unpacklo_epi32(low, high)));
}

// The same product with each block right of the diagonal in AVX2 registers: its columns loaded
// as vectors and its rows made from them by four shuffles, its transposed product into the
// column's entries and its product into the row's sums in three lanes each, every lane summing
// as symmetricProduct's scalars do, in their order (AVX2 has no fused multiply-add): the same
// bits in about two thirds of the instructions. The scalar loop ran at 18 GB/s on a host whose
// triad gives 28 (docs/performance.md).
template <int L, bool HighOnly>
__attribute__((target("avx2"))) PetscErrorCode symmetricProductAvx2(Mat A, Vec x, Vec z) {
  UpperProduct<L, HighOnly> p;
  PetscFunctionBeginUser;
  PetscCall(p.begin(A, x, z));
  const PetscScalar* xs = p.xs;
  PetscScalar* zs = p.zs;
  for (PetscInt i = 0; i < p.b.blockRows; ++i) {
    PetscInt k = p.b.offsets[i];
    const PetscInt end = p.b.offsets[i + 1];
    p.rowsWithBlocks += end > k;
    PetscScalar z1 = zs[3 * i], z2 = zs[3 * i + 1], z3 = zs[3 * i + 2];
    p.diagonal(i, k, end, z1, z2, z3);
    const __m256d x1 = _mm256_set1_pd(xs[3 * i]), x2 = _mm256_set1_pd(xs[3 * i + 1]),
                  x3 = _mm256_set1_pd(xs[3 * i + 2]);
    __m256d sums = _mm256_set_pd(0.0, z3, z2, z1);
    for (; k < end; ++k) {
      p.fetchAhead(k);
      const PetscInt c = 3 * p.b.columns[k];
      // The block's columns (lane 3 of the first two is the next column's first entry, unused).
      const std::size_t at = 9 * std::size_t(k);
      const __m256d c0 = splitLoad(p.values, at), c1 = splitLoad(p.values, at + 3);
      const __m256d c2 = splitLoad<HighOnly, true>(p.values, at + 6);
      // Its rows: [v0 v3 v6], [v1 v4 v7], [v2 v5 v8].
      const __m256d low = _mm256_unpacklo_pd(c0, c1), high = _mm256_unpackhi_pd(c0, c1);
      const __m128d c2low = _mm256_castpd256_pd128(c2);
      const __m256d r0 = _mm256_insertf128_pd(low, c2low, 1);
      const __m256d r1 = _mm256_insertf128_pd(high, _mm_permute_pd(c2low, 1), 1);
      const __m256d r2 = _mm256_permute2f128_pd(low, c2, 0x31);
      // Transposed into the column's entries: zs[c + j] += v[3j] x1 + v[3j+1] x2 + v[3j+2] x3.
      const __m256d column = _mm256_add_pd(
          _mm256_add_pd(_mm256_mul_pd(r0, x1), _mm256_mul_pd(r1, x2)), _mm256_mul_pd(r2, x3));
      _mm_storeu_pd(zs + c, _mm_add_pd(_mm_loadu_pd(zs + c), _mm256_castpd256_pd128(column)));
      _mm_store_sd(zs + c + 2,
                   _mm_add_sd(_mm_load_sd(zs + c + 2), _mm256_extractf128_pd(column, 1)));
      // Into the row's sums: z_r += v[r] x_c + v[3+r] x_c+1 + v[6+r] x_c+2.
      const __m256d row =
          _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(c0, _mm256_broadcast_sd(xs + c)),
                                      _mm256_mul_pd(c1, _mm256_broadcast_sd(xs + c + 1))),
                        _mm256_mul_pd(c2, _mm256_broadcast_sd(xs + c + 2)));
      sums = _mm256_add_pd(sums, row);
    }
    alignas(32) double lanes[4];
    _mm256_store_pd(lanes, sums);
    zs[3 * i] = lanes[0];
    zs[3 * i + 1] = lanes[1];
    zs[3 * i + 2] = lanes[2];
  }
  PetscCall(p.end(A, x, z));
  PetscFunctionReturn(0);
}
#endif

// The triangle's product, exact or from the high halves as its SplitValues say, in AVX2
// registers where the processor has them.
template <int L>
PetscErrorCode splitProduct(Mat A, Vec x, Vec z) {
  SplitValues* split = nullptr;
  PetscFunctionBeginUser;
  PetscCall(queryComposed(reinterpret_cast<PetscObject>(A), kSplitName, &split));
  PetscCheck(split, PETSC_COMM_SELF, PETSC_ERR_PLIB, "an upper triangle lost its split values");
#ifdef EIS_UPPER_TRIANGLE_AVX2
  if (__builtin_cpu_supports("avx2")) {
    PetscCall(split->highOnly ? symmetricProductAvx2<L, true>(A, x, z)
                              : symmetricProductAvx2<L, false>(A, x, z));
    PetscFunctionReturn(0);
  }
#endif
  PetscCall(split->highOnly ? symmetricProduct<L, true>(A, x, z)
                            : symmetricProduct<L, false>(A, x, z));
  PetscFunctionReturn(0);
}

// The triangle's diagonal, from its diagonal blocks' joined halves; PETSc's would read the
// halves as doubles.
PetscErrorCode splitDiagonal(Mat A, Vec d) {
  BlockArrays<3, 3> b;
  PetscScalar* ds;
  PetscFunctionBeginUser;
  PetscCall(b.get(A));
  PetscCheck(b.split, PETSC_COMM_SELF, PETSC_ERR_PLIB, "an upper triangle lost its split values");
  const SplitBlocks<false> values{b.high, b.low};
  PetscCall(VecGetArrayWrite(d, &ds));
  for (PetscInt i = 0; i < b.blockRows; ++i) {
    const PetscInt k = b.offsets[i];
    const bool diagonal = k < b.offsets[i + 1] && b.columns[k] == i;
    for (int j = 0; j < 3; ++j) ds[3 * i + j] = diagonal ? values[9 * std::size_t(k) + 4 * j] : 0;
  }
  PetscCall(VecRestoreArrayWrite(d, &ds));
  PetscCall(b.restore(A));
  PetscFunctionReturn(0);
}

}  // namespace

template <int L>
void installUpperTriangleProduct(Mat part) {
  if (upperProductEvent < 0) {
    EIS_CHECK(PetscLogEventRegister("MatMultUpper", MAT_CLASSID, &upperProductEvent));
    EIS_CHECK(PetscLogEventRegister("MatMultUpperHigh", MAT_CLASSID, &highHalvesEvent));
  }
  composeOwned(reinterpret_cast<PetscObject>(part), kSplitName, std::make_unique<SplitValues>());
  setOperation(part, MATOP_MULT, splitProduct<L>);
  setOperation(part, MATOP_GET_DIAGONAL, splitDiagonal);
}

template void installUpperTriangleProduct<0>(Mat);
template void installUpperTriangleProduct<1>(Mat);
template void installUpperTriangleProduct<2>(Mat);
template void installUpperTriangleProduct<3>(Mat);

}  // namespace eis::block_products
