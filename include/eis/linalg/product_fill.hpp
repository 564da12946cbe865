#pragma once
// The memory GAMG's matrix products reserve. PETSc 3.18's GAMG asks its products with the step
// matrix A (the prolongator's smoothing A P0, the Galerkin product P^T A P) for a fill of 2: room
// for twice the nonzeros of both factors, allocated before the product's structure is known.
// Aggregation coarsens 3D elasticity some 30 times a level, so the finest Galerkin product needs
// 0.18 of that and A P0 0.45 (1e6 unknowns: 552 MB reserved for 49 MB of column indices). Those
// symbolic phases grow their space in chunks when it runs short (each as large as all before),
// so a low estimate costs a few allocations, and at most twice the space the product needs.
#include <petscmat.h>

namespace eis {

// The fill A's products of type AB (A first) and PtAP ask for, whoever makes them.
inline constexpr PetscReal kProductFill = 0.1;

// Makes the AB and PtAP products that have A as their first matrix (a sequential or parallel AIJ
// matrix) ask for kProductFill: A's product set-up (MatSetOperation) then runs A's type's own
// after setting the fill. Any other product of A is made as before. Once per matrix; nothing for
// a matrix of another type.
void reserveLessForProducts(Mat A);

}  // namespace eis
