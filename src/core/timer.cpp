#include "eis/core/timer.hpp"

#include <petscsys.h>

#include <vector>

#include "eis/core/error.hpp"

namespace eis {

namespace {

struct Frame {
  const char* name;
  double start;
  double nested = 0;  // seconds of the timers opened inside this one
};

std::vector<Frame>& frames() {
  static std::vector<Frame> stack;
  return stack;
}

std::map<std::string, double>& totals() {
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

ScopedTimer::ScopedTimer(const char* name) {
  EIS_CHECK(PetscLogStagePush(stageNamed(name)));
  frames().push_back({name, MPI_Wtime()});
}

ScopedTimer::~ScopedTimer() {
  const Frame frame = frames().back();
  frames().pop_back();
  const double elapsed = MPI_Wtime() - frame.start;
  totals()[frame.name] += elapsed - frame.nested;
  if (!frames().empty()) frames().back().nested += elapsed;
  PetscLogStagePop();
}

std::map<std::string, double> timerTotals() {
  return totals();
}

}  // namespace eis
