#pragma once
// One run of a scene: set-up (mesh, partition, model, solvers, outputs), the time loop with its
// progress report, and the end summary. main() is this plus the command line.
#include <cstdio>
#include <memory>
#include <vector>

#include "eis/io/scene.hpp"
#include "eis/io/state_csv.hpp"
#include "eis/ode/euler_implicit_solver.hpp"
#include "eis/ode/newton_solver.hpp"

namespace eis {

class DistributedMesh;
class MechanicalSystem;
class LinearSolver;
class HistoryWriter;
class VtkSeriesWriter;

struct RunSummary {
  int steps = 0;
  double setupSeconds = 0, loopSeconds = 0;
  // The loop's parts (summed over steps): forces, matrix values, MatZeroRowsColumns,
  // preconditioner set-up (linearized step only) and the solve.
  double forceSeconds = 0, assemblySeconds = 0, constraintSeconds = 0, pcSetupSeconds = 0,
         solveSeconds = 0;
  long totalLinearIterations = 0;
  long preconditionerSetups = 0;
  double peakMemoryMin = 0, peakMemoryMax = 0;  // bytes, over ranks
};

class Simulation {
public:
  // Collective. `log` receives the start-up report, per-step progress and the summary on rank 0
  // (nullptr: silent). Throws eis::Error on every rank for bad input.
  Simulation(const Scene& scene, MPI_Comm comm, std::FILE* log);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  // Runs every step, writing the configured outputs. When a step fails, the last good state is
  // written first and the error names the step.
  void run();
  const RunSummary& summary() const { return summary_; }

  // The current state of every node on rank 0 (empty elsewhere), in node-id order.
  NodalTable gatherState() const;
  MechanicalSystem& system() { return *system_; }
  Vec positions() const { return x_; }
  Vec velocities() const { return v_; }

private:
  void report(const char* format, ...) const;
  StepReport advance();
  void writeTimeSeries(int step, double time);
  void writeFinalOutputs();
  void printSummary() const;

  Scene scene_;
  MPI_Comm comm_;
  std::FILE* log_;
  std::unique_ptr<DistributedMesh> mesh_;
  std::unique_ptr<MechanicalSystem> system_;
  std::unique_ptr<LinearSolver> linear_;
  // One of the two runs the steps: SOFA's linearized step, or Newton to convergence.
  std::unique_ptr<EulerImplicitSolver> solver_;
  std::unique_ptr<NewtonSolver> newton_;
  std::unique_ptr<HistoryWriter> history_;
  std::unique_ptr<VtkSeriesWriter> vtk_;
  std::unique_ptr<NodalTable> initial_;
  Vec x_ = nullptr, v_ = nullptr, restCoordinates_ = nullptr;
  RunSummary summary_;
};

}  // namespace eis
