#pragma once
// output.checkpoint: checkpoints (io/checkpoint_file.hpp) every N steps and/or M minutes of wall
// time, at the end of a run and when a signal stops it; and initial.restart, the checkpoint a run
// continues from.
#include <functional>
#include <string>

#include "eis/io/output.hpp"

namespace eis {

// output.checkpoint, output.checkpoint-every, output.checkpoint-minutes and initial.restart.
OutputComponent checkpointOutputComponent();

// Collective. The checkpoint initial.restart names: its path ("" when the key is absent); for
// "auto" the newest checkpoint of output.checkpoint on disk that `problem` accepts, older ones
// tried in turn, each one refused passed to `warn` as one line naming it and why; "" when there
// is none (a fresh start). `problem` (collective, the same verdict on every rank) returns the
// error a restart from a path would raise, "" when it would not; a path given by name is not
// checked here (its load raises the error). Errors on every rank for "auto" without
// output.checkpoint, or when every checkpoint is refused (naming the newest and why).
std::string restartCheckpoint(const Parameters& scene, MPI_Comm comm,
                              const std::function<std::string(const std::string&)>& problem,
                              const std::function<void(const std::string&)>& warn);

}  // namespace eis
