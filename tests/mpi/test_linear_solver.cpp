// The linear solves' preconditioner and starting point, on 1, 2 and 3 ranks: the reuse rule
// (solver.pc-lag, solver.pc-rebuild-growth) step by step on a matrix we change by hand; a kept
// preconditioner that leaves the trajectory as it was, with the set-ups the lag predicts, in the
// linearized step, in the history CSV and in Newton; the previous step's solution as the
// starting point (solver.initial-guess: the previous solution, or the projection on the last
// ones); GAMG's first set-up on several ranks freeing its products' data (ClearedProducts); and
// BoomerAMG with our settings (solver.preconditioner).
#include <gtest/gtest.h>
#include <petscksp.h>
// PetscObjectStateGet, declared here in PETSc 3.18.
#include <petsc/private/petscimpl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "eis/app/simulation.hpp"
#include "eis/linalg/linear_solver.hpp"
#include "eis/linalg/product_fill.hpp"
#include "eis/ode/newton_solver.hpp"
#include "mpi_support.hpp"
#include "output_files.hpp"

namespace {

using eis_test::disagreement;
using eis_test::root;

// A soft corotational cantilever: large rotations, its matrix re-assembled at every step.
eis_test::SceneFields corotationalBeam() {
  eis_test::SceneFields scene = eis_test::cantilever({4, 1, 1}, {8, 2, 2}, 2e3);
  scene.material = eis::MaterialModel::Corotational;
  scene.steps = 6;
  return scene;
}

// What a whole run gives: the final state (on rank 0) and the summary's counts.
struct Outcome {
  eis::NodalTable state;
  long setups = 0, linearIterations = 0;
};

Outcome runScene(const eis_test::SceneFields& scene) {
  eis::Simulation simulation(scene.toScene(), PETSC_COMM_WORLD, nullptr);
  simulation.run();
  return {simulation.gatherState(), simulation.summary().preconditionerSetups,
          simulation.summary().totalLinearIterations};
}

// A matrix with one row per rank whose values change when asked, for the reuse rule alone.
class ChangingMatrix {
public:
  ChangingMatrix() {
    MatCreateAIJ(PETSC_COMM_WORLD, 1, 1, PETSC_DETERMINE, PETSC_DETERMINE, 1, nullptr, 0, nullptr,
                 &matrix_);
    PetscInt row;
    MatGetOwnershipRange(matrix_, &row, nullptr);
    MatSetValue(matrix_, row, row, 1.0, INSERT_VALUES);
    MatAssemblyBegin(matrix_, MAT_FINAL_ASSEMBLY);
    MatAssemblyEnd(matrix_, MAT_FINAL_ASSEMBLY);
  }
  ~ChangingMatrix() { MatDestroy(&matrix_); }
  void change() { MatScale(matrix_, 2.0); }
  Mat get() const { return matrix_; }

private:
  Mat matrix_ = nullptr;
};

eis::PreconditionerOptions reuseEvery(int lag, double rebuildGrowth) {
  eis::PreconditionerOptions options;
  options.lag = lag;
  options.rebuildGrowth = rebuildGrowth;
  return options;
}

TEST(PreconditionerReuse, SetsUpFirstThenAfterLagUpdatesAndNeverForAnUnchangedMatrix) {
  ChangingMatrix matrix;
  eis::PreconditionerReuse reuse(reuseEvery(3, 1.5));
  EXPECT_TRUE(reuse.setUpAgainFor(matrix.get())) << "the first solve";
  reuse.recordIterations(10);
  EXPECT_FALSE(reuse.setUpAgainFor(matrix.get())) << "unchanged";
  reuse.recordIterations(10);
  for (int update = 1; update <= 2; ++update) {
    matrix.change();
    EXPECT_FALSE(reuse.setUpAgainFor(matrix.get())) << "update " << update << " of 3";
    reuse.recordIterations(14);  // grown, but not past 1.5 x 10
  }
  matrix.change();
  EXPECT_TRUE(reuse.setUpAgainFor(matrix.get())) << "the third update";
  EXPECT_EQ(reuse.setups(), 2);

  ChangingMatrix another;
  EXPECT_TRUE(reuse.setUpAgainFor(another.get())) << "a new matrix";
  EXPECT_EQ(reuse.setups(), 3);
}

TEST(PreconditionerReuse, IterationsGrownPastTheFactorSetUpAtTheNextUpdate) {
  ChangingMatrix matrix;
  eis::PreconditionerReuse reuse(reuseEvery(100, 1.5));
  EXPECT_TRUE(reuse.setUpAgainFor(matrix.get()));
  reuse.recordIterations(10);  // the first solve after the set-up: the reference
  matrix.change();
  EXPECT_FALSE(reuse.setUpAgainFor(matrix.get()));
  reuse.recordIterations(15);  // exactly 1.5 x 10 is not past it
  matrix.change();
  EXPECT_FALSE(reuse.setUpAgainFor(matrix.get()));
  reuse.recordIterations(16);
  EXPECT_FALSE(reuse.setUpAgainFor(matrix.get())) << "grown, but the matrix is unchanged";
  matrix.change();
  EXPECT_TRUE(reuse.setUpAgainFor(matrix.get())) << "grown, then updated";
  // The reference starts again with the new set-up.
  reuse.recordIterations(20);
  matrix.change();
  EXPECT_FALSE(reuse.setUpAgainFor(matrix.get()));
  reuse.recordIterations(25);
  matrix.change();
  EXPECT_FALSE(reuse.setUpAgainFor(matrix.get()));
  EXPECT_EQ(reuse.setups(), 2);
}

// The default lag (0) never sets up again by count: 50 updates at steady iterations keep the
// first set-up.
TEST(PreconditionerReuse, TheDefaultLagKeepsThePreconditionerWhileIterationsHold) {
  ChangingMatrix matrix;
  eis::PreconditionerReuse reuse{eis::PreconditionerOptions{}};
  EXPECT_TRUE(reuse.setUpAgainFor(matrix.get()));
  for (int update = 1; update <= 50; ++update) {
    reuse.recordIterations(20 + update % 3);
    matrix.change();
    EXPECT_FALSE(reuse.setUpAgainFor(matrix.get())) << "update " << update;
  }
  EXPECT_EQ(reuse.setups(), 1);
}

// The reference is the fewest iterations of the first three solves after a set-up, solves of
// no iteration left out: a high first count (a start from zero) does not blunt the guard, one
// low count later (a lucky start) does not trigger it.
TEST(PreconditionerReuse, TheReferenceIsTheSmallestOfTheFirstThreeSolves) {
  ChangingMatrix matrix;
  eis::PreconditionerReuse reuse(reuseEvery(0, 1.5));
  EXPECT_TRUE(reuse.setUpAgainFor(matrix.get()));
  for (int iterations : {30, 0, 12, 14, 8}) {  // reference min(30, 12, 14) = 12; 8 comes after
    reuse.recordIterations(iterations);
    matrix.change();
    EXPECT_FALSE(reuse.setUpAgainFor(matrix.get())) << iterations;
  }
  reuse.recordIterations(18);  // 1.5 x 12: not past it (a reference of 8 would be)
  matrix.change();
  EXPECT_FALSE(reuse.setUpAgainFor(matrix.get()));
  reuse.recordIterations(19);
  matrix.change();
  EXPECT_TRUE(reuse.setUpAgainFor(matrix.get())) << "past 1.5 x 12";
  EXPECT_EQ(reuse.setups(), 2);
}

// A direct solve is factored again at every update, whatever the lag.
TEST(PreconditionerReuse, EveryUpdateOverridesTheLag) {
  ChangingMatrix matrix;
  eis::PreconditionerReuse reuse{eis::PreconditionerOptions{}};
  reuse.setUpAtEveryUpdate();
  for (int update = 0; update < 4; ++update) {
    EXPECT_TRUE(reuse.setUpAgainFor(matrix.get()));
    reuse.recordIterations(1);
    matrix.change();
  }
  EXPECT_EQ(reuse.setups(), 4);
}

// A run's own temporary folder for its history file.
class PreconditionerReuseHistory : public eis_test::TemporaryFolderTest {
protected:
  // Rank 0: the last column of every row after the header, and the header.
  // The values of the column `name`, found by its header.
  static std::vector<std::string> column(const std::string& file, const std::string& name) {
    const std::vector<std::string> text = eis_test::lines(file);
    const std::vector<std::string> header = eis_test::split(text.at(0));
    const auto at = std::find(header.begin(), header.end(), name) - header.begin();
    std::vector<std::string> values;
    if (at == std::ptrdiff_t(header.size())) return values;
    for (std::size_t row = 1; row < text.size(); ++row)
      values.push_back(eis_test::split(text[row]).at(std::size_t(at)));
    return values;
  }
};

// Lag 3 over 6 steps, growth out of reach: set-ups in steps 1 and 4 only, and the same
// trajectory as a preconditioner set up at every step, to the solves' tolerance (the default
// relative residual 1e-8).
TEST_F(PreconditionerReuseHistory, LagThreeSetsUpInStepsOneAndFourOnTheSameTrajectory) {
  eis_test::SceneFields scene = corotationalBeam();
  const Outcome everyStep = runScene(scene);
  EXPECT_EQ(everyStep.setups, 6);
  scene.pcLag = 3;
  scene.pcRebuildGrowth = 1e9;
  scene.history = (dir_ / "history.csv").string();
  const Outcome lagged = runScene(scene);
  EXPECT_EQ(lagged.setups, 2);
  EXPECT_LT(disagreement(everyStep.state, lagged.state, scene), 1e-6);
  if (root()) {
    EXPECT_EQ(column(scene.history, "pc_rebuilt"),
              (std::vector<std::string>{"1", "0", "0", "1", "0", "0"}));
  }
}

// No lag limit (the default) and a growth guard of 1.2 on the soft beam (16 x 4 x 4 cells) swinging
// for 40 steps of 0.1 (12 to 20 iterations a step, growing while the beam swings down): set up
// again exactly where the guard's rule, replayed on the history's iterations, says, at least
// once after the first step; and the trajectory of a set-up at every step, to the solves'
// tolerance.
TEST_F(PreconditionerReuseHistory, TheDefaultGuardSetsUpAgainWhereItsRuleSays) {
  eis_test::SceneFields scene = corotationalBeam();
  scene.boxCells = {16, 4, 4};
  scene.steps = 40;
  scene.dt = 0.1;
  const Outcome everyStep = runScene(scene);
  scene.pcLag = 0;
  scene.pcRebuildGrowth = 1.2;
  scene.history = (dir_ / "history.csv").string();
  const Outcome kept = runScene(scene);
  if (root())
    std::printf("40 steps: %ld set-ups, %ld iterations (every step: %ld set-ups, %ld)\n",
                kept.setups, kept.linearIterations, everyStep.setups, everyStep.linearIterations);
  EXPECT_LT(disagreement(everyStep.state, kept.state, scene), 1e-6);
  EXPECT_GT(kept.setups, 1);
  EXPECT_LT(kept.setups, scene.steps / 2);
  if (!root()) return;
  const std::vector<std::string> rebuilt = column(scene.history, "pc_rebuilt");
  const std::vector<std::string> iterations = column(scene.history, "linear_iterations");
  ASSERT_EQ(rebuilt.size(), std::size_t(scene.steps));
  int reference = 0, counted = 0;
  bool grew = true;  // the first step sets up
  for (int step = 0; step < scene.steps; ++step) {
    EXPECT_EQ(rebuilt[step], grew ? "1" : "0") << "step " << step + 1;
    if (grew) reference = counted = 0;
    grew = false;
    const int its = std::stoi(iterations[step]);
    if (counted < eis::PreconditionerReuse::kReferenceSolves && its > 0) {
      reference = counted++ == 0 ? its : std::min(reference, its);
    }
    grew = its > scene.pcRebuildGrowth * reference;
  }
}

// A scene stepped by the linearized step (h = 0.01) from rest, with GAMG set up again as `reuse`
// says.
class SteppedBody {
public:
  SteppedBody(const eis_test::SceneFields& scene, const eis::PreconditionerOptions& reuse)
      : model_(scene) {
    x_ = model_.system->createVector();
    v_ = model_.system->createVector();
    rest_ = model_.system->createVector();
    model_.system->setRestState(x_);
    model_.system->setRestState(rest_);
    VecZeroEntries(v_);
    eis::LinearSolverOptions options;
    options.preconditioner = reuse;
    solver_ = std::make_unique<eis::EulerImplicitSolver>(
        eis::EulerImplicitOptions{}, x_,
        std::make_unique<eis::LinearSolver>(PETSC_COMM_WORLD, PCGAMG, rest_, options));
  }
  ~SteppedBody() {
    solver_.reset();
    for (Vec* w : {&x_, &v_, &rest_}) VecDestroy(w);
  }
  SteppedBody(const SteppedBody&) = delete;
  SteppedBody& operator=(const SteppedBody&) = delete;

