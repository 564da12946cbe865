#pragma once
#include <mpi.h>

namespace eis {

// Peak resident memory of this process so far, in bytes.
double peakResidentBytes();

// Collective: the physical memory of each rank's machine shared by the ranks running on it; the
// smallest such share over all ranks, in bytes.
double memoryPerRankBytes(MPI_Comm comm);

}  // namespace eis
