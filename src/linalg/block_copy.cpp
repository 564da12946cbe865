#include "eis/linalg/block_copy.hpp"

// PetscObjectStateGet and PetscObjectStateIncrease are declared here in PETSc 3.18 (see
// preconditioner_reuse.cpp).
#include <petsc/private/petscimpl.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "block_arrays.hpp"
#include "eis/core/error.hpp"
#include "eis/core/timer.hpp"
#include "eis/linalg/prefetching_block_product.hpp"

namespace eis {

namespace {

// One sequential part of the AIJ source and the same part of the BAIJ copy: the whole matrix on
// one rank; the diagonal and the off-diagonal block of a rank's rows on several, whose columns
// are numbered through the given maps (scalar columns for the AIJ part, block columns for the
// BAIJ part; nullptr: the part's own numbering is the column).
struct PartPair {
  Mat aij, baij;
  const PetscInt* aijColumns;
  const PetscInt* blockColumns;
};

std::vector<PartPair> partsOf(Mat aij, Mat baij) {
  PetscBool parallel;
  EIS_CHECK(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(aij), MATMPIAIJ, &parallel));
  if (!parallel) return {{aij, baij, nullptr, nullptr}};
  Mat aijDiagonal, aijOff, baijDiagonal, baijOff;
  const PetscInt *aijColumns, *blockColumns;
  EIS_CHECK(MatMPIAIJGetSeqAIJ(aij, &aijDiagonal, &aijOff, &aijColumns));
  EIS_CHECK(MatMPIBAIJGetSeqBAIJ(baij, &baijDiagonal, &baijOff, &blockColumns));
  return {{aijDiagonal, baijDiagonal, nullptr, nullptr},
          {aijOff, baijOff, aijColumns, blockColumns}};
}

// The row structure of a sequential part: scalar rows of an AIJ part, block rows of a BAIJ or
// SBAIJ one.
struct Rows {
  Mat part;
  bool blocks;
  PetscInt n = 0;
  const PetscInt *offsets = nullptr, *columns = nullptr;
  Rows(Mat m, bool blockRows) : part(m), blocks(blockRows) {
    PetscBool done;
    EIS_CHECK(MatGetRowIJ(part, 0, PETSC_FALSE, blocks ? PETSC_TRUE : PETSC_FALSE, &n, &offsets,
                          &columns, &done));
    if (!done) throw Error("internal: PETSc gave no row structure of a matrix part");
  }
  ~Rows() {
    PetscBool done;
    MatRestoreRowIJ(part, 0, PETSC_FALSE, blocks ? PETSC_TRUE : PETSC_FALSE, &n, &offsets, &columns,
                    &done);
  }
  Rows(const Rows&) = delete;
  Rows& operator=(const Rows&) = delete;
};

// Whether the copy's part of `pair` holds the upper triangle of its blocks: the diagonal part
// (its columns numbered as its rows) of a copy that holds upper triangles.
bool upperPart(const PartPair& pair, bool upper) {
  return upper && !pair.aijColumns;
}

// How many of the AIJ block row i's blocks the copy leaves out: with the upper triangle only,
// those left of the diagonal (the row's columns are sorted), else none.
PetscInt lowerBlocks(const Rows& a, PetscInt i, PetscInt bs, bool upper) {
  if (!upper) return 0;
  const PetscInt* first = a.columns + a.offsets[bs * i];
  const PetscInt* last = a.columns + a.offsets[bs * i + 1];
  return PetscInt(std::lower_bound(first, last, bs * i) - first) / bs;
}

// Whether the AIJ part is made of full bs x bs blocks laid out as the copy's part: each block
// row's bs rows hold, in order, the bs columns of each of the copy row's blocks, after the
// blocks left of the diagonal when the copy holds the upper triangle. Then the copy is the plain
// loop of copyPart.
bool sameBlocks(const PartPair& pair, PetscInt bs, bool upper) {
  const Rows a(pair.aij, false), b(pair.baij, true);
  if (a.n != bs * b.n) return false;
  for (PetscInt i = 0; i < b.n; ++i) {
    const PetscInt blocks = b.offsets[i + 1] - b.offsets[i];
    const PetscInt skipped = lowerBlocks(a, i, bs, upper);
    for (PetscInt r = 0; r < bs; ++r) {
      const PetscInt row = bs * i + r, start = a.offsets[row] + bs * skipped;
      if (a.offsets[row + 1] - start != bs * blocks) return false;
      for (PetscInt k = 0; k < blocks; ++k) {
        const PetscInt block = b.columns[b.offsets[i] + k];
        const PetscInt first = bs * (pair.blockColumns ? pair.blockColumns[block] : block);
        for (PetscInt c = 0; c < bs; ++c) {
          const PetscInt column = a.columns[start + bs * k + c];
          if ((pair.aijColumns ? pair.aijColumns[column] : column) != first + c) return false;
        }
      }
    }
  }
  return true;
}

// The values of the AIJ part into the copy's part, whose blocks PETSc stores column by column
// (SBAIJ as BAIJ); into the two halves of a split upper triangle (block_arrays.hpp) where the
// part is one.
void copyPart(const PartPair& pair, PetscInt bs, bool upper) {
  const Rows a(pair.aij, false), b(pair.baij, true);
  const PetscScalar* from;
  PetscScalar* to;
  PetscBool sbaij;
  block_products::SplitValues* split = nullptr;
  EIS_CHECK(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(pair.baij), MATSEQSBAIJ, &sbaij));
  EIS_CHECK(
      queryComposed(reinterpret_cast<PetscObject>(pair.baij), block_products::kSplitName, &split));
  EIS_CHECK(MatSeqAIJGetArrayRead(pair.aij, &from));
  if (sbaij)
    EIS_CHECK(MatSeqSBAIJGetArray(pair.baij, &to));
  else
    EIS_CHECK(MatSeqBAIJGetArray(pair.baij, &to));
  auto* high = reinterpret_cast<std::uint32_t*>(to);
  std::uint32_t* low = high + std::size_t(b.offsets[b.n]) * std::size_t(bs * bs);
  for (PetscInt i = 0; i < b.n; ++i) {
    const PetscInt blocks = b.offsets[i + 1] - b.offsets[i];
    const PetscInt skipped = lowerBlocks(a, i, bs, upper);
    const std::size_t first = std::size_t(b.offsets[i]) * std::size_t(bs * bs);
    for (PetscInt r = 0; r < bs; ++r) {
      const PetscScalar* row = from + a.offsets[bs * i + r] + bs * skipped;
      for (PetscInt k = 0; k < blocks; ++k)
        for (PetscInt c = 0; c < bs; ++c) {
          const std::size_t at = first + std::size_t((k * bs + c) * bs + r);
          if (!split) {
            to[at] = row[bs * k + c];
            continue;
          }
          const std::uint64_t bits = block_products::bitsOf(row[bs * k + c]);
          high[at] = std::uint32_t(bits >> 32);
          low[at] = std::uint32_t(bits);
        }
    }
  }
  if (sbaij)
    EIS_CHECK(MatSeqSBAIJRestoreArray(pair.baij, &to));
  else
    EIS_CHECK(MatSeqBAIJRestoreArray(pair.baij, &to));
  EIS_CHECK(MatSeqAIJRestoreArrayRead(pair.aij, &from));
}

