#pragma once
// The files PETSc's own options write (-log_view :FILE, -ksp_view ascii:FILE, any viewer option
// with a file): PETSc opens most of them only when it writes, -log_view's in PetscFinalize, after
// every step, so a folder that does not exist would cost the whole run. Checked before step 1.
#include <mpi.h>

namespace eis {

// Collective. Throws eis::Error on every rank, naming the option, when a file it names cannot be
// created: its folder is missing or not writable, or it is a folder.
void checkPetscOutputPaths(MPI_Comm comm);

}  // namespace eis
