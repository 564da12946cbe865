#pragma once
// What a checkpoint records of the scene that wrote it, so that a restart refuses a checkpoint
// of another scene (another Young's modulus, another chain's run in the same folder) instead of
// continuing it silently. The record is text, one line "key=value" per value, not only a hash:
// a refusal can name the first key that differs.
#include <string>

#include "eis/core/parameters.hpp"

namespace eis {

// The body's resolved keys that change its answer, given or default, in declaration order. Left
// out is what a restart may change: the outputs and progress (output.*); the starting state,
// which the checkpoint replaces (initial.*); the run's total, solver.steps; the scene file's own
// keys (scene.*: the keys it sets are recorded themselves); how the linear and Newton solves
// reach their tolerances and how a failed step is retried (the solver's method, tolerances,
// limits and performance keys), so that a chain can change them to rescue a run. A value longer
// than a line is recorded by its length and hash.
std::string checkpointSceneText(const Parameters& scene);

// "" when the two records are the same, else the first key that differs: "KEY is A in the
// checkpoint, B in this scene".
std::string checkpointSceneDifference(const std::string& checkpoint, const std::string& ours);

}  // namespace eis
