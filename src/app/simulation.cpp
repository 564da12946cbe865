#include "eis/app/simulation.hpp"

#include <cstdarg>
#include <string>

#include "eis/core/error.hpp"
#include "eis/core/memory.hpp"
#include "eis/core/tetra_geometry.hpp"
#include "eis/io/history_csv.hpp"
#include "eis/io/vtk_output.hpp"
#include "eis/linalg/linear_solver.hpp"
#include "eis/mesh/box_mesh.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/mesh/gmsh_reader.hpp"
#include "eis/model/mechanical_system.hpp"

namespace eis {

namespace {

// Rank 0 builds or reads the whole mesh; a failure there becomes an error on every rank.
SerialMesh loadSerialMesh(const Scene& scene, MPI_Comm comm, std::string& warnings) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  SerialMesh mesh;
  std::string failure;
  if (rank == 0) {
    try {
      mesh = scene.meshFile.empty() ? makeBoxMesh(scene.boxSize, scene.boxCells)
                                    : readGmsh(scene.meshFile);
      std::string skipped;
      for (const auto& [type, count] : mesh.skippedElements)
        skipped += (skipped.empty() ? "" : ", ") + std::to_string(count) + " " + type;
      if (!skipped.empty()) warnings += "ignored elements that are not tetrahedra: " + skipped + "\n";
      std::int64_t inverted = 0;
      for (const auto& t : mesh.tets)
        inverted += TetraShape(mesh.nodes[t[0]], mesh.nodes[t[1]], mesh.nodes[t[2]], mesh.nodes[t[3]])
                        .signedVolume < 0;
      if (inverted > 0)
        warnings += std::to_string(inverted) +
                    " tetrahedra are negatively oriented; kept as listed (absolute volume, as SOFA)\n";
    } catch (const Error& e) {
      failure = e.what();
    }
  }
  throwIfAnyRankFailed(failure, comm);
  return mesh;
}

// A box that selects no node is legal (the scene may be generic) but worth a warning.
std::string emptyBoxWarning(const char* key, const Box& box) {
  char text[256];
  std::snprintf(text, sizeof text, "%s %g %g %g %g %g %g selects no node\n", key, box.min[0],
                box.min[1], box.min[2], box.max[0], box.max[1], box.max[2]);
  return text;
}

EulerImplicitOptions solverOptions(const Scene& scene) {
  EulerImplicitOptions options;
  options.rayleighMass = scene.rayleighMass;
  options.rayleighStiffness = scene.rayleighStiffness;
  options.vdamping = scene.vdamping;
  options.firstOrder = scene.firstOrder;
  options.scheme = scene.scheme;
  options.computeResidual = scene.computeResidual;
  return options;
}

// PETSc's name for the scene's preconditioner; auto is GAMG, or Jacobi without a matrix.
PCType defaultPreconditioner(const Scene& scene) {
  switch (scene.preconditioner) {
    case Preconditioner::Gamg: return PCGAMG;
    case Preconditioner::Hypre:
    case Preconditioner::HypreElasticity: return PCHYPRE;
    case Preconditioner::Jacobi: return PCJACOBI;
    case Preconditioner::Automatic: break;
  }
  return scene.op == OperatorMode::MatrixFree ? PCJACOBI : PCGAMG;
}

PreconditionerOptions preconditionerOptions(const Scene& scene) {
  PreconditionerOptions options;
  options.hypreElasticity = scene.preconditioner == Preconditioner::HypreElasticity;
  options.lag = scene.pcLag;
  options.rebuildGrowth = scene.pcRebuildGrowth;
  return options;
}

// auto: the projection needs a matrix that stays the same from step to step (PETSc forgets the
// stored solutions when it changes); otherwise the previous solution is the better start.
LinearSolverOptions::Start linearSolveStart(InitialGuess guess, bool constantMatrix) {
  if (guess == InitialGuess::Automatic)
    guess = constantMatrix ? InitialGuess::Projected : InitialGuess::Previous;
  switch (guess) {
    case InitialGuess::Previous: return LinearSolverOptions::Start::GivenVector;
    case InitialGuess::Projected: return LinearSolverOptions::Start::Projection;
    default: return LinearSolverOptions::Start::Zero;
  }
}

}  // namespace

