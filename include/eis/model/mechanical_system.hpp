#pragma once
// The mechanical model of a scene on a distributed mesh: the mass, the force fields and the
// projective constraint it receives, offering the ODE solver SOFA's mechanical operations
// (MechanicalOperations) and the system matrix their element matrices make (SystemMatrix).
#include <petscmat.h>

#include <memory>
#include <string>
#include <vector>

#include "eis/linalg/mechanical_operations.hpp"
#include "eis/linalg/system_matrix.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/cell_shapes.hpp"
#include "eis/model/fixed_constraint.hpp"
#include "eis/model/force_field.hpp"
#include "eis/model/force_field_component.hpp"
#include "eis/model/mass.hpp"
#include "eis/model/node_projectors.hpp"
#include "eis/model/prescribed_motion.hpp"

namespace eis {

class MechanicalSystem : public MechanicalOperations, private ElementOperator {
public:
  // The mass of the mesh's cells (massCoefficientOf says what the coefficient is); the force
  // fields and the constraint follow.
  // `cellMassFactors`, `massRefinement`: Mass's cellFactors and refinement.
  MechanicalSystem(const DistributedMesh& mesh, MassType massType, double massCoefficient,
                   const std::vector<double>& cellMassFactors = {},
                   const HexahedronRefinement& massRefinement = {});
  ~MechanicalSystem() override;
  MechanicalSystem(const MechanicalSystem&) = delete;
  MechanicalSystem& operator=(const MechanicalSystem&) = delete;

  // What force fields are made from; set-up warnings go to `warnings`.
  ModelContext context(std::vector<std::string>& warnings) const {
    return {mesh_, shapes_, mass_, warnings};
  }
  // Forces are summed in the order the fields are added.
  void addForceField(std::unique_ptr<ForceField> field);
  // The nodes fixed in every step, the prescribed motion (whose nodes may add to them) and the
  // nodes held on planes, lines and points (null: none).
  void setConstraint(std::vector<FixedConstraint::FixedNodes> fixed,
                     std::unique_ptr<PrescribedMotion> motion,
                     std::unique_ptr<NodeProjectors> projectors = nullptr);
  // The Lagrangian constraints a constraint solver holds (null: none).
  void setLagrangianConstraints(std::unique_ptr<LagrangianConstraints> constraints) {
    lagrangian_ = std::move(constraints);
  }
  const LagrangianConstraints* lagrangianConstraints() const override { return lagrangian_.get(); }
  bool massless() const override { return massless_; }
  // Collective. Creates the system matrix once every part is in.
  void createMatrix(OperatorMode mode);

  void computeForce(Vec x, Vec v, Vec f) override;
  void addMBKv(Vec out, double mFactor, double bFactor, double kFactor, Vec v) override;
  void computeForcePlusMKv(Vec x, Vec v, double mFactor, double kFactor, Vec f) override;
  Mat systemMatrix(double mFactor, double bFactor, double kFactor) override;
  void projectResponse(Vec v) override { constraint_->project(v); }
  bool prescribedDisplacement(double h, Vec x, Vec dx) override;
  bool prescribesMotion() const override;
  // Collective. The time at the start of the next step (of the run's step dt, solver.dt, which
  // substeps divide); the constraint (and the matrix, once
  // created) are rebuilt when the motions acting then (the sofa rule) differ from the last's;
  // the Lagrangian rows take it too (points a projective constraint moves).
  void setTime(double t, double dt);
  // The sofa rule's projections: at the start of the run (x0 taken from x), and after a step,
  // at the time setTime gave; then the nodes held on planes, lines and points are put there.
  void startMotion(Vec x, Vec v);
  void projectMotion(Vec x, Vec v) const;

  const DistributedMesh& mesh() const { return mesh_; }
  const std::vector<std::unique_ptr<ForceField>>& forceFields() const { return forceFields_; }
  // Whether the system matrix depends on the factors alone (every field linear), not the state.
  bool constantMatrix() const { return linear_; }
  // Whether the system matrix is symmetric (every field's K is).
  bool symmetricMatrix() const { return symmetric_; }
  const FixedConstraint& constraint() const { return *constraint_; }
  // A new global vector (x, v or a right-hand side), to be destroyed by the caller.
  Vec createVector() const;
  // x at rest: the mesh's rest positions (elasticity) or zero (diffusion).
  void setRestState(Vec x) const;
  // Collective: throws eis::Error on every rank when x or v holds a value that is not finite, or
  // x is a state a force field's law is not defined at (an inverted cell of a law that takes
  // ln J). A step that ends so is failed (solver.on-failure), not accepted.
  void checkState(Vec x, Vec v);
  // 1/2 v.M v and the stored (elastic) energy at x, summed over all ranks.
  double kineticEnergy(Vec v);
  double potentialEnergy(Vec x);
  // The potential of the external loads (gravity: -sum_a m_a g . x_a), summed over all ranks.
  double externalPotential(Vec x);
  // Von Mises stress of each local cell at x: the first force field's that gives one, zero
  // where none does (a scene of springs only). Asked for elasticity only.
  std::vector<double> vonMisesStress(Vec x);

private:
  void addElementMatrices(double* values, double mFactor, double bFactor, double kFactor,
                          CellRange range) const override;
  void addElementDiagonals(double* values, double mFactor, double bFactor, double kFactor,
                           CellRange range) const override;
  void addProducts(const double* in, double* out, double mFactor, double bFactor,
                   double kFactor) const override;
  // Collective. The constraint of the fixed nodes and the acting motions' nodes.
  void buildConstraint();
  // Scatter a global vector to a local one (ghosts filled).
  void toLocal(Vec global, Vec local);
  // The sum over ranks of a per-field value of the local state x.
  double sumOverFields(Vec x, double (ForceField::*value)(const double*) const);

  const DistributedMesh& mesh_;
  int dofs_;
  CellShapes shapes_;
  Mass mass_;
  bool massless_;
  std::vector<std::unique_ptr<ForceField>> forceFields_;
  bool linear_ = true;         // every field's K is constant
  bool symmetric_ = true;      // every field's K is symmetric
  bool usesVelocity_ = false;  // some force depends on v (B != 0)
  bool affine_ = true;         // every force is affine in x (ForceField::affine)
  bool limitsState_ = false;   // some field's law is not defined at every state (checkState)
  std::vector<FixedConstraint::FixedNodes> fixed_;
  std::unique_ptr<FixedConstraint> constraint_;
  std::unique_ptr<PrescribedMotion> motion_;
  std::unique_ptr<NodeProjectors> projectors_;
  std::unique_ptr<LagrangianConstraints> lagrangian_;
  std::vector<bool> acting_;  // the sofa-rule motions among the constraint's rows
  OperatorMode mode_ = OperatorMode::Assembled;
  double time_ = 0;
  std::unique_ptr<SystemMatrix> matrix_;
  Vec localA_ = nullptr, localB_ = nullptr, localV_ = nullptr, globalWork_ = nullptr;
};

}  // namespace eis
