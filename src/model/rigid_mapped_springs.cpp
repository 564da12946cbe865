// The rigid-mapped-springs component: springs from a rigid body's mapped points to a mesh
// body's nodes (model/rigid_mapped_springs.hpp), declared and read here.
#include "eis/model/rigid_mapped_springs.hpp"

#include "eis/core/component_registry.hpp"

namespace eis {

namespace {

// "TARGET p n ks kd L ..": a mesh body's node path, then five values a spring.
InteractionSpringSet parseSprings(const std::string& key, const std::string& text) {
  const Texts tokens = parse::tokens(text);
  if (tokens.empty() || tokens[0].rfind('/', 0) != 0)
    parse::reject(key, text, "expected TARGET (a mesh body's node path /NAME), then p n ks kd L");
  if (tokens.size() == 1 || (tokens.size() - 1) % 5 != 0)
    parse::reject(key, text, "expected five values per spring after the target: p n ks kd L");
  InteractionSpringSet set;
  set.target = tokens[0];
  for (std::size_t t = 1; t < tokens.size(); t += 5) {
    const std::string which = "spring " + std::to_string(t / 5) + ": ";
    InteractionSpring s;
    long long point = -1, node = -1;
    if (!parse::number(tokens[t], point) || !parse::number(tokens[t + 1], node) || point < 0 ||
        node < 0)
      parse::reject(key, text, which + "p and n are integers >= 0");
    if (!parse::number(tokens[t + 2], s.ks) || !parse::number(tokens[t + 3], s.kd) ||
        !parse::number(tokens[t + 4], s.length))
      parse::reject(key, text, which + "ks kd L are numbers");
    s.node1 = point;
    s.node2 = node;
    set.springs.push_back(s);
  }
  return set;
}

}  // namespace

const ComponentDeclaration& rigidMappedSpringsComponent() {
  static const ComponentDeclaration component{
      "rigid-mapped-springs", "force field",
      "springs from a rigid body's mapped points to a mesh body's nodes (SOFA SpringForceField "
      "from a RigidMapping child)",
      ParameterSpec().add(
          {"rigid.mapped-springs", "\"TARGET p n ks kd L ...\"",
           "springs from mapped point p (rigid.mapped-points, 0-based) of this body of frames\n"
           "to node n of the mesh body TARGET (its node path /NAME), stiffness ks, damping kd,\n"
           "rest length L (SOFA SpringForceField from a RigidMapping child to a body of\n"
           "points; the law of interaction.springs). The frames and that body are then one\n"
           "system, stepped by one solver. Repeatable",
           std::nullopt, "", true,
           [](const std::string& key, const std::string& text) { parseSprings(key, text); }}),
      nullptr};
  return component;
}

std::vector<InteractionSpringSet> rigidMappedSpringsOf(const Parameters& scene) {
  std::vector<InteractionSpringSet> sets;
  for (const std::string& text : scene.texts("rigid.mapped-springs"))
    sets.push_back(parseSprings("rigid.mapped-springs", text));
  return sets;
}

const RegisterComponent registered(466, rigidMappedSpringsComponent);

}  // namespace eis