  // One step; the preconditioner's set-ups in it.
  int step() { return solver_->step(*model_.system, x_, v_, 0.01).preconditionerSetups; }
  KSP ksp() { return solver_->linearSolver().ksp(); }

private:
  eis_test::BoxModel model_;
  Vec x_ = nullptr, v_ = nullptr, rest_ = nullptr;
  std::unique_ptr<eis::EulerImplicitSolver> solver_;
};

// GAMG's operator of the level next to the finest.
Mat coarseOperator(KSP ksp) {
  PC pc;
  KSPGetPC(ksp, &pc);
  PetscInt levels = 0;
  PCMGGetLevels(pc, &levels);
  EXPECT_GE(levels, 2) << "GAMG built no hierarchy";
  if (levels < 2) return nullptr;
  KSP coarser;
  PCMGGetSmoother(pc, levels - 2, &coarser);
  Mat op;
  KSPGetOperators(coarser, &op, nullptr);
  return op;
}

// Each set-up of GAMG computes its coarse operators anew (PETSc 3.18 keeps the prolongators of a
// matrix with an unchanged pattern, and redoes the Galerkin products; after the first set-up's
// release of its AIJ levels, one rebuilds them whole), a reused one leaves them: their object
// (id and state) tells, independently of our own count, whether PETSc set it up again.
std::pair<PetscInt64, PetscObjectState> coarseOperatorState(KSP ksp) {
  const Mat op = coarseOperator(ksp);
  PetscObjectId id = 0;
  PetscObjectState state = 0;
  if (op) {
    PetscObjectGetId(reinterpret_cast<PetscObject>(op), &id);
    PetscObjectStateGet(reinterpret_cast<PetscObject>(op), &state);
  }
  return {PetscInt64(id), state};
}

// The linearized step with lag 3: PETSc sets GAMG up in steps 1 and 4 and keeps it in between,
// as each step's report says.
TEST(PreconditionerReuseRuns, PetscKeepsTheHierarchyBetweenTheSetUpsReported) {
  SteppedBody beam(corotationalBeam(), reuseEvery(3, 1e9));
  std::vector<int> setups;
  std::vector<std::pair<PetscInt64, PetscObjectState>> coarseStates;
  for (int step = 1; step <= 6; ++step) {
    setups.push_back(beam.step());
    coarseStates.push_back(coarseOperatorState(beam.ksp()));
  }
  EXPECT_EQ(setups, (std::vector<int>{1, 0, 0, 1, 0, 0}));
  for (int step : {1, 2, 4, 5}) EXPECT_EQ(coarseStates[step], coarseStates[step - 1]) << step + 1;
  EXPECT_NE(coarseStates[3], coarseStates[2]);
}

// The product GAMG's coarse operator of the next coarser level still knows it came from
// (MATPRODUCT_PtAP, or MATPRODUCT_UNSPECIFIED once the product's data were freed).
MatProductType coarseProduct(KSP ksp) {
  const Mat op = coarseOperator(ksp);
  MatProductType type = MATPRODUCT_UNSPECIFIED;
  if (op) MatProductGetType(op, &type);
  return type;
}

// The first set-up on several ranks frees what GAMG's Galerkin products keep for a later set-up
// (ClearedProducts); the set-up again, once the corotational matrix changed, makes the coarse
// operators anew, and they keep their products for the set-ups after it. One rank keeps them
// from the start. The option goes with the first set-up. The beam (3,675 unknowns) has a first
// coarse level of over 50 unknowns a rank on 3 ranks: one GAMG neither gathers on fewer ranks
// nor makes the coarsest, which are no longer the Galerkin product itself.
TEST(PreconditionerReuseRuns, OnlyTheFirstSetUpOnSeveralRanksFreesTheGalerkinProducts) {
  eis_test::SceneFields scene = corotationalBeam();
  scene.boxCells = {24, 6, 6};
  SteppedBody beam(scene, reuseEvery(1, 1e9));
  int ranks;
  MPI_Comm_size(PETSC_COMM_WORLD, &ranks);
  std::vector<MatProductType> products;
  for (int step = 1; step <= 3; ++step) {
    EXPECT_EQ(beam.step(), 1) << step;
    products.push_back(coarseProduct(beam.ksp()));
    PetscBool left = PETSC_TRUE;
    PetscOptionsHasName(nullptr, nullptr, "-mat_product_clear", &left);
    EXPECT_FALSE(left) << step;
  }
  EXPECT_EQ(products[0], ranks > 1 ? MATPRODUCT_UNSPECIFIED : MATPRODUCT_PtAP);
  EXPECT_EQ(products[1], MATPRODUCT_PtAP);
  EXPECT_EQ(products[2], MATPRODUCT_PtAP);
}

// A linear model's matrix never changes: one set-up, whatever the lag.
TEST(PreconditionerReuseRuns, ALinearModelIsSetUpOnce) {
  eis_test::SceneFields scene = corotationalBeam();
  scene.material = eis::MaterialModel::Linear;
  EXPECT_EQ(runScene(scene).setups, 1);
}

// Newton: one matrix update per Jacobian. Lag 1 sets up at each Newton iteration; a lag
// longer than the run sets up once; the converged answer is the same.
class NewtonReuse : public eis_test::TightSolvesTest {};

TEST_F(NewtonReuse, LagOneSetsUpEveryJacobianALongLagOnceForTheSameAnswer) {
  eis_test::SceneFields scene = corotationalBeam();
  scene.material = eis::MaterialModel::StVenantKirchhoff;
  scene.steps = 3;
  eis_test::BoxModel model(scene);
  Vec rest = model.system->createVector();
  model.system->setRestState(rest);
  std::vector<Vec> finals;
  for (int lag : {1, 1000}) {
    Vec x = model.system->createVector(), v = model.system->createVector();
    model.system->setRestState(x);
    VecZeroEntries(v);
    eis::NewtonSolver newton(PETSC_COMM_WORLD, eis::EulerImplicitOptions{},
                             eis::NewtonGuess::Previous, x, PCGAMG, rest, reuseEvery(lag, 1e9));
    KSP ksp;
    SNESGetKSP(newton.snes(), &ksp);
    int setups = 0;
    std::set<std::pair<PetscInt64, PetscObjectState>> coarseStates;
    for (int step = 1; step <= scene.steps; ++step) {
      const eis::StepReport report = newton.step(*model.system, x, v, 0.05);
      EXPECT_GE(report.nonlinearIterations, 2) << "lag " << lag << ", step " << step;
      if (lag == 1)
        EXPECT_EQ(report.preconditionerSetups, report.nonlinearIterations) << "step " << step;
      setups += report.preconditionerSetups;
      coarseStates.insert(coarseOperatorState(ksp));
    }
    // PETSc follows: new coarse operators in every step with lag 1, the first ones throughout
    // with the long lag.
    EXPECT_EQ(coarseStates.size(), lag == 1 ? std::size_t(scene.steps) : 1u) << "lag " << lag;
    if (lag == 1000) EXPECT_EQ(setups, 1);
    VecAXPY(x, -1.0, rest);  // the displacement
    finals.push_back(x);
    VecDestroy(&v);
  }
  EXPECT_LT(eis_test::relativeGap(finals[0], finals[1]), 1e-9);
  for (Vec& x : finals) VecDestroy(&x);
  VecDestroy(&rest);
}

// The previous step's solution as the starting point: the same trajectory to the solves'
// tolerance, and fewer iterations in all than starting from zero, for the second-order step
// (which solves for dv) and the first-order one (which solves for v_{n+1}).
TEST(InitialGuess, PreviousSolutionGivesTheSameStatesInFewerIterations) {
  for (bool firstOrder : {false, true}) {
    SCOPED_TRACE(firstOrder ? "first order" : "second order");
    eis_test::SceneFields scene = corotationalBeam();
    scene.material = eis::MaterialModel::Linear;
    scene.youngModulus = 1e4;
    scene.firstOrder = firstOrder;
    scene.steps = 20;
    // A step short enough that the solution changes little from one step to the next: at
    // h = 0.01 the first-order velocity decays so much per step that the previous one saves
    // nothing (12.0 iterations a step either way on 2 ranks), which is no fault of the guess.
    scene.dt = 0.002;
    scene.initialGuess = eis::InitialGuess::Zero;
    const Outcome zero = runScene(scene);
    scene.initialGuess = eis::InitialGuess::Previous;
    const Outcome previous = runScene(scene);
    if (root())
      std::printf("linear iterations over %d steps (%s): from zero %ld, from the previous %ld\n",
                  scene.steps, firstOrder ? "first order" : "second order", zero.linearIterations,
                  previous.linearIterations);
    EXPECT_LT(disagreement(zero.state, previous.state, scene), 1e-6);
    EXPECT_LT(previous.linearIterations, zero.linearIterations);
  }
}

// The projection on the last solutions (the matrix of a linear model stays the same): the same
// trajectory, and once some solutions are stored far fewer iterations than from zero.
TEST(InitialGuess, ProjectionOnLastSolutionsSavesIterationsOnALinearModel) {
  eis_test::SceneFields scene = corotationalBeam();
  scene.material = eis::MaterialModel::Linear;
  scene.youngModulus = 1e4;
  scene.steps = 30;
  scene.initialGuess = eis::InitialGuess::Zero;
  const Outcome zero = runScene(scene);
  scene.initialGuess = eis::InitialGuess::Projected;
  const Outcome projected = runScene(scene);
  if (root())
    std::printf("linear iterations over %d steps: from zero %ld, projected %ld\n", scene.steps,
                zero.linearIterations, projected.linearIterations);
  EXPECT_LT(disagreement(zero.state, projected.state, scene), 1e-6);
  EXPECT_LT(projected.linearIterations, 0.8 * zero.linearIterations);
}

// The span of the last solutions on a corotational beam, whose matrix changes every step: the
// same trajectory as from zero, in fewer iterations.
TEST(InitialGuess, SpanOfLastSolutionsSavesIterationsOnACorotationalBeam) {
  eis_test::SceneFields scene = corotationalBeam();
  scene.steps = 20;
  scene.initialGuess = eis::InitialGuess::Zero;
  const Outcome zero = runScene(scene);
  scene.initialGuess = eis::InitialGuess::Span;
  const Outcome span = runScene(scene);
  if (root())
    std::printf("linear iterations over %d corotational steps: from zero %ld, span %ld\n",
                scene.steps, zero.linearIterations, span.linearIterations);
  EXPECT_LT(disagreement(zero.state, span.state, scene), 1e-6);
  EXPECT_LT(span.linearIterations, 0.8 * zero.linearIterations);
}

// BoomerAMG with our settings solves the same system as GAMG.
class Hypre : public eis_test::TightSolvesTest {};

TEST_F(Hypre, OurBoomerAmgSettingsReachTheStateGamgReaches) {
  eis_test::SceneFields scene = corotationalBeam();
  scene.steps = 3;
  const Outcome gamg = runScene(scene);
  for (auto pc : {eis::Preconditioner::Hypre, eis::Preconditioner::HypreElasticity}) {
    scene.preconditioner = pc;
    EXPECT_LT(disagreement(gamg.state, runScene(scene).state, scene), 1e-9)
        << (pc == eis::Preconditioner::Hypre ? "hypre" : "hypre-elasticity");
  }
}

std::string optionValue(const char* name) {
  char value[64] = "";
  PetscBool set = PETSC_FALSE;
  PetscOptionsGetString(nullptr, nullptr, name, value, sizeof value, &set);
  return set ? value : "(none)";
}

// Our hypre settings fill in only what the user left out, and leave the database as it was.
TEST(HypreSettings, DefaultsGiveWayToTheUsersOptionsAndGoAway) {
  eis_test::ScopedOptions user{{"-pc_hypre_boomeramg_strong_threshold", "0.7"}};
  KSP ksp;
  KSPCreate(PETSC_COMM_WORLD, &ksp);
  {
    const eis::HypreDefaults defaults(ksp, PCHYPRE, true);
    EXPECT_EQ(optionValue("-pc_hypre_boomeramg_strong_threshold"), "0.7");
    EXPECT_EQ(optionValue("-pc_hypre_boomeramg_nodal_coarsen"), "4");
    EXPECT_EQ(optionValue("-pc_hypre_boomeramg_vec_interp_variant"), "1");
    EXPECT_EQ(optionValue("-pc_hypre_boomeramg_coarsen_type"), "HMIS");
  }
  EXPECT_EQ(optionValue("-pc_hypre_boomeramg_strong_threshold"), "0.7");
  EXPECT_EQ(optionValue("-pc_hypre_boomeramg_nodal_coarsen"), "(none)");
  {
    const eis::HypreDefaults scalar(ksp, PCHYPRE, false);
    EXPECT_EQ(optionValue("-pc_hypre_boomeramg_coarsen_type"), "HMIS");
    EXPECT_EQ(optionValue("-pc_hypre_boomeramg_nodal_coarsen"), "(none)") << "elasticity only";
  }
  {
    eis_test::ScopedOptions other{{"-pc_type", "gamg"}};
    const eis::HypreDefaults overridden(ksp, PCHYPRE, true);
    EXPECT_EQ(optionValue("-pc_hypre_boomeramg_coarsen_type"), "(none)") << "-pc_type gamg wins";
  }
  EXPECT_EQ(optionValue("-pc_hypre_boomeramg_coarsen_type"), "(none)");
  KSPDestroy(&ksp);
}

// The times PETSc's information messages (-info), written while `make` runs on one rank, report
// a product's "Fill ratio: given <fill>".
int reportedFills(const std::function<void()>& make, const std::string& fill) {
  const std::string name = testing::TempDir() + "eis_product_fill_info";
  PetscInfoSetFile(name.c_str(), "w");
  const std::string path = name + ".0";  // PETSc adds the rank
  PetscInfoAllow(PETSC_TRUE);
  make();
  PetscInfoAllow(PETSC_FALSE);
  PetscInfoSetFile(nullptr, "w");
  int count = 0;
  for (const std::string& line : eis_test::lines(path))
    if (line.find("Fill ratio: given " + fill + " ") != std::string::npos) ++count;
  std::remove(path.c_str());
  return count;
}

// reserveLessForProducts: the products with the matrix first (A P, P^T A P, GAMG's) ask for
// kProductFill where the caller asks for 2 (as PETSc reports it on one rank), and give the same
// values as the matrix without it; a product with it second is made as before.
TEST(ProductFill, TheMatrixsProductsReserveLessForTheSameValues) {
  constexpr PetscInt kRows = 20;
  int rank, size;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  Mat A, P;
  MatCreateAIJ(PETSC_COMM_WORLD, kRows, kRows, PETSC_DETERMINE, PETSC_DETERMINE, 3, nullptr, 1,
               nullptr, &A);
  MatCreateAIJ(PETSC_COMM_WORLD, kRows, kRows / 2, PETSC_DETERMINE, PETSC_DETERMINE, 1, nullptr, 1,
               nullptr, &P);
  const PetscInt n = kRows * size;
  for (PetscInt row = rank * kRows; row < (rank + 1) * kRows; ++row) {
    MatSetValue(A, row, row, 2.0 + 0.1 * row, INSERT_VALUES);
    if (row > 0) MatSetValue(A, row, row - 1, -1.0, INSERT_VALUES);
    if (row + 1 < n) MatSetValue(A, row, row + 1, -1.0, INSERT_VALUES);
    MatSetValue(P, row, row / 2, 1.0 + 0.01 * row, INSERT_VALUES);
  }
  for (Mat M : {A, P}) {
    MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY);
    MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY);
  }
  Mat plain, Pt;
  MatDuplicate(A, MAT_COPY_VALUES, &plain);
  MatTranspose(P, MAT_INITIAL_MATRIX, &Pt);
  eis::reserveLessForProducts(A);
  Mat products[3], references[3];
  const auto make = [&] {
    MatPtAP(A, P, MAT_INITIAL_MATRIX, 2.0, &products[0]);
    MatMatMult(A, P, MAT_INITIAL_MATRIX, 2.0, &products[1]);
    MatMatMult(Pt, A, MAT_INITIAL_MATRIX, 2.0, &products[2]);
  };
  if (size == 1) {
    std::ostringstream fill;
    fill << eis::kProductFill;
    EXPECT_EQ(reportedFills(make, fill.str()), 2);
    MatDestroy(&products[2]);
    EXPECT_EQ(
        reportedFills([&] { MatMatMult(Pt, A, MAT_INITIAL_MATRIX, 2.0, &products[2]); }, "2."), 1);
  } else {
    make();
  }
  MatPtAP(plain, P, MAT_INITIAL_MATRIX, 2.0, &references[0]);
  MatMatMult(plain, P, MAT_INITIAL_MATRIX, 2.0, &references[1]);
  MatMatMult(Pt, plain, MAT_INITIAL_MATRIX, 2.0, &references[2]);
  for (int k = 0; k < 3; ++k) {
    PetscBool same = PETSC_FALSE;
    MatEqual(products[k], references[k], &same);
    EXPECT_TRUE(same) << "product " << k;
    MatDestroy(&products[k]);
    MatDestroy(&references[k]);
  }
  for (Mat* M : {&A, &P, &plain, &Pt}) MatDestroy(M);
}

