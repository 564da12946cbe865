// The block copies' products that fetch the matrix ahead (solver.block-prefetch and its
// locality), on 1, 2 and 3 ranks: A x and y + A x, and for 3 x 3 blocks A^T x and y + A^T x (a
// restriction), give what PETSc's own loops for 3 x 3 and 6 x 6 blocks give, on a square matrix and
// on a rectangular one (an interpolation's shape), whether the blocks it fetches lie in the same
// block row, rows further on or past the matrix's end, and whatever the cache level asked to keep
// them; they are the ones each rank's diagonal part multiplies with; on one rank the upper triangle
// of a symmetric matrix (SBAIJ) gives the whole matrix's product, and an AIJ matrix's float blocks
// alone give a float copy's products; and a distance of 0, or another block size, leaves PETSc's
// loops in place.
#include <gtest/gtest.h>
#include <petscmat.h>
// PetscObjectStateGet, declared here in PETSc 3.18.
#include <petsc/private/petscimpl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "eis/linalg/block_copy.hpp"
#include "eis/linalg/prefetching_block_product.hpp"
#include "mpi_support.hpp"

namespace {

constexpr PetscInt kNodesPerRank = 40;

// A band of nodes with `bs` unknowns each, node i of the rows coupled with the column nodes up to
// three before and after i / `spread` by a full block whose entries differ one from another:
// block rows of up to seven blocks, on several ranks off-diagonal parts on both sides. Spread 1
// gives a square matrix, 2 an interpolation's shape (half as many columns as rows). Symmetric
// (with spread 1): entry (i, j) equals entry (j, i), and the matrix says so.
Mat bandMatrix(PetscInt bs, PetscInt spread = 1, bool symmetric = false) {
  int rank, size;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  const PetscInt columnNodes = kNodesPerRank / spread * size;
  Mat A;
  MatCreateAIJ(PETSC_COMM_WORLD, bs * kNodesPerRank, bs * kNodesPerRank / spread, PETSC_DETERMINE,
               PETSC_DETERMINE, 7 * bs, nullptr, 6 * bs, nullptr, &A);
  MatSetBlockSize(A, bs);
  for (PetscInt node = rank * kNodesPerRank; node < (rank + 1) * kNodesPerRank; ++node) {
    const PetscInt centre = node / spread;
    for (PetscInt other = std::max<PetscInt>(0, centre - 3);
         other <= std::min(columnNodes - 1, centre + 3); ++other)
      for (PetscInt r = 0; r < bs; ++r)
        for (PetscInt c = 0; c < bs; ++c) {
          const PetscInt row = bs * node + r, col = bs * other + c;
          const PetscInt first = symmetric ? std::min(row, col) : row,
                         second = symmetric ? std::max(row, col) : col;
          MatSetValue(A, row, col, std::sin(1.0 + 7.0 * first + 3.0 * second), INSERT_VALUES);
        }
  }
  MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY);
  MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY);
  if (symmetric) {
    MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE);
    MatSetOption(A, MAT_SYMMETRY_ETERNAL, PETSC_TRUE);
  }
  return A;
}

// A vector of v's layout with no two entries alike.
Vec distinctEntries(Vec v, double phase) {
  Vec x;
  VecDuplicate(v, &x);
  PetscInt start, end;
  VecGetOwnershipRange(x, &start, &end);
  for (PetscInt i = start; i < end; ++i) VecSetValue(x, i, std::cos(phase + i), INSERT_VALUES);
  VecAssemblyBegin(x);
  VecAssemblyEnd(x);
  return x;
}

