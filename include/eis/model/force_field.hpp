#pragma once
// What every force field offers the mechanical system, on local arrays (owned and ghost
// unknowns, `dofsPerNode` per local vertex, in local vertex order). Element matrices are dense
// (4*dofsPerNode)^2 row-major blocks, one per local cell, in the cell's vertex order.
#include <petscsys.h>

namespace eis {

class ForceField {
public:
  virtual ~ForceField() = default;
  // f += f(x, v).
  virtual void addForce(const double* x, const double* v, double* f) const = 0;
  // df += kFactor * (df/dx) dx: SOFA's addDForce, the matrix-free product with K.
  virtual void addDForce(const double* dx, double* df, double kFactor) const = 0;
  // elementMatrices += kFactor * df/dx, element by element.
  virtual void addKToElementMatrices(double* elementMatrices, double kFactor) const = 0;
  // Stored energy of the local elements at x.
  virtual double potentialEnergy(const double* x) const = 0;
};

}  // namespace eis
