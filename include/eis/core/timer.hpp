#pragma once
// The one timing mechanism. A ScopedTimer opens the PETSc log stage of its name, so that
// -log_view splits a run the way the end summary does, and adds its wall time to its name's
// total, less the time of timers opened inside it: every second is counted once, by the
// innermost timer running (Newton's solve excludes the forces and matrices it asked for). It
// counts the calling thread's CPU time (user + system) the same way: on a machine shared with
// other jobs, the CPU seconds vary less than the wall-clock ones.
#include <map>
#include <string>

namespace eis {

class ScopedTimer {
public:
  // `name` is the stage's name too; a stage is registered on its first use.
  explicit ScopedTimer(const char* name);
  ~ScopedTimer();
  ScopedTimer(const ScopedTimer&) = delete;
  ScopedTimer& operator=(const ScopedTimer&) = delete;
};

// Seconds each name has counted so far in this process (exclusive of nested timers). A run
// reports the difference between two of these.
std::map<std::string, double> timerTotals();
// The same in the calling thread's CPU seconds.
std::map<std::string, double> timerCpuTotals();

// The calling thread's CPU time (user + system) in seconds; 0 where the clock is unavailable.
double threadCpuSeconds();

}  // namespace eis
