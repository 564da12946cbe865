#include "eis/core/memory.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include "eis/core/error.hpp"

namespace eis {

double peakResidentBytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_maxrss) * 1024.0;  // Linux reports kilobytes
}

double memoryPerRankBytes(MPI_Comm comm) {
  MPI_Comm machine;
  EIS_CHECK_MPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &machine));
  const int ranksHere = commSize(machine);
  EIS_CHECK_MPI(MPI_Comm_free(&machine));
  double share = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE)) / ranksHere;
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &share, 1, MPI_DOUBLE, MPI_MIN, comm));
  return share;
}

}  // namespace eis
