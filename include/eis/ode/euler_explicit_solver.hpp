#pragma once
// SOFA's EulerExplicitSolver (Sofa/Component/ODESolver/Forward): the acceleration from the
// forces, a = M^-1 P f(x_n, v_n) projected again, then either the symplectic update (SOFA's
// default, `symplectic` true: velocities first)
//   v_{n+1} = v_n + h a,  x_{n+1} = x_n + h v_{n+1}
// or the forward one (`symplectic` false: positions first)
//   x_{n+1} = x_n + h v_n,  v_{n+1} = v_n + h a.
// x moves by MechanicalOperations::addToPosition, so a rigid frame turns by exp(h w / 2) as
// SOFA's RigidCoord += does. M^-1 is a solve with the system's mass matrix (systemMatrix(1, 0,
// 0), fixed rows the identity): for the block-diagonal masses this solver is given (a body of
// frames, SOFA's trivially invertible UniformMass) it is SOFA's accFromF up to rounding.
#include <memory>

#include "eis/linalg/linear_solver.hpp"
#include "eis/ode/time_integrator.hpp"

namespace eis {

class EulerExplicitSolver : public TimeIntegrator {
public:
  // `like` gives the layout of v (the work vectors); `linear` solves M a = P f.
  EulerExplicitSolver(bool symplectic, Vec like, std::unique_ptr<LinearSolver> linear);
  ~EulerExplicitSolver() override;
  EulerExplicitSolver(const EulerExplicitSolver&) = delete;
  EulerExplicitSolver& operator=(const EulerExplicitSolver&) = delete;

  StepReport step(MechanicalOperations& mop, Vec x, Vec v, double h) override;

private:
  bool symplectic_;
  std::unique_ptr<LinearSolver> linear_;
  Vec force_ = nullptr, acceleration_ = nullptr;
};

}  // namespace eis
