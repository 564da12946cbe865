#pragma once
// The products by the block copies (block_copy.hpp: the step matrix's in 3 x 3 blocks, GAMG's
// levels' and interpolations' in 6 x 6 or 3 x 3) with the matrix read ahead of the loop.
// PETSc's block products fetch the next block row's values and column indices before each row
// (about one kilobyte ahead), and on this project's step matrices they read the matrix at 0.6
// of the STREAM triad's pace: the loads wait on memory. The same loop with its prefetches a
// hundred 3 x 3 blocks ahead (about 9 kB) took 0.54 ms where PETSc's took 0.72 ms at 70,227
// unknowns, and 16.0 ms against 17.7 ms at 1,013,643 (docs/performance.md, "Lever 4, read
// ahead"). Each fetch asks to keep the line in every cache level (locality 3, x86's prefetcht0)
// by default: the non-temporal fetch (locality 0, prefetchnta) the loop first used made every
// product two to three times slower on a host with a 14 GB/s triad and a large shared cache
// (docs/performance.md, "The read-ahead's locality"). The sums are PETSc's, in its order: the
// same answer to the last bit, whatever the distance and the locality. GCC compiles the loops
// for AVX2 too (EIS_TEMPLATE_VECTOR_CLONES: the same bits, 4 % shorter steps of issue 38's beam);
// the upper triangle's runs each block in AVX2 registers where the processor has them
// (upper_triangle_product.cpp: the same bits; 0.53 to 0.61 ms a product instead of 0.67 to
// 0.70 on a 28 GB/s host at 23,409 nodes).
#include <petscmat.h>

namespace eis {

// How far ahead the block products fetch the matrix (solver.block-prefetch,
// solver.block-prefetch-locality): `distance` 3 x 3 blocks' bytes (0: PETSc's own loops), and
// `locality` as __builtin_prefetch takes it, 0 (non-temporal: evicted first) to 3 (kept in every
// cache level).
struct BlockPrefetch {
  int distance = 128;
  int locality = 3;
};

// Makes the products of B, a BAIJ matrix of 3 x 3 or 6 x 6 blocks (sequential, or on several
// ranks the diagonal part of each rank's rows, through which PETSc's parallel products go), fetch
// its blocks as `how` says: MatMult, and MatMultAdd (an interpolation's prolongation); with 3 x 3
// blocks also MatMultTranspose and MatMultTransposeAdd (the finest interpolation's restriction:
// 0.26 instead of 0.37 s of issue 38's corotational beam, docs/performance.md), where 6 x 6
// blocks keep PETSc's. A distance of 0, another block size, or a matrix other than a sequential
// BAIJ one (or the diagonal part of a parallel one), leaves PETSc's own products.
// singleValues: B's sequential part (not an upper triangle) keeps its values rounded to float
// as well, and its products read those, widened to double as they multiply: half the bytes of
// each block, for a multigrid's coarser levels and interpolations, which a preconditioner needs
// fixed and symmetric, not exact. Its transposed products then read them too, for 6 x 6 blocks
// as well, so that restriction and prolongation stay each other's transposes.
void prefetchBlockProducts(Mat B, BlockPrefetch how, bool singleValues = false);

// Makes the MatMult of `part`, a sequential SBAIJ matrix (the step matrix's upper triangle on one
// rank) or BAIJ matrix (the diagonal part of a rank's rows on several, which PETSc has no
// storage for) of 3 x 3 blocks that holds only the upper triangle of a symmetric matrix's
// blocks, the upper triangle's product above, fetched ahead as `how` says (a distance of at
// least one block), PETSc's SBAIJ sums in their order; and its values split in halves
// (block_arrays.hpp, SplitValues), which the copy then writes and its MatGetDiagonal reads. Its
// other products stay PETSc's, which would read the halves as doubles: only that MatMult and the
// diagonal may be used.
void multiplyAsUpperTriangle(Mat part, BlockPrefetch how);

// On one rank, the same float products without a BAIJ copy: makes the products of A, a
// sequential AIJ matrix of full 3 x 3 or 6 x 6 blocks (a multigrid's coarser level or
// interpolation), read its blocks' values rounded to float (single_blocks.hpp), fetched ahead as
// `how` says: MatMult, MatMultAdd, MatMultTranspose and MatMultTransposeAdd, the sums of a BAIJ
// copy given singleValues above, in their order. The float values follow A's should they change.
// False, A left as it is: another matrix, another block size, or a distance of 0. True for an A
// already given them.
bool prefetchSingleBlockProducts(Mat A, BlockPrefetch how);

// Frees the AIJ storage of A, given its float products above: its float blocks become the only
// copy of its values (SingleBlocks::release), its diagonal (a square A's) is read from their
// record of it, and its products are unchanged. A must not change afterwards. False, A left as
// it is: A has no float blocks, or released them already.
bool releaseAijStorage(Mat A);

// Rounds the values of `part` (a sequential BAIJ matrix given singleValues above) into its float
// copy again, after they changed; nothing for any other matrix.
void refreshSingleValues(Mat part);

}  // namespace eis
