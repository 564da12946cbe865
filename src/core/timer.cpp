#include "eis/core/timer.hpp"

#include <petscsys.h>

#include <ctime>
#include <vector>

#include "eis/core/error.hpp"

namespace eis {

namespace {

struct Frame {
  const char* name;
  double start, cpuStart;
  double nested = 0, cpuNested = 0;  // seconds of the timers opened inside this one
};

std::vector<Frame>& frames() {
  static std::vector<Frame> stack;
  return stack;
}

std::map<std::string, double>& totals() {
  static std::map<std::string, double> seconds;
  return seconds;
}

std::map<std::string, double>& cpuTotals() {
  static std::map<std::string, double> seconds;
  return seconds;
}

PetscLogStage stageNamed(const char* name) {
  static std::map<std::string, PetscLogStage> stages;
  auto it = stages.find(name);
  if (it != stages.end()) return it->second;
  PetscLogStage stage;
  EIS_CHECK(PetscLogStageRegister(name, &stage));
  stages.emplace(name, stage);
  return stage;
}

}  // namespace

double threadCpuSeconds() {
  timespec t{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return 0.0;
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

ScopedTimer::ScopedTimer(const char* name) {
  EIS_CHECK(PetscLogStagePush(stageNamed(name)));
  frames().push_back({name, MPI_Wtime(), threadCpuSeconds()});
}

ScopedTimer::~ScopedTimer() {
  const Frame frame = frames().back();
  frames().pop_back();
  const double elapsed = MPI_Wtime() - frame.start;
  const double cpu = threadCpuSeconds() - frame.cpuStart;
  totals()[frame.name] += elapsed - frame.nested;
  cpuTotals()[frame.name] += cpu - frame.cpuNested;
  if (!frames().empty()) {
    frames().back().nested += elapsed;
    frames().back().cpuNested += cpu;
  }
  PetscLogStagePop();
}

std::map<std::string, double> timerTotals() {
  return totals();
}

std::map<std::string, double> timerCpuTotals() {
  return cpuTotals();
}

}  // namespace eis
