#pragma once
// How the block copies and their products attach themselves to PETSc's matrices: a C++ object
// composed with a PETSc object under a name (in a PetscContainer), which then owns it and
// destroys it with itself, and an entry of a matrix's operation table.
#include <petscmat.h>

#include <memory>

#include "eis/core/error.hpp"

namespace eis {

// Composes `object` with `owner` under `name`; the owner then owns it. Returns the object.
template <class T>
T* composeOwned(PetscObject owner, const char* name, std::unique_ptr<T> object) {
  MPI_Comm comm;
  EIS_CHECK(PetscObjectGetComm(owner, &comm));
  PetscContainer container;
  EIS_CHECK(PetscContainerCreate(comm, &container));
  EIS_CHECK(PetscContainerSetPointer(container, object.get()));
  EIS_CHECK(PetscContainerSetUserDestroy(container, [](void* pointer) -> PetscErrorCode {
    delete static_cast<T*>(pointer);
    return 0;
  }));
  T* owned = object.release();
  EIS_CHECK(PetscObjectCompose(owner, name, reinterpret_cast<PetscObject>(container)));
  EIS_CHECK(PetscContainerDestroy(&container));
  return owned;
}

// The object composed with `owner` under `name`, or nullptr. PETSc's error code rather than an
// exception, for PETSc's callbacks.
template <class T>
PetscErrorCode queryComposed(PetscObject owner, const char* name, T** object) {
  PetscObject container;
  void* pointer = nullptr;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectQuery(owner, name, &container));
  if (container)
    PetscCall(PetscContainerGetPointer(reinterpret_cast<PetscContainer>(container), &pointer));
  *object = static_cast<T*>(pointer);
  PetscFunctionReturn(0);
}

// Sets the entry `operation` of A's operation table (MatSetOperation) to `function`.
template <typename Function>
void setOperation(Mat A, MatOperation operation, Function* function) {
  EIS_CHECK(MatSetOperation(A, operation, reinterpret_cast<void (*)(void)>(function)));
}

}  // namespace eis