// The largest of |B op - P op|_inf / |P op|_inf over the products op: A x and y + A x, with y
// distinct from the answer and also the answer's own vector (z = z + A x).
double productGap(Mat P, Mat B) {
  Vec columns, rows;
  MatCreateVecs(P, &columns, &rows);
  Vec x = distinctEntries(columns, 0.5), y = distinctEntries(rows, 1.5);
  Vec xt = distinctEntries(rows, 2.5), yt = distinctEntries(columns, 3.5);
  Vec p, b;
  double gap = 0;
  auto compare = [&](Vec like, auto product) {
    VecDuplicate(like, &p);
    VecDuplicate(like, &b);
    product(P, p);
    product(B, b);
    gap = std::max(gap, eis_test::relativeGap(p, b));
    VecDestroy(&p);
    VecDestroy(&b);
  };
  compare(rows, [&](Mat M, Vec out) { MatMult(M, x, out); });
  compare(rows, [&](Mat M, Vec out) { MatMultAdd(M, x, y, out); });
  compare(rows, [&](Mat M, Vec out) {
    VecCopy(y, out);
    MatMultAdd(M, x, out, out);
  });
  compare(columns, [&](Mat M, Vec out) { MatMultTranspose(M, xt, out); });
  compare(columns, [&](Mat M, Vec out) { MatMultTransposeAdd(M, xt, yt, out); });
  compare(columns, [&](Mat M, Vec out) {
    VecCopy(yt, out);
    MatMultTransposeAdd(M, xt, out, out);
  });
  for (Vec v : {columns, rows, x, y, xt, yt}) VecDestroy(&v);
  return gap;
}

// The sequential part whose product a parallel BAIJ product calls: the diagonal part on
// several ranks, the matrix itself on one.
Mat diagonalPart(Mat B) {
  PetscBool parallel;
  PetscObjectTypeCompare(reinterpret_cast<PetscObject>(B), MATMPIBAIJ, &parallel);
  if (!parallel) return B;
  Mat part;
  MatMPIBAIJGetSeqBAIJ(B, &part, nullptr, nullptr);
  return part;
}

using eis_test::Operation;
using eis_test::operationOf;

// For each distance, in blocks of 3 x 3: 1, the next block in the same row (for blocks of 6
// too); 9 and 36, a row or two on; 100,000: past the end; and each locality. A new copy of A in
// `storage`, read that far ahead, gives the products of PETSc's loops over the same storage and
// A's, before and after A's values change; `expectInstalled(copy, petscs)` checks which
// operations the read-ahead took over.
template <class Expectation>
void expectPetscsProductsAtEveryDistance(Mat A, eis::BlockCopy::Storage storage,
                                         Expectation expectInstalled) {
  eis::BlockCopy petscs(storage);
  const Mat reference = petscs.of(A);
  for (int distance : {1, 9, 36, 100000})
    for (int locality : {0, 1, 2, 3}) {
      SCOPED_TRACE("distance " + std::to_string(distance) + ", locality " +
                   std::to_string(locality));
      eis::BlockCopy copy(storage);
      const Mat B = copy.of(A);
      ASSERT_NE(B, A);
      eis::prefetchBlockProducts(B, {distance, locality});
      expectInstalled(B, reference);
      EXPECT_LT(productGap(reference, B), 1e-15);
      // A's own AIJ products sum in another order (its transposed one on several ranks adds the
      // off-diagonal part's share apart): a few roundings.
      EXPECT_LT(productGap(A, B), 1e-14);
      // New values in the same structure, as a re-assembly and the copy write them.
      MatScale(A, -2.0);
      EXPECT_LT(productGap(petscs.of(A), copy.of(A)), 1e-15);
    }
}

TEST(PrefetchingBlockProduct, GivesPetscsProductsWhereverTheBlocksItFetchesLie) {
  for (PetscInt bs : {3, 6})
    for (PetscInt spread : {1, 2}) {
      SCOPED_TRACE("block size " + std::to_string(bs) +
                   (spread == 1 ? ", square" : ", an interpolation's shape"));
      Mat A = bandMatrix(bs, spread);
      expectPetscsProductsAtEveryDistance(
          A, eis::BlockCopy::Storage::Whole, [bs](Mat B, Mat petscs) {
            for (MatOperation operation : {MATOP_MULT, MATOP_MULT_ADD})
              EXPECT_NE(operationOf(diagonalPart(B), operation),
                        operationOf(diagonalPart(petscs), operation));
            // The restriction's loop is the one for 3 x 3 blocks (the finest interpolation's).
            for (MatOperation operation : {MATOP_MULT_TRANSPOSE, MATOP_MULT_TRANSPOSE_ADD})
              EXPECT_EQ(operationOf(diagonalPart(B), operation) ==
                            operationOf(diagonalPart(petscs), operation),
                        bs != 3);
          });
      MatDestroy(&A);
    }
}