// The option is GAMG's alone, and the user's value of it wins and stays.
TEST(ClearedProductsOption, GivesWayToTheUsersValueAndGoes) {
  KSP ksp;
  KSPCreate(PETSC_COMM_WORLD, &ksp);
  PC pc;
  KSPGetPC(ksp, &pc);
  PCSetType(pc, PCGAMG);
  {
    const eis::ClearedProducts cleared(ksp, true);
    EXPECT_EQ(optionValue("-mat_product_clear"), "true");
  }
  EXPECT_EQ(optionValue("-mat_product_clear"), "(none)");
  {
    const eis::ClearedProducts inactive(ksp, false);
    EXPECT_EQ(optionValue("-mat_product_clear"), "(none)");
  }
  {
    eis_test::ScopedOptions user{{"-mat_product_clear", "false"}};
    {
      const eis::ClearedProducts cleared(ksp, true);
      EXPECT_EQ(optionValue("-mat_product_clear"), "false");
    }
    EXPECT_EQ(optionValue("-mat_product_clear"), "false");
  }
  PCSetType(pc, PCJACOBI);
  {
    const eis::ClearedProducts jacobi(ksp, true);
    EXPECT_EQ(optionValue("-mat_product_clear"), "(none)") << "GAMG's products only";
  }
  KSPDestroy(&ksp);
}

}  // namespace

