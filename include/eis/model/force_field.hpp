#pragma once
// What every force field offers the mechanical system, on local arrays (owned and ghost
// unknowns, `dofsPerNode` per local vertex, in local vertex order). Element matrices are dense
// (4*dofsPerNode)^2 row-major blocks, one per local cell, in the cell's vertex order; they are
// asked for a run of cells at a time (a CellRange), so that the caller can assemble the matrix in
// cache-sized chunks instead of holding every element's block at once.
//
// As in SOFA, addForce(x, v) also sets the linearization point: addDForce and
// addKToElementMatrices use the state of the last addForce (a nonlinear field keeps its element
// rotations or deformation gradients from it). A linear field ignores it.
#include <petscsys.h>

#include <cstddef>
#include <vector>

#include "eis/core/error.hpp"
#include "eis/linalg/cell_range.hpp"

namespace eis {

// A force field met an element it cannot evaluate (J <= 0). `cell` is the local cell index; the
// mechanical system turns it into the input mesh's tetrahedron number.
class InvertedElement : public Error {
public:
  InvertedElement(std::size_t cell, double J, const std::string& what)
      : Error(what), cell(cell), J(J) {}
  std::size_t cell;
  double J;
};

class ForceField {
public:
  virtual ~ForceField() = default;
  // f += f(x, v); remembers x (and v) as the linearization point.
  virtual void addForce(const double* x, const double* v, double* f) = 0;
  // df += kFactor * (df/dx) dx: SOFA's addDForce, the matrix-free product with K.
  virtual void addDForce(const double* dx, double* df, double kFactor) const = 0;
  // elementMatrices += kFactor * df/dx, element by element, for the cells of `range`.
  virtual void addKToElementMatrices(double* elementMatrices, double kFactor,
                                     CellRange range) const = 0;
  // The time at the start of the next step and the run's step dt (MechanicalSystem::setTime),
  // for a field that changes from step to step.
  virtual void setTime(double t, double dt) { (void)t, (void)dt; }
  // What the matrix-free operator's diagonal (its Jacobi preconditioner) takes of K: the element
  // matrices, or nothing from a field whose terms lie in no cell (bending springs).
  virtual void addKToElementDiagonals(double* elementMatrices, double kFactor,
                                      CellRange range) const {
    addKToElementMatrices(elementMatrices, kFactor, range);
  }
  // Stored (elastic) energy of the local elements at x.
  virtual double potentialEnergy(const double* x) const = 0;
  // Von Mises stress of every local cell at x (empty when the field has no stress).
  virtual std::vector<double> vonMisesStress(const double* x) const = 0;
  // True when K does not depend on the state: its matrices are built once.
  virtual bool isLinear() const = 0;
  // True when f(x, v) is affine in x (f(x + d) = f(x) + K d, K constant), independent of v, and
  // addForce changes no state of the field's own: then f(x) + c K v may be evaluated as
  // f(x + c v) (MechanicalOperations::computeForcePlusMKv).
  virtual bool affine() const { return false; }
  // False when K (as addKToElementMatrices gives it) is not symmetric: the system matrix is then
  // declared nonsymmetric and the solvers' defaults change (KspSettings::readOptions).
  virtual bool symmetricK() const { return true; }

  // A mass the field brings besides the body's (a mapped child's, J^T M J): out += mFactor M dx,
  // and its element matrices, for the cells of `range`.
  virtual void addMDx(const double* dx, double* out, double mFactor) const {
    (void)dx, (void)out, (void)mFactor;
  }
  virtual void addMToElementMatrices(double* elementMatrices, double mFactor,
                                     CellRange range) const {
    (void)elementMatrices, (void)mFactor, (void)range;
  }

  // Loads on nodes: f += the load, on the unknowns this rank owns (fOwned: the local part of a
  // global vector), added after the element sums so that each node gets its load exactly once.
  virtual void addNodalForce(double* fOwned) const { (void)fOwned; }
  // The potential of an external load at x (its gradient is minus the load), over the local
  // elements; 0 for internal forces, whose energy is potentialEnergy.
  virtual double externalPotential(const double* x) const {
    (void)x;
    return 0;
  }

  // Throws InvertedElement when x is a state the field's law is not defined at (a cell with
  // J <= 0 for a law that takes ln J): a step that ends there is refused, not accepted.
  virtual void checkState(const double* x) const { (void)x; }
  // Whether checkState can refuse a state (then the system gathers x's ghosts for it each step).
  virtual bool limitsState() const { return false; }

  // Velocity-dependent fields (B = df/dv != 0) override these; addForce then gets v.
  virtual bool usesVelocity() const { return false; }
  // df += bFactor * (df/dv) dv.
  virtual void addBDv(const double* dv, double* df, double bFactor) const {
    (void)dv, (void)df, (void)bFactor;
  }
  // elementMatrices += bFactor * df/dv, for the cells of `range`.
  virtual void addBToElementMatrices(double* elementMatrices, double bFactor,
                                     CellRange range) const {
    (void)elementMatrices, (void)bFactor, (void)range;
  }
};

// A force that does not depend on x (K = 0): a load. It stores no elastic energy and has no
// stress; what is left to define is the force itself (and B where it depends on v).
class LoadField : public ForceField {
public:
  void addDForce(const double*, double*, double) const override {}
  void addKToElementMatrices(double*, double, CellRange) const override {}
  double potentialEnergy(const double*) const override { return 0; }
  std::vector<double> vonMisesStress(const double*) const override { return {}; }
  bool isLinear() const override { return true; }
};

}  // namespace eis