// |B x - P x|_inf / |P x|_inf.
double multiplicationGap(Mat P, Mat B) {
  Vec columns, p, b;
  MatCreateVecs(P, &columns, &p);
  VecDuplicate(p, &b);
  Vec x = distinctEntries(columns, 0.5);
  MatMult(P, x, p);
  MatMult(B, x, b);
  const double gap = eis_test::relativeGap(p, b);
  for (Vec* v : {&columns, &p, &b, &x}) VecDestroy(v);
  return gap;
}

// The SBAIJ matrix inside the MatShell a copy of upper triangles hands out on one rank.
Mat upperTriangleOf(Mat shell) {
  Mat copy = nullptr;
  MatShellGetContext(shell, &copy);
  return copy;
}

// The step matrix's copy may hold the upper triangle of a symmetric matrix
// (solver.symmetric-blocks), each value split in its two 32-bit halves: its product, each block
// into its row and transposed into its column's, gives PETSc's SBAIJ product over the same
// triangle to the last bit (its sums in their order, in AVX2 registers where the processor has
// them) and the whole matrix's, wherever the blocks it fetches lie, before and after the values
// change. PETSc's SBAIJ product, the reference (a copy without read-ahead), exists on one rank.
TEST(PrefetchingBlockProduct, TheUpperTriangleOfASymmetricMatrixGivesTheWholeMatrixsProduct) {
  int size;
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  if (size != 1) GTEST_SKIP() << "PETSc multiplies an upper triangle on one rank only";
  Mat A = bandMatrix(3, 1, true);
  eis::BlockCopy petscs(eis::BlockCopy::Storage::Upper, nullptr, {0, 3});
  const Mat reference = petscs.of(A);
  PetscBool sbaij;
  PetscObjectTypeCompare(reinterpret_cast<PetscObject>(reference), MATSEQSBAIJ, &sbaij);
  ASSERT_TRUE(sbaij);
  for (int distance : {1, 9, 36, 100000})
    for (int locality : {0, 1, 2, 3}) {
      SCOPED_TRACE("distance " + std::to_string(distance) + ", locality " +
                   std::to_string(locality));
      eis::BlockCopy copy(eis::BlockCopy::Storage::Upper, nullptr, {distance, locality});
      const Mat B = copy.of(A);
      const Mat triangle = upperTriangleOf(B);
      ASSERT_NE(triangle, nullptr);
      PetscObjectTypeCompare(reinterpret_cast<PetscObject>(triangle), MATSEQSBAIJ, &sbaij);
      EXPECT_TRUE(sbaij);
      EXPECT_NE(operationOf(triangle, MATOP_MULT), operationOf(reference, MATOP_MULT));
      EXPECT_EQ(multiplicationGap(reference, B), 0.0);
      // The shell's other products add or transpose around that one, in PETSc's way for a
      // MatShell: a rounding apart from the SBAIJ matrix's own.
      EXPECT_LT(productGap(reference, B), 1e-15);
      EXPECT_LT(productGap(A, B), 1e-14);
      MatScale(A, -2.0);
      EXPECT_EQ(multiplicationGap(petscs.of(A), copy.of(A)), 0.0);
    }
  MatDestroy(&A);
}

