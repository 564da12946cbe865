#pragma once
// A force field written for cells of one type acting on a mesh of larger cells, each cut into
// pieces: SOFA's TetrahedronFEMForceField on a grid whose hexahedra a mass or springs read, the
// FEM reading them cut into tetrahedra (by itself or by a Hexa2TetraTopologicalMapping). The
// pieces use the mesh's local vertex numbers, so forces, products and energies pass through to
// the inner field; its element matrices (one per piece) are added into the element matrix of
// the cell the piece was cut from, whose vertices hold all of the piece's. A cell's von Mises
// stress is the largest of its pieces', and an inverted piece names its cell.
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "eis/core/cells.hpp"
#include "eis/core/tetra_geometry.hpp"
#include "eis/model/cell_shapes.hpp"
#include "eis/model/force_field.hpp"

namespace eis {

// The pieces of `cells`: `slots` holds, cell after cell, the slots (0 .. corners - 1) in the
// cell's vertex list of the corners of each of its `pieces` pieces; piece p of cell c is piece
// pieces c + p. An Error when `slots` is not pieces * cornersOf(pieceType) a cell or names a
// slot the cell does not have.
Cells cutCells(const Cells& cells, CellType pieceType, int pieces, const std::vector<int>& slots);

class CutCellsField : public ForceField {
public:
  using Maker = std::function<std::unique_ptr<ForceField>(const Cells&, const CellShapes&)>;
  // `rest`: the local vertices' rest positions; `make` builds the inner field on the pieces.
  CutCellsField(const Cells& cells, CellType pieceType, int pieces, const std::vector<int>& slots,
                std::vector<Vec3> rest, int dofsPerNode, const Maker& make);

  void addForce(const double* x, const double* v, double* f) override;
  void addDForce(const double* dx, double* df, double kFactor) const override {
    inner_->addDForce(dx, df, kFactor);
  }
  void addKToElementMatrices(double* elementMatrices, double kFactor,
                             CellRange range) const override;
  void addKToElementDiagonals(double* elementMatrices, double kFactor,
                              CellRange range) const override;
  void addBToElementMatrices(double* elementMatrices, double bFactor,
                             CellRange range) const override;
  void setTime(double t, double dt) override { inner_->setTime(t, dt); }
  double potentialEnergy(const double* x) const override { return inner_->potentialEnergy(x); }
  std::vector<double> vonMisesStress(const double* x) const override;
  bool isLinear() const override { return inner_->isLinear(); }
  bool symmetricK() const override { return inner_->symmetricK(); }
  void addNodalForce(double* fOwned) const override { inner_->addNodalForce(fOwned); }
  double externalPotential(const double* x) const override { return inner_->externalPotential(x); }
  void checkState(const double* x) const override;
  bool limitsState() const override { return inner_->limitsState(); }
  bool usesVelocity() const override { return inner_->usesVelocity(); }
  void addBDv(const double* dv, double* df, double bFactor) const override {
    inner_->addBDv(dv, df, bFactor);
  }

private:
  // Runs `add` (one of the inner field's element-matrix sums) on the pieces of `range` and adds
  // their matrices into the cells' blocks.
  void gather(double* elementMatrices, CellRange range,
              const std::function<void(double*, CellRange)>& add) const;

  int corners_, pieceCorners_, pieces_, dofs_;
  std::vector<int> slots_;
  Cells cut_;
  std::vector<Vec3> rest_;
  CellShapes shapes_;
  std::unique_ptr<ForceField> inner_;
  mutable std::vector<double> scratch_;
};

}  // namespace eis
