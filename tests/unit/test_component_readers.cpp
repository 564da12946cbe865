// Tests of the checks across components (io/scene_checks): each names only declared keys of a
// known component.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "eis/app/scene_builder.hpp"
#include "eis/io/scene_checks.hpp"

namespace {

// Every key a scene check reads is declared, and every check belongs to a known component.
TEST(SceneChecks, NameDeclaredKeysOfKnownComponents) {
  const eis::Scene scene = eis::defaultScene();
  for (const eis::SceneCheck& check : eis::sceneChecks()) {
    SCOPED_TRACE(check.component);
    bool known = false;
    for (const eis::ComponentDeclaration* c : scene.components())
      known |= c->type == check.component;
    EXPECT_TRUE(known);
    EXPECT_FALSE(check.reads.empty());
    for (const std::string& key : check.reads) EXPECT_NE(scene.spec().find(key), nullptr) << key;
  }
}

}  // namespace