// __builtin_prefetch takes its locality as a constant: each locality installs a loop of its own,
// so the one asked for is the one that runs (and none is lost to a switch inside the loop).
TEST(PrefetchingBlockProduct, EachLocalityInstallsItsOwnLoop) {
  for (PetscInt bs : {3, 6}) {
    SCOPED_TRACE("block size " + std::to_string(bs));
    Mat A = bandMatrix(bs);
    std::vector<Operation> installed;
    for (int locality : {0, 1, 2, 3}) {
      eis::BlockCopy copy;
      const Mat B = copy.of(A);
      eis::prefetchBlockProducts(B, {128, locality});
      for (MatOperation operation : {MATOP_MULT, MATOP_MULT_ADD}) {
        const Operation op = operationOf(diagonalPart(B), operation);
        EXPECT_EQ(std::count(installed.begin(), installed.end(), op), 0)
            << "locality " << locality << " reuses another locality's loop";
        installed.push_back(op);
      }
    }
    MatDestroy(&A);
  }
}

// A with the entries of each rank's diagonal part (the columns it owns) as `cut` makes them, its
// off-diagonal part as it is.
Mat withDiagonalPart(Mat A, double (*cut)(double)) {
  Mat rounded;
  MatDuplicate(A, MAT_COPY_VALUES, &rounded);
  PetscInt first, end, columnFirst, columnEnd;
  MatGetOwnershipRange(A, &first, &end);
  MatGetOwnershipRangeColumn(A, &columnFirst, &columnEnd);
  for (PetscInt row = first; row < end; ++row) {
    PetscInt n;
    const PetscInt* columns;
    const PetscScalar* values;
    MatGetRow(A, row, &n, &columns, &values);
    std::vector<PetscInt> own;
    std::vector<PetscScalar> roundedValues;
    for (PetscInt k = 0; k < n; ++k)
      if (columns[k] >= columnFirst && columns[k] < columnEnd) {
        own.push_back(columns[k]);
        roundedValues.push_back(cut(values[k]));
      }
    MatRestoreRow(A, row, &n, &columns, &values);
    MatSetValues(rounded, 1, &row, PetscInt(own.size()), own.data(), roundedValues.data(),
                 INSERT_VALUES);
  }
  MatAssemblyBegin(rounded, MAT_FINAL_ASSEMBLY);
  MatAssemblyEnd(rounded, MAT_FINAL_ASSEMBLY);
  return rounded;
}

// A's diagonal parts rounded to float: what a copy with single values multiplies by, its
// off-diagonal part staying PETSc's, in double.
Mat roundedDiagonalPart(Mat A) {
  return withDiagonalPart(A, [](double value) { return double(float(value)); });
}

// A's diagonal parts cut to the high 32 bits of each double (sign, exponent, 20 bits of
// significand): what the high halves of an upper triangle's values multiply by.
Mat highHalvesOfDiagonalPart(Mat A) {
  return withDiagonalPart(A, [](double value) {
    std::uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    bits &= ~std::uint64_t(0xffffffff);
    std::memcpy(&value, &bits, sizeof value);
    return value;
  });
}

// A multigrid's finest smoother may multiply by the high halves of the upper triangle's values
// alone (BlockCopy::highHalvesOf, on 1 to 3 ranks): the products of the matrix whose diagonal
// parts' values are cut to 20 bits of significand, the off-diagonal parts' exact, before and
// after the values change; at most 2^-20 of each value from A's. A copy without a read-ahead (no
// split values) offers its exact products alone.
TEST(PrefetchingBlockProduct, TheHighHalvesMultiplyAsTheMatrixCutTo20Bits) {
  Mat A = bandMatrix(3, 1, true);
  Mat cut = highHalvesOfDiagonalPart(A);
  eis::BlockCopy copy(eis::BlockCopy::Storage::Upper);
  const Mat exact = copy.of(A), high = copy.highHalvesOf(A);
  ASSERT_NE(high, exact);
  EXPECT_LT(productGap(cut, high), 1e-14);
  const double gap = productGap(A, high);
  EXPECT_GT(gap, 1e-9);
  EXPECT_LT(gap, 1e-5);
  EXPECT_LT(productGap(A, exact), 1e-14) << "the exact products stay the matrix's";
  MatScale(A, -2.0);
  MatScale(cut, -2.0);
  EXPECT_EQ(copy.highHalvesOf(A), high);
  EXPECT_LT(productGap(cut, high), 1e-14);
  Vec expected, diagonal;
  MatCreateVecs(A, &expected, &diagonal);
  MatGetDiagonal(A, expected);
  MatGetDiagonal(high, diagonal);
  EXPECT_EQ(eis_test::relativeGap(expected, diagonal), 0.0) << "Jacobi reads the exact diagonal";
  VecDestroy(&expected);
  VecDestroy(&diagonal);
  eis::BlockCopy whole(eis::BlockCopy::Storage::Upper, nullptr, {0, 3});
  EXPECT_EQ(whole.highHalvesOf(A), whole.of(A));
  MatDestroy(&cut);
  MatDestroy(&A);
}

