#include "eis/linalg/solution_check.hpp"

// PetscObjectStateGet (see preconditioner_reuse.cpp), and the KSP's rnorm0: the reference norm
// PETSc's default test measured at iteration 0, which PETSc 3.18 keeps in the KSP and offers no
// getter for.
#include <petsc/private/kspimpl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

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

// r = b - A x; for a sequential AIJ matrix (the step matrix on one rank) also ||A||_inf, in one
// pass over its arrays with each row's entries fetched into the cache ahead of the loop. PETSc's
// MatMult and MatNorm read the matrix once each with non-temporal fetches, which on a host with
// a 14 GB/s triad took 5.7 and 3.3 ms a step of issue 38's 70,227-unknown matrix
// (docs/performance.md). The sums are the plain row sums, not PETSc's order: r feeds the verdict
// alone. Returns the norm, or -1 where MatMult made the product.
double residualAndNorm(Mat A, Vec b, Vec x, Vec r) {
  PetscBool sequentialAij;
  EIS_CHECK(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(A), MATSEQAIJ, &sequentialAij));
  if (!sequentialAij) {
    EIS_CHECK(MatMult(A, x, r));
    EIS_CHECK(VecAYPX(r, -1.0, b));
    return -1;
  }
  PetscInt n;
  const PetscInt *rows, *columns;
  PetscBool done;
  EIS_CHECK(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &rows, &columns, &done));
  if (!done) throw Error("internal: PETSc gave no row structure of the step matrix");
  const PetscScalar* values;
  const PetscScalar *xs, *bs;
  PetscScalar* rs;
  EIS_CHECK(MatSeqAIJGetArrayRead(A, &values));
  EIS_CHECK(VecGetArrayRead(x, &xs));
  EIS_CHECK(VecGetArrayRead(b, &bs));
  EIS_CHECK(VecGetArrayWrite(r, &rs));
  // 128 entries ahead: 1 kB of values, 512 bytes of column indices. The addresses are integers:
  // they may lie past the arrays, where a pointer may not point; a prefetch does not fault.
  constexpr std::uintptr_t kAhead = 128;
  const auto valuesAt = reinterpret_cast<std::uintptr_t>(values) + kAhead * sizeof(PetscScalar);
  const auto columnsAt = reinterpret_cast<std::uintptr_t>(columns) + kAhead * sizeof(PetscInt);
  double norm = 0;
  for (PetscInt i = 0; i < n; ++i) {
    double product = 0, absolute = 0;
    for (PetscInt k = rows[i]; k < rows[i + 1]; ++k) {
      __builtin_prefetch(reinterpret_cast<const void*>(valuesAt + k * sizeof(PetscScalar)), 0, 3);
      __builtin_prefetch(reinterpret_cast<const void*>(columnsAt + k * sizeof(PetscInt)), 0, 3);
      product += values[k] * xs[columns[k]];
      absolute += std::abs(values[k]);
    }
    rs[i] = bs[i] - product;
    norm = std::max(norm, absolute);
  }
  EIS_CHECK(VecRestoreArrayWrite(r, &rs));
  EIS_CHECK(VecRestoreArrayRead(b, &bs));
  EIS_CHECK(VecRestoreArrayRead(x, &xs));
  EIS_CHECK(PetscLogFlops(3.0 * double(rows[n])));
  EIS_CHECK(MatSeqAIJRestoreArrayRead(A, &values));
  EIS_CHECK(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &rows, &columns, &done));
  return norm;
}

const char* normName(KSPNormType type) {
  switch (type) {
    case KSP_NORM_PRECONDITIONED: return "preconditioned";
    case KSP_NORM_NATURAL: return "natural";
    default: return "true";
  }
}

}  // namespace

