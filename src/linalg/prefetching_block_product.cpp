#include "eis/linalg/prefetching_block_product.hpp"

#include <cstdint>
#include <memory>

#include "eis/core/error.hpp"

namespace eis {

namespace {

// The name the distance is composed with on the sequential part it applies to.
constexpr const char* kDistanceName = "eis_prefetch_distance";

PetscErrorCode destroyDistance(void* distance) {
  delete static_cast<PetscInt*>(distance);
  return 0;
}

PetscErrorCode composedDistance(Mat A, PetscInt* distance) {
  PetscObject container;
  void* pointer;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectQuery(reinterpret_cast<PetscObject>(A), kDistanceName, &container));
  PetscCheck(container, PETSC_COMM_SELF, PETSC_ERR_PLIB, "a prefetching product lost its distance");
  PetscCall(PetscContainerGetPointer(reinterpret_cast<PetscContainer>(container), &pointer));
  *distance = *static_cast<PetscInt*>(pointer);
  PetscFunctionReturn(0);
}

// A sequential BAIJ matrix's arrays for one product, and how far ahead of a block to fetch. The
// addresses fetched are integers: `distance` blocks on may lie past the arrays, where a pointer
// may not point; a prefetch of any address does not fault.
struct BlockArrays {
  PetscInt blockRows = 0, blocks = 0;
  const PetscInt *offsets = nullptr, *columns = nullptr;
  PetscScalar* values = nullptr;
  std::uintptr_t valuesAhead = 0, indexAhead = 0;

  // Fetches the two cache lines of the block `distance` blocks after block k (values v) and its
  // column index.
  void fetchAhead(const PetscScalar* v, PetscInt k) const {
    const std::uintptr_t block = reinterpret_cast<std::uintptr_t>(v) + valuesAhead;
    __builtin_prefetch(reinterpret_cast<const void*>(block), 0, 0);
    __builtin_prefetch(reinterpret_cast<const void*>(block + 64), 0, 0);
    __builtin_prefetch(
        reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(columns + k) + indexAhead),
        0, 0);
  }
};

PetscErrorCode getArrays(Mat A, BlockArrays* b) {
  PetscInt distance = 0;
  PetscBool done;
  PetscFunctionBeginUser;
  PetscCall(composedDistance(A, &distance));
  PetscCall(
      MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_TRUE, &b->blockRows, &b->offsets, &b->columns, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PETSc gave no block rows of a BAIJ matrix");
  b->blocks = b->offsets[b->blockRows];
  PetscCall(MatSeqBAIJGetArray(A, &b->values));
  b->valuesAhead = std::uintptr_t(distance) * 9 * sizeof(PetscScalar);
  b->indexAhead = std::uintptr_t(distance) * sizeof(PetscInt);
  PetscFunctionReturn(0);
}

PetscErrorCode restoreArrays(Mat A, BlockArrays* b) {
  PetscBool done;
  PetscFunctionBeginUser;
  PetscCall(MatSeqBAIJRestoreArray(A, &b->values));
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_TRUE, &b->blockRows, &b->offsets, &b->columns,
                            &done));
  PetscFunctionReturn(0);
}

// z = y + A x, or z = A x without y, over a sequential BAIJ matrix of 3 x 3 blocks, each stored
// column by column: the sums of PETSc's MatMult_SeqBAIJ_3 and MatMultAdd_SeqBAIJ_3, in their
// order, with each block fetched ahead.
PetscErrorCode rowProducts(Mat A, Vec x, Vec y, Vec z) {
  BlockArrays b;
  const PetscScalar* xs;
  PetscScalar *ys = nullptr, *zs;
  PetscFunctionBeginUser;
  PetscCall(getArrays(A, &b));
  PetscCall(VecGetArrayRead(x, &xs));
  if (y)
    PetscCall(VecGetArrayPair(y, z, &ys, &zs));
  else
    PetscCall(VecGetArrayWrite(z, &zs));
  PetscInt rowsWithBlocks = 0;
  for (PetscInt i = 0; i < b.blockRows; ++i) {
    const PetscInt end = b.offsets[i + 1];
    rowsWithBlocks += end > b.offsets[i];
    const PetscScalar* v = b.values + 9 * b.offsets[i];
    PetscScalar sum1 = 0, sum2 = 0, sum3 = 0;
    if (ys) {
      sum1 = ys[3 * i];
      sum2 = ys[3 * i + 1];
      sum3 = ys[3 * i + 2];
    }
    for (PetscInt k = b.offsets[i]; k < end; ++k, v += 9) {
      b.fetchAhead(v, k);
      const PetscScalar* xb = xs + 3 * b.columns[k];
      const PetscScalar x1 = xb[0], x2 = xb[1], x3 = xb[2];
      sum1 += v[0] * x1 + v[3] * x2 + v[6] * x3;
      sum2 += v[1] * x1 + v[4] * x2 + v[7] * x3;
      sum3 += v[2] * x1 + v[5] * x2 + v[8] * x3;
    }
    zs[3 * i] = sum1;
    zs[3 * i + 1] = sum2;
    zs[3 * i + 2] = sum3;
  }
  if (y)
    PetscCall(VecRestoreArrayPair(y, z, &ys, &zs));
  else
    PetscCall(VecRestoreArrayWrite(z, &zs));
  PetscCall(VecRestoreArrayRead(x, &xs));
  PetscCall(restoreArrays(A, &b));
  PetscCall(PetscLogFlops(18.0 * double(b.blocks) - (y ? 0.0 : 3.0 * double(rowsWithBlocks))));
  PetscFunctionReturn(0);
}

PetscErrorCode product(Mat A, Vec x, Vec y) {
  return rowProducts(A, x, nullptr, y);
}
PetscErrorCode productAdd(Mat A, Vec x, Vec y, Vec z) {
  return rowProducts(A, x, y, z);
}

template <typename Function>
void setOperation(Mat A, MatOperation operation, Function* function) {
  EIS_CHECK(MatSetOperation(A, operation, reinterpret_cast<void (*)(void)>(function)));
}

}  // namespace

void prefetchBlockProducts(Mat B, int distance) {
  PetscInt bs;
  EIS_CHECK(MatGetBlockSize(B, &bs));
  if (distance <= 0 || bs != 3) return;
  Mat part = B;
  PetscBool parallel;
  EIS_CHECK(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(B), MATMPIBAIJ, &parallel));
  if (parallel) EIS_CHECK(MatMPIBAIJGetSeqBAIJ(B, &part, nullptr, nullptr));
  PetscBool sequential;
  EIS_CHECK(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(part), MATSEQBAIJ, &sequential));
  if (!sequential) return;
  PetscContainer container;
  EIS_CHECK(PetscContainerCreate(PETSC_COMM_SELF, &container));
  auto owned = std::make_unique<PetscInt>(distance);
  EIS_CHECK(PetscContainerSetPointer(container, owned.get()));
  EIS_CHECK(PetscContainerSetUserDestroy(container, destroyDistance));
  owned.release();
  EIS_CHECK(PetscObjectCompose(reinterpret_cast<PetscObject>(part), kDistanceName,
                               reinterpret_cast<PetscObject>(container)));
  EIS_CHECK(PetscContainerDestroy(&container));
  setOperation(part, MATOP_MULT, product);
  setOperation(part, MATOP_MULT_ADD, productAdd);
}

}  // namespace eis
