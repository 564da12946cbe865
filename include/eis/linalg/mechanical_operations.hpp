#pragma once
// The handful of operations an ODE solver needs from the mechanical model, after SOFA's
// MechanicalOperations. K = df/dx and B = df/dv; vectors are PETSc global vectors.
#include <petscmat.h>

#include "eis/core/error.hpp"
#include "eis/linalg/lagrangian_constraints.hpp"

namespace eis {

class MechanicalOperations {
public:
  virtual ~MechanicalOperations() = default;
  // f = f(x, v): internal forces plus loads (gravity).
  virtual void computeForce(Vec x, Vec v, Vec f) = 0;
  // out += (mFactor M + bFactor B + kFactor K) v.
  virtual void addMBKv(Vec out, double mFactor, double bFactor, double kFactor, Vec v) = 0;
  // f = f(x, v) + (mFactor M + kFactor K) v: the implicit step's right-hand side before its
  // scaling by h, as SOFA forms it (computeForce, then addMBKv). A model whose every force is
  // affine in x and independent of v may take one pass over its elements instead of two:
  // f(x) + kFactor K v = f(x + kFactor v), the same in exact arithmetic.
  virtual void computeForcePlusMKv(Vec x, Vec v, double mFactor, double kFactor, Vec f) {
    computeForce(x, v, f);
    addMBKv(f, mFactor, 0.0, kFactor, v);
  }
  // The system matrix mFactor M + bFactor B + kFactor K with the rows and columns of projected
  // (fixed) unknowns replaced by the identity. The system owns it; it is rebuilt only when the
  // factors (or, for nonlinear models, the state) changed.
  virtual Mat systemMatrix(double mFactor, double bFactor, double kFactor) = 0;
  // P v: zero the projected (fixed) unknowns.
  virtual void projectResponse(Vec v) = 0;
  // x = x + h v, SOFA's addition of a velocity to a coordinate (its vOp): a vector sum for
  // points; a rigid frame's orientation is turned by the rotation h v gives (model/rigid_body).
  virtual void addToPosition(Vec x, double h, Vec v) { EIS_CHECK(VecAXPY(x, h, v)); }
  // Prescribed motion: dx = zero but on the prescribed unknowns, where it is the displacement
  // that takes them from x to their position at the end of a step of length h. False (dx
  // untouched) when nothing is prescribed.
  virtual bool prescribedDisplacement(double /*h*/, Vec /*x*/, Vec /*dx*/) { return false; }
  // Whether prescribedDisplacement has a displacement to give (the same on every rank).
  virtual bool prescribesMotion() const { return false; }
  // The Lagrangian constraints a constraint solver resolves after the step (SOFA's
  // FreeMotionAnimationLoop); null when there are none.
  virtual const LagrangianConstraints* lagrangianConstraints() const { return nullptr; }
  // Whether a body of it has no mass (mass.type = none, SOFA's M = 0): the step's matrix is then
  // -h B - h (h + rK) K on its unknowns, singular wherever no stiffness holds them.
  virtual bool massless() const { return false; }
};

}  // namespace eis