void Simulation::report(const char* format, ...) const {
  int rank;
  MPI_Comm_rank(comm_, &rank);
  if (!log_ || rank != 0) return;
  va_list args;
  va_start(args, format);
  std::vfprintf(log_, format, args);
  va_end(args);
  std::fflush(log_);
}

Simulation::Simulation(const Scene& scene, MPI_Comm comm, std::FILE* log)
    : scene_(scene), comm_(comm), log_(log) {
  const double start = MPI_Wtime();
  int ranks;
  MPI_Comm_size(comm_, &ranks);
  report("euler-implicit %s: scene\n%s", EIS_VERSION, describe(scene_).c_str());

  std::string warnings;
  {
    const SerialMesh serial = loadSerialMesh(scene_, comm_, warnings);
    const int dofs = scene_.physics == Physics::Elasticity ? 3 : 1;
    mesh_ = std::make_unique<DistributedMesh>(comm_, serial, dofs, scene_.refine);
    if (!serial.nodes.empty() && !mesh_->unusedNodeIds().empty())
      warnings += std::to_string(mesh_->unusedNodeIds().size()) +
                  " nodes belong to no tetrahedron; they are written unchanged\n";
  }
  std::vector<int> groupTags;
  for (const auto& group : scene_.fixedGroups) groupTags.push_back(mesh_->findGroup(group));
  system_ = std::make_unique<MechanicalSystem>(*mesh_, scene_, groupTags);
  for (std::size_t b = 0; b < scene_.fixedBoxes.size(); ++b)
    if (system_->constraint().nodesPerBox()[b] == 0)
      warnings += emptyBoxWarning("constraint.fixed-box", scene_.fixedBoxes[b]);
  for (std::size_t b = 0; b < scene_.forceBoxes.size(); ++b)
    if (system_->nodesPerForceBox()[b] == 0)
      warnings += emptyBoxWarning("load.force-box", scene_.forceBoxes[b].box);

  const auto& part = mesh_->partition();
  report("mesh: %lld nodes, %lld unknowns on %d ranks; cells per rank %lld..%lld, ghost nodes per "
         "rank %lld..%lld, edge cut %lld; %lld fixed nodes\n",
         static_cast<long long>(mesh_->numGlobalVertices()),
         static_cast<long long>(mesh_->numGlobalVertices() * mesh_->dofsPerNode()), ranks,
         static_cast<long long>(part.cellsMin), static_cast<long long>(part.cellsMax),
         static_cast<long long>(part.ghostsMin), static_cast<long long>(part.ghostsMax),
         static_cast<long long>(part.edgeCut),
         static_cast<long long>(system_->constraint().numFixedNodes()));
  if (!warnings.empty()) {
    for (std::size_t begin = 0; begin < warnings.size();) {
      const std::size_t end = warnings.find('\n', begin);
      report("euler-implicit: warning: %s\n", warnings.substr(begin, end - begin).c_str());
      begin = end + 1;
    }
  }

  x_ = system_->createVector();
  v_ = system_->createVector();
  system_->setRestState(x_);
  EIS_CHECK(VecZeroEntries(v_));
  if (!scene_.initialState.empty()) {
    initial_ = std::make_unique<NodalTable>(readStateCsv(scene_.initialState, scene_.physics, comm_));
    applyState(*initial_, scene_.initialState, *mesh_, x_, v_);
  }
  // Fixed nodes never move: their velocity is zero from the start.
  system_->projectResponse(v_);

  const bool elasticity = scene_.physics == Physics::Elasticity;
  const bool matrixFree = scene_.op == OperatorMode::MatrixFree;
  if (elasticity && !matrixFree) {
    restCoordinates_ = system_->createVector();
    system_->setRestState(restCoordinates_);
  }
  const PCType pc = defaultPreconditioner(scene_);
  if (scene_.newton == NewtonMode::Full) {
    newton_ = std::make_unique<NewtonSolver>(comm_, solverOptions(scene_), scene_.newtonGuess, x_,
                                             pc, restCoordinates_, preconditionerOptions(scene_));
  } else {
    LinearSolverOptions linearOptions;
    linearOptions.preconditioner = preconditionerOptions(scene_);
    linearOptions.start = linearSolveStart(scene_.initialGuess, system_->constantMatrix());
    linear_ = std::make_unique<LinearSolver>(comm_, pc, restCoordinates_, linearOptions);
    solver_ = std::make_unique<EulerImplicitSolver>(solverOptions(scene_), x_);
  }
  if (!scene_.history.empty()) history_ = std::make_unique<HistoryWriter>(scene_.history, comm_);
  if (!scene_.vtk.empty()) {
    vtk_ = std::make_unique<VtkSeriesWriter>(comm_, scene_.vtk);
    writeTimeSeries(0, 0.0);
  }
  summary_.setupSeconds = MPI_Wtime() - start;
  report("set-up: %.3f s\n", summary_.setupSeconds);
}

