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

// y = A x over a sequential BAIJ matrix of 3 x 3 blocks, each stored column by column: PETSc's
// MatMult_SeqBAIJ_3 sums, with each block's two cache lines and its column index fetched
// `distance` blocks before it is read. A prefetch of an address past the arrays does not fault.
PetscErrorCode prefetchingProduct(Mat A, Vec x, Vec y) {
  PetscInt distance = 0, blockRows;
  const PetscInt *offsets, *columns;
  PetscBool done;
  PetscScalar *values, *ys;
  const PetscScalar* xs;
  PetscFunctionBeginUser;
  PetscCall(composedDistance(A, &distance));
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_TRUE, &blockRows, &offsets, &columns, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PETSc gave no block rows of a BAIJ matrix");
  PetscCall(MatSeqBAIJGetArray(A, &values));
  PetscCall(VecGetArrayRead(x, &xs));
  PetscCall(VecGetArrayWrite(y, &ys));
  // The addresses fetched are integers: `distance` blocks past a row may lie past the arrays,
  // where a pointer may not point.
  const std::uintptr_t valuesAhead = std::uintptr_t(distance) * 9 * sizeof(PetscScalar),
                       indexAhead = std::uintptr_t(distance) * sizeof(PetscInt);
  PetscInt rowsWithBlocks = 0;
  for (PetscInt i = 0; i < blockRows; ++i) {
    const PetscInt end = offsets[i + 1];
    rowsWithBlocks += end > offsets[i];
    const PetscScalar* v = values + 9 * offsets[i];
    PetscScalar sum1 = 0, sum2 = 0, sum3 = 0;
    for (PetscInt k = offsets[i]; k < end; ++k, v += 9) {
      const std::uintptr_t block = reinterpret_cast<std::uintptr_t>(v) + valuesAhead;
      __builtin_prefetch(reinterpret_cast<const void*>(block), 0, 0);
      __builtin_prefetch(reinterpret_cast<const void*>(block + 64), 0, 0);
      __builtin_prefetch(
          reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(columns + k) + indexAhead),
          0, 0);
      const PetscScalar* xb = xs + 3 * columns[k];
      const PetscScalar x1 = xb[0], x2 = xb[1], x3 = xb[2];
      sum1 += v[0] * x1 + v[3] * x2 + v[6] * x3;
      sum2 += v[1] * x1 + v[4] * x2 + v[7] * x3;
      sum3 += v[2] * x1 + v[5] * x2 + v[8] * x3;
    }
    ys[3 * i] = sum1;
    ys[3 * i + 1] = sum2;
    ys[3 * i + 2] = sum3;
  }
  const PetscInt blocks = offsets[blockRows];
  PetscCall(VecRestoreArrayWrite(y, &ys));
  PetscCall(VecRestoreArrayRead(x, &xs));
  PetscCall(MatSeqBAIJRestoreArray(A, &values));
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_TRUE, &blockRows, &offsets, &columns, &done));
  PetscCall(PetscLogFlops(18.0 * double(blocks) - 3.0 * double(rowsWithBlocks)));
  PetscFunctionReturn(0);
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
  EIS_CHECK(
      MatSetOperation(part, MATOP_MULT, reinterpret_cast<void (*)(void)>(prefetchingProduct)));
}

}  // namespace eis