// A direct solve (-ksp_type preonly, MUMPS's LU) takes no starting point: every
// solver.initial-guess setting runs, and reaches the state of tight iterative solves.
class DirectSolve : public eis_test::TightSolvesTest {};

TEST_F(DirectSolve, EveryStartingPointReachesTheTightIterativeState) {
  eis_test::SceneFields scene = corotationalBeam();
  scene.steps = 3;
  const Outcome iterative = runScene(scene);
  const eis_test::ScopedOptions direct{
      {"-ksp_type", "preonly"}, {"-pc_type", "lu"}, {"-pc_factor_mat_solver_type", "mumps"}};
  for (auto guess : {eis::InitialGuess::Automatic, eis::InitialGuess::Zero,
                     eis::InitialGuess::Previous, eis::InitialGuess::Projected}) {
    scene.initialGuess = guess;
    EXPECT_LT(disagreement(iterative.state, runScene(scene).state, scene), 1e-9)
        << "initial guess " << int(guess);
  }
}

namespace {

// A symmetric positive definite tridiagonal matrix, rowsHere rows on each rank.
Mat tridiagonal(PetscInt rowsHere) {
  Mat A;
  MatCreateAIJ(PETSC_COMM_WORLD, rowsHere, rowsHere, PETSC_DETERMINE, PETSC_DETERMINE, 3, nullptr,
               2, nullptr, &A);
  PetscInt first, last, n;
  MatGetOwnershipRange(A, &first, &last);
  MatGetSize(A, &n, nullptr);
  for (PetscInt i = first; i < last; ++i) {
    MatSetValue(A, i, i, 4.0 + 0.1 * double(i), INSERT_VALUES);
    if (i > 0) MatSetValue(A, i, i - 1, -1.0, INSERT_VALUES);
    if (i + 1 < n) MatSetValue(A, i, i + 1, -1.0, INSERT_VALUES);
  }
  MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY);
  MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY);
  MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE);
  return A;
}

