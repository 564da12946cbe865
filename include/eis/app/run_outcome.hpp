#pragma once
// How a run ends on every rank. Input is checked collectively, so most errors arise on every rank
// at once; but a failure one rank alone sees (a PETSc call that fails there only, memory running
// out on one node) leaves the other ranks waiting for it in the run's next collective call. The
// ranks therefore meet once more at the end, on a communicator of their own, and a rank that
// failed and finds nobody there in time ends the job, since nothing else can.
#include <mpi.h>

#include <cstdio>
#include <string>

#include "eis/core/error.hpp"

namespace eis {

// A collective error reaches every rank within moments of the first, so a failed rank that waits
// this long for the others is alone: 20 s, or the seconds in the environment variable
// EULER_IMPLICIT_LONE_ERROR_WAIT (a number > 0; anything else is the 20 s). The tests that make
// a rank fail alone set 2, not to wait 20 s for what they know (tests/probes/lone_error.sh).
double loneErrorWaitSeconds();

// A failure this rank found to be its own (allRanksArrive said so): the run's end need not wait
// for the others again.
class LoneFailure : public Error {
public:
  using Error::Error;
};

struct RunOutcome {
  bool failed = false;
  std::string message;  // what failed, when failed
  bool alone = false;   // failed, and known to be alone (LoneFailure)
};

// A duplicate of a communicator, for the meetings that the run's own calls must never meet;
// freed when it goes. Collective: made where every rank is still in step.
class OwnCommunicator {
public:
  explicit OwnCommunicator(MPI_Comm of);
  ~OwnCommunicator();
  OwnCommunicator(const OwnCommunicator&) = delete;
  OwnCommunicator& operator=(const OwnCommunicator&) = delete;
  MPI_Comm get() const { return comm_; }

private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

// Collective over `comm`, a communicator the run itself never uses: whether every rank calls this
// within `waitSeconds` (a non-blocking barrier, polled). After false the barrier stays pending;
// the caller is alone and ends the job.
bool allRanksArrive(MPI_Comm comm, double waitSeconds);

// Collective over `comm`, a communicator the run itself never uses (so that a rank still inside
// one of the run's collective calls cannot take part in it by mistake). Every rank that gets here
// posts a non-blocking barrier. When all ranks arrive, the outcome is shared: rank 0 prints the
// lowest failing rank's message to `err` as "euler-implicit: error: <message>", and every rank
// returns 1 if any failed, else 0. A rank that failed and whose barrier is not complete after
// `waitSeconds` (at once when outcome.alone) prints "euler-implicit: error: rank <r>: <message>"
// itself and calls MPI_Abort.
// A rank that did not fail waits as long as it takes: if another rank aborts, it ends with it.
int finishRun(MPI_Comm comm, const RunOutcome& outcome, double waitSeconds, std::FILE* err);

}  // namespace eis
