#include "eis/linalg/ksp_settings.hpp"

#include <cstring>
#include <string>

#include "eis/core/error.hpp"

namespace eis {

namespace {

struct OptionDefault {
  const char* name;  // without the leading dash and the prefix
  const char* value;
};

// BoomerAMG in 3D: hypre's defaults (strength threshold 0.25, Falgout coarsening, classical
// interpolation) build an operator complexity of 4.5 on our beams; these keep it near 1.5.
constexpr OptionDefault kHypre3d[] = {{"pc_hypre_boomeramg_strong_threshold", "0.5"},
                                      {"pc_hypre_boomeramg_coarsen_type", "HMIS"},
                                      {"pc_hypre_boomeramg_interp_type", "ext+i"},
                                      {"pc_hypre_boomeramg_P_max", "4"},
                                      {"pc_hypre_boomeramg_agg_nl", "1"}};

// Elasticity: coarsen the three unknowns of a node together (strength from the row-sum norm of
// each 3x3 block, hypre's nodal = 4; nodal_diag = 1 sets each diagonal entry of that strength
// matrix to minus the sum of its row's others) and add the near-nullspace vectors to the
// interpolation (GM-1, at most 4 entries per row for each). PETSc hands BoomerAMG the matrix's
// near-nullspace in PCSetUp_HYPRE; BoomerAMG uses it only with a vec_interp_variant.
constexpr OptionDefault kHypreElasticity[] = {{"pc_hypre_boomeramg_nodal_coarsen", "4"},
                                              {"pc_hypre_boomeramg_nodal_coarsen_diag", "1"},
                                              {"pc_hypre_boomeramg_vec_interp_variant", "1"},
                                              {"pc_hypre_boomeramg_vec_interp_qmax", "4"}};

const char* optionsPrefix(KSP ksp) {
  const char* prefix = nullptr;
  EIS_CHECK(KSPGetOptionsPrefix(ksp, &prefix));
  return prefix;
}

// Whether -pc_type is absent or names hypre.
bool hypreUnlessOverridden(const char* prefix) {
  char type[64] = "";
  PetscBool given = PETSC_FALSE;
  EIS_CHECK(PetscOptionsGetString(nullptr, prefix, "-pc_type", type, sizeof type, &given));
  return !given || std::strcmp(type, PCHYPRE) == 0;
}

// A matrix not declared symmetric (a follower pressure's K) takes the methods for nonsymmetric
// systems in place of our symmetric defaults: GMRES for CG (preconditioned on the right when the
// stop measures the true residual, which GMRES offers only so), LU for Cholesky, the factorization
// package kept. Options read after may choose otherwise.
void nonsymmetricDefaults(KSP ksp, Mat A) {
  PetscBool known = PETSC_FALSE, symmetric = PETSC_FALSE;
  EIS_CHECK(MatIsSymmetricKnown(A, &known, &symmetric));
  if (known && symmetric) return;
  PetscBool cg = PETSC_FALSE, cholesky = PETSC_FALSE;
  EIS_CHECK(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(ksp), KSPCG, &cg));
  if (cg) {
    EIS_CHECK(KSPSetType(ksp, KSPGMRES));
    KSPNormType norm;
    EIS_CHECK(KSPGetNormType(ksp, &norm));
    if (norm == KSP_NORM_UNPRECONDITIONED) EIS_CHECK(KSPSetPCSide(ksp, PC_RIGHT));
  }
  PC pc;
  EIS_CHECK(KSPGetPC(ksp, &pc));
  EIS_CHECK(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(pc), PCCHOLESKY, &cholesky));
  if (cholesky) {
    MatSolverType package = nullptr;
    EIS_CHECK(PCFactorGetMatSolverType(pc, &package));
    const std::string kept = package ? package : "";
    EIS_CHECK(PCSetType(pc, PCLU));
    if (!kept.empty()) EIS_CHECK(PCFactorSetMatSolverType(pc, kept.c_str()));
  }
}

}  // namespace

