// ElementMatrixAssembler on 1, 2 and 3 ranks against PETSc's own MatSetValues assembly of the
// same element matrices: a strip of hexahedra, two a rank, whose vertex layer between two
// ranks' cells is owned by the right-hand rank (so its row has blocks only the left-hand rank's
// cells make), plus a vertex no cell uses. The assembler writes the first contribution to each
// place instead of zeroing the matrix first: a second assembly, after the matrix's values were
// scaled and shifted, must still give the sum of the new element matrices alone, the vertex
// without cells a zero block; so must an assembly after the maps were released. On one rank the
// sums are added in the same order, so the two matrices agree to the bit.
#include <gtest/gtest.h>
#include <petscmat.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "eis/core/cells.hpp"
#include "eis/linalg/element_matrix_assembler.hpp"
#include "mpi_support.hpp"

namespace {

constexpr int kDofs = 3, kCorners = 8, kSize = kDofs * kCorners;

// Global block of vertex (i, j, k) of the strip, j and k in {0, 1}: layer by layer, so that
// each rank's layers are a contiguous range of block rows.
PetscInt globalVertex(int i, int j, int k) {
  return 4 * i + j + 2 * k;
}

struct Strip {
  int rank = 0, size = 1, layers = 0;  // layers of vertices: 2 size + 1
  eis::Cells cells{eis::CellType::Hexahedron};
  std::vector<PetscInt> globalCell;   // of each local cell
  std::vector<PetscInt> globalBlock;  // of each local vertex
  std::vector<unsigned char> owned;   // of each local vertex
  PetscInt ownedVertices = 0;
};

// Rank r has cells 2r and 2r + 1 and owns vertex layers 2r and 2r + 1; the last rank also
// owns the last layer and the vertex without cells. Local vertices are numbered backwards, so
// that local and global orders differ.
Strip makeStrip() {
  Strip s;
  MPI_Comm_rank(PETSC_COMM_WORLD, &s.rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &s.size);
  s.layers = 2 * s.size + 1;
  const bool last = s.rank == s.size - 1;
  std::vector<PetscInt> globals;
  for (int i = 2 * s.rank; i <= 2 * s.rank + 2; ++i)
    for (int v = 0; v < 4; ++v) globals.push_back(4 * i + v);
  if (last) globals.push_back(4 * s.layers);  // the vertex without cells
  std::reverse(globals.begin(), globals.end());
  const auto local = [&](PetscInt global) {
    return PetscInt(std::find(globals.begin(), globals.end(), global) - globals.begin());
  };
  for (int i = 2 * s.rank; i < 2 * s.rank + 2; ++i) {
    s.cells.push_back({local(globalVertex(i, 0, 0)), local(globalVertex(i + 1, 0, 0)),
                       local(globalVertex(i + 1, 1, 0)), local(globalVertex(i, 1, 0)),
                       local(globalVertex(i, 0, 1)), local(globalVertex(i + 1, 0, 1)),
                       local(globalVertex(i + 1, 1, 1)), local(globalVertex(i, 1, 1))});
    s.globalCell.push_back(i);
  }
  s.globalBlock = globals;
  for (PetscInt g : globals) {
    const int layer = int(g / 4);
    const bool mine =
        (layer >= 2 * s.rank && layer < 2 * s.rank + 2) || (last && layer >= 2 * s.rank);
    s.owned.push_back(mine);
    s.ownedVertices += mine;
  }
  return s;
}

// Entry (r, c) of global cell `cell`'s element matrix at assembly `pass`.
double entry(PetscInt cell, int r, int c, int pass) {
  return std::sin(1.0 + 0.37 * cell + 0.11 * r + 0.07 * c + 0.5 * pass) * (r == c ? 10 : 1);
}

Mat emptyMatrix(const Strip& s) {
  Mat A;
  EXPECT_EQ(MatCreate(PETSC_COMM_WORLD, &A), 0);
  MatSetSizes(A, kDofs * s.ownedVertices, kDofs * s.ownedVertices, PETSC_DETERMINE,
              PETSC_DETERMINE);
  MatSetBlockSize(A, kDofs);
  MatSetType(A, MATAIJ);
  return A;
}

// The sum of the element matrices by MatSetValues, PETSc's own path.
Mat referenceMatrix(const Strip& s, int pass) {
  Mat B = emptyMatrix(s);
  MatSeqAIJSetPreallocation(B, 27 * kDofs, nullptr);
  MatMPIAIJSetPreallocation(B, 27 * kDofs, nullptr, 27 * kDofs, nullptr);
  for (std::size_t c = 0; c < s.cells.size(); ++c) {
    std::array<PetscInt, kSize> rows;
    for (int a = 0; a < kCorners; ++a)
      for (int i = 0; i < kDofs; ++i)
        rows[kDofs * a + i] = kDofs * s.globalBlock[s.cells[c][a]] + i;
    std::array<double, kSize * kSize> values;
    for (int r = 0; r < kSize; ++r)
      for (int col = 0; col < kSize; ++col)
        values[kSize * r + col] = entry(s.globalCell[c], r, col, pass);
    MatSetValues(B, kSize, rows.data(), kSize, rows.data(), values.data(), ADD_VALUES);
  }
  MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY);
  MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY);
  return B;
}