Simulation::~Simulation() {
  VecDestroy(&x_);
  VecDestroy(&v_);
  VecDestroy(&restCoordinates_);
}

void Simulation::run() {
  const double loopStart = MPI_Wtime();
  for (int step = 1; step <= scene_.steps; ++step) {
    const double stepStart = MPI_Wtime();
    StepReport step_report;
    try {
      step_report = advance();
    } catch (const Error& e) {
      // The step failed before touching x and v: they still hold the last good state.
      writeFinalOutputs();
      char where[64];
      std::snprintf(where, sizeof where, "step %d (t = %g): ", step, step * scene_.dt);
      throw Error(where + std::string(e.what()) + "; the state of step " +
                  std::to_string(step - 1) + " was written to the configured outputs");
    }
    const double wall = MPI_Wtime() - stepStart;
    const double time = step * scene_.dt;
    summary_.steps = step;
    summary_.totalLinearIterations += step_report.linearIterations;
    summary_.preconditionerSetups += step_report.preconditionerSetups;

    HistoryRow row;
    row.step = step;
    row.time = time;
    row.wallSeconds = wall;
    row.linearIterations = step_report.linearIterations;
    row.nonlinearIterations = step_report.nonlinearIterations;
    row.residual = step_report.residualNorm;
    row.pcRebuilt = step_report.preconditionerSetups;
    if (history_) {
      row.kineticEnergy = system_->kineticEnergy(v_);
      row.elasticEnergy = system_->potentialEnergy(x_);
      history_->write(row);
    }
    if (vtk_ && (step % scene_.outputEvery == 0 || step == scene_.steps)) writeTimeSeries(step, time);

    std::string extra;
    if (newton_) extra += "  Newton iterations " + std::to_string(step_report.nonlinearIterations);
    if (step_report.residualNorm >= 0) extra += "  residual " + std::to_string(step_report.residualNorm);
    report("step %d/%d  t = %.6g  linear iterations %d  PC set-ups %d%s  %.4f s\n", step,
           scene_.steps, time, step_report.linearIterations, step_report.preconditionerSetups,
           extra.c_str(), wall);
  }
  summary_.loopSeconds = MPI_Wtime() - loopStart;
  summary_.assemblySeconds = system_->assemblySeconds();
  summary_.constraintSeconds = system_->constraintSeconds();
  summary_.forceSeconds = system_->forceSeconds();
  if (newton_) {
    // SNES's time includes the forces and Jacobians it evaluates and its preconditioner
    // set-ups: count the first two once and leave the set-ups inside the solve.
    summary_.solveSeconds = newton_->seconds() - summary_.assemblySeconds -
                            summary_.constraintSeconds - summary_.forceSeconds;
  } else {
    summary_.pcSetupSeconds = linear_->setupSeconds();
    summary_.solveSeconds = linear_->seconds();
  }
  writeFinalOutputs();
  double peak = peakResidentBytes(), peakMin = peak, peakMax = peak;
  MPI_Allreduce(&peak, &peakMin, 1, MPI_DOUBLE, MPI_MIN, comm_);
  MPI_Allreduce(&peak, &peakMax, 1, MPI_DOUBLE, MPI_MAX, comm_);
  summary_.peakMemoryMin = peakMin;
  summary_.peakMemoryMax = peakMax;
  printSummary();
}

