#pragma once
// The history CSV of docs/architecture.md: one row per step, the fixed columns
// step,time,wall_seconds,linear_iterations,nonlinear_iterations then the named ones
// (residual,kinetic_energy,elastic_energy,pc_rebuilt,substeps, the constraint columns).
#include <mpi.h>

#include <cstdio>
#include <string>

#include "eis/io/output.hpp"

namespace eis {

struct HistoryRow {
  int step = 0;
  double time = 0, wallSeconds = 0;
  int linearIterations = 0, nonlinearIterations = 0;
  double residual = -1;  // written empty when not computed (negative)
  double kineticEnergy = 0, elasticEnergy = 0;
  int pcRebuilt = 0;  // preconditioner set-ups in the step
  int substeps = 1;   // sub-steps the step took
  int constraintRows = 0, constraintIterations = 0;
  double constraintError = -1;  // -1: no constraint solved (written empty)
  double constraintForceNorm = -1;  // the multipliers' 2-norm; -1: none (written empty)
};

class HistoryWriter {
public:
  // Collective; rank 0 creates the missing folders and opens (truncates) the file. With
  // `keepThrough` >= 0 (a restart from that step) an existing file is continued instead: its rows
  // after that step (written by a run killed after its last checkpoint) are dropped, and the new
  // rows follow. An unusable path is an error on every rank.
  HistoryWriter(const std::string& path, MPI_Comm comm, int keepThrough = -1);
  ~HistoryWriter();
  HistoryWriter(const HistoryWriter&) = delete;
  HistoryWriter& operator=(const HistoryWriter&) = delete;
  // Collective; rank 0 appends and flushes the row (so a run that stops early keeps its
  // history). A failed write closes the file and is an error on every rank naming the path;
  // later calls do nothing.
  void write(const HistoryRow& row);
  // Collective; closes the file, an error on every rank when the close fails.
  void close();

private:
  // Rank 0: closes the file and returns the error for `what` failing (errno's reason).
  std::string fail(const char* what);

  std::string path_;
  MPI_Comm comm_;
  std::FILE* file_ = nullptr;
};

// output.history: the HistoryWriter as an Output.
OutputComponent historyOutputComponent();

}  // namespace eis
