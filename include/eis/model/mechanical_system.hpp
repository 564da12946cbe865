#pragma once
// The mechanical model of a scene on a distributed mesh: its force field, mass, gravity and fixed
// nodes, offering the ODE solver SOFA's mechanical operations (MechanicalOperations). It owns the
// system matrix, assembled (AIJ, block size = unknowns per node, element blocks written straight
// into its arrays by an ElementMatrixAssembler) or matrix-free (a MatShell whose product runs
// addMDx + addDForce over the local elements).
#include <petscmat.h>

#include <memory>
#include <vector>

#include "eis/core/tetra_geometry.hpp"
#include "eis/io/scene.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/element_matrix_assembler.hpp"
#include "eis/model/fixed_constraint.hpp"
#include "eis/model/force_field.hpp"
#include "eis/model/mass.hpp"
#include "eis/ode/mechanical_operations.hpp"

namespace eis {

class MechanicalSystem : public MechanicalOperations {
public:
  // fixedGroupTags: physical-group tags whose nodes are fixed (resolved by the caller).
  MechanicalSystem(const DistributedMesh& mesh, const Scene& scene,
                   const std::vector<int>& fixedGroupTags);
  ~MechanicalSystem() override;
  MechanicalSystem(const MechanicalSystem&) = delete;
  MechanicalSystem& operator=(const MechanicalSystem&) = delete;

  void computeForce(Vec x, Vec v, Vec f) override;
  void addMBKv(Vec out, double mFactor, double bFactor, double kFactor, Vec v) override;
  Mat systemMatrix(double mFactor, double bFactor, double kFactor) override;
  void projectResponse(Vec v) override { constraint_.project(v); }

  const DistributedMesh& mesh() const { return mesh_; }
  // Whether the system matrix depends on the factors alone (every field linear), not the state.
  bool constantMatrix() const { return linear_; }
  const FixedConstraint& constraint() const { return constraint_; }
  // Number of mesh nodes each load.force-box selects (global), in the scene's order.
  const std::vector<std::int64_t>& nodesPerForceBox() const { return nodesPerForceBox_; }
  // A new global vector (x, v or a right-hand side), to be destroyed by the caller.
  Vec createVector() const;
  // x at rest: the mesh's rest positions (elasticity) or zero (diffusion).
  void setRestState(Vec x) const;
  // 1/2 v.M v and the stored (elastic) energy at x, summed over all ranks.
  double kineticEnergy(Vec v);
  double potentialEnergy(Vec x);
  // Potential of gravity, -sum_a m_a g . x_a (0 without gravity), summed over all ranks.
  double gravityEnergy(Vec x);
  // Von Mises stress of each local cell at x (elasticity; empty for diffusion).
  std::vector<double> vonMisesStress(Vec x);
  // Seconds spent building system matrices so far (element values and their summation), and
  // replacing the fixed rows and columns by the identity (MatZeroRowsColumns).
  double assemblySeconds() const { return assemblySeconds_; }
  double constraintSeconds() const { return constraintSeconds_; }
  // Seconds spent in computeForce so far (element forces, gravity, ghost exchange).
  double forceSeconds() const { return forceSeconds_; }

  // The matrix-free product y = P A P x + (I - P) x with A = mM + bB + kK at the last factors.
  void applyShell(Vec x, Vec y);
  void shellDiagonal(Vec diagonal);

private:
  void shareForceBoxes(const std::vector<Scene::ForceBox>& boxes);
  // B = -c M (uniform damping) folds into the mass term: mM + bB = (m - b c) M.
  double massFactor(double mFactor, double bFactor) const { return mFactor - bFactor * damping_; }
  void createAssembledMatrix();
  void createShellMatrix();
  void assemble(double mFactor, double bFactor, double kFactor);
  // out += (mM + bB + kK) in, and element matrices += mM + bB + kK, over the local elements.
  void addProducts(const double* in, double* out, double mFactor, double bFactor, double kFactor) const;
  // Element matrices of mM + bB + kK for the cells of `range`, added to `values`.
  void addElementMatrices(double* values, double mFactor, double bFactor, double kFactor,
                          CellRange range) const;
  // Scatter a global vector to a local one (ghosts filled).
  void toLocal(Vec global, Vec local);

  const DistributedMesh& mesh_;
  int dofs_;
  std::vector<TetraShape> shapes_;
  // The elastic (or diffusion) field first, then any others (springs).
  std::vector<std::unique_ptr<ForceField>> forceFields_;
  bool linear_ = true;         // every field's K is constant
  bool usesVelocity_ = false;  // some force depends on v (B != 0)
  Mass mass_;
  std::vector<double> gravity_;  // empty when no gravity applies
  FixedConstraint constraint_;
  double damping_;  // damping.coefficient c: f = -c M v
  struct NodalLoad {
    PetscInt offset;  // of the node's first unknown in the local part of a global vector
    std::array<double, 3> force;
  };
  std::vector<NodalLoad> nodalLoads_;
  std::vector<std::int64_t> nodesPerForceBox_;
  bool matrixFree_;
  Mat matrix_ = nullptr;
  std::unique_ptr<ElementMatrixAssembler> assembler_;  // assembled mode only
  bool haveFactors_ = false;
  double factors_[3] = {0, 0, 0};  // m, b, k of the current matrix
  Vec localA_ = nullptr, localB_ = nullptr, localV_ = nullptr, globalWork_ = nullptr;
  double assemblySeconds_ = 0, constraintSeconds_ = 0, forceSeconds_ = 0;
};

}  // namespace eis
