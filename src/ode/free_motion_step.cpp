#include "eis/ode/free_motion_step.hpp"

#include <mpi.h>

#include <algorithm>
#include <limits>

#include "eis/core/error.hpp"
#include "eis/core/timer.hpp"
#include "eis/linalg/null_space_regularization.hpp"
#include "eis/linalg/preconditioned_conjugate_residual.hpp"

namespace eis {

FreeMotionStep::FreeMotionStep(std::unique_ptr<EulerImplicitSolver> freeMotion,
                               const ConstraintStepOptions& options, Vec like)
    : freeMotion_(std::move(freeMotion)), options_(options) {
  if (options_.inStep) freeMotion_->setStepConstraints(this);
  EIS_CHECK(VecDuplicate(like, &xStart_));
  EIS_CHECK(VecDuplicate(like, &rhs_));
  EIS_CHECK(VecDuplicate(like, &response_));
  EIS_CHECK(VecDuplicate(like, &carried_));
  EIS_CHECK(VecZeroEntries(carried_));
  EIS_CHECK(VecDuplicate(like, &shown_));
  EIS_CHECK(VecZeroEntries(shown_));
}

FreeMotionStep::~FreeMotionStep() {
  VecDestroy(&xStart_);
  VecDestroy(&rhs_);
  VecDestroy(&response_);
  VecDestroy(&carried_);
  VecDestroy(&shown_);
}

void FreeMotionStep::saveCarried(const SaveVector& save) const {
  freeMotion_->saveCarried(save);
  if (forces_.empty()) return;
  save("lagrange.forces", carried_);
  save("lagrange.constraint-force", shown_);
}

void FreeMotionStep::loadCarried(const LoadVector& load) {
  freeMotion_->loadCarried(load);
  forcesLoaded_ = load("lagrange.forces", carried_);
  load("lagrange.constraint-force", shown_);
}

namespace {

// The sum over ranks, in place: every rank gets the same values.
void sumOverRanks(std::vector<double>& values, MPI_Comm comm) {
  if (!values.empty())
    EIS_CHECK_MPI(
        MPI_Allreduce(MPI_IN_PLACE, values.data(), int(values.size()), MPI_DOUBLE, MPI_SUM, comm));
}

}  // namespace

void FreeMotionStep::keepRow(int row, Vec column) {
  PetscInt size;
  EIS_CHECK(VecGetLocalSize(column, &size));
  const PetscScalar* c;
  EIS_CHECK(VecGetArrayRead(column, &c));
  for (PetscInt i = 0; i < size; ++i)
    if (c[i] != 0.0) jacobian_.push_back({row, i, c[i]});
  EIS_CHECK(VecRestoreArrayRead(column, &c));
}

StepReport FreeMotionStep::step(MechanicalOperations& mop, Vec x, Vec v, double h) {
  if (options_.inStep) return freeMotion_->step(mop, x, v, h);
  const double start = MPI_Wtime();
  // SOFA's lambdaMultInvDt: the last solve's multipliers over h are the mapped children's
  // forces, whose mappings' geometric stiffness joins the free motion's K (zero at first).
  if (const LagrangianConstraints* constraints = mop.lagrangianConstraints()) {
    const std::size_t m = std::size_t(constraints->rows());
    constraints->setChildForces(forces_.size() == m ? forces_ : std::vector<double>(m, 0.0), h);
  }
  // 1. The free motion, and SOFA's free position x_n + h v_free.
  EIS_CHECK(VecCopy(x, xStart_));
  StepReport report = freeMotion_->step(mop, x, v, h);
  report.freeMotionSeconds = MPI_Wtime() - start;
  if (options_.velocityFirst) {
    // The velocity problem at x_n, then SOFA's pos.eq(pos, vel, dt).
    EIS_CHECK(VecCopy(xStart_, x));
    solveConstraints(mop, Order::Velocity, x, v, h, report);
    EIS_CHECK(VecAXPY(x, h, v));
    return report;
  }
  EIS_CHECK(VecWAXPY(x, h, v, xStart_));
  solveConstraints(mop, Order::PositionAndVelocity, x, v, h, report);
  return report;
}

void FreeMotionStep::correctVelocity(MechanicalOperations& mop, Vec x, Vec v, double h,
                                     StepReport& report) {
  solveConstraints(mop, Order::Velocity, x, v, h, report);
}

void FreeMotionStep::correctPosition(MechanicalOperations& mop, Vec x, double h,
                                     StepReport& report) {
  solveConstraints(mop, Order::Position, x, nullptr, h, report);
}

void FreeMotionStep::solveConstraints(MechanicalOperations& mop, Order order, Vec x, Vec v,
                                      double h, StepReport& report) {
  MPI_Comm comm;
  EIS_CHECK(PetscObjectGetComm(reinterpret_cast<PetscObject>(x), &comm));
  double clock = MPI_Wtime();
  const auto lap = [&clock] {
    const double now = MPI_Wtime(), seconds = now - clock;
    clock = now;
    return seconds;
  };
  const LagrangianConstraints* constraints = mop.lagrangianConstraints();
  const int m = constraints ? constraints->rows() : 0;
  report.constraintRows = m;
  if (m == 0) return;
  LinearSolver& linear = freeMotion_->linearSolver();
  const Mat A = freeMotion_->lastOperator();
  // SOFA's correctionFactor: the compliance in position (h) or velocity (1) units.
  const double positionFactor = EulerImplicitSolver::positionIntegrationFactor(h);
  const double velocityFactor = EulerImplicitSolver::velocityIntegrationFactor();
  const std::optional<UncoupledCorrection>& uncoupled = options_.uncoupled;
  // response_ = P A^-1 P J^T f, or c P J^T f.
  const auto respond = [&](const std::vector<double>& f) {
    EIS_CHECK(VecZeroEntries(rhs_));
    constraints->addTransposed(f, rhs_);
    mop.projectResponse(rhs_);
    if (uncoupled) {
      EIS_CHECK(VecAXPBY(response_, uncoupled->compliance, 0.0, rhs_));
      return;
    }
    EIS_CHECK(VecZeroEntries(response_));
    report.linearIterations += linear.solve(A, rhs_, response_);
    mop.projectResponse(response_);
  };

  // 2. The violation (at x_free, or at the order's state) and the compliance, column by column.
  std::vector<double> dfree(m, 0.0), w(std::size_t(m) * m, 0.0);
  if (order == Order::PositionAndVelocity)
    constraints->addLocalStepViolation(xStart_, x, dfree);
  else if (order == Order::Position)
    constraints->addLocalViolation(x, dfree);
  else
    constraints->addLocalVelocityViolation(x, v, h, dfree);
  sumOverRanks(dfree, comm);
  {
    const ScopedTimer timer("Constraint compliance");
    // The columns P J^T e_j side by side, solved together: Y = A^-1 P J^T.
    PetscInt local;
    EIS_CHECK(VecGetLocalSize(x, &local));
    Mat columns, responses;
    EIS_CHECK(MatCreateDense(comm, local, PETSC_DECIDE, PETSC_DETERMINE, m, nullptr, &columns));
    EIS_CHECK(MatDuplicate(columns, MAT_DO_NOT_COPY_VALUES, &responses));
    std::vector<double> unit(m, 0.0), column(m);
    jacobian_.clear();
    for (int j = 0; j < m; ++j) {
      Vec c;
      EIS_CHECK(MatDenseGetColumnVecWrite(columns, j, &c));
      EIS_CHECK(VecZeroEntries(c));
      unit[j] = 1;
      constraints->addTransposed(unit, c);
      unit[j] = 0;
      mop.projectResponse(c);
      keepRow(j, c);
      EIS_CHECK(MatDenseRestoreColumnVecWrite(columns, j, &c));
    }
    // Y = A^-1 P J^T, or c P J^T for the uncoupled correction, and W = k J P Y.
    double factor = order == Order::Velocity ? velocityFactor : positionFactor;
    if (uncoupled) {
      EIS_CHECK(MatCopy(columns, responses, SAME_NONZERO_PATTERN));
      EIS_CHECK(MatScale(responses, uncoupled->compliance));
      if (!uncoupled->odeFactors) factor = 1;
    } else {
      report.linearIterations += linear.solveColumns(A, columns, responses);
    }
    for (int j = 0; j < m; ++j) {
      Vec y;
      EIS_CHECK(MatDenseGetColumnVecRead(responses, j, &y));
      EIS_CHECK(VecCopy(y, response_));
      EIS_CHECK(MatDenseRestoreColumnVecRead(responses, j, &y));
      mop.projectResponse(response_);
      std::fill(column.begin(), column.end(), 0.0);
      constraints->addLocalProduct(response_, column);
      for (int i = 0; i < m; ++i) w[std::size_t(i) * m + j] = factor * column[i];
    }
    EIS_CHECK(MatDestroy(&columns));
    EIS_CHECK(MatDestroy(&responses));
    sumOverRanks(w, comm);
    // LinearSolverConstraintCorrection's term on its rows (each row of J here has an entry),
    // then the constraint solver's on every row, or with SVD regularization on the rows of
    // W's null space only.
    const double epsilon = std::numeric_limits<double>::epsilon();
    if (options_.correctionRegularization > epsilon)
      for (int i = 0; i < m; ++i) w[std::size_t(i) * m + i] += options_.correctionRegularization;
    if (options_.nullSpaceRegularization)
      regularizeNullSpace(w, options_.regularization, options_.nullSpaceValueFactor,
                          options_.nullSpaceVectorFactor);
    else if (options_.regularization > epsilon)
      for (int i = 0; i < m; ++i) w[std::size_t(i) * m + i] += options_.regularization;
  }
  report.complianceSeconds += lap();
  compliance_ = w;
  dfree_ = dfree;

  // 3. The multipliers, from the last problem's (SOFA's constraints keep one set of previous
  // forces, which the velocity and position problems of solveConstraint share).
  if (int(forces_.size()) != m) {
    forces_.assign(m, 0.0);
    if (forcesLoaded_) {
      constraints->addLocalProduct(carried_, forces_);
      sumOverRanks(forces_, comm);
    }
  }
  forcesLoaded_ = false;
  {
    const ScopedTimer timer("Constraint solve");
    if (options_.lcp) {
      // SOFA's computeInitialGuess: only contacts (constraints with persistent ids) carry forces
      // over.
      const std::vector<GroupResolution> resolutions = constraints->resolutions();
      std::size_t row = 0;
      for (std::size_t g = 0; g < constraints->groups().size(); ++g) {
        const int size = constraints->groups()[g];
        if (resolutions.empty() || resolutions[g].kind == GroupResolution::Kind::Bilateral ||
            resolutions[g].kind == GroupResolution::Kind::Block)
          std::fill(forces_.begin() + std::ptrdiff_t(row),
                    forces_.begin() + std::ptrdiff_t(row) + size, 0.0);
        row += std::size_t(size);
      }
    }
    const GaussSeidelResult result =
        options_.lcp ? lcpGaussSeidel(w, dfree, forces_, *options_.lcp)
        : options_.gaussSeidel.method == GaussSeidelOptions::Method::PreconditionedConjugateResidual
            ? preconditionedConjugateResidual(w, constraints->groups(), dfree, forces_,
                                              options_.gaussSeidel)
            : blockGaussSeidel(w, constraints->groups(), dfree, forces_, options_.gaussSeidel,
                               constraints->resolutions());
    report.constraintIterations += result.iterations;
    report.constraintError = result.error;
  }
  report.gaussSeidelSeconds += lap();

  EIS_CHECK(VecZeroEntries(carried_));
  constraints->addTransposed(forces_, carried_);
  EIS_CHECK(VecAXPBY(shown_, 1.0 / h, 0.0, carried_));

  // 4. The correction: SOFA's applyMotionCorrection, applyPositionCorrection or
  // applyVelocityCorrection.
  respond(forces_);
  const bool own = uncoupled && !uncoupled->odeFactors;
  if (order != Order::Velocity)
    EIS_CHECK(VecAXPY(x, own ? uncoupled->positionFactor : positionFactor, response_));
  if (order == Order::PositionAndVelocity)
    EIS_CHECK(VecAXPY(v, own ? uncoupled->velocityFactor / h : velocityFactor, response_));
  if (order == Order::Velocity)
    EIS_CHECK(VecAXPY(v, own ? uncoupled->velocityFactor : velocityFactor, response_));
  report.correctionSeconds += lap();
}

}  // namespace eis
