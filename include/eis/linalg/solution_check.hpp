#pragma once
// Whether a linear solve's answer meets the tolerance it was asked for, measured on the answer
// itself. PETSc's converged reason says only that the KSP's own test passed, and that test can be
// fooled: a preonly solve "converges" whatever its preconditioner did, Richardson with the norm
// "none" stops at its iteration count and calls that converged, and a Krylov method's recursive
// residual drifts from the true one. So every solve is checked once more, from scratch:
//
//   r = b - A x (one product), measured in the norm the KSP's test used (the preconditioned
//   norm needs B r, and B b unless rule 2 below has it from the solve; a test with no norm is held
//   to the true residual's 2-norm), and passed when
//     1. ||r||_2 <= 10 eps (||A|| max(||x||_2, ||x0||_2) + ||b||_2), x0 where the solve started:
//        the answer is as good as rounding lets a Krylov solve be (its attainable accuracy; a
//        tolerance below that, such as SOFA scenes' 1e-14 on a stiff mesh, asks the impossible),
//     2. ||r|| <= 10 max(rtol ||b||, atol) in that norm: the tolerance asked for, with room for the
//        drift of a recursive residual and nothing more. After a solve stopped by PETSc's default
//        test, ||b|| is the reference that test took at iteration 0 (it computes B b itself when
//        the start is not zero; or ||B r0|| under -ksp_converged_use_initial_residual_norm, as
//        the user asked): the same number, one preconditioner application a solve saved.
//
// ||A|| is the infinity norm of an assembled matrix (symmetric, so it bounds the 2-norm), and for
// a matrix-free one 100 times its largest diagonal entry (an SPD matrix's entries are at most its
// largest diagonal entry, and a row of a tetrahedral mesh's operator has about 100 of them),
// computed again only when the matrix changes.
#include <petscksp.h>

#include <string>

namespace eis {

class SolutionCheck {
public:
  SolutionCheck() = default;
  ~SolutionCheck();
  SolutionCheck(const SolutionCheck&) = delete;
  SolutionCheck& operator=(const SolutionCheck&) = delete;
  // The verdict on x as the answer of A x = b under `ksp`'s tolerances and norm; an empty string
  // when it passes, else what was measured against what was allowed.
  std::string verdict(KSP ksp, Mat A, Vec b, Vec x);
  // The same for each column of the dense X as the answer of A X = B, held to the true
  // residual's 2-norm (a direct solve's test has no norm): one product A X for all columns.
  std::string columnsVerdict(KSP ksp, Mat A, Mat B, Mat X);
  // Records ||x0||, the norm of the iterate each solve of `ksp` starts from (a monitor at
  // iteration 0), for rule 1: a Krylov method's residual drifts by about eps ||A|| max_k ||x_k||,
  // and a starting point far from the answer makes that more than eps ||A|| ||x||; and, at
  // iteration 1, the reference norm of PETSc's default test, for rule 2.
  void watch(KSP ksp);
  // Once the KSP has read its options: warns (rank 0, standard error) of those that leave the
  // check nothing to hold the answer to, naming them: a -ksp_rtol outside (0, 1), which PETSc
  // ignores or turns into a test every start passes, and a test of no norm (-ksp_norm_type
  // none), which stops at the iteration count. An -ksp_atol at or above ||b|| is warned of at
  // the first solve that shows it (verdict).
  void audit(KSP ksp);
  // ||A|| as rule 1 takes it (the bound above for a matrix-free operator).
  double operatorNorm(Mat A);
  // The last verdict's ||b - A x||_2 / ||b||_2, and the same ratio in the norm the KSP's test
  // used where that is not the true residual's 2-norm and rule 2 measured it; else -1.
  double lastTrueRelative() const { return trueRelative_; }
  double lastTestedRelative() const { return testedRelative_; }

private:
  static PetscErrorCode monitor(KSP ksp, PetscInt iteration, PetscReal, void* context);
  // Keeps ||A|| for A's current values, which operatorNorm then returns until they change.
  void rememberNorm(Mat A, double norm);
  double knownReference(Vec b);

  double startNorm_ = 0;
  bool atolWarned_ = false;
  double trueRelative_ = -1, testedRelative_ = -1;
  // The default test's reference norm in the last watched solve, and its right-hand side.
  double reference_ = 0;
  Vec referenceRhs_ = nullptr;
  PetscObjectState referenceRhsState_ = -1;
  // The residual and B applied to it or to b: made once, at the first check, as b's layout.
  Vec residual_ = nullptr, work_ = nullptr;

  PetscObjectState normState_ = -1;
  const void* normMatrix_ = nullptr;
  double norm_ = 0;
};

}  // namespace eis