// Iteration 0 of a watched solve: ||x0||, and the reference of the solve before forgotten.
// Iteration 1: the reference norm of PETSc's default test, which it took at iteration 0 (||B b||
// in the preconditioned norm: a preconditioner application the check need not repeat), with the
// right-hand side it belongs to. A KSP that tests no norm (preonly, a direct solve) never sets
// that reference: it keeps whatever it held, 0 at creation, so none is taken.
PetscErrorCode SolutionCheck::monitor(KSP ksp, PetscInt iteration, PetscReal, void* context) {
  PetscFunctionBeginUser;
  auto* check = static_cast<SolutionCheck*>(context);
  if (iteration == 0) {
    Vec x;
    PetscCall(KSPBuildSolution(ksp, nullptr, &x));
    PetscReal norm;
    PetscCall(VecNorm(x, NORM_2, &norm));
    check->startNorm_ = double(norm);
    check->referenceRhs_ = nullptr;
  } else if (iteration == 1) {
    PetscErrorCode (*test)(KSP, PetscInt, PetscReal, KSPConvergedReason*, void*);
    PetscCall(KSPGetConvergenceTest(ksp, &test, nullptr, nullptr));
    KSPNormType type;
    PetscCall(KSPGetNormType(ksp, &type));
    if (test == KSPConvergedDefault && type != KSP_NORM_NONE) {
      Vec b;
      PetscCall(KSPGetRhs(ksp, &b));
      PetscCall(PetscObjectStateGet(reinterpret_cast<PetscObject>(b), &check->referenceRhsState_));
      check->referenceRhs_ = b;
      check->reference_ = double(ksp->rnorm0);
    }
  }
  PetscFunctionReturn(0);
}

void SolutionCheck::watch(KSP ksp) {
  EIS_CHECK(KSPMonitorSet(ksp, monitor, this, nullptr));
}

// The reference norm the KSP's default test took in the last solve, when b is that solve's
// right-hand side, unchanged; else -1. Forgotten once asked for.
double SolutionCheck::knownReference(Vec b) {
  const Vec known = referenceRhs_;
  referenceRhs_ = nullptr;
  if (known != b) return -1;
  PetscObjectState state;
  EIS_CHECK(PetscObjectStateGet(reinterpret_cast<PetscObject>(b), &state));
  return state == referenceRhsState_ ? reference_ : -1;
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
  rememberNorm(A, double(norm));
  return norm_;
}

void SolutionCheck::rememberNorm(Mat A, double norm) {
  normMatrix_ = A;
  EIS_CHECK(PetscObjectStateGet(reinterpret_cast<PetscObject>(A), &normState_));
  norm_ = norm;
}

SolutionCheck::~SolutionCheck() {
  VecDestroy(&residual_);
  VecDestroy(&work_);
}

namespace {

void warn(KSP ksp, const std::string& text) {
  EIS_CHECK(PetscFPrintf(PetscObjectComm(reinterpret_cast<PetscObject>(ksp)), PETSC_STDERR,
                         "euler-implicit: warning: %s\n", text.c_str()));
}

}  // namespace

void SolutionCheck::audit(KSP ksp) {
  const char* prefix = nullptr;
  EIS_CHECK(KSPGetOptionsPrefix(ksp, &prefix));
  PetscReal rtol = 0;
  PetscBool given = PETSC_FALSE;
  EIS_CHECK(PetscOptionsGetReal(nullptr, prefix, "-ksp_rtol", &rtol, &given));
  if (given && !(rtol > 0 && rtol < 1)) {
    char text[200];
    std::snprintf(text, sizeof text,
                  "-ksp_rtol %g is no relative tolerance in (0, 1): PETSc keeps its own for a "
                  "negative one, and 1 or more passes at the first iteration",
                  double(rtol));
    warn(ksp, text);
  }
  KSPNormType type;
  EIS_CHECK(KSPGetNormType(ksp, &type));
  PetscBool preonly = PETSC_FALSE;
  EIS_CHECK(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(ksp), KSPPREONLY, &preonly));
  if (type == KSP_NORM_NONE && !preonly)
    warn(ksp,
         "-ksp_norm_type none: the solver tests no norm and stops at its iteration limit; each "
         "answer is then held to the true residual alone");
}

