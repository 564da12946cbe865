#include "eis/linalg/system_matrix.hpp"

#include <algorithm>

#include "eis/core/error.hpp"
#include "eis/core/timer.hpp"

namespace eis {

namespace {

// The shell's product as its own -log_view event: in a matrix-free run every MatMult of the
// "KSP solve" stage is one ShellProduct, so no assembled operator is ever multiplied.
PetscLogEvent shellProductEvent() {
  static PetscLogEvent event = -1;
  if (event < 0) EIS_CHECK(PetscLogEventRegister("ShellProduct", MAT_CLASSID, &event));
  return event;
}

// PETSc calls these through C: an exception must become an error code here.
PetscErrorCode shellMult(Mat A, Vec x, Vec y) {
  SystemMatrix* matrix;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &matrix));
  try {
    matrix->applyShell(x, y);
  } catch (const std::exception& e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "%s", e.what());
  }
  PetscFunctionReturn(0);
}

PetscErrorCode shellDiagonal(Mat A, Vec d) {
  SystemMatrix* matrix;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &matrix));
  try {
    matrix->shellDiagonal(d);
  } catch (const std::exception& e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "%s", e.what());
  }
  PetscFunctionReturn(0);
}

// The local and global sizes of the DM's global vectors, and its communicator.
struct Layout {
  PetscInt localSize, globalSize;
  MPI_Comm comm;
};

Layout layoutOf(DM dm) {
  Layout layout;
  Vec probe;
  EIS_CHECK(DMGetGlobalVector(dm, &probe));
  EIS_CHECK(VecGetLocalSize(probe, &layout.localSize));
  EIS_CHECK(VecGetSize(probe, &layout.globalSize));
  EIS_CHECK(DMRestoreGlobalVector(dm, &probe));
  EIS_CHECK(PetscObjectGetComm(reinterpret_cast<PetscObject>(dm), &layout.comm));
  return layout;
}

}  // namespace

SystemMatrix::SystemMatrix(DM dm, const Cells& cells, int dofs,
                           const std::vector<unsigned char>& owned, OperatorMode mode,
                           const ElementOperator& op, const Projection& projection,
                           bool constantValues, bool symmetric)
    : dm_(dm),
      cells_(cells),
      dofs_(dofs),
      mode_(mode),
      op_(op),
      projection_(projection),
      constantValues_(constantValues),
      symmetric_(symmetric) {
  EIS_CHECK(DMCreateLocalVector(dm_, &localIn_));
  EIS_CHECK(DMCreateLocalVector(dm_, &localOut_));
  if (mode_ == OperatorMode::MatrixFree)
    createShell();
  else
    createAssembled(owned);
}

SystemMatrix::~SystemMatrix() {
  MatDestroy(&projected_);
  MatDestroy(&projector_);
  MatDestroy(&matrix_);
  VecDestroy(&localIn_);
  VecDestroy(&localOut_);
}

