#pragma once
#include <mpi.h>

namespace eis {

// Peak resident memory of this process so far, in bytes.
double peakResidentBytes();

}  // namespace eis
