#include "eis/core/log_stage.hpp"

#include <map>
#include <string>

#include "eis/core/error.hpp"

namespace eis {

namespace {
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

ScopedStage::ScopedStage(const char* name) { EIS_CHECK(PetscLogStagePush(stageNamed(name))); }

ScopedStage::~ScopedStage() { PetscLogStagePop(); }

}  // namespace eis