void setDefaultSolver(KSP ksp, PCType pc, double rtol) {
  EIS_CHECK(KSPSetType(ksp, KSPCG));
  PC preconditioner;
  EIS_CHECK(KSPGetPC(ksp, &preconditioner));
  EIS_CHECK(PCSetType(preconditioner, pc));
  // GAMG's Chebyshev smoothers take their eigenvalue bounds from the estimate made while
  // smoothing the prolongator, which PETSc 3.18 keeps with the interpolation it reuses: for a
  // matrix that changes (corotational, hyperelastic) it is the first matrix's, and once the
  // largest eigenvalue outgrows it by more than Chebyshev's 1.1 margin the preconditioner turns
  // indefinite (a soft swinging beam: 2.91 kept, about 3.3 later, DIVERGED_INDEFINITE_PC at step
  // 50). The smoothers estimate their own at every set-up instead; -pc_gamg_use_sa_esteig
  // overrides.
  if (std::strcmp(pc, PCGAMG) == 0) EIS_CHECK(PCGAMGSetUseSAEstEig(preconditioner, PETSC_FALSE));
  EIS_CHECK(KSPSetTolerances(ksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
}

KSP indefiniteFallbackOf(KSP cg) {
  KSP gmres;
  EIS_CHECK(KSPCreate(PetscObjectComm(reinterpret_cast<PetscObject>(cg)), &gmres));
  EIS_CHECK(KSPSetType(gmres, KSPGMRES));
  PC pc;
  EIS_CHECK(KSPGetPC(cg, &pc));
  EIS_CHECK(KSPSetPC(gmres, pc));
  PetscReal rtol, atol, dtol;
  PetscInt maxIterations;
  EIS_CHECK(KSPGetTolerances(cg, &rtol, &atol, &dtol, &maxIterations));
  EIS_CHECK(KSPSetTolerances(gmres, rtol, atol, dtol, maxIterations));
  KSPNormType norm;
  EIS_CHECK(KSPGetNormType(cg, &norm));
  if (norm == KSP_NORM_UNPRECONDITIONED) {
    EIS_CHECK(KSPSetPCSide(gmres, PC_RIGHT));
    EIS_CHECK(KSPSetNormType(gmres, KSP_NORM_UNPRECONDITIONED));
  }
  PetscBool nonzero;
  EIS_CHECK(KSPGetInitialGuessNonzero(cg, &nonzero));
  EIS_CHECK(KSPSetInitialGuessNonzero(gmres, nonzero));
  return gmres;
}

HypreDefaults::HypreDefaults(KSP ksp, PCType defaultPc, bool elasticity) {
  const char* prefix = optionsPrefix(ksp);
  if (std::strcmp(defaultPc, PCHYPRE) != 0 || !hypreUnlessOverridden(prefix)) return;
  std::vector<OptionDefault> defaults(std::begin(kHypre3d), std::end(kHypre3d));
  if (elasticity)
    defaults.insert(defaults.end(), std::begin(kHypreElasticity), std::end(kHypreElasticity));
  for (const OptionDefault& option : defaults) {
    const std::string name = "-" + std::string(prefix ? prefix : "") + option.name;
    PetscBool given = PETSC_FALSE;
    EIS_CHECK(PetscOptionsHasName(nullptr, nullptr, name.c_str(), &given));
    if (given) continue;
    EIS_CHECK(PetscOptionsSetValue(nullptr, name.c_str(), option.value));
    added_.push_back(name);
  }
}

HypreDefaults::~HypreDefaults() {
  for (const std::string& name : added_) PetscOptionsClearValue(nullptr, name.c_str());
}

namespace {

// `ksp`'s preconditioner when it is GAMG, else null.
PC gamgOf(KSP ksp) {
  PC pc;
  EIS_CHECK(KSPGetPC(ksp, &pc));
  PetscBool gamg = PETSC_FALSE;
  EIS_CHECK(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(pc), PCGAMG, &gamg));
  return gamg ? pc : nullptr;
}

}  // namespace

ClearedProducts::ClearedProducts(KSP ksp, bool active) {
  if (!active || !gamgOf(ksp)) return;
  PetscBool given = PETSC_FALSE;
  EIS_CHECK(PetscOptionsHasName(nullptr, nullptr, "-mat_product_clear", &given));
  if (given) return;
  EIS_CHECK(PetscOptionsSetValue(nullptr, "-mat_product_clear", "true"));
  added_ = true;
}

ClearedProducts::~ClearedProducts() {
  if (added_) PetscOptionsClearValue(nullptr, "-mat_product_clear");
}

FreshInterpolation::FreshInterpolation(KSP ksp, bool active) {
  const PC pc = active ? gamgOf(ksp) : nullptr;
  if (!pc) return;
  const char* prefix = nullptr;
  EIS_CHECK(PCGetOptionsPrefix(pc, &prefix));
  EIS_CHECK(PetscOptionsGetBool(nullptr, prefix, "-pc_gamg_reuse_interpolation", &reuse_, nullptr));
  EIS_CHECK(PCGAMGSetReuseInterpolation(pc, PETSC_FALSE));
  gamg_ = pc;
}

FreshInterpolation::~FreshInterpolation() {
  if (gamg_) PCGAMGSetReuseInterpolation(gamg_, reuse_);
}

CgEigenvalueEstimates::CgEigenvalueEstimates(KSP ksp, bool active) {
  const PC pc = active ? gamgOf(ksp) : nullptr;
  PetscBool cg = PETSC_FALSE;
  EIS_CHECK(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(ksp), KSPCG, &cg));
  if (!pc || !cg) return;
  const char* prefix = nullptr;
  EIS_CHECK(PCGetOptionsPrefix(pc, &prefix));
  const std::string name = "-" + std::string(prefix ? prefix : "") + "mg_levels_esteig_ksp_type";
  PetscBool given = PETSC_FALSE;
  EIS_CHECK(PetscOptionsHasName(nullptr, nullptr, name.c_str(), &given));
  if (given) return;
  EIS_CHECK(PetscOptionsSetValue(nullptr, name.c_str(), KSPCG));
  added_ = name;
}

