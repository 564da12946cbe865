#pragma once
#include <mpi.h>

namespace eis {

// Peak resident memory of this process so far, in bytes.
double peakResidentBytes();

// Collective: the memory each rank may use, the smallest over all ranks, in bytes: its machine's
// physical memory shared by the ranks running on it, or less where the control group's memory
// limit (shared by the machine's ranks), Slurm's --mem (SLURM_MEM_PER_NODE, shared) or
// --mem-per-cpu (SLURM_MEM_PER_CPU times SLURM_CPUS_PER_TASK) gives less.
double memoryPerRankBytes(MPI_Comm comm);

}  // namespace eis