// The products of a copy whose diagonal parts hold upper triangles, through its MatMult alone
// (the triangle's product, installed on the parts), as PETSc sees them: a symmetric operator.
PetscErrorCode upperProduct(Mat S, Vec x, Vec y) {
  Mat copy;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(S, &copy));
  PetscCall(MatMult(copy, x, y));
  PetscFunctionReturn(0);
}

// The sequential part of a copy of upper triangles that holds one: the SBAIJ copy itself on one
// rank, the diagonal part of the BAIJ copy on several.
PetscErrorCode trianglePart(Mat copy, Mat* part) {
  PetscBool parallel;
  PetscFunctionBeginUser;
  *part = copy;
  PetscCall(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(copy), MATMPIBAIJ, &parallel));
  if (parallel) PetscCall(MatMPIBAIJGetSeqBAIJ(copy, part, nullptr, nullptr));
  PetscFunctionReturn(0);
}

// The same product from the high halves of the split triangles' values alone.
PetscErrorCode highHalvesProduct(Mat S, Vec x, Vec y) {
  Mat copy, part;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(S, &copy));
  PetscCall(trianglePart(copy, &part));
  block_products::SplitValues* split = nullptr;
  PetscCall(queryComposed(reinterpret_cast<PetscObject>(part), block_products::kSplitName, &split));
  PetscCheck(split, PETSC_COMM_SELF, PETSC_ERR_PLIB, "an upper triangle lost its split values");
  split->highOnly = true;
  const PetscErrorCode error = MatMult(copy, x, y);
  split->highOnly = false;
  PetscCall(error);
  PetscFunctionReturn(0);
}

