#pragma once
// How every KSP of a run is configured: CG with our default preconditioner and tolerance before
// the options database is read (so that -ksp_* and -pc_* override them), our BoomerAMG settings
// while it is read, and elasticity's near-nullspace after, for the preconditioner chosen. The
// linearized step's KSP and Newton's inner KSP share this.
#include <petscksp.h>

#include <functional>
#include <string>
#include <vector>

namespace eis {

// Our defaults for a KSP (CG with `pc`, relative tolerance `rtol`), set before the options
// database is read so that -ksp_* and -pc_* override them.
void setDefaultSolver(KSP ksp, PCType pc, double rtol);

// While it lives, the options database holds our BoomerAMG settings for 3D problems (strong
// threshold 0.5, HMIS coarsening, ext+i interpolation, P_max 4, one aggressive level) and, with
// `elasticity`, nodal coarsening with the near-nullspace as interpolation vectors (GM-1), each
// only where the user gave no value for it; it removes what it added when it goes. PETSc offers
// these settings through the options database only, read by KSPSetFromOptions. It adds nothing
// unless `defaultPc` is PCHYPRE and -pc_type, if given, names hypre too. Works on the options
// of `ksp`'s prefix.
class HypreDefaults {
public:
  HypreDefaults(KSP ksp, PCType defaultPc, bool elasticity);
  ~HypreDefaults();
  HypreDefaults(const HypreDefaults&) = delete;
  HypreDefaults& operator=(const HypreDefaults&) = delete;

private:
  std::vector<std::string> added_;
};

// While it lives, the matrix products PETSc makes without an options prefix (GAMG's: the graph,
// the prolongator's smoothing A P, the Galerkin products P^T A P) free their intermediate data as
// soon as their values are computed (-mat_product_clear), when `active` and `ksp`'s
// preconditioner is GAMG, unless the user gave that option; it removes what it added when it
// goes. On several ranks each Galerkin product keeps, beside its coarse operator, the
// intermediate matrices a later set-up reuses to redo only its numeric phase. A set-up that frees
// them costs the next one a symbolic phase: GAMG then makes that coarse operator anew (PETSc 3.18
// looks for the product on it first).
class ClearedProducts {
public:
  ClearedProducts(KSP ksp, bool active);
  ~ClearedProducts();
  ClearedProducts(const ClearedProducts&) = delete;
  ClearedProducts& operator=(const ClearedProducts&) = delete;

private:
  bool added_ = false;
};

// While it lives, a GAMG set up again builds its interpolation afresh rather than refreshing its
// coarse operators from the one it keeps (-pc_gamg_reuse_interpolation false), when `active`
// and `ksp`'s preconditioner is GAMG; it then gives GAMG back the user's value of that option,
// or PETSc 3.18's default (true). For a hierarchy whose AIJ storage was released
// (multiplyLevelsInBlocks), which has nothing to refresh from.
class FreshInterpolation {
public:
  FreshInterpolation(KSP ksp, bool active);
  ~FreshInterpolation();
  FreshInterpolation(const FreshInterpolation&) = delete;
  FreshInterpolation& operator=(const FreshInterpolation&) = delete;

private:
  PC gamg_ = nullptr;
  PetscBool reuse_ = PETSC_TRUE;
};

// While it lives, GAMG's Chebyshev smoothers estimate their largest eigenvalue by CG
// (-<prefix>mg_levels_esteig_ksp_type cg) rather than PETSc 3.18's GMRES, when `active` and
// `ksp` is CG preconditioned by GAMG, unless the user gave that option; it removes what it added
// when it goes. For a matrix that stays symmetric positive definite (a linear model's), for which
// PETSc 3.18 itself picks CG when the matrix says so (MAT_SPD): its Lanczos estimate keeps 3
// vectors of a level where GMRES's 10 steps keep 13, and the finest level's (100 MiB at 1e6
// unknowns) were where GAMG's set-up peaked. A matrix that turns indefinite is solved by GMRES
// with the same preconditioner, which CG's estimate of it can break (a buckling beam: GMRES then
// stalled).
class CgEigenvalueEstimates {
public:
  CgEigenvalueEstimates(KSP ksp, bool active);
  ~CgEigenvalueEstimates();
  CgEigenvalueEstimates(const CgEigenvalueEstimates&) = delete;
  CgEigenvalueEstimates& operator=(const CgEigenvalueEstimates&) = delete;

private:
  std::string added_;
};

// Elasticity's near-nullspace on A, for the preconditioner `ksp` ended up with (so after its
// options were read): the six rigid-body modes of the rest coordinates (a global Vec with block
// size 3) for GAMG and the others, only the three rotations for hypre, whose unknown-based
// interpolation already holds the translations (all six nearly double BoomerAMG's operator
// complexity, for the same iterations). Does nothing when restCoordinates is null.
void attachNearNullSpace(KSP ksp, Mat A, Vec restCoordinates);

// A GMRES beside the CG `cg`, for the matrices CG cannot solve (KSP_DIVERGED_INDEFINITE_MAT): it
// shares cg's preconditioner (no second set-up) and takes its tolerances, iteration limit,
// residual norm (an unpreconditioned one preconditioned on the right, as GMRES offers it only so)
// and whether the given x is the start. Nothing from the options database: -ksp_* options are
// cg's.
KSP indefiniteFallbackOf(KSP cg);

class KspSettings {
public:
  // defaultPc: PCGAMG, PCJACOBI or PCHYPRE (with HypreDefaults; hypreElasticity adds their
  // elasticity part). restCoordinates: a global Vec with block size 3 for elasticity's
  // near-nullspace, or nullptr for scalar problems (it is referenced, not copied).
  KspSettings(PCType defaultPc, bool hypreElasticity, Vec restCoordinates);
  ~KspSettings();
  KspSettings(const KspSettings&) = delete;
  KspSettings& operator=(const KspSettings&) = delete;

  // Before the options: CG, the default preconditioner, relative tolerance `rtol`.
  void setDefaults(KSP ksp, double rtol) const;
  // Once `ksp`'s operator A is known: a matrix not declared symmetric (MAT_SYMMETRIC) turns our
  // CG into GMRES and a Cholesky factorization into LU; then `setFromOptions` (KSPSetFromOptions,
  // or SNES's) runs with our BoomerAMG settings in the database, then A gets its near-nullspace.
  void readOptions(KSP ksp, Mat A, const std::function<void()>& setFromOptions) const;
  // The near-nullspace is read by a preconditioner's set-up alone (GAMG's tentative
  // prolongator, BoomerAMG's interpolation vectors, which it copies): attachNearNullSpace puts it
  // on A again where it is not there (readOptions put it there first), releaseNearNullSpace
  // takes it off between set-ups (6 vectors of every unknown).
  void attachNearNullSpace(KSP ksp, Mat A) const;
  void releaseNearNullSpace(Mat A) const;

private:
  std::string defaultPc_;
  bool hypreElasticity_;
  Vec restCoordinates_ = nullptr;
};

}  // namespace eis
