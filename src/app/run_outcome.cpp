#include "eis/app/run_outcome.hpp"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <thread>

namespace eis {

double loneErrorWaitSeconds() {
  const char* given = std::getenv("EULER_IMPLICIT_LONE_ERROR_WAIT");
  char* end = nullptr;
  const double seconds = given ? std::strtod(given, &end) : 0;
  return given && *given && *end == '\0' && std::isfinite(seconds) && seconds > 0 ? seconds : 20;
}

OwnCommunicator::OwnCommunicator(MPI_Comm of) {
  EIS_CHECK_MPI(MPI_Comm_dup(of, &comm_));
}

OwnCommunicator::~OwnCommunicator() {
  MPI_Comm_free(&comm_);
}

bool allRanksArrive(MPI_Comm comm, double waitSeconds) {
  MPI_Request barrier = MPI_REQUEST_NULL;
  EIS_CHECK_MPI(MPI_Ibarrier(comm, &barrier));
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(waitSeconds);
  for (;;) {
    int done = 0;
    EIS_CHECK_MPI(MPI_Test(&barrier, &done, MPI_STATUS_IGNORE));
    if (done) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

int finishRun(MPI_Comm comm, const RunOutcome& outcome, double waitSeconds, std::FILE* err) {
  const int rank = commRank(comm);
  if (!outcome.failed) {
    // Non-blocking, as the failed ranks' is (a blocking barrier would not match theirs).
    MPI_Request barrier = MPI_REQUEST_NULL;
    EIS_CHECK_MPI(MPI_Ibarrier(comm, &barrier));
    EIS_CHECK_MPI(MPI_Wait(&barrier, MPI_STATUS_IGNORE));
  } else if (outcome.alone || !allRanksArrive(comm, waitSeconds)) {
    std::fprintf(err, "euler-implicit: error: rank %d: %s\n", rank,
                 printable(outcome.message).c_str());
    std::fflush(err);
    MPI_Abort(comm, 1);
  }
  try {
    throwIfAnyRankFailed(outcome.failed
                             ? (outcome.message.empty() ? "(no message)" : outcome.message)
                             : std::string(),
                         comm);
  } catch (const Error& e) {
    // What the run printed first comes first: standard output is buffered into a pipe or file.
    std::fflush(stdout);
    if (rank == 0) std::fprintf(err, "euler-implicit: error: %s\n", printable(e.what()).c_str());
    return 1;
  }
  return 0;
}

}  // namespace eis