// -ksp_view and the like: what the shell multiplies by, and with an information format the
// copy's own type and sizes. PETSc's view of the copy's values would read the halves as doubles:
// they are not shown.
PetscErrorCode viewShell(Mat S, PetscViewer viewer, const char* what) {
  Mat copy;
  PetscBool ascii;
  PetscViewerFormat format;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(S, &copy));
  PetscCall(
      PetscObjectTypeCompare(reinterpret_cast<PetscObject>(viewer), PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(0);
  PetscCall(PetscViewerGetFormat(viewer, &format));
  PetscCall(PetscViewerASCIIPrintf(viewer, "%s\n", what));
  if (format != PETSC_VIEWER_ASCII_INFO && format != PETSC_VIEWER_ASCII_INFO_DETAIL)
    PetscFunctionReturn(0);
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(MatView(copy, viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(0);
}

PetscErrorCode upperView(Mat S, PetscViewer viewer) {
  return viewShell(S, viewer, "the upper triangle of 3 x 3 blocks, each value in two halves, of:");
}

PetscErrorCode highHalvesView(Mat S, PetscViewer viewer) {
  return viewShell(S, viewer,
                   "the high halves alone (20-bit significands) of the upper triangle of 3 x 3 "
                   "blocks of:");
}

PetscErrorCode upperDiagonal(Mat S, Vec d) {
  Mat copy;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(S, &copy));
  PetscCall(MatGetDiagonal(copy, d));
  PetscFunctionReturn(0);
}

}  // namespace

BlockCopy::~BlockCopy() {
  MatDestroy(&highHalves_);
  MatDestroy(&products_);
  MatDestroy(&copy_);
}

Mat BlockCopy::of(Mat A) {
  PetscObjectId id;
  PetscObjectState state;
  EIS_CHECK(PetscObjectGetId(reinterpret_cast<PetscObject>(A), &id));
  EIS_CHECK(PetscObjectStateGet(reinterpret_cast<PetscObject>(A), &state));
  PetscBool known = PETSC_FALSE, symmetric = PETSC_FALSE;
  if (upper_) EIS_CHECK(MatIsSymmetricKnown(A, &known, &symmetric));
  if (source_ != A || id != sourceId_ || (upper_ && !(known && symmetric))) {
    source_ = A;
    if (setUpTimer_) {
      const ScopedTimer timer(setUpTimer_);
      create(A);
    } else {
      create(A);
    }
    if (copy_) copyValues();
  } else if (copy_ && state != sourceState_) {
    copyValues();
  }
  sourceId_ = id;
  sourceState_ = state;
  if (products_) return products_;
  return copy_ ? copy_ : A;
}

Mat BlockCopy::highHalvesOf(Mat A) {
  const Mat products = of(A);
  return highHalves_ ? highHalves_ : products;
}

// The copy's structure: the blocks of the first row of each of A's block rows, preallocated
// exactly and inserted a block row at a time (column-oriented blocks let PETSc take a whole row
// per call). MatConvert, value by value, took 2.6 s on 70,227 unknowns; this takes 2 s on
// 1,013,643 on one rank, once per run, most of it the first touch of the copy's 370 MB. Checked
// block by block against A's on every rank, since the value copy relies on it: a matrix that
// fails is multiplied itself.
void BlockCopy::create(Mat A) {
  EIS_CHECK(MatDestroy(&highHalves_));
  EIS_CHECK(MatDestroy(&products_));
  EIS_CHECK(MatDestroy(&copy_));
  upper_ = false;
  PetscInt bs;
  PetscBool aij;
  EIS_CHECK(MatGetBlockSize(A, &bs));
  EIS_CHECK(
      PetscObjectTypeCompareAny(reinterpret_cast<PetscObject>(A), &aij, MATSEQAIJ, MATMPIAIJ, ""));
  if (bs < 2 || !aij) return;
  MPI_Comm comm;
  EIS_CHECK(PetscObjectGetComm(reinterpret_cast<PetscObject>(A), &comm));
  PetscInt rowStart, rowEnd, columnStart, columnEnd, localRows, localColumns, rows, columns;
  EIS_CHECK(MatGetOwnershipRange(A, &rowStart, &rowEnd));
  EIS_CHECK(MatGetOwnershipRangeColumn(A, &columnStart, &columnEnd));
  EIS_CHECK(MatGetLocalSize(A, &localRows, &localColumns));
  EIS_CHECK(MatGetSize(A, &rows, &columns));
  // A rectangular matrix (an interpolation: rows in blocks of 3, columns of 6) is copied in
  // blocks of its row block size, which must then divide every rank's columns too.
  int divides = localRows % bs == 0 && localColumns % bs == 0;
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &divides, 1, MPI_INT, MPI_MIN, comm));
  if (!divides) return;
  // The upper triangle: on one rank PETSc's SBAIJ matrix. PETSc 3.18 gives no access to the
  // off-diagonal part of a parallel SBAIJ matrix, which the value copy writes into, so on
  // several ranks a BAIJ matrix holds it in its diagonal parts (symmetric where each rank's rows
  // and columns are the same), its off-diagonal parts whole, and multiplies by the triangle's
  // loop, which only the read-ahead has.
  PetscBool sequential, known, symmetric;
  EIS_CHECK(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(A), MATSEQAIJ, &sequential));
  EIS_CHECK(MatIsSymmetricKnown(A, &known, &symmetric));
  int sameLayout = rowStart == columnStart && rowEnd == columnEnd;
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &sameLayout, 1, MPI_INT, MPI_MIN, comm));
  upper_ = storage_ == Storage::Upper && known && symmetric && rows == columns && sameLayout &&
           (sequential || (bs == 3 && prefetch_.distance > 0));
  // Each block row's block columns, and how many lie in this rank's diagonal part (its columns).
  const PetscInt firstBlock = rowStart / bs, firstColumnBlock = columnStart / bs,
                 endColumnBlock = columnEnd / bs;
  std::vector<PetscInt> offsets{0}, blockColumns, diagonal, offDiagonal;
  for (PetscInt row = rowStart; row < rowEnd; row += bs) {
    PetscInt n;
    const PetscInt* cols;
    EIS_CHECK(MatGetRow(A, row, &n, &cols, nullptr));
    PetscInt inside = 0, outside = 0;
    for (PetscInt k = 0; k < n; k += bs) {
      const PetscInt block = cols[k] / bs;
      const bool inDiagonalPart = block >= firstColumnBlock && block < endColumnBlock;
      if (upper_ && inDiagonalPart && block < row / bs) continue;
      blockColumns.push_back(block);
      ++(inDiagonalPart ? inside : outside);
    }
    EIS_CHECK(MatRestoreRow(A, row, &n, &cols, nullptr));
    diagonal.push_back(inside);
    offDiagonal.push_back(outside);
    offsets.push_back(PetscInt(blockColumns.size()));
  }
  EIS_CHECK(MatCreate(comm, &copy_));
  EIS_CHECK(MatSetSizes(copy_, localRows, localColumns, rows, columns));
  EIS_CHECK(MatSetBlockSize(copy_, bs));
  EIS_CHECK(MatSetType(copy_, upper_ && sequential ? MATSEQSBAIJ : MATBAIJ));
  if (upper_ && sequential)
    EIS_CHECK(MatSeqSBAIJSetPreallocation(copy_, bs, 0, diagonal.data()));
  else
    EIS_CHECK(
        MatXAIJSetPreallocation(copy_, bs, diagonal.data(), offDiagonal.data(), nullptr, nullptr));
  EIS_CHECK(MatSetOption(copy_, MAT_ROW_ORIENTED, PETSC_FALSE));
  std::size_t widest = 0;
  for (std::size_t i = 0; i + 1 < offsets.size(); ++i)
    widest = std::max(widest, std::size_t(offsets[i + 1] - offsets[i]));
  const std::vector<PetscScalar> zeros(widest * bs * bs, 0.0);
  for (std::size_t i = 0; i + 1 < offsets.size(); ++i) {
    const PetscInt blockRow = firstBlock + PetscInt(i);
    EIS_CHECK(MatSetValuesBlocked(copy_, 1, &blockRow, offsets[i + 1] - offsets[i],
                                  blockColumns.data() + offsets[i], zeros.data(), INSERT_VALUES));
  }
  EIS_CHECK(MatAssemblyBegin(copy_, MAT_FINAL_ASSEMBLY));
  EIS_CHECK(MatAssemblyEnd(copy_, MAT_FINAL_ASSEMBLY));
  int regular = 1;
  for (const PartPair& pair : partsOf(A, copy_))
    regular = regular && sameBlocks(pair, bs, upperPart(pair, upper_));
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &regular, 1, MPI_INT, MPI_MIN, comm));
  if (!regular) {
    EIS_CHECK(MatDestroy(&copy_));
    return;
  }
  EIS_CHECK(MatPropagateSymmetryOptions(A, copy_));
  if (upper_ && bs == 3 && prefetch_.distance > 0) wrapUpperTriangles(A);
}

