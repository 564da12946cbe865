#include "eis/model/prescribed_motion.hpp"

#include <algorithm>
#include <map>

#include "eis/core/error.hpp"
#include "eis/core/scene.hpp"
#include "eis/model/physics.hpp"
#include "eis/model/selection.hpp"

namespace eis {

std::array<double, 3> KeyFrames::at(double t) const {
  if (t <= times.front()) return moves.front();
  if (t >= times.back()) return moves.back();
  const std::size_t k = std::upper_bound(times.begin(), times.end(), t) - times.begin();
  const double s = (t - times[k - 1]) / (times[k] - times[k - 1]);
  std::array<double, 3> move;
  for (int d = 0; d < 3; ++d) move[d] = moves[k - 1][d] + s * (moves[k][d] - moves[k - 1][d]);
  return move;
}

KeyFrames parseKeyFrames(const std::string& key, const std::string& text, std::string& selection) {
  const auto colon = text.find(':');
  if (colon == std::string::npos)
    parse::reject(key, text, "expected \"T0 DX DY DZ T1 DX DY DZ .. : SELECTION\"");
  const std::vector<double> numbers = parse::reals(key, text.substr(0, colon), 0);
  if (numbers.empty() || numbers.size() % 4 != 0)
    parse::reject(key, text, "each key frame is four numbers T DX DY DZ, at least one");
  KeyFrames frames;
  for (std::size_t i = 0; i < numbers.size(); i += 4) {
    if (numbers[i] < 0) parse::reject(key, text, "a key time must be >= 0");
    if (!frames.times.empty() && numbers[i] <= frames.times.back())
      parse::reject(key, text, "the key times must increase strictly");
    frames.times.push_back(numbers[i]);
    frames.moves.push_back({numbers[i + 1], numbers[i + 2], numbers[i + 3]});
  }
  selection = text.substr(colon + 1);
  parseSelectionValue(key, selection, 0);
  return frames;
}

PrescribedMotion::PrescribedMotion(const DistributedMesh& mesh, const Parameters& scene,
                                   std::vector<std::string>& warnings) {
  std::map<PetscInt, int> motionOf;
  auto add = [&](const std::string& key, const std::string& text, const Selection& selection,
                 int motion) {
    SelectedNodes nodes = selectNodes(mesh, selection, key);
    if (nodes.count == 0) warnings.push_back(emptySelectionWarning(key, text));
    for (auto v : nodes.vertices)
      if (mesh.owned()[v]) motionOf[v] = motion;
    sets_.push_back({std::move(nodes.vertices), {true, true, true}});
  };
  for (const std::string& text : scene.texts("constraint.linear-movement")) {
    std::string selection;
    keyFrames_.push_back(parseKeyFrames("constraint.linear-movement", text, selection));
    add("constraint.linear-movement", text,
        parseSelectionValue("constraint.linear-movement", selection, 0).selection,
        int(keyFrames_.size()) - 1);
  }
  for (const std::string& text : scene.texts("constraint.prescribed-velocity")) {
    const SelectionValue value = parseSelectionValue("constraint.prescribed-velocity", text, 3);
    velocities_.push_back({value.numbers[0], value.numbers[1], value.numbers[2]});
    add("constraint.prescribed-velocity", text, value.selection, -int(velocities_.size()));
  }
  for (const auto& [v, motion] : motionOf)
    nodes_.push_back({mesh.ownedOffset(v), mesh.restCoords()[v], motion});
}

void PrescribedMotion::displacement(double t, double h, Vec x, Vec dx) const {
  EIS_CHECK(VecZeroEntries(dx));
  const PetscScalar* position;
  PetscScalar* step;
  EIS_CHECK(VecGetArrayRead(x, &position));
  EIS_CHECK(VecGetArray(dx, &step));
  for (const Node& node : nodes_) {
    if (node.motion < 0) {
      const auto& velocity = velocities_[-1 - node.motion];
      for (int d = 0; d < 3; ++d) step[node.offset + d] = h * velocity[d];
      continue;
    }
    const auto move = keyFrames_[node.motion].at(t + h);
    for (int d = 0; d < 3; ++d)
      step[node.offset + d] = node.rest[d] + move[d] - position[node.offset + d];
  }
  EIS_CHECK(VecRestoreArray(dx, &step));
  EIS_CHECK(VecRestoreArrayRead(x, &position));
}

namespace {

Check keyFramesCheck() {
  return [](const std::string& key, const std::string& text) {
    std::string selection;
    parseKeyFrames(key, text, selection);
  };
}

}  // namespace

const ComponentDeclaration& prescribedMotionComponent() {
  static const ComponentDeclaration component{
      "prescribed-motion", "projective constraint",
      "nodes that move as prescribed (SOFA LinearMovementProjectiveConstraint; a constant\n"
      "velocity); elasticity, linearized step",
      ParameterSpec()
          .add({"constraint.linear-movement", "\"T0 DX DY DZ T1 DX DY DZ .. : SELECTION\"",
                "the selected nodes sit at their rest position plus the displacement of the key\n"
                "frames (SOFA LinearMovementProjectiveConstraint keyTimes, movements): linear\n"
                "between key times (strictly increasing, >= 0), the first displacement before the\n"
                "first and the last after the last. Each step ends exactly there. Repeatable; a\n"
                "node selected by several motions follows the last given.",
                std::nullopt, "length", true, keyFramesCheck()})
          .add({"constraint.prescribed-velocity", "\"VX VY VZ SELECTION\"",
                "the selected nodes move at this constant velocity: x_{n+1} = x_n + h V.\n"
                "Repeatable.",
                std::nullopt, "length/time", true, selectionValueCheck(3)}),
      [](Scene& scene) {
        for (const char* key : {"constraint.linear-movement", "constraint.prescribed-velocity"}) {
          requireElasticity(scene, key, scene.given(key));
          if (scene.given(key) && scene.text("solver.newton") == "full")
            throw Error(std::string(key) +
                        " is not supported with solver.newton = full; use the linearized step");
        }
      }};
  return component;
}

}  // namespace eis