void assemble(eis::ElementMatrixAssembler& assembler, const Strip& s, int pass) {
  assembler.assemble([&](double* blocks, eis::CellRange range) {
    for (std::size_t c = range.begin; c < range.end; ++c)
      for (int r = 0; r < kSize; ++r)
        for (int col = 0; col < kSize; ++col)
          blocks[(c - range.begin) * kSize * kSize + kSize * r + col] +=
              entry(s.globalCell[c], r, col, pass);
  });
}

// The largest |A - B| over the whole matrices, and the largest |B|.
std::array<double, 2> difference(Mat A, Mat B) {
  Mat D;
  MatDuplicate(B, MAT_COPY_VALUES, &D);
  MatAXPY(D, -1.0, A, DIFFERENT_NONZERO_PATTERN);
  PetscReal diff, size;
  MatNorm(D, NORM_MAX, &diff);  // PETSc's NORM_MAX: the largest entry magnitude
  MatNorm(B, NORM_MAX, &size);
  MatDestroy(&D);
  return {diff, size};
}

// The maps released after each assembly (a linear model's matrix, SystemMatrix) hold no memory
// and are found again at the next: the same sums, stale values, ghost rows and the vertex without
// cells included.
class AssemblerMaps : public ::testing::TestWithParam<bool> {};

TEST_P(AssemblerMaps, TheSumOfTheElementMatricesAgainAfterTheValuesChange) {
  const bool released = GetParam();
  const Strip s = makeStrip();
  Mat A = emptyMatrix(s);
  eis::ElementMatrixAssembler assembler(A, s.cells, kDofs, s.globalBlock, s.owned);
  const double tolerance = s.size == 1 ? 0.0 : 1e-14;
  for (int pass = 0; pass < 3; ++pass) {
    if (released) {
      ASSERT_GT(assembler.mapBytes(), 0u);
      assembler.releaseMaps();
      EXPECT_EQ(assembler.mapBytes(), 0u);
    }
    if (pass > 0) {
      // Stale values everywhere, the block of the vertex without cells included.
      MatScale(A, -2.5);
      MatShift(A, 1.0);
    }
    assemble(assembler, s, pass % 2);
    Mat B = referenceMatrix(s, pass % 2);
    const auto [diff, size] = difference(A, B);
    EXPECT_GT(size, 1.0);
    EXPECT_LE(diff, tolerance * size) << "assembly " << pass << " on " << s.size << " ranks";
    MatDestroy(&B);
  }
  // The vertex without cells: a zero diagonal block in the pattern.
  if (s.rank == s.size - 1) {
    const PetscInt first = kDofs * 4 * s.layers;
    for (int i = 0; i < kDofs; ++i)
      for (int j = 0; j < kDofs; ++j) {
        PetscInt row = first + i, col = first + j;
        double value = 1;
        MatGetValues(A, 1, &row, 1, &col, &value);
        EXPECT_EQ(value, 0.0);
      }
  }
  MatDestroy(&A);
}

INSTANTIATE_TEST_SUITE_P(ElementMatrixAssembler, AssemblerMaps, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "Released" : "Kept"; });

}  // namespace
