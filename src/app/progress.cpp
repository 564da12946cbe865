#include "eis/app/progress.hpp"

#include <cmath>
#include <cstdio>
#include <string>

namespace eis {

const ComponentDeclaration& progressComponent() {
  static const ComponentDeclaration component{
      "progress", "report", "the per-step progress line on standard output",
      ParameterSpec().add(
          {"output.progress-every", "N",
           "print the progress line (iterations, wall time, time left) every N steps, the first\n"
           "and the last always; 0: no step lines, only the start-up report and the summary\n"
           "(--quiet is the same)",
           "1", "", false, check::integerAtLeast(0)}),
      nullptr};
  return component;
}

Progress::Progress(const Parameters& scene)
    : Progress(scene.integer("output.progress-every"), scene.integer("solver.steps")) {}

bool Progress::due(int step) const {
  if (every_ == 0) return false;
  return step == first_ + 1 || step == steps_ || step % every_ == 0;
}

std::string Progress::line(const StepRecord& step, const std::string& details,
                           double elapsed) const {
  const int taken = step.step - first_;
  const double left = taken > 0 ? elapsed / taken * (steps_ - step.step) : 0.0;
  char text[256];
  const std::string total = steps_ > 0 ? "/" + std::to_string(steps_) : "";
  std::snprintf(text, sizeof text, "step %d%s  t = %.6g  linear iterations %d  PC set-ups %d",
                step.step, total.c_str(), step.time, step.report.linearIterations,
                step.report.preconditionerSetups);
  char timing[128];
  std::snprintf(timing, sizeof timing, "  %.4f s%s%s", step.wallSeconds,
                steps_ > 0 ? "  left " : "", steps_ > 0 ? humanDuration(left).c_str() : "");
  return text + details + timing;
}

std::string humanDuration(double seconds) {
  char text[64];
  if (!(seconds >= 0)) seconds = 0;
  if (seconds < 10) {
    std::snprintf(text, sizeof text, "%.2f s", seconds);
  } else if (seconds < 60) {
    std::snprintf(text, sizeof text, "%.1f s", seconds);
  } else if (seconds < 3600) {
    const long whole = std::lround(seconds);
    std::snprintf(text, sizeof text, "%ld min %02ld s", whole / 60, whole % 60);
  } else {
    const long minutes = std::lround(seconds / 60);
    std::snprintf(text, sizeof text, "%ld h %02ld min", minutes / 60, minutes % 60);
  }
  return text;
}

const RegisterComponent registered(1100, progressComponent);

}  // namespace eis