// With single values (solver.single-precision-levels) a copy's products, A x, y + A x, A^T x
// and y + A^T x, for blocks of 3 and 6, square and an interpolation's shape, are those of the
// matrix rounded to float on each rank's diagonal part, after its values change too; and they
// differ from A's by the rounding.
TEST(PrefetchingBlockProduct, SingleValuesMultiplyAsTheMatrixRoundedToFloat) {
  for (PetscInt bs : {3, 6})
    for (PetscInt spread : {1, 2}) {
      SCOPED_TRACE("block size " + std::to_string(bs) +
                   (spread == 1 ? ", square" : ", an interpolation's shape"));
      Mat A = bandMatrix(bs, spread);
      Mat rounded = roundedDiagonalPart(A);
      eis::BlockCopy copy;
      const Mat B = copy.of(A);
      eis::prefetchBlockProducts(B, {128, 3}, true);
      EXPECT_LT(productGap(rounded, B), 1e-14);
      EXPECT_GT(productGap(A, B), 1e-10);
      MatScale(A, -2.0);
      MatScale(rounded, -2.0);
      EXPECT_LT(productGap(rounded, copy.of(A)), 1e-14);
      MatDestroy(&rounded);
      MatDestroy(&A);
    }
}

// `check` run on each band shape (3 x 3 and 6 x 6 blocks, square and an interpolation's shape)
// with the band matrix A and a duplicate D of it, both destroyed after.
void forEachBand(const std::function<void(Mat A, Mat D, PetscInt spread)>& check) {
  for (PetscInt bs : {3, 6})
    for (PetscInt spread : {1, 2}) {
      SCOPED_TRACE("block size " + std::to_string(bs) +
                   (spread == 1 ? ", square" : ", an interpolation's shape"));
      Mat A = bandMatrix(bs, spread), D;
      MatDuplicate(A, MAT_COPY_VALUES, &D);
      check(A, D, spread);
      MatDestroy(&D);
      MatDestroy(&A);
    }
}

// On one rank an AIJ matrix of full blocks multiplies by its float blocks alone
// (prefetchSingleBlockProducts): its four products are those of the matrix rounded to float, the
// very sums of a BAIJ copy with single values (the same bits), after its values change too. On
// several ranks, and for a matrix not made of full blocks, nothing changes.
TEST(PrefetchingBlockProduct, FloatBlocksAloneMultiplyAsTheBlockCopyWithSingleValues) {
  int size;
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  forEachBand([size](Mat A, Mat D, PetscInt) {
    const eis_test::Operation petscs = operationOf(D, MATOP_MULT);
    const bool made = eis::prefetchSingleBlockProducts(D, {128, 3});
    EXPECT_EQ(made, size == 1);
    if (!made) {
      EXPECT_EQ(operationOf(D, MATOP_MULT), petscs);
      EXPECT_EQ(productGap(A, D), 0.0);
      return;
    }
    Mat rounded = roundedDiagonalPart(A);
    eis::BlockCopy copy;
    eis::prefetchBlockProducts(copy.of(A), {128, 3}, true);
    EXPECT_EQ(productGap(copy.of(A), D), 0.0);
    EXPECT_LT(productGap(rounded, D), 1e-14);
    EXPECT_GT(productGap(A, D), 1e-10);
    EXPECT_TRUE(eis::prefetchSingleBlockProducts(D, {128, 3}));
    MatScale(D, -2.0);
    MatScale(rounded, -2.0);
    EXPECT_LT(productGap(rounded, D), 1e-14);
    MatDestroy(&rounded);
  });
  Mat A = bandMatrix(3);
  PetscInt first;
  MatGetOwnershipRange(A, &first, nullptr);
  MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE);
  MatSetValue(A, first + 1, first + 15, 1.0, INSERT_VALUES);
  MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY);
  MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY);
  EXPECT_FALSE(eis::prefetchSingleBlockProducts(A, {128, 3}));
  MatDestroy(&A);
}