// The projection start's pairs are kept beside PETSc's guess for a run that writes checkpoints,
// and only there: each solve adds one (b, x) pair up to 10, which a checkpoint saves; without
// checkpoints none is kept (the guess alone holds them) and the solves reach the same answers.
TEST(ProjectionStart, KeepsItsPairsTwiceOnlyForCheckpoints) {
  Mat A = tridiagonal(4);
  Vec b, x, kept;
  MatCreateVecs(A, &x, &b);
  VecDuplicate(x, &kept);
  for (bool checkpointed : {true, false}) {
    eis::LinearSolverOptions options;
    options.start = eis::LinearSolverOptions::Start::Projection;
    options.checkpointed = checkpointed;
    eis::LinearSolver solver(PETSC_COMM_WORLD, PCJACOBI, nullptr, options);
    for (int solve = 0; solve < 12; ++solve) {
      PetscInt first;
      VecGetOwnershipRange(b, &first, nullptr);
      PetscScalar* values;
      VecGetArray(b, &values);
      for (PetscInt i = 0; i < 4; ++i) values[i] = std::sin(double((first + i + 1) * (solve + 1)));
      VecRestoreArray(b, &values);
      solver.solve(A, b, x);
    }
    std::set<std::string> saved;
    solver.saveStart("euler.projection", [&](const std::string& name, Vec) { saved.insert(name); });
    if (checkpointed) {
      EXPECT_EQ(saved.size(), 20u);
      EXPECT_EQ(saved.count("euler.projection.b.9"), 1u);
      EXPECT_EQ(saved.count("euler.projection.x.9"), 1u);
      VecCopy(x, kept);
    } else {
      EXPECT_TRUE(saved.empty());
      VecAXPY(kept, -1.0, x);
      PetscReal gap, size;
      VecNorm(kept, NORM_INFINITY, &gap);
      VecNorm(x, NORM_INFINITY, &size);
      EXPECT_LT(gap, 1e-7 * size);
    }
  }
  for (Vec* v : {&b, &x, &kept}) VecDestroy(v);
  MatDestroy(&A);
}

