#pragma once
// GAMG's coarser levels multiplied in block storage too. Lever 4 (block_copy.hpp) gives the
// finest level's products a BAIJ copy by handing it to the KSP as its operator; the matrices
// GAMG builds itself are AIJ, made of full blocks: the levels' operators of the near null
// space's size (6 for elasticity), the interpolations of 3 x 6 blocks, themselves 3 x 3 blocks
// in pairs. Their products (each level's Chebyshev smoother and residual, each interpolation and
// restriction) were 1.5 to 2 times slower than over a BAIJ copy (docs/performance.md, "Lever
// 5"). After a set-up, each level's operator between the finest and the coarsest (which a direct
// solve factors) and each interpolation gets a BlockCopy, and its products are redirected to the
// copy (MatSetOperation). The matrix keeps its identity, values and composed data (GAMG's
// eigenvalue estimates for Chebyshev), so no smoother is set up again; the copy follows the
// matrix's values should GAMG refresh them in place (-pc_gamg_reuse_interpolation). With their
// values in float on one rank, the copy is only the float blocks (single_blocks.hpp), which the
// matrix's own products then read.
#include <petscksp.h>

#include "eis/linalg/block_copy.hpp"
#include "eis/linalg/prefetching_block_product.hpp"

namespace eis {

// Collective. Redirects the products of the operators of `ksp`'s multigrid preconditioner (PCMG
// or PCGAMG, once set up) between its finest and coarsest level, and of its interpolations, to
// block copies; a matrix not made of full blocks on every rank, and any other preconditioner,
// are left as they are, and so is a matrix already redirected. The copies read ahead as
// `prefetch` says, over their values rounded to float with `single`
// (prefetching_block_product.hpp). With `release`, each matrix whose products then read float
// blocks (one rank) frees its own AIJ storage right after (releaseAijStorage): the float blocks
// become its only copy (at 1e6 unknowns 509 MiB of GAMG's AIJ matrices that no product read).
// GAMG can then no longer set up again in place (it would refresh its coarse operators from
// those AIJ values): the caller resets it first. True when anything was released.
bool multiplyLevelsInBlocks(KSP ksp, BlockPrefetch prefetch, bool single, bool release = false);

// Collective. The matrix a solve by A multiplies with: A's own block copy (block_copy.hpp; made
// at the first call and composed with A, which owns it, its values copied again whenever A's
// changed; a copy of another `storage` is replaced), or A itself when A is not made of full blocks
// on every rank. With a copy, A's diagonal is read from it too: PETSc's Jacobi asks the
// preconditioning matrix for its diagonal at every solve after the matrix changed (the finest
// smoother of a kept multigrid does, at each corotational step), and an AIJ matrix searches each
// row for its diagonal entry, where the copy knows where each diagonal block is. The copy's own
// products read ahead as `prefetch` says (prefetching_block_product.hpp; a distance of 0:
// PETSc's product). `storage`: Upper keeps the upper triangle of a symmetric A (block_copy.hpp:
// on several ranks only with a read-ahead, and then the copy is multiplied through a MatShell). The
// copy's making (its structure, the first touch of its memory) is timed as "Block copy set-up",
// apart from the value copies of the caller's timer.
Mat fineBlockProducts(Mat A, BlockPrefetch prefetch, BlockCopy::Storage storage);

// Collective. What a multigrid's finest smoother multiplies by in place of A once A has its
// block copy (fineBlockProducts): the copy's products from the high halves of its values alone
// where the copy holds the upper triangle in halves (BlockCopy::highHalvesOf: half the bytes of
// the finest level's smoothing and residual, four of an iteration's five products of the finest
// operator), else the copy's products; null when A has none. The V-cycle stays a fixed
// symmetric operator, close to A's (each value at most 2^-20 of it off), so CG's iterations, by
// the copy's exact products, converge as before.
Mat fineSmootherProducts(Mat A);

// Collective. After a set-up of `ksp`'s multigrid (PCMG or PCGAMG) whose finest smoother
// multiplied by the preconditioning matrix: that smoother multiplies by `products` (of
// fineSmootherProducts, or the KSP's new operator) instead, set up again now (Chebyshev
// estimates its eigenvalue bounds on it), and the finest residual follows it
// (followFinestOperator). Any other preconditioner is left as it is.
void handFinestOperator(KSP ksp, Mat products);

// Collective. After a set-up again of `ksp`'s multigrid (PCMG or PCGAMG), where PETSc gave the
// finest smoother the KSP's operator, the products of the preconditioning matrix's block copy:
// the smoother takes fineSmootherProducts instead (handFinestOperator). Nothing where it has
// them already, or for a matrix without a copy or another preconditioner.
void smoothFinestByHighHalves(KSP ksp);

// Collective. After a set-up of `ksp`'s multigrid (PCMG or PCGAMG), its finest residual takes
// the finest smoother's operator. PCMG keeps the matrix its residual was first given, and a
// set-up that keeps the hierarchy (GAMG reusing its interpolation) gives the smoother a new
// operator without telling the residual: when A's copy was remade in between
// (fineBlockProducts: A no longer known to be symmetric, or of another storage), the residual
// went on with the first copy and its first values, the V-cycle was no longer symmetric, and CG
// stalled (DIVERGED_ITS). Any other preconditioner is left as it is.
void followFinestOperator(KSP ksp);

// Collective. After a set-up of `ksp`'s multigrid (PCMG or PCGAMG): frees the Krylov vectors of
// each level's eigenvalue estimate. Every Chebyshev smoother estimates its largest eigenvalue
// with about ten GMRES iterations at set-up (ksp_settings.hpp, setDefaultSolver), whose GMRES
// kept its vectors (129 MB at 1e6 unknowns on one rank) though nothing reads them until the next
// estimate, which allocates them again. The same bits either way. Any other preconditioner, or
// a smoother without an estimate, is left as it is.
void releaseEigenvalueEstimates(KSP ksp);

}  // namespace eis
