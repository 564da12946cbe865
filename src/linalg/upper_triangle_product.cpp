// The upper triangle's product: the MatMult of a symmetric step matrix's block copy that holds
// only its upper triangle of 3 x 3 blocks (solver.symmetric-blocks), in plain C++ and, where the
// processor has it, in AVX2 registers, both with PETSc's SBAIJ sums in their order.
#include "block_arrays.hpp"

#include <immintrin.h>

#include <algorithm>

#include "eis/core/error.hpp"
#include "eis/linalg/composed_object.hpp"

namespace eis::block_products {

namespace {

// The upper triangle's product as its own -log_view event, inside its MatMult: it reads about
// 2.3 bytes per flop where a whole block matrix reads 4.2, and the benchmark's roofline counts
// the two apart. Registered when the first such product is installed.
PetscLogEvent upperProductEvent = -1;

// What a product by the upper triangle holds from its start to its end: A's arrays, x's and
// z's (z zeroed: each row adds to what the rows above it gave), and the counts its flops are
// logged by, those of the whole matrix's product, as its BAIJ copy would log them.
template <int L>
struct UpperProduct {
  BlockArrays<3, L> b;
  const PetscScalar* xs = nullptr;
  PetscScalar* zs = nullptr;
  PetscInt rowsWithBlocks = 0, diagonalBlocks = 0;

  PetscErrorCode begin(Mat A, Vec x, Vec z) {
    PetscFunctionBeginUser;
    PetscCall(PetscLogEventBegin(upperProductEvent, A, x, z, 0));
    PetscCall(b.get(A));
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
    PetscCall(PetscLogEventEnd(upperProductEvent, A, x, z, 0));
    PetscFunctionReturn(0);
  }
  // Block row i's first block, k, when it is the diagonal one: x's row block into the row's
  // sums z1 to z3, read from its upper entries as PETSc reads it; k and v then past it.
  void diagonal(PetscInt i, PetscInt& k, PetscInt end, const PetscScalar*& v, PetscScalar& z1,
                PetscScalar& z2, PetscScalar& z3) {
    if (k == end || b.columns[k] != i) return;
    const PetscScalar x1 = xs[3 * i], x2 = xs[3 * i + 1], x3 = xs[3 * i + 2];
    z1 += v[0] * x1 + v[3] * x2 + v[6] * x3;
    z2 += v[3] * x1 + v[4] * x2 + v[7] * x3;
    z3 += v[6] * x1 + v[7] * x2 + v[8] * x3;
    b.fetchAhead(v, k);
    v += 9;
    ++k;
    ++diagonalBlocks;
  }
};

// z = A x over a sequential matrix of 3 x 3 blocks holding the upper triangle of a symmetric
// matrix (SBAIJ, or BAIJ for a rank's diagonal part), each block row's diagonal block first:
// each block right of it multiplies x into its own row and, transposed, into its column's. The
// sums of PETSc's MatMult_SeqSBAIJ_3 in their order (a row's own sums added to what the rows
// above it gave), with each block fetched ahead: half the bytes of the whole matrix's product.
template <int L>
PetscErrorCode symmetricProduct(Mat A, Vec x, Vec z) {
  UpperProduct<L> p;
  PetscFunctionBeginUser;
  PetscCall(p.begin(A, x, z));
  const PetscScalar* xs = p.xs;
  PetscScalar* zs = p.zs;
  for (PetscInt i = 0; i < p.b.blockRows; ++i) {
    PetscInt k = p.b.offsets[i];
    const PetscInt end = p.b.offsets[i + 1];
    p.rowsWithBlocks += end > k;
    const PetscScalar* v = p.b.values + 9 * k;
    const PetscScalar x1 = xs[3 * i], x2 = xs[3 * i + 1], x3 = xs[3 * i + 2];
    PetscScalar z1 = zs[3 * i], z2 = zs[3 * i + 1], z3 = zs[3 * i + 2];
    p.diagonal(i, k, end, v, z1, z2, z3);
    for (; k < end; ++k, v += 9) {
      p.b.fetchAhead(v, k);
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
// The same product with each block right of the diagonal in AVX2 registers: its columns loaded
// as vectors and its rows made from them by four shuffles, its transposed product into the
// column's entries and its product into the row's sums in three lanes each, every lane summing
// as symmetricProduct's scalars do, in their order (AVX2 has no fused multiply-add): the same
// bits in about two thirds of the instructions. The scalar loop ran at 18 GB/s on a host whose
// triad gives 28 (docs/performance.md).
template <int L>
__attribute__((target("avx2"))) PetscErrorCode symmetricProductAvx2(Mat A, Vec x, Vec z) {
  UpperProduct<L> p;
  PetscFunctionBeginUser;
  PetscCall(p.begin(A, x, z));
  const PetscScalar* xs = p.xs;
  PetscScalar* zs = p.zs;
  const __m256i firstThree = _mm256_set_epi64x(0, -1, -1, -1);
  for (PetscInt i = 0; i < p.b.blockRows; ++i) {
    PetscInt k = p.b.offsets[i];
    const PetscInt end = p.b.offsets[i + 1];
    p.rowsWithBlocks += end > k;
    const PetscScalar* v = p.b.values + 9 * k;
    PetscScalar z1 = zs[3 * i], z2 = zs[3 * i + 1], z3 = zs[3 * i + 2];
    p.diagonal(i, k, end, v, z1, z2, z3);
    const __m256d x1 = _mm256_set1_pd(xs[3 * i]), x2 = _mm256_set1_pd(xs[3 * i + 1]),
                  x3 = _mm256_set1_pd(xs[3 * i + 2]);
    __m256d sums = _mm256_set_pd(0.0, z3, z2, z1);
    for (; k < end; ++k, v += 9) {
      p.b.fetchAhead(v, k);
      const PetscInt c = 3 * p.b.columns[k];
      // The block's columns (lane 3 of the first two is the next column's first entry, unused).
      const __m256d c0 = _mm256_loadu_pd(v), c1 = _mm256_loadu_pd(v + 3);
      const __m256d c2 = _mm256_maskload_pd(v + 6, firstThree);
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

}  // namespace

template <int L>
void installUpperTriangleProduct(Mat part) {
  if (upperProductEvent < 0)
    EIS_CHECK(PetscLogEventRegister("MatMultUpper", MAT_CLASSID, &upperProductEvent));
#ifdef EIS_UPPER_TRIANGLE_AVX2
  if (__builtin_cpu_supports("avx2")) {
    setOperation(part, MATOP_MULT, symmetricProductAvx2<L>);
    return;
  }
#endif
  setOperation(part, MATOP_MULT, symmetricProduct<L>);
}

template void installUpperTriangleProduct<0>(Mat);
template void installUpperTriangleProduct<1>(Mat);
template void installUpperTriangleProduct<2>(Mat);
template void installUpperTriangleProduct<3>(Mat);

}  // namespace eis::block_products