CgEigenvalueEstimates::~CgEigenvalueEstimates() {
  if (!added_.empty()) PetscOptionsClearValue(nullptr, added_.c_str());
}

void attachNearNullSpace(KSP ksp, Mat A, Vec restCoordinates) {
  if (!restCoordinates) return;
  PC pc;
  EIS_CHECK(KSPGetPC(ksp, &pc));
  PetscBool hypre = PETSC_FALSE;
  EIS_CHECK(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(pc), PCHYPRE, &hypre));
  MatNullSpace rigid;
  EIS_CHECK(MatNullSpaceCreateRigidBody(restCoordinates, &rigid));
  if (hypre) {
    // MatNullSpaceCreateRigidBody lists the three translations first, then the rotations.
    PetscBool hasConstant;
    PetscInt count;
    const Vec* modes;
    EIS_CHECK(MatNullSpaceGetVecs(rigid, &hasConstant, &count, &modes));
    MatNullSpace rotations;
    EIS_CHECK(MatNullSpaceCreate(PetscObjectComm(reinterpret_cast<PetscObject>(A)), PETSC_FALSE,
                                 count - 3, modes + 3, &rotations));
    EIS_CHECK(MatSetNearNullSpace(A, rotations));
    EIS_CHECK(MatNullSpaceDestroy(&rotations));
  } else {
    EIS_CHECK(MatSetNearNullSpace(A, rigid));
  }
  EIS_CHECK(MatNullSpaceDestroy(&rigid));
}

KspSettings::KspSettings(PCType defaultPc, bool hypreElasticity, Vec restCoordinates)
    : defaultPc_(defaultPc), hypreElasticity_(hypreElasticity && restCoordinates) {
  if (restCoordinates) {
    EIS_CHECK(PetscObjectReference(reinterpret_cast<PetscObject>(restCoordinates)));
    restCoordinates_ = restCoordinates;
  }
}

KspSettings::~KspSettings() {
  VecDestroy(&restCoordinates_);
}

void KspSettings::setDefaults(KSP ksp, double rtol) const {
  setDefaultSolver(ksp, defaultPc_.c_str(), rtol);
}

// Options are read once the operator is known so that -pc_type and friends override our
// defaults; the near-nullspace goes on after, for the preconditioner they chose.
void KspSettings::readOptions(KSP ksp, Mat A, const std::function<void()>& setFromOptions) const {
  nonsymmetricDefaults(ksp, A);
  {
    const HypreDefaults hypre(ksp, defaultPc_.c_str(), hypreElasticity_);
    setFromOptions();
  }
  attachNearNullSpace(ksp, A);
}

void KspSettings::attachNearNullSpace(KSP ksp, Mat A) const {
  MatNullSpace attached;
  EIS_CHECK(MatGetNearNullSpace(A, &attached));
  if (!attached) eis::attachNearNullSpace(ksp, A, restCoordinates_);
}

void KspSettings::releaseNearNullSpace(Mat A) const {
  if (restCoordinates_) EIS_CHECK(MatSetNearNullSpace(A, nullptr));
}

}  // namespace eis
