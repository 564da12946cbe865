#pragma once
#include <mpi.h>

#include <cstddef>

namespace eis {

// The largest threshold glibc takes for mapping an allocation by itself (M_MMAP_THRESHOLD), and
// the run's default: 32 MiB.
constexpr std::size_t kLargestMapThreshold = std::size_t(32) << 20;

// Has glibc's allocator map every allocation of at least `bytes` (1 to kLargestMapThreshold) by
// itself, so that freeing it gives its memory back to the system; 0 leaves the allocator as the
// loaded libraries set it. Debian's SuperLU_DIST, which PETSc links, turns mapping off as it is
// loaded (mallopt M_MMAP_MAX 0, M_TRIM_THRESHOLD -1): nothing freed is given back then, and a
// run's resident set is the most its heap ever spanned, holes included. Smaller allocations
// (vectors renewed at each step) stay on the heap, which reuses them without the system. False
// where the allocator is not glibc's own (a sanitizer's, a preloaded one): nothing changed.
bool mapLargeAllocations(std::size_t bytes);

// Peak resident memory of this process so far, in bytes.
double peakResidentBytes();

// Collective: the memory each rank may use, the smallest over all ranks, in bytes: its machine's
// physical memory shared by the ranks running on it, or less where the control group's memory
// limit (shared by the machine's ranks), Slurm's --mem (SLURM_MEM_PER_NODE, shared) or
// --mem-per-cpu (SLURM_MEM_PER_CPU times SLURM_CPUS_PER_TASK) gives less.
double memoryPerRankBytes(MPI_Comm comm);

}  // namespace eis
