#pragma once
// SOFA's FreeMotionAnimationLoop with a BlockGaussSeidelConstraintSolver and a
// LinearSolverConstraintCorrection, around the linearized step (master:
// FreeMotionAnimationLoop.cpp, GenericConstraintSolver.cpp, BuiltConstraintSolver.cpp,
// LinearSolverConstraintCorrection.inl):
//   1. free motion: the step without the Lagrangian constraints gives v_free, and
//      x_free = x_n + h v_free (FreeMotionAnimationLoop::computeFreeMotion); before it, the
//      last step's multipliers over h become the forces of the constraints' mapped children
//      (LagrangianConstraints::setChildForces), whose mappings' geometric stiffness joins K;
//   2. the problem: dfree = the constraints' violation at x_free, and the compliance
//      W = h J A^-1 J^T (+ regularization on the diagonal), A the free motion's system matrix
//      and h EulerImplicitSolver's position integration factor; W is built column by column,
//      one solve of A per constraint row with the step's own factorization or preconditioner,
//      each rank adding the products of its unknowns, then summed onto every rank;
//   3. the block Gauss-Seidel (linalg/block_gauss_seidel.hpp), on every rank alike, from the
//      forces of the last step;
//   4. the correction: c = A^-1 J^T f, x = x_free + h c, v = v_free + c (the position and
//      velocity integration factors h and 1).
// The projective constraints zero the columns of J on their unknowns, as SOFA's
// applyProjectiveConstraintOnConstraintMatrix does: P before and after each solve.
#include <memory>
#include <optional>
#include <vector>

#include "eis/core/component.hpp"
#include "eis/linalg/block_gauss_seidel.hpp"
#include "eis/linalg/lcp_gauss_seidel.hpp"
#include "eis/ode/euler_implicit_solver.hpp"

namespace eis {

// SOFA's UncoupledConstraintCorrection (Vec3, UncoupledConstraintCorrection.inl): one compliance
// c for every node instead of A^-1, so W = k c J P J^T with k = h (useOdeSolverIntegrationFactors)
// or 1, and the correction dx = c P J^T f moves x by xFactor dx and v by vFactor dx (h and 1, or
// correctionPositionFactor and correctionVelocityFactor / h).
struct UncoupledCorrection {
  double compliance = 1e-5;  // defaultCompliance
  bool odeFactors = true;    // useOdeSolverIntegrationFactors
  double positionFactor = 1, velocityFactor = 1;
};

struct ConstraintStepOptions {
  GaussSeidelOptions gaussSeidel;
  double regularization = 0;  // GenericConstraintSolver regularizationTerm
  // BuiltConstraintSolver useSVDForRegularization: the term only on W's null-space rows
  // (linalg/null_space_regularization.hpp), with its two criteria factors.
  bool nullSpaceRegularization = false;
  double nullSpaceValueFactor = 0.01, nullSpaceVectorFactor = 0.001;
  double correctionRegularization = 0;  // LinearSolverConstraintCorrection regularizationTerm
  std::optional<UncoupledCorrection> uncoupled;  // else LinearSolverConstraintCorrection
  // SOFA's LCPConstraintSolver (linalg/lcp_gauss_seidel.hpp) in place of the Gauss-Seidel: every
  // row a contact, contacts (unilateral groups) starting from their last forces, the others
  // from zero; W and the correction as with the others.
  std::optional<LcpOptions> lcp;
  // SOFA's EulerImplicitSolver solveConstraint under DefaultAnimationLoop: no free motion; the
  // step calls the constraint solver twice (StepConstraints): on v_{n+1}, the rows' velocity
  // violation, W = J A^-1 J^T and v += A^-1 J^T f; then on x_{n+1} = x_n + h v_{n+1}, the
  // position violation, W = h J A^-1 J^T and x += h A^-1 J^T f. One set of forces carries over
  // from each problem to the next, as SOFA's constraints' previous forces do.
  bool inStep = false;
  // SOFA's FreeMotionAnimationLoop solveVelocityConstraintFirst (ConstraintOrder::VEL): after
  // the free motion, the velocity violation at x_n and v_free, W = J A^-1 J^T, v = v_free +
  // A^-1 J^T f, then x = x_n + h v.
  bool velocityFirst = false;
};

class FreeMotionStep : public TimeIntegrator, private StepConstraints {
public:
  FreeMotionStep(std::unique_ptr<EulerImplicitSolver> freeMotion,
                 const ConstraintStepOptions& options, Vec like);
  ~FreeMotionStep() override;
  FreeMotionStep(const FreeMotionStep&) = delete;
  FreeMotionStep& operator=(const FreeMotionStep&) = delete;

