// The block copy's product that fetches the matrix ahead (solver.block-prefetch), on 1, 2 and
// 3 ranks: it gives the product PETSc's own 3 x 3-block loop gives, whether the blocks it
// fetches lie in the same block row, rows further on or past the matrix's end; it is the one
// each rank's diagonal part multiplies with; and a distance of 0, or another block size, leaves
// PETSc's loop in place.
#include <gtest/gtest.h>
#include <petscmat.h>

#include <algorithm>
#include <cmath>

#include "eis/linalg/block_copy.hpp"
#include "eis/linalg/prefetching_block_product.hpp"
#include "mpi_support.hpp"

namespace {

constexpr PetscInt kNodesPerRank = 40;

// A band of nodes with `bs` unknowns each, every node coupled with the nodes up to three before
// and after it by a full block whose entries differ one from another: block rows of up to seven
// blocks, and on several ranks off-diagonal parts on both sides.
Mat bandMatrix(PetscInt bs) {
  int rank, size;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  const PetscInt nodes = kNodesPerRank * size;
  Mat A;
  MatCreateAIJ(PETSC_COMM_WORLD, bs * kNodesPerRank, bs * kNodesPerRank, PETSC_DETERMINE,
               PETSC_DETERMINE, 7 * bs, nullptr, 6 * bs, nullptr, &A);
  MatSetBlockSize(A, bs);
  for (PetscInt node = rank * kNodesPerRank; node < (rank + 1) * kNodesPerRank; ++node)
    for (PetscInt other = std::max<PetscInt>(0, node - 3); other <= std::min(nodes - 1, node + 3);
         ++other)
      for (PetscInt r = 0; r < bs; ++r)
        for (PetscInt c = 0; c < bs; ++c) {
          const PetscInt row = bs * node + r, col = bs * other + c;
          MatSetValue(A, row, col, std::sin(1.0 + 7.0 * row + 3.0 * col), INSERT_VALUES);
        }
  MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY);
  MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY);
  return A;
}

// |B x - P x|_inf / |P x|_inf for one x with no two entries alike.
double productGap(Mat P, Mat B) {
  Vec x, p, b;
  MatCreateVecs(P, &x, &p);
  VecDuplicate(p, &b);
  PetscInt start, end;
  VecGetOwnershipRange(x, &start, &end);
  for (PetscInt i = start; i < end; ++i) VecSetValue(x, i, std::cos(0.5 + i), INSERT_VALUES);
  VecAssemblyBegin(x);
  VecAssemblyEnd(x);
  MatMult(P, x, p);
  MatMult(B, x, b);
  const double gap = eis_test::relativeGap(p, b);
  VecDestroy(&x);
  VecDestroy(&p);
  VecDestroy(&b);
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

using Operation = void (*)(void);

Operation multiplication(Mat A) {
  Operation function;
  MatGetOperation(A, MATOP_MULT, &function);
  return function;
}

TEST(PrefetchingBlockProduct, GivesPetscsProductWhereverTheBlocksItFetchesLie) {
  Mat A = bandMatrix(3);
  eis::BlockCopy petscs;
  const Mat reference = petscs.of(A);
  // 1: the next block, in the same row; 9: a row or two on; 100,000: past the end.
  for (int distance : {1, 9, 100000}) {
    SCOPED_TRACE("distance " + std::to_string(distance));
    eis::BlockCopy copy;
    const Mat B = copy.of(A);
    ASSERT_NE(B, A);
    eis::prefetchBlockProducts(B, distance);
    EXPECT_NE(multiplication(diagonalPart(B)), multiplication(diagonalPart(reference)));
    EXPECT_LT(productGap(reference, B), 1e-15);
    EXPECT_LT(productGap(A, B), 1e-15);
    // New values in the same structure, as a re-assembly and the copy write them.
    MatScale(A, -2.0);
    EXPECT_LT(productGap(petscs.of(A), copy.of(A)), 1e-15);
  }
  MatDestroy(&A);
}

TEST(PrefetchingBlockProduct, DistanceZeroAndOtherBlockSizesKeepPetscsLoop) {
  for (PetscInt bs : {3, 2}) {
    SCOPED_TRACE("block size " + std::to_string(bs));
    Mat A = bandMatrix(bs);
    eis::BlockCopy petscs, copy;
    const Mat reference = petscs.of(A), B = copy.of(A);
    ASSERT_NE(B, A);
    eis::prefetchBlockProducts(B, bs == 3 ? 0 : 128);
    EXPECT_EQ(multiplication(diagonalPart(B)), multiplication(diagonalPart(reference)));
    EXPECT_LT(productGap(reference, B), 1e-15);
    MatDestroy(&A);
  }
}

}  // namespace
