#pragma once
// A force field of faces acting on a volume body: the boundary sub-mesh a SOFA topological
// mapping (Tetra2TriangleTopologicalMapping, Hexa2QuadTopologicalMapping) gives a child node,
// whose force fields act on the body's own unknowns (mesh/boundary_faces). The inner field sees
// the faces as its cells; this one forwards forces and products unchanged (they act on the same
// local vertices) and places each face's element matrix into the matrix of the cell it is a face
// of, at that cell's slots, so that the body's assembly takes it as it takes the cell's own.
#include <memory>
#include <vector>

#include "eis/mesh/boundary_faces.hpp"
#include "eis/model/force_field.hpp"

namespace eis {

class BoundaryForceField : public ForceField {
public:
  // `faces` are the inner field's cells, in its order; `cellCorners` the body's cell size.
  BoundaryForceField(std::unique_ptr<ForceField> inner, std::vector<BoundaryFace> faces,
                     int faceCorners, int cellCorners);

  void addForce(const double* x, const double* v, double* f) override { inner_->addForce(x, v, f); }
  void addDForce(const double* dx, double* df, double kFactor) const override {
    inner_->addDForce(dx, df, kFactor);
  }
  void addKToElementMatrices(double* elementMatrices, double kFactor,
                             CellRange range) const override;
  void addKToElementDiagonals(double* elementMatrices, double kFactor,
                              CellRange range) const override;
  double potentialEnergy(const double* x) const override { return inner_->potentialEnergy(x); }
  std::vector<double> vonMisesStress(const double*) const override { return {}; }
  bool isLinear() const override { return inner_->isLinear(); }
  bool symmetricK() const override { return inner_->symmetricK(); }
  void addNodalForce(double* fOwned) const override { inner_->addNodalForce(fOwned); }
  double externalPotential(const double* x) const override { return inner_->externalPotential(x); }
  bool usesVelocity() const override { return inner_->usesVelocity(); }
  void addBDv(const double* dv, double* df, double bFactor) const override {
    inner_->addBDv(dv, df, bFactor);
  }
  void addBToElementMatrices(double* elementMatrices, double bFactor,
                             CellRange range) const override;

private:
  // Adds the inner field's blocks (K with kFactor, or B) of the faces of `range`'s cells.
  template <class Blocks>
  void place(double* elementMatrices, CellRange range, Blocks blocks) const;

  std::unique_ptr<ForceField> inner_;
  std::vector<BoundaryFace> faces_;
  std::vector<std::size_t> byCell_;  // face numbers sorted by cell
  int faceCorners_, cellCorners_;
};

}  // namespace eis
