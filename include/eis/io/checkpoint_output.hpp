#pragma once
// output.checkpoint: checkpoints (io/checkpoint_file.hpp) every N steps and/or M minutes of wall
// time, at the end of a run and when a signal stops it; and initial.restart, the checkpoint a run
// continues from.
#include <string>

#include "eis/io/output.hpp"

namespace eis {

// output.checkpoint, output.checkpoint-every, output.checkpoint-minutes and initial.restart.
OutputComponent checkpointOutputComponent();

// Collective. The checkpoint initial.restart names: its path; for "auto" the newest complete
// checkpoint of output.checkpoint, or "" when there is none (a fresh start). "" when the key is
// absent. Errors on every rank for "auto" without output.checkpoint or a missing file.
std::string restartCheckpoint(const Parameters& scene, MPI_Comm comm);

}  // namespace eis