  StepReport step(MechanicalOperations& mop, Vec x, Vec v, double h) override;
  // Besides the free motion's vectors, "lagrange.forces": J^T f of the last step's multipliers,
  // from which a restart takes them back (f = J J^T f: the rows of a fixed constraint are unit
  // vectors of distinct unknowns).
  void saveCarried(const SaveVector& save) const override;
  void loadCarried(const LoadVector& load) override;
  // "constraint_force": J^T f / h of the last constraint problem (zero before the first), which
  // a checkpoint carries as "lagrange.constraint-force" so that a restart shows the same.
  void saveShown(const SaveVector& save) const override { save("constraint_force", shown_); }

  // The last step's forces (the multipliers, one per constraint row).
  const std::vector<double>& forces() const { return forces_; }
  // The last constraint problem's W (m x m, row by row, the regularization included), as
  // SofaPython3's ConstraintSolver.W() reads it.
  const std::vector<double>& compliance() const { return compliance_; }
  // Its free violation (SofaPython3's dfree()).
  const std::vector<double>& freeViolation() const { return dfree_; }
  // The nonzeros of its P J^T on this rank's unknowns (the rows of J with the projective
  // constraints' columns cleared, SOFA's applyProjectiveConstraintOnConstraintMatrix), the
  // state's constraint matrix as SofaPython3's MechanicalObject.constraint reads it.
  struct JacobianEntry {
    int row;
    PetscInt local;  // the unknown's offset in this rank's part of x
    double value;
  };
  const std::vector<JacobianEntry>& jacobian() const { return jacobian_; }

private:
  // SOFA's ConstraintOrder: POS_AND_VEL after a free motion; VEL and POS inside the step.
  enum class Order { PositionAndVelocity, Position, Velocity };
  void correctVelocity(MechanicalOperations& mop, Vec x, Vec v, double h,
                       StepReport& report) override;
  void correctPosition(MechanicalOperations& mop, Vec x, double h, StepReport& report) override;
  // One constraint problem of the order: the violation, W, the Gauss-Seidel from forces_, and
  // the correction of x, v or both (v unused for Position).
  void solveConstraints(MechanicalOperations& mop, Order order, Vec x, Vec v, double h,
                        StepReport& report);
  // Keeps the nonzeros of this rank's part of `column` (P J^T e_row) in jacobian_.
  void keepRow(int row, Vec column);

  std::unique_ptr<EulerImplicitSolver> freeMotion_;
  ConstraintStepOptions options_;
  std::vector<double> compliance_, dfree_;
  std::vector<JacobianEntry> jacobian_;
  std::vector<double> forces_;  // kept: where the next Gauss-Seidel starts
  Vec xStart_ = nullptr, rhs_ = nullptr, response_ = nullptr;
  Vec carried_ = nullptr;      // J^T forces_
  Vec shown_ = nullptr;        // carried_ / h: the constraint forces on the unknowns
  bool forcesLoaded_ = false;  // carried_ came from a checkpoint: forces_ = J carried_
};

// lagrange.*: the constraint solver and the constraint correction
// (ode/constraint_solver_component.cpp).
const ComponentDeclaration& constraintSolverComponent();
// Whether the scene asks for a constraint solver (lagrange.solver is not none).
bool solvesConstraints(const Parameters& scene);
ConstraintStepOptions constraintStepOptionsOf(const Parameters& scene);

}  // namespace eis
