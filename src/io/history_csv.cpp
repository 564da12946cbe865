#include "eis/io/history_csv.hpp"

#include "eis/core/error.hpp"

namespace eis {

HistoryWriter::HistoryWriter(const std::string& path, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::string failure;
  if (rank == 0) {
    file_ = std::fopen(path.c_str(), "w");
    if (!file_) failure = "output.history = " + path + ": cannot open the file for writing";
    else std::fprintf(file_, "step,time,wall_seconds,linear_iterations,nonlinear_iterations,"
                             "residual,kinetic_energy,elastic_energy,pc_rebuilt\n");
  }
  throwIfAnyRankFailed(failure, comm);
}

HistoryWriter::~HistoryWriter() {
  if (file_) std::fclose(file_);
}

void HistoryWriter::write(const HistoryRow& row) {
  if (!file_) return;
  std::fprintf(file_, "%d,%.17g,%.9g,%d,%d,", row.step, row.time, row.wallSeconds,
               row.linearIterations, row.nonlinearIterations);
  if (row.residual >= 0) std::fprintf(file_, "%.17g", row.residual);
  std::fprintf(file_, ",%.17g,%.17g,%d\n", row.kineticEnergy, row.elasticEnergy, row.pcRebuilt);
  std::fflush(file_);
}

}  // namespace eis
