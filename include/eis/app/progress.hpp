#pragma once
// The per-step progress line that a run prints on rank 0, and how often: output.progress-every
// (--quiet is output.progress-every = 0). The start-up report and the end summary are always
// printed; this component decides only about the lines in between.
#include <string>

#include "eis/core/component.hpp"
#include "eis/io/output.hpp"

namespace eis {

// output.progress-every: its declaration, listed in app/scene_builder.cpp.
const ComponentDeclaration& progressComponent();

class Progress {
public:
  // `every` = output.progress-every (0: no step lines); `steps`: the run's number of steps (0:
  // not known ahead, a Python main loop's: no total and no time left).
  Progress(int every, int steps) : every_(every), steps_(steps) {}
  explicit Progress(const Parameters& scene);

  // Whether step `step` (1-based) gets a line: the first, the last and every N-th; none when
  // N = 0.
  bool due(int step) const;

  // The line for a step (no newline): its numbers, `details` (extra text such as the Newton
  // iterations), its wall time, and the time left, estimated from `elapsed`, the loop's wall
  // seconds so far, spread evenly over the steps taken.
  std::string line(const StepRecord& step, const std::string& details, double elapsed) const;
  // A restart: the loop starts after step `first`, so the steps taken are counted from it.
  void startAfter(int first) { first_ = first; }

private:
  int every_, steps_, first_ = 0;
};

// A duration for people: "0.42 s", "12.3 s", "4 min 05 s", "2 h 07 min".
std::string humanDuration(double seconds);

}  // namespace eis