std::string SolutionCheck::verdict(KSP ksp, Mat A, Vec b, Vec x) {
  if (!residual_) {
    EIS_CHECK(VecDuplicate(b, &residual_));
    EIS_CHECK(VecDuplicate(b, &work_));
  }
  const Vec r = residual_;
  const double normA = residualAndNorm(A, b, x, r);
  if (normA >= 0) rememberNorm(A, normA);
  const double residual2 = norm2(r), rhs2 = norm2(b);
  const double roundoff = kRoundoffFactor * std::numeric_limits<double>::epsilon() *
                          (operatorNorm(A) * std::max(norm2(x), startNorm_) + rhs2);
  startNorm_ = 0;
  const double known = knownReference(b);
  trueRelative_ = rhs2 > 0 ? residual2 / rhs2 : -1;
  testedRelative_ = -1;
  if (residual2 <= roundoff) return {};

  PetscReal rtol, atol;
  EIS_CHECK(KSPGetTolerances(ksp, &rtol, &atol, nullptr, nullptr));
  KSPNormType type;
  EIS_CHECK(KSPGetNormType(ksp, &type));
  const double residual = normAsTested(ksp, type, r, work_);
  const double reference = known >= 0 ? known : normAsTested(ksp, type, b, work_);
  const bool preconditioned = type == KSP_NORM_PRECONDITIONED || type == KSP_NORM_NATURAL;
  if (preconditioned && reference > 0) testedRelative_ = residual / reference;
  if (!atolWarned_ && reference > 0 && double(atol) >= reference) {
    atolWarned_ = true;
    char text[240];
    std::snprintf(text, sizeof text,
                  "-ksp_atol %g is at least ||b|| = %.3g (%s norm): a solve may stop at once, "
                  "and the check accepts any answer within it",
                  double(atol), reference, normName(type));
    warn(ksp, text);
  }
  const double allowed = kDriftFactor * std::max(double(rtol) * reference, double(atol));
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

std::string SolutionCheck::columnsVerdict(KSP ksp, Mat A, Mat B, Mat X) {
  PetscInt columns;
  EIS_CHECK(MatGetSize(B, nullptr, &columns));
  Mat R;
  EIS_CHECK(MatMatMult(A, X, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &R));
  EIS_CHECK(MatAXPY(R, -1.0, B, SAME_NONZERO_PATTERN));
  const std::size_t count = std::size_t(columns);
  std::vector<PetscReal> r(count), b(count), x(count);
  EIS_CHECK(MatGetColumnNorms(R, NORM_2, r.data()));
  EIS_CHECK(MatDestroy(&R));
  EIS_CHECK(MatGetColumnNorms(B, NORM_2, b.data()));
  EIS_CHECK(MatGetColumnNorms(X, NORM_2, x.data()));
  PetscReal rtol, atol;
  EIS_CHECK(KSPGetTolerances(ksp, &rtol, &atol, nullptr, nullptr));
  const double normA = operatorNorm(A), eps = std::numeric_limits<double>::epsilon();
  for (std::size_t j = 0; j < r.size(); ++j) {
    const double roundoff = kRoundoffFactor * eps * (normA * x[j] + b[j]);
    const double allowed = kDriftFactor * std::max(double(rtol) * b[j], double(atol));
    if (r[j] <= roundoff || r[j] <= allowed) continue;
    char text[240];
    std::snprintf(text, sizeof text,
                  "column %zu's answer misses the tolerance asked for: ||b - A x||_2 is %.3g, "
                  "above max(rtol ||b||, atol) = %.3g (rtol %.3g) times %g and rounding level %.3g",
                  j, double(r[j]), allowed / kDriftFactor, double(rtol), kDriftFactor, roundoff);
    return text;
  }
  return {};
}

}  // namespace eis
