#include "eis/model/prescribed_motion.hpp"

#include <algorithm>
#include <map>

#include "eis/core/error.hpp"
#include "eis/model/selection.hpp"

namespace eis {

namespace {

constexpr Named<MotionRule> kMotionRules[] = {{"sofa", MotionRule::Sofa},
                                              {"hold", MotionRule::Hold}};

// Between key times k - 1 and k: SOFA's interpolation, ratio of the times first.
std::array<double, 3> between(const KeyFrames& frames, std::size_t k, double t) {
  const double s = (t - frames.times[k - 1]) / (frames.times[k] - frames.times[k - 1]);
  std::array<double, 3> move;
  for (int d = 0; d < 3; ++d)
    move[d] = frames.moves[k - 1][d] + (frames.moves[k][d] - frames.moves[k - 1][d]) * s;
  return move;
}

std::size_t nextKey(const KeyFrames& frames, double t) {
  return std::upper_bound(frames.times.begin(), frames.times.end(), t) - frames.times.begin();
}

}  // namespace

std::array<double, 3> KeyFrames::at(double t) const {
  if (t <= times.front()) return moves.front();
  if (t >= times.back()) return moves.back();
  return between(*this, nextKey(*this, t), t);
}

bool KeyFrames::active(double t) const {
  return t >= times.front() && nextKey(*this, t) < times.size();
}

void KeyFrames::sofaAt(double t, std::array<double, 3>& move, std::array<double, 3>& slope) const {
  const std::size_t k = nextKey(*this, t);
  move = between(*this, k, t);
  const double rate = 1.0 / (times[k] - times[k - 1]);
  for (int d = 0; d < 3; ++d) slope[d] = (moves[k][d] - moves[k - 1][d]) * rate;
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

PrescribedMotionParameters readPrescribedMotionParameters(const Parameters& scene) {
  PrescribedMotionParameters parameters;
  parameters.rule = scene.choice("constraint.linear-movement-rule", kMotionRules);
  for (const std::string& text : scene.texts("constraint.linear-movement")) {
    const char* key = "constraint.linear-movement";
    std::string selection;
    KeyFrames frames = parseKeyFrames(key, text, selection);
    parameters.movements.push_back(
        {text, std::move(frames), parseSelectionValue(key, selection, 0).selection});
  }
  for (const std::string& text : scene.texts("constraint.prescribed-velocity")) {
    const SelectionValue value = parseSelectionValue("constraint.prescribed-velocity", text, 3);
    parameters.velocities.push_back(
        {text, {value.numbers[0], value.numbers[1], value.numbers[2]}, value.selection});
  }
  return parameters;
}

PrescribedMotion::PrescribedMotion(const DistributedMesh& mesh,
                                   const PrescribedMotionParameters& parameters,
                                   std::vector<std::string>& warnings)
    : rule_(parameters.rule), dofs_(mesh.dofsPerNode()) {
  std::map<PetscInt, int> motionOf;
  auto select = [&](const std::string& key, const std::string& text, const Selection& selection) {
    SelectedNodes nodes = selectNodes(mesh, selection, key);
    if (nodes.count == 0) warnings.push_back(emptySelectionWarning(key, text));
    return FixedConstraint::FixedNodes{std::move(nodes.vertices), {true, true, true}};
  };
  auto lift = [&](FixedConstraint::FixedNodes nodes, int motion) {
    for (auto v : nodes.vertices)
      if (mesh.owned()[v]) motionOf[v] = motion;
    sets_.push_back(std::move(nodes));
    ++liftCount_;
  };
  for (const LinearMovement& movement : parameters.movements) {
    keyFrames_.push_back(movement.frames);
    const int motion = int(keyFrames_.size()) - 1;
    auto nodes = select("constraint.linear-movement", movement.text, movement.selection);
    if (rule_ == MotionRule::Hold) {
      lift(std::move(nodes), motion);
      continue;
    }
    for (auto v : nodes.vertices)
      if (mesh.owned()[v]) projected_.push_back({mesh.ownedOffset(v), {}, motion});
    motionSets_.push_back(std::move(nodes));
  }
  for (const PrescribedVelocity& velocity : parameters.velocities) {
    velocities_.push_back(velocity.velocity);
    lift(select("constraint.prescribed-velocity", velocity.text, velocity.selection),
         -int(velocities_.size()));
  }
  for (const auto& [v, motion] : motionOf)
    lifted_.push_back({mesh.ownedOffset(v), mesh.restCoords()[v], motion});
}

void PrescribedMotion::displacement(double t, double h, Vec x, Vec dx) const {
  EIS_CHECK(VecZeroEntries(dx));
  const PetscScalar* position;
  PetscScalar* step;
  EIS_CHECK(VecGetArrayRead(x, &position));
  EIS_CHECK(VecGetArray(dx, &step));
  for (const Node& node : lifted_) {
    if (node.motion < 0) {
      const auto& velocity = velocities_[-1 - node.motion];
      for (int d = 0; d < dofs_; ++d) step[node.offset + d] = h * velocity[d];
      continue;
    }
    const auto move = keyFrames_[node.motion].at(t + h);
    for (int d = 0; d < dofs_; ++d)
      step[node.offset + d] = node.base[d] + move[d] - position[node.offset + d];
  }
  EIS_CHECK(VecRestoreArray(dx, &step));
  EIS_CHECK(VecRestoreArrayRead(x, &position));
}

std::vector<bool> PrescribedMotion::activeAt(double t) const {
  std::vector<bool> active;
  if (rule_ == MotionRule::Sofa)
    for (const KeyFrames& frames : keyFrames_) active.push_back(frames.active(t));
  return active;
}

std::vector<FixedConstraint::FixedNodes> PrescribedMotion::activeSets(
    const std::vector<bool>& active) const {
  std::vector<FixedConstraint::FixedNodes> sets;
  for (std::size_t m = 0; m < motionSets_.size(); ++m)
    if (active[m]) sets.push_back(motionSets_[m]);
  return sets;
}

void PrescribedMotion::start(double t, Vec x, Vec v) {
  const PetscScalar* position;
  EIS_CHECK(VecGetArrayRead(x, &position));
  for (Node& node : projected_)
    for (int d = 0; d < dofs_; ++d) node.base[d] = position[node.offset + d];
  EIS_CHECK(VecRestoreArrayRead(x, &position));
  project(t, x, v);
}

void PrescribedMotion::project(double t, Vec x, Vec v) const {
  if (projected_.empty()) return;
  const std::vector<bool> active = activeAt(t);
  PetscScalar *position, *velocity;
  EIS_CHECK(VecGetArray(x, &position));
  EIS_CHECK(VecGetArray(v, &velocity));
  std::array<double, 3> move, slope;
  for (const Node& node : projected_) {
    if (!active[node.motion]) continue;
    keyFrames_[node.motion].sofaAt(t, move, slope);
    for (int d = 0; d < dofs_; ++d) {
      position[node.offset + d] = node.base[d] + move[d];
      velocity[node.offset + d] = slope[d];
    }
  }
  EIS_CHECK(VecRestoreArray(v, &velocity));
  EIS_CHECK(VecRestoreArray(x, &position));
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
      "velocity); elasticity, linearized step; diffusion: SOFA's rule, u moving by DX",
      ParameterSpec()
          .add(
              {"constraint.linear-movement", "\"T0 DX DY DZ T1 DX DY DZ .. : SELECTION\"",
               "the selected nodes move by the displacements of the key frames, linear between\n"
               "key times (strictly increasing, >= 0; SOFA LinearMovementProjectiveConstraint\n"
               "keyTimes, movements), as constraint.linear-movement-rule says. Repeatable; a node\n"
               "selected by several motions follows the last given that acts.",
               std::nullopt, "length", true, keyFramesCheck()})
          .add(
              {"constraint.linear-movement-rule", "sofa|hold",
               "sofa: SOFA's LinearMovementProjectiveConstraint. A motion acts in a step whose\n"
               "start time t lies in [first key time, last key time): the nodes are fixed in its\n"
               "solve, then put at x0 + m(t) (x0: their positions at the start of the run, where\n"
               "the same projection acts at t = 0) with the segment's slope as velocity; outside,\n"
               "they are free. hold: every step ends them at rest + m(t + h), the first\n"
               "displacement before the first key time and the last after the last",
               "sofa", "", false, check::choice(kMotionRules)})
          .add({"constraint.prescribed-velocity", "\"VX VY VZ SELECTION\"",
                "the selected nodes move at this constant velocity: x_{n+1} = x_n + h V.\n"
                "Repeatable.",
                std::nullopt, "length/time", true, selectionValueCheck(3)}),
      nullptr};
  return component;
}

const RegisterComponent registered(510, prescribedMotionComponent);

}  // namespace eis
