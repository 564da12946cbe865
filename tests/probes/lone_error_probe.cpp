// Drives eis::finishRun (app/run_outcome.hpp) the way main does, with failures placed by hand,
// for tests/probes/lone_error.sh. Usage: eis_lone_error_probe MODE, MODE one of
//   all      every rank fails with the same message (a collective error)
//   one      rank 1 fails, the other ranks finish the run and meet it at the end
//   lone     rank 1 fails while the other ranks wait for it in a collective call of the run
// Exit status: finishRun's (0 or 1), or MPI_Abort's.
#include <mpi.h>

#include <cstdio>
#include <string>

#include "eis/app/run_outcome.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const std::string mode = argc > 1 ? argv[1] : "";
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm exitComm = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &exitComm);
  eis::RunOutcome outcome;
  if (mode == "all") outcome = {true, "the same on every rank"};
  if ((mode == "one" || mode == "lone") && rank == 1) outcome = {true, "seen by rank 1 only"};
  // The run's next collective call, which rank 1 never reaches.
  if (mode == "lone" && rank != 1) MPI_Barrier(MPI_COMM_WORLD);
  const int status = eis::finishRun(exitComm, outcome, 2.0, stderr);
  MPI_Comm_free(&exitComm);
  MPI_Finalize();
  return status;
}
