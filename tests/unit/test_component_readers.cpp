// Tests of the components' parameter readers: each component reads its keys once, into its own
// struct, beside its declaration. For every reader: each field equals the value given for its
// key; with nothing given, each field equals the default the declaration states (read from the
// declaration, not restated here); and a bad value of its keys is refused naming the key. The
// cross-component checks (io/scene_checks) name only declared keys.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "eis/app/scene_builder.hpp"
#include "eis/core/error.hpp"
#include "eis/io/scene_checks.hpp"
#include "eis/model/mass.hpp"

namespace {

using Keys = std::vector<std::pair<std::string, std::string>>;

eis::Scene sceneWith(const Keys& keys) {
  eis::Scene scene = eis::defaultScene();
  for (const auto& [key, text] : keys) scene.set(key, text);
  return scene;
}

// The default the key's declaration states.
std::string declared(const std::string& key) {
  static const eis::Scene scene = eis::defaultScene();
  const eis::ParameterDeclaration* d = scene.spec().find(key);
  if (!d || !d->defaultText) throw std::logic_error(key + " declares no default");
  return *d->defaultText;
}

double declaredReal(const std::string& key) {
  return eis::parse::reals(key, declared(key), 1)[0];
}

template <class T, std::size_t N>
T declaredChoice(const std::string& key, const eis::Named<T> (&names)[N]) {
  return eis::parse::choice(key, declared(key), names);
}

// Each bad value of each key is refused, with the key named.
void expectRefused(const Keys& bad) {
  for (const auto& [key, text] : bad) {
    SCOPED_TRACE(key + " = " + text);
    eis::Scene scene = eis::defaultScene();
    try {
      scene.set(key, text);
      ADD_FAILURE() << "accepted";
    } catch (const eis::Error& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
  }
}

TEST(ComponentReaders, Mass) {
  const eis::MassParameters d = eis::readMassParameters(eis::defaultScene());
  EXPECT_EQ(d.type, declaredChoice("mass.type", eis::kMassTypes));
  EXPECT_FALSE(d.totalMass);
  EXPECT_FALSE(d.vertexMass);
  EXPECT_EQ(d.density, declaredReal("material.density"));
  EXPECT_EQ(d.capacity, declaredReal("material.capacity"));

  const eis::MassParameters g = eis::readMassParameters(sceneWith({{"mass.type", "uniform"},
                                                                   {"mass.total-mass", "2.5"},
                                                                   {"mass.vertex-mass", "0.5"},
                                                                   {"material.density", "7"},
                                                                   {"material.capacity", "3"}}));
  EXPECT_EQ(g.type, eis::MassType::Uniform);
  EXPECT_EQ(g.totalMass, 2.5);
  EXPECT_EQ(g.vertexMass, 0.5);
  EXPECT_EQ(g.density, 7);
  EXPECT_EQ(g.capacity, 3);
  expectRefused({{"mass.type", "heavy"},
                 {"mass.total-mass", "0"},
                 {"mass.vertex-mass", "-1"},
                 {"material.density", "x"},
                 {"material.capacity", "0"}});
}

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