// The copy's upper triangles (the SBAIJ matrix on one rank, the diagonal parts on several)
// multiply by the triangle's product, from their values split in halves; PETSc's other products
// and its views would read them as whole doubles, so the solve is handed a MatShell that has
// the copy's MatMult (also its transpose's: the matrix is symmetric) and diagonal alone, and a
// smoother a second one whose products read the high halves alone.
void BlockCopy::wrapUpperTriangles(Mat A) {
  Mat part;
  EIS_CHECK(trianglePart(copy_, &part));
  multiplyAsUpperTriangle(part, prefetch_);
  products_ = shellOver(A, upperProduct, upperView);
  highHalves_ = shellOver(A, highHalvesProduct, highHalvesView);
}

// A MatShell of A's layout over the copy, whose MatMult and MatMultTranspose are `product`, and
// MatView `view`.
Mat BlockCopy::shellOver(Mat A, PetscErrorCode (*product)(Mat, Vec, Vec),
                         PetscErrorCode (*view)(Mat, PetscViewer)) {
  MPI_Comm comm;
  PetscInt localRows, localColumns, rows, columns, bs;
  EIS_CHECK(PetscObjectGetComm(reinterpret_cast<PetscObject>(A), &comm));
  EIS_CHECK(MatGetLocalSize(A, &localRows, &localColumns));
  EIS_CHECK(MatGetSize(A, &rows, &columns));
  EIS_CHECK(MatGetBlockSize(A, &bs));
  Mat shell;
  EIS_CHECK(MatCreate(comm, &shell));
  EIS_CHECK(MatSetSizes(shell, localRows, localColumns, rows, columns));
  EIS_CHECK(MatSetBlockSize(shell, bs));
  EIS_CHECK(MatSetType(shell, MATSHELL));
  EIS_CHECK(MatShellSetContext(shell, copy_));
  // The shell holds the copy as long as it lives: a solver may keep it past a remade copy.
  EIS_CHECK(PetscObjectCompose(reinterpret_cast<PetscObject>(shell), "eis_upper_triangles",
                               reinterpret_cast<PetscObject>(copy_)));
  EIS_CHECK(MatSetUp(shell));
  EIS_CHECK(MatShellSetOperation(shell, MATOP_MULT, reinterpret_cast<void (*)(void)>(product)));
  EIS_CHECK(
      MatShellSetOperation(shell, MATOP_MULT_TRANSPOSE, reinterpret_cast<void (*)(void)>(product)));
  EIS_CHECK(MatShellSetOperation(shell, MATOP_GET_DIAGONAL,
                                 reinterpret_cast<void (*)(void)>(upperDiagonal)));
  EIS_CHECK(MatShellSetOperation(shell, MATOP_VIEW, reinterpret_cast<void (*)(void)>(view)));
  EIS_CHECK(MatPropagateSymmetryOptions(A, shell));
  return shell;
}

void BlockCopy::copyValues() {
  PetscInt bs;
  EIS_CHECK(MatGetBlockSize(source_, &bs));
  for (const PartPair& pair : partsOf(source_, copy_)) {
    copyPart(pair, bs, upperPart(pair, upper_));
    if (!upper_) refreshSingleValues(pair.baij);
  }
  EIS_CHECK(PetscObjectStateIncrease(reinterpret_cast<PetscObject>(copy_)));
  for (Mat shell : {products_, highHalves_})
    if (shell) EIS_CHECK(PetscObjectStateIncrease(reinterpret_cast<PetscObject>(shell)));
}

}  // namespace eis
