#pragma once
// SIGTERM, SIGUSR1 and SIGINT ask a run to stop: the handler only records the signal
// (async-signal-safe); the time loop looks at the end of each step, all ranks agreeing in one
// small reduction, and stops there with a checkpoint and its final outputs. A second signal
// ends the process at once, as the signal's default action would have.
namespace eis {

// Exit status of a run stopped by one of these signals (EX_TEMPFAIL: "try again"), distinct
// from success (0) and from an error (1), for a job chain to resubmit on.
inline constexpr int kStoppedBySignal = 75;

// Installs the handlers (once per process).
void installStopSignals();
// The first of those signals this process received since installStopSignals(), or 0.
int stopSignal();
// "SIGTERM", "SIGUSR1", "SIGINT" (else "a signal").
const char* stopSignalName(int signal);

}  // namespace eis
