#pragma once
// Lagrangian constraint rows as a constraint solver sees them, after SOFA's LagrangianConstraint:
// the Jacobian J (m rows, one column per unknown, distributed by its columns: each rank holds
// the entries of the unknowns it owns) and the violation of each row at a state. The rows are
// numbered the same on every rank; a row may touch unknowns of any rank. Implemented by the
// model (model/fixed_lagrangian_constraint.hpp), read by the constraint step
// (ode/free_motion_step.hpp).
#include <petscvec.h>

#include <vector>

#include "eis/linalg/block_gauss_seidel.hpp"

namespace eis {

class LagrangianConstraints {
public:
  virtual ~LagrangianConstraints() = default;
  // m, the same on every rank.
  virtual int rows() const = 0;
  // The rows in the groups the Gauss-Seidel resolves together (SOFA's ConstraintResolution and
  // its getNbLines), in row order; the sizes sum to rows().
  virtual const std::vector<int>& groups() const = 0;
  // How each group is resolved, one per group (empty: every group bilateral).
  virtual std::vector<GroupResolution> resolutions() const { return {}; }
  // out += J^T lambda (lambda: m values, the same on every rank; out: a global vector).
  virtual void addTransposed(const std::vector<double>& lambda, Vec out) const = 0;
  // This rank's part of J y (the sum over ranks is J y): out has m values and gets only the
  // terms of the unknowns this rank owns added to it.
  virtual void addLocalProduct(Vec y, std::vector<double>& out) const = 0;
  // This rank's part of the violation at x (the sum over ranks is the violation), added to out.
  virtual void addLocalViolation(Vec x, std::vector<double>& out) const = 0;
  // The same for a step from `start` to x (a contact measures its tangential slip over the
  // step, SOFA's contact P, Q and their free positions); by default the violation at x.
  virtual void addLocalStepViolation(Vec start, Vec x, std::vector<double>& out) const {
    (void)start;
    addLocalViolation(x, out);
  }
  // The step that starts at time t is next: rows whose violation depends on time (a bilateral
  // row to points a projective constraint moves) take their positions for it. By default none.
  virtual void setTime(double t) { (void)t; }
  // The violation SOFA measures at the velocity order (ConstraintOrder::VEL, the velocity pass
  // of EulerImplicitSolver solveConstraint) at position x and velocity v for a step h; by
  // default the position violation at x, as FixedLagrangianConstraint, which ignores the order.
  virtual void addLocalVelocityViolation(Vec x, Vec v, double h, std::vector<double>& out) const {
    (void)v;
    (void)h;
    addLocalViolation(x, out);
  }
  // SOFA's FreeMotionAnimationLoop before a free motion: the last solve's multipliers (m values,
  // the same on every rank; zero before the first) over the coming step's h are the forces of
  // the constraint's mapped child (storeConstraintLambdas, lambdaMultInvDt), which its mapping's
  // geometric stiffness reads (model/distance_geometric_stiffness.hpp). By default no row keeps
  // them.
  virtual void setChildForces(const std::vector<double>& multipliers, double h) const {
    (void)multipliers;
    (void)h;
  }
};

}  // namespace eis
