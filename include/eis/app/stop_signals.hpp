#pragma once
// SIGTERM, SIGUSR1 and SIGINT ask a run to stop: the handler only records the signal
// (async-signal-safe); the time loop looks at the end of each step, all ranks agreeing in one
// small reduction, and stops there with a checkpoint and its final outputs. A second signal
// ends the process at once, as the signal's default action would have.
namespace eis {

// Exit status of a run stopped by one of these signals (EX_TEMPFAIL: "try again"), distinct
// from success (0) and from an error (1), for a job chain to resubmit on.
inline constexpr int kStoppedBySignal = 75;

// Holds those signals back (blocked, left pending) until installStopSignals: called first thing
// in main, so that one arriving while MPI and PETSc start, before the handlers are in place,
// stops the run after its first step instead of killing the rank.
void holdStopSignals();
// Installs the handlers (once per process), then lets held signals through to them.
void installStopSignals();
// The first of those signals this process received since installStopSignals(), or 0.
int stopSignal();
// "SIGTERM", "SIGUSR1", "SIGINT" (else "a signal").
const char* stopSignalName(int signal);

}  // namespace eis
