#pragma once
// output.final-state: the final-state CSV (writeStateCsv) as an Output, written when the run
// ends, after its last step or its last good step.
#include "eis/io/output.hpp"

namespace eis {

OutputComponent finalStateOutputComponent();

}  // namespace eis
