#pragma once
// PETSc log stages named after the parts of a step, so that -log_view splits a run the way
// the end-of-run summary does. A stage is registered on first use.
#include <petscsys.h>

namespace eis {

// Pushes the named stage for the lifetime of the object. `name` must be a string literal.
class ScopedStage {
public:
  explicit ScopedStage(const char* name);
  ~ScopedStage();
  ScopedStage(const ScopedStage&) = delete;
  ScopedStage& operator=(const ScopedStage&) = delete;
};

}  // namespace eis