void SystemMatrix::createAssembled(const std::vector<unsigned char>& owned) {
  // The global block row of each local vertex: its first global unknown / dofs.
  ISLocalToGlobalMapping l2g;
  EIS_CHECK(DMGetLocalToGlobalMapping(dm_, &l2g));
  const PetscInt* globalUnknown;
  EIS_CHECK(ISLocalToGlobalMappingGetIndices(l2g, &globalUnknown));
  std::vector<PetscInt> globalBlock(owned.size());
  for (std::size_t v = 0; v < globalBlock.size(); ++v)
    globalBlock[v] = globalUnknown[PetscInt(v) * dofs_] / dofs_;
  EIS_CHECK(ISLocalToGlobalMappingRestoreIndices(l2g, &globalUnknown));

  const Layout layout = layoutOf(dm_);
  EIS_CHECK(MatCreate(layout.comm, &matrix_));
  EIS_CHECK(MatSetSizes(matrix_, layout.localSize, layout.localSize, layout.globalSize,
                        layout.globalSize));
  EIS_CHECK(MatSetBlockSize(matrix_, dofs_));
  EIS_CHECK(MatSetType(matrix_, MATAIJ));
  assembler_ = std::make_unique<ElementMatrixAssembler>(matrix_, cells_, dofs_, globalBlock, owned);
  // M and B are symmetric, and so is K unless a field says otherwise (a follower pressure); the
  // projection (MatZeroRowsColumns) keeps either.
  EIS_CHECK(MatSetOption(matrix_, MAT_SYMMETRIC, symmetric_ ? PETSC_TRUE : PETSC_FALSE));
  EIS_CHECK(MatSetOption(matrix_, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
}

void SystemMatrix::createShell() {
  const Layout layout = layoutOf(dm_);
  EIS_CHECK(MatCreateShell(layout.comm, layout.localSize, layout.localSize, layout.globalSize,
                           layout.globalSize, this, &matrix_));
  EIS_CHECK(MatShellSetOperation(matrix_, MATOP_MULT, reinterpret_cast<void (*)(void)>(shellMult)));
  EIS_CHECK(MatShellSetOperation(matrix_, MATOP_GET_DIAGONAL,
                                 reinterpret_cast<void (*)(void)>(eis::shellDiagonal)));
  EIS_CHECK(MatSetOption(matrix_, MAT_SYMMETRIC, symmetric_ ? PETSC_TRUE : PETSC_FALSE));
}

Mat SystemMatrix::at(double m, double b, double k) {
  // A linear model's matrix changes only with the factors; a nonlinear one's with every state.
  if (constantValues_ && haveFactors_ && factors_[0] == m && factors_[1] == b && factors_[2] == k)
    return matrix_;
  factors_[0] = m;
  factors_[1] = b;
  factors_[2] = k;
  haveFactors_ = true;
  if (mode_ == OperatorMode::MatrixFree) {
    // New factors are new values: assembling the shell bumps its state, so the
    // preconditioner is rebuilt.
    EIS_CHECK(MatAssemblyBegin(matrix_, MAT_FINAL_ASSEMBLY));
    EIS_CHECK(MatAssemblyEnd(matrix_, MAT_FINAL_ASSEMBLY));
  } else {
    assemble();
  }
  return projected_ ? projected_ : matrix_;
}

void SystemMatrix::assemble() {
  {
    const ScopedTimer timer("Matrix assembly");
    assembler_->assemble([&](double* blocks, CellRange range) {
      op_.addElementMatrices(blocks, factors_[0], factors_[1], factors_[2], range);
    });
    // A linear model's matrix is assembled again only when its factors change (a new dt): the
    // assembler's maps would sit unread beside the preconditioner, 157 MB at 1e6 unknowns.
    if (constantValues_) assembler_->releaseMaps();
  }
  const ScopedTimer timer("Constraints");
  projectRowsAndColumns();
  if (projection_.numBlockNodes() > 0) projectBlocks();
}

// P A P + (I - P) D on the projector nodes. P is the identity but on their diagonal blocks, so
// the fixed rows of A (zeroed, their diagonal kept) come through unchanged. The projected
// matrix has the sparsity of A; D, each node's mean diagonal entry of A (1 if not positive), is
// added on the node's diagonal block, which A has in full.
void SystemMatrix::projectBlocks() {
  PetscInt rowStart;
  EIS_CHECK(MatGetOwnershipRange(matrix_, &rowStart, nullptr));
  const auto& blocks = projection_.ownedBlocks();
  if (!projector_) {
    const Layout layout = layoutOf(dm_);
    EIS_CHECK(MatCreateAIJ(layout.comm, layout.localSize, layout.localSize, layout.globalSize,
                           layout.globalSize, dofs_, nullptr, 0, nullptr, &projector_));
    EIS_CHECK(MatSetBlockSize(projector_, dofs_));
    for (PetscInt i = 0; i < layout.localSize; ++i)
      EIS_CHECK(MatSetValue(projector_, rowStart + i, rowStart + i, 1.0, INSERT_VALUES));
    for (const auto& block : blocks) {
      PetscInt index[3];
      for (int d = 0; d < 3; ++d) index[d] = rowStart + block.offset + d;
      EIS_CHECK(MatSetValues(projector_, 3, index, 3, index, block.p.data(), INSERT_VALUES));
    }
    EIS_CHECK(MatAssemblyBegin(projector_, MAT_FINAL_ASSEMBLY));
    EIS_CHECK(MatAssemblyEnd(projector_, MAT_FINAL_ASSEMBLY));
  }
  Vec diagonal;
  EIS_CHECK(MatCreateVecs(matrix_, &diagonal, nullptr));
  EIS_CHECK(MatGetDiagonal(matrix_, diagonal));
  EIS_CHECK(MatPtAP(matrix_, projector_, projected_ ? MAT_REUSE_MATRIX : MAT_INITIAL_MATRIX,
                    PETSC_DEFAULT, &projected_));
  const PetscScalar* d;
  EIS_CHECK(VecGetArrayRead(diagonal, &d));
  for (const auto& block : blocks) {
    double scale = (d[block.offset] + d[block.offset + 1] + d[block.offset + 2]) / 3;
    if (!(scale > 0)) scale = 1;
    PetscInt index[3];
    double values[9];
    for (int r = 0; r < 3; ++r) {
      index[r] = rowStart + block.offset + r;
      for (int c = 0; c < 3; ++c) values[3 * r + c] = scale * ((r == c) - block.p[3 * r + c]);
    }
    EIS_CHECK(MatSetValues(projected_, 3, index, 3, index, values, ADD_VALUES));
  }
  EIS_CHECK(VecRestoreArrayRead(diagonal, &d));
  EIS_CHECK(VecDestroy(&diagonal));
  EIS_CHECK(MatAssemblyBegin(projected_, MAT_FINAL_ASSEMBLY));
  EIS_CHECK(MatAssemblyEnd(projected_, MAT_FINAL_ASSEMBLY));
  EIS_CHECK(MatSetBlockSize(projected_, dofs_));
  EIS_CHECK(MatSetOption(projected_, MAT_SYMMETRIC, symmetric_ ? PETSC_TRUE : PETSC_FALSE));
  EIS_CHECK(MatSetOption(projected_, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
}

// The projected rows and columns are zeroed and their diagonal entries kept, set back after
// MatZeroRowsColumns wrote one value on all of them. Any positive value there leaves the answer
// alone (the right-hand side is zero on those rows), but a multigrid coarsens those rows with
// the others, and the identity's 1 beside entries of another scale made its coarse levels
// worse: SOFA's beam in SI units (diagonal entries near 1e3) took 17.5 CG iterations a step
// with 1 and 13.6 with its own diagonal, and how many depended on the units. A diagonal entry
// that is not positive (a node of no cell) takes 1.
void SystemMatrix::projectRowsAndColumns() {
  const IS rows = projection_.rows();
  PetscInt count;
  const PetscInt* row;
  EIS_CHECK(ISGetLocalSize(rows, &count));
  EIS_CHECK(ISGetIndices(rows, &row));
  std::vector<PetscScalar> diagonal(std::size_t(count), 1.0);
  for (PetscInt i = 0; i < count; ++i) {
    PetscInt entries;
    const PetscInt* columns;
    const PetscScalar* values;
    EIS_CHECK(MatGetRow(matrix_, row[i], &entries, &columns, &values));
    for (PetscInt k = 0; k < entries; ++k)
      if (columns[k] == row[i] && PetscRealPart(values[k]) > 0) diagonal[i] = values[k];
    EIS_CHECK(MatRestoreRow(matrix_, row[i], &entries, &columns, &values));
  }
  EIS_CHECK(MatZeroRowsColumnsIS(matrix_, rows, 1.0, nullptr, nullptr));
  for (PetscInt i = 0; i < count; ++i)
    EIS_CHECK(MatSetValue(matrix_, row[i], row[i], diagonal[i], INSERT_VALUES));
  EIS_CHECK(ISRestoreIndices(rows, &row));
  EIS_CHECK(MatAssemblyBegin(matrix_, MAT_FINAL_ASSEMBLY));
  EIS_CHECK(MatAssemblyEnd(matrix_, MAT_FINAL_ASSEMBLY));
}

void SystemMatrix::toLocal(Vec global, Vec local) const {
  EIS_CHECK(DMGlobalToLocalBegin(dm_, global, INSERT_VALUES, local));
  EIS_CHECK(DMGlobalToLocalEnd(dm_, global, INSERT_VALUES, local));
}

void SystemMatrix::applyShell(Vec x, Vec y) {
  // y = P A P x + (I - P) x: the projected unknowns pass through unchanged, as with the
  // identity rows and columns of the assembled matrix.
  EIS_CHECK(PetscLogEventBegin(shellProductEvent(), matrix_, x, y, 0));
  toLocal(x, localIn_);
  EIS_CHECK(VecZeroEntries(localOut_));
  PetscScalar* xl;
  PetscScalar* yl;
  EIS_CHECK(VecGetArray(localIn_, &xl));
  EIS_CHECK(VecGetArray(localOut_, &yl));
  projection_.projectLocal(xl);
  op_.addProducts(xl, yl, factors_[0], factors_[1], factors_[2]);
  EIS_CHECK(VecRestoreArray(localOut_, &yl));
  EIS_CHECK(VecRestoreArray(localIn_, &xl));
  EIS_CHECK(VecZeroEntries(y));
  EIS_CHECK(DMLocalToGlobal(dm_, localOut_, ADD_VALUES, y));
  projection_.project(y);
  const PetscScalar* xg;
  PetscScalar* yg;
  EIS_CHECK(VecGetArrayRead(x, &xg));
  EIS_CHECK(VecGetArray(y, &yg));
  for (auto i : projection_.ownedDofs()) yg[i] = xg[i];
  // + (I - P_i) x_i on the projector nodes.
  for (const auto& block : projection_.ownedBlocks())
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c)
        yg[block.offset + r] += ((r == c) - block.p[3 * r + c]) * xg[block.offset + c];
  EIS_CHECK(VecRestoreArray(y, &yg));
  EIS_CHECK(VecRestoreArrayRead(x, &xg));
  EIS_CHECK(PetscLogEventEnd(shellProductEvent(), matrix_, x, y, 0));
}

void SystemMatrix::shellDiagonal(Vec diagonal) {
  // The diagonal of each element matrix, summed: no global matrix is ever formed.
  const std::size_t n = std::size_t(cells_.corners() * dofs_);
  std::vector<PetscScalar> values(kCellsPerRange * n * n);
  EIS_CHECK(VecZeroEntries(localOut_));
  PetscScalar* dl;
  EIS_CHECK(VecGetArray(localOut_, &dl));
  forEachCellRange(cells_.size(), [&](CellRange range) {
    std::fill(values.begin(), values.begin() + range.size() * n * n, 0.0);
    op_.addElementDiagonals(values.data(), factors_[0], factors_[1], factors_[2], range);
    for (std::size_t c = range.begin; c < range.end; ++c)
      for (std::size_t i = 0; i < n; ++i)
        dl[cells_[c][int(i) / dofs_] * dofs_ + int(i) % dofs_] +=
            values[(c - range.begin) * n * n + i * n + i];
  });
  EIS_CHECK(VecRestoreArray(localOut_, &dl));
  EIS_CHECK(VecZeroEntries(diagonal));
  EIS_CHECK(DMLocalToGlobal(dm_, localOut_, ADD_VALUES, diagonal));
  PetscScalar* d;
  EIS_CHECK(VecGetArray(diagonal, &d));
  for (auto i : projection_.ownedDofs()) d[i] = 1.0;
  // A projector node's diagonal of P_i diag(A_i) P_i + I - P_i (A_i's off-diagonal entries left
  // out: a preconditioner's estimate).
  for (const auto& block : projection_.ownedBlocks()) {
    const double a[3] = {d[block.offset], d[block.offset + 1], d[block.offset + 2]};
    for (int r = 0; r < 3; ++r) {
      double sum = 1 - block.p[4 * r];
      for (int c = 0; c < 3; ++c) sum += block.p[3 * r + c] * block.p[3 * r + c] * a[c];
      d[block.offset + r] = sum;
    }
  }
  EIS_CHECK(VecRestoreArray(diagonal, &d));
}

}  // namespace eis
