#pragma once
// The KSP behind every step: configured from the PETSc options database, with a default per
// physics (CG + GAMG), and a clear error when it does not converge.
#include <petscksp.h>

#include <string>

namespace eis {

// Our defaults for a KSP (CG with `pc`, relative tolerance `rtol`), set before the options
// database is read so that -ksp_* and -pc_* override them.
void setDefaultSolver(KSP ksp, PCType pc, double rtol);
// GAMG's near-nullspace for elasticity: the rigid-body modes of the rest coordinates (a global
// Vec with block size 3). Does nothing when restCoordinates is null (scalar problems).
void attachRigidBodyModes(Mat A, Vec restCoordinates);

class LinearSolver {
public:
  // Defaults: CG with `defaultPc` (PCGAMG for assembled operators, PCJACOBI for matrix-free
  // ones), relative tolerance 1e-8; -ksp_* and -pc_* options override them. Elasticity gets
  // GAMG's rigid-body near-nullspace from the rest coordinates (a global Vec with block size 3);
  // pass nullptr for scalar problems.
  LinearSolver(MPI_Comm comm, PCType defaultPc, Vec restCoordinates);
  ~LinearSolver();
  LinearSolver(const LinearSolver&) = delete;
  LinearSolver& operator=(const LinearSolver&) = delete;

  // Solves A x = b; returns the iteration count. Throws eis::Error naming PETSc's reason when
  // the solve diverges. The preconditioner is rebuilt only when A's values changed.
  int solve(Mat A, Vec b, Vec x);
  KSP ksp() const { return ksp_; }
  // Wall seconds spent so far setting up the preconditioner, and in KSPSolve after it.
  double setupSeconds() const { return setupSeconds_; }
  double seconds() const { return seconds_; }

private:
  KSP ksp_ = nullptr;
  Vec restCoordinates_ = nullptr;
  bool configured_ = false;
  double setupSeconds_ = 0, seconds_ = 0;
};

}  // namespace eis
