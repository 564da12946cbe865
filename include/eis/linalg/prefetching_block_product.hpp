#pragma once
// The products by the block copies (block_copy.hpp: the step matrix's in 3 x 3 blocks, GAMG's
// levels' and interpolations' in 6 x 6 or 3 x 3) with the matrix read ahead of the loop.
// PETSc's block products fetch the next block row's values and column indices before each row
// (about one kilobyte ahead), and on this project's step matrices they read the matrix at 0.6
// of the STREAM triad's pace: the loads wait on memory. The same loop with its prefetches a
// hundred 3 x 3 blocks ahead (about 9 kB) took 0.54 ms where PETSc's took 0.72 ms at 70,227
// unknowns, and 16.0 ms against 17.7 ms at 1,013,643 (docs/performance.md, "Lever 4, read
// ahead"). The sums are PETSc's, in its order: the same answer to the last bit.
#include <petscmat.h>

namespace eis {

// Makes the products of B, a BAIJ matrix of 3 x 3 or 6 x 6 blocks (sequential, or on several
// ranks the diagonal part of each rank's rows, through which PETSc's parallel products go), fetch
// its blocks `distance` 3 x 3 blocks' bytes ahead: MatMult, and MatMultAdd (an interpolation's
// prolongation). The transposed products (its restriction) stay PETSc's: reading ahead did not
// shorten them. A sequential SBAIJ matrix of 3 x 3 blocks (the upper triangle of a symmetric
// step matrix on one rank) gets the same for its MatMult, PETSc's SBAIJ sums in their order.
// 0, or another block size, leaves PETSc's own products.
void prefetchBlockProducts(Mat B, int distance);

}  // namespace eis
