#include "eis/linalg/solution_check.hpp"

// PetscObjectStateGet, declared here in PETSc 3.18 (see preconditioner_reuse.cpp).
#include <petsc/private/petscimpl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "eis/core/error.hpp"

namespace eis {

namespace {

constexpr double kRoundoffFactor = 10;  // rule 1 of the header
constexpr double kDriftFactor = 10;     // rule 2
constexpr double kEntriesPerRow = 100;  // the matrix-free bound on ||A||

double norm2(Vec v) {
  PetscReal n;
  EIS_CHECK(VecNorm(v, NORM_2, &n));
  return double(n);
}

// ||v|| in the norm the KSP's test used; `work` receives B v where that norm needs it.
double normAsTested(KSP ksp, KSPNormType type, Vec v, Vec work) {
  if (type != KSP_NORM_PRECONDITIONED && type != KSP_NORM_NATURAL) return norm2(v);
  PC pc;
  EIS_CHECK(KSPGetPC(ksp, &pc));
  EIS_CHECK(PCApply(pc, v, work));
  if (type == KSP_NORM_PRECONDITIONED) return norm2(work);
  PetscScalar vBv;
  EIS_CHECK(VecDot(v, work, &vBv));
  return std::sqrt(std::max(0.0, double(PetscRealPart(vBv))));
}

const char* normName(KSPNormType type) {
  switch (type) {
    case KSP_NORM_PRECONDITIONED: return "preconditioned";
    case KSP_NORM_NATURAL: return "natural";
    default: return "true";
  }
}

}  // namespace

namespace {

PetscErrorCode recordStartNorm(KSP ksp, PetscInt iteration, PetscReal, void* context) {
  PetscFunctionBeginUser;
  if (iteration == 0) {
    Vec x;
    PetscCall(KSPBuildSolution(ksp, nullptr, &x));
    PetscCall(VecNorm(x, NORM_2, static_cast<PetscReal*>(context)));
  }
  PetscFunctionReturn(0);
}

}  // namespace

void SolutionCheck::watch(KSP ksp) {
  EIS_CHECK(KSPMonitorSet(ksp, recordStartNorm, &startNorm_, nullptr));
}

double SolutionCheck::operatorNorm(Mat A) {
  PetscObjectState state;
  EIS_CHECK(PetscObjectStateGet(reinterpret_cast<PetscObject>(A), &state));
  if (A == normMatrix_ && state == normState_) return norm_;
  PetscBool hasNorm;
  EIS_CHECK(MatHasOperation(A, MATOP_NORM, &hasNorm));
  PetscReal norm;
  if (hasNorm) {
    EIS_CHECK(MatNorm(A, NORM_INFINITY, &norm));
  } else {
    Vec diagonal;
    EIS_CHECK(MatCreateVecs(A, &diagonal, nullptr));
    EIS_CHECK(MatGetDiagonal(A, diagonal));
    EIS_CHECK(VecNorm(diagonal, NORM_INFINITY, &norm));
    EIS_CHECK(VecDestroy(&diagonal));
    norm *= kEntriesPerRow;
  }
  normMatrix_ = A;
  normState_ = state;
  norm_ = double(norm);
  return norm_;
}

SolutionCheck::~SolutionCheck() {
  VecDestroy(&residual_);
  VecDestroy(&work_);
}

std::string SolutionCheck::verdict(KSP ksp, Mat A, Vec b, Vec x) {
  if (!residual_) {
    EIS_CHECK(VecDuplicate(b, &residual_));
    EIS_CHECK(VecDuplicate(b, &work_));
  }
  const Vec r = residual_;
  EIS_CHECK(MatMult(A, x, r));
  EIS_CHECK(VecAYPX(r, -1.0, b));
  const double residual2 = norm2(r), rhs2 = norm2(b);
  const double roundoff = kRoundoffFactor * std::numeric_limits<double>::epsilon() *
                          (operatorNorm(A) * std::max(norm2(x), startNorm_) + rhs2);
  startNorm_ = 0;
  if (residual2 <= roundoff) return {};

  PetscReal rtol, atol;
  EIS_CHECK(KSPGetTolerances(ksp, &rtol, &atol, nullptr, nullptr));
  KSPNormType type;
  EIS_CHECK(KSPGetNormType(ksp, &type));
  const double residual = normAsTested(ksp, type, r, work_);
  const double allowed =
      kDriftFactor * std::max(double(rtol) * normAsTested(ksp, type, b, work_), double(atol));
  if (residual <= allowed) return {};

  char text[320];
  std::snprintf(text, sizeof text,
                "its answer misses the tolerance asked for: the %s norm of b - A x is %.3g, %.3g "
                "times max(rtol ||b||, atol) with rtol %.3g (at most %g times allowed), and above "
                "rounding level (||b - A x||_2 = %.3g > %.3g)",
                normName(type), residual, residual * kDriftFactor / allowed, double(rtol),
                kDriftFactor, residual2, roundoff);
  return text;
}

}  // namespace eis