// solveColumns: a direct solve takes every column of B at once and gives, column by column, what
// solve() gives; a wrong answer in one column is named by the check.
TEST(LinearSolverColumns, ManyRightHandSidesAtOnce) {
  const PetscInt rowsHere = 4, columns = 3;
  Mat A = tridiagonal(rowsHere), B, X;
  PetscInt first, last;
  MatGetOwnershipRange(A, &first, &last);
  MatCreateDense(PETSC_COMM_WORLD, rowsHere, PETSC_DECIDE, PETSC_DETERMINE, columns, nullptr, &B);
  for (PetscInt i = first; i < last; ++i)
    for (PetscInt j = 0; j < columns; ++j)
      MatSetValue(B, i, j, std::sin(double(1 + i + 7 * j)), INSERT_VALUES);
  MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY);
  MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY);
  MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &X);

  eis::LinearSolverOptions options;
  options.direct = true;
  eis::LinearSolver solver(PETSC_COMM_WORLD, PCGAMG, nullptr, options);
  EXPECT_EQ(solver.solveColumns(A, B, X), columns);
  Vec x, one;
  MatCreateVecs(A, &x, &one);
  for (PetscInt j = 0; j < columns; ++j) {
    Vec b, together;
    MatDenseGetColumnVecRead(B, j, &b);
    VecZeroEntries(one);
    solver.solve(A, b, one);
    MatDenseRestoreColumnVecRead(B, j, &b);
    MatDenseGetColumnVecRead(X, j, &together);
    VecWAXPY(x, -1.0, together, one);
    MatDenseRestoreColumnVecRead(X, j, &together);
    PetscReal gap;
    VecNorm(x, NORM_INFINITY, &gap);
    EXPECT_LT(gap, 1e-14) << "column " << j;
  }
  eis::SolutionCheck check;
  EXPECT_EQ(check.columnsVerdict(solver.ksp(), A, B, X), "");
  if (first == 0) MatSetValue(X, 0, 1, 1.0, ADD_VALUES);
  MatAssemblyBegin(X, MAT_FINAL_ASSEMBLY);
  MatAssemblyEnd(X, MAT_FINAL_ASSEMBLY);
  EXPECT_NE(check.columnsVerdict(solver.ksp(), A, B, X).find("column 1's answer"),
            std::string::npos);
  for (Vec* v : {&x, &one}) VecDestroy(v);
  for (Mat* m : {&A, &B, &X}) MatDestroy(m);
}

}  // namespace