// Released (releaseAijStorage), an AIJ matrix multiplied by its float blocks alone keeps its
// four products to the last bit, its diagonal and PETSc's object state, and holds no nonzeros of
// its own; only once. Changed afterwards, its next product fails rather than multiply by values
// it no longer has. A matrix without float blocks (several ranks) is left as it is.
TEST(PrefetchingBlockProduct, AReleasedMatrixMultipliesAsBeforeWithNoStorageOfItsOwn) {
  forEachBand([](Mat A, Mat D, PetscInt spread) {
    MatInfo info;
    if (!eis::prefetchSingleBlockProducts(D, {128, 3})) {
      EXPECT_FALSE(eis::releaseAijStorage(D));
      MatGetInfo(D, MAT_LOCAL, &info);
      EXPECT_GT(info.nz_used, 0.0);
      return;
    }
    eis::BlockCopy copy;
    eis::prefetchBlockProducts(copy.of(A), {128, 3}, true);
    Vec diagonal = nullptr, after = nullptr;
    if (spread == 1) {
      MatCreateVecs(D, &diagonal, nullptr);
      VecDuplicate(diagonal, &after);
      MatGetDiagonal(D, diagonal);
    }
    PetscObjectState before, released;
    PetscObjectStateGet(reinterpret_cast<PetscObject>(D), &before);
    EXPECT_TRUE(eis::releaseAijStorage(D));
    PetscObjectStateGet(reinterpret_cast<PetscObject>(D), &released);
    EXPECT_EQ(released, before);
    MatGetInfo(D, MAT_LOCAL, &info);
    EXPECT_EQ(info.nz_used, 0.0);
    EXPECT_EQ(productGap(copy.of(A), D), 0.0);
    if (diagonal) {
      MatGetDiagonal(D, after);
      PetscBool same = PETSC_FALSE;
      VecEqual(diagonal, after, &same);
      EXPECT_TRUE(same);
    }
    EXPECT_FALSE(eis::releaseAijStorage(D));
    MatScale(D, 2.0);
    Vec x, y;
    MatCreateVecs(D, &x, &y);
    VecSet(x, 1.0);
    PetscPushErrorHandler(PetscReturnErrorHandler, nullptr);
    EXPECT_NE(MatMult(D, x, y), 0);
    PetscPopErrorHandler();
    for (Vec* v : {&x, &y, &diagonal, &after}) VecDestroy(v);
  });
}

TEST(PrefetchingBlockProduct, DistanceZeroAndOtherBlockSizesKeepPetscsLoop) {
  for (PetscInt bs : {3, 2}) {
    SCOPED_TRACE("block size " + std::to_string(bs));
    Mat A = bandMatrix(bs);
    eis::BlockCopy petscs, copy;
    const Mat reference = petscs.of(A), B = copy.of(A);
    ASSERT_NE(B, A);
    eis::prefetchBlockProducts(B, {bs == 3 ? 0 : 128, 3});
    EXPECT_EQ(operationOf(diagonalPart(B), MATOP_MULT),
              operationOf(diagonalPart(reference), MATOP_MULT));
    EXPECT_LT(productGap(reference, B), 1e-15);
    MatDestroy(&A);
  }
}

}  // namespace
