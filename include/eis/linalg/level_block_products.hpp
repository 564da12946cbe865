#pragma once
// GAMG's coarser levels multiplied in block storage too. Lever 4 (block_copy.hpp) gives the
// finest level's products a BAIJ copy by handing it to the KSP as its operator; the levels GAMG
// builds itself are AIJ matrices made of full blocks of the near null space's size (6 for
// elasticity), and their products (each level's Chebyshev smoother and residual) were 1.5 to 2
// times slower than over a BAIJ copy (docs/performance.md, "Lever 5"). After a set-up, each
// level between the finest and the coarsest (which a direct solve factors) gets a BlockCopy of
// its operator and its MatMult is redirected to the copy (MatSetOperation). The operator keeps
// its identity, values and composed data (GAMG's eigenvalue estimates for Chebyshev), so no
// smoother is set up again; the copy follows the operator's values should GAMG refresh them in
// place (-pc_gamg_reuse_interpolation).
#include <petscksp.h>

namespace eis {

// Collective. Redirects the products of the levels of `ksp`'s multigrid preconditioner (PCMG
// or PCGAMG, once set up) between its finest and coarsest to block copies; a level not made of
// full blocks on every rank, and any other preconditioner, are left as they are. A level
// already redirected is left as it is.
void multiplyLevelsInBlocks(KSP ksp);

}  // namespace eis
