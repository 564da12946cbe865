#include "eis/io/checkpoint_scene.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <utility>
#include <vector>

namespace eis {

namespace {

// The solver's keys that change how a solve reaches its tolerance, or how a failed step is
// retried, but not the equations a step solves.
constexpr const char* kSolveKeys[] = {"solver.steps",
                                      "solver.linear",
                                      "solver.preconditioner",
                                      "solver.rtol",
                                      "solver.max-iterations",
                                      "solver.iteration-limit",
                                      "solver.residual-norm",
                                      "solver.initial-guess",
                                      "solver.guess-solutions",
                                      "solver.pc-lag",
                                      "solver.pc-rebuild-growth",
                                      "solver.block-prefetch",
                                      "solver.block-prefetch-locality",
                                      "solver.block-products",
                                      "solver.symmetric-blocks",
                                      "solver.single-precision-levels",
                                      "solver.truncated-finest-smoother",
                                      "solver.compute-residual",
                                      "solver.operator",
                                      "solver.newton-guess",
                                      "solver.on-failure",
                                      "solver.max-substeps"};

// Longer values (a list of node ids) are recorded by length and hash: an HDF5 attribute is
// kept small, and such a value is not worth printing in a message.
constexpr std::size_t kLongestValue = 200;

bool recorded(const std::string& key) {
  for (const char* prefix : {"output.", "initial.", "scene."})
    if (key.rfind(prefix, 0) == 0) return false;
  return std::none_of(std::begin(kSolveKeys), std::end(kSolveKeys),
                      [&](const char* solve) { return key == solve; });
}

std::string recordedValue(const std::string& value) {
  if (value.size() <= kLongestValue && value.find('\n') == std::string::npos) return value;
  std::uint64_t hash = 14695981039346656037ull;  // FNV-1a, 64 bits
  for (unsigned char c : value) hash = (hash ^ c) * 1099511628211ull;
  char text[64];
  std::snprintf(text, sizeof text, "<%zu characters, FNV-1a %016llx>", value.size(),
                static_cast<unsigned long long>(hash));
  return text;
}

// The record's keys in order, each with its values joined by lines.
std::vector<std::pair<std::string, std::string>> entries(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> read;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    const std::size_t equals = line.find('=');
    const std::string key = line.substr(0, equals);
    const std::string value = equals == std::string::npos ? "" : line.substr(equals + 1);
    if (!read.empty() && read.back().first == key)
      read.back().second += "\n" + value;
    else
      read.emplace_back(key, value);
  }
  return read;
}

std::string shown(const std::string* value) {
  if (!value) return "not given";
  std::string text = *value;
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

}  // namespace

std::string checkpointSceneText(const Parameters& scene) {
  std::string text;
  for (const ParameterDeclaration& d : scene.spec().declarations()) {
    if (!recorded(d.key)) continue;
    for (const std::string& value : scene.shown(d.key))
      text += d.key + "=" + recordedValue(value) + "\n";
  }
  return text;
}

std::string checkpointSceneDifference(const std::string& checkpoint, const std::string& ours) {
  const auto file = entries(checkpoint), scene = entries(ours);
  const auto find = [](const auto& list, const std::string& key) -> const std::string* {
    for (const auto& [name, value] : list)
      if (name == key) return &value;
    return nullptr;
  };
  const auto differs = [&](const std::string& key) -> std::string {
    const std::string *a = find(file, key), *b = find(scene, key);
    if (a && b && *a == *b) return "";
    return key + " is " + shown(a) + " in the checkpoint, " + shown(b) + " in this scene";
  };
  for (const auto& entry : scene)
    if (std::string why = differs(entry.first); !why.empty()) return why;
  for (const auto& entry : file)
    if (std::string why = differs(entry.first); !why.empty()) return why;
  return "";
}

}  // namespace eis