StepReport Simulation::advance() {
  if (newton_) return newton_->step(*system_, x_, v_, scene_.dt);
  return solver_->step(*system_, *linear_, x_, v_, scene_.dt);
}

void Simulation::writeTimeSeries(int step, double time) {
  const auto& rest = mesh_->restCoords();
  const std::size_t n = rest.size();
  const int dofs = mesh_->dofsPerNode();
  Vec xl, vl;
  EIS_CHECK(DMGetLocalVector(mesh_->dm(), &xl));
  EIS_CHECK(DMGetLocalVector(mesh_->dm(), &vl));
  EIS_CHECK(DMGlobalToLocal(mesh_->dm(), x_, INSERT_VALUES, xl));
  EIS_CHECK(DMGlobalToLocal(mesh_->dm(), v_, INSERT_VALUES, vl));
  const PetscScalar *xs, *vs;
  EIS_CHECK(VecGetArrayRead(xl, &xs));
  EIS_CHECK(VecGetArrayRead(vl, &vs));

  VtkPiece piece;
  piece.nodeIds = mesh_->nodeIds();
  piece.owned = mesh_->owned();
  for (const auto& cell : mesh_->cells()) piece.tets.insert(piece.tets.end(), cell.begin(), cell.end());
  std::vector<VtkField> pointData, cellData;
  if (dofs == 3) {
    VtkField displacement{"displacement", 3, {}}, velocity{"velocity", 3, {}};
    for (std::size_t v = 0; v < n; ++v)
      for (int d = 0; d < 3; ++d) {
        piece.points.push_back(xs[3 * v + d]);
        displacement.values.push_back(xs[3 * v + d] - rest[v][d]);
        velocity.values.push_back(vs[3 * v + d]);
      }
    pointData = {std::move(displacement), std::move(velocity)};
    cellData.push_back({"von_mises", 1, system_->vonMisesStress(x_)});
  } else {
    for (const auto& p : rest) piece.points.insert(piece.points.end(), p.begin(), p.end());
    pointData = {{"u", 1, std::vector<double>(xs, xs + n)}, {"du", 1, std::vector<double>(vs, vs + n)}};
  }
  EIS_CHECK(VecRestoreArrayRead(vl, &vs));
  EIS_CHECK(VecRestoreArrayRead(xl, &xs));
  EIS_CHECK(DMRestoreLocalVector(mesh_->dm(), &vl));
  EIS_CHECK(DMRestoreLocalVector(mesh_->dm(), &xl));
  vtk_->write(step, time, piece, pointData, cellData);
}

void Simulation::writeFinalOutputs() {
  if (!scene_.finalState.empty()) {
    writeStateCsv(scene_.finalState, gatherState(), scene_.physics, comm_);
    report("final state: %s\n", scene_.finalState.c_str());
  }
  if (vtk_) report("time series: %s\n", vtk_->pvdPath().c_str());
  if (history_) report("history: %s\n", scene_.history.c_str());
}

NodalTable Simulation::gatherState() const {
  return eis::gatherState(*mesh_, x_, v_, initial_.get());
}

void Simulation::printSummary() const {
  const auto& s = summary_;
  const double perStep = s.steps ? s.loopSeconds / s.steps : 0.0;
  const double other = s.loopSeconds - s.forceSeconds - s.assemblySeconds - s.constraintSeconds -
                       s.pcSetupSeconds - s.solveSeconds;
  report("summary: %d steps in %.3f s (%.4f s per step; set-up %.3f s); forces %.3f s, matrix "
         "assembly %.3f s, constraints %.3f s, preconditioner set-up %.3f s, %s %.3f s, other "
         "%.3f s; %.1f linear iterations per step, %ld PC set-ups; peak memory per rank "
         "%.1f..%.1f MiB\n",
         s.steps, s.loopSeconds, perStep, s.setupSeconds, s.forceSeconds, s.assemblySeconds,
         s.constraintSeconds, s.pcSetupSeconds,
         newton_ ? "Newton solve (set-ups included)" : "KSP solve", s.solveSeconds, other,
         s.steps ? double(s.totalLinearIterations) / s.steps : 0.0, s.preconditionerSetups,
         s.peakMemoryMin / 1048576.0,
         s.peakMemoryMax / 1048576.0);
}

}  // namespace eis
