#include "eis/core/memory.hpp"

#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>

#include "eis/core/error.hpp"

namespace eis {

bool mapLargeAllocations(std::size_t bytes) {
  if (bytes == 0) return true;
  if (bytes > kLargestMapThreshold)
    throw Error("the threshold for mapped allocations is " + std::to_string(bytes) +
                " bytes; glibc takes at most " + std::to_string(kLargestMapThreshold));
  // glibc's own default number of mappings, and the threshold fixed: glibc would otherwise raise
  // it to the size of each mapped block freed. Another allocator answers 0 and keeps its ways.
  return mallopt(M_MMAP_MAX, 65536) == 1 && mallopt(M_MMAP_THRESHOLD, int(bytes)) == 1;
}

double peakResidentBytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_maxrss) * 1024.0;  // Linux reports kilobytes
}

namespace {

// A positive number read from the start of `text`, or 0.
double leadingNumber(const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  return end != text.c_str() && value > 0 ? value : 0;
}

double environmentNumber(const char* name) {
  const char* value = std::getenv(name);
  return value ? leadingNumber(value) : 0;
}

std::string firstLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// The memory limit of this process's control group and its ancestors (cgroup v2's memory.max,
// or v1's memory.limit_in_bytes), in bytes; 0 when none is set. Every rank in the group shares it.
double cgroupLimitBytes() {
  double limit = 0;
  const auto take = [&](const std::string& file) {
    const double value = leadingNumber(firstLine(file));
    // v1 writes "no limit" as a number near 2^63.
    if (value > 0 && value < 1e18 && (limit == 0 || value < limit)) limit = value;
  };
  std::ifstream groups("/proc/self/cgroup");
  for (std::string line; std::getline(groups, line);) {
    if (line.rfind("0::", 0) == 0) {
      for (std::string path = line.substr(3); !path.empty(); path.erase(path.rfind('/'))) {
        take("/sys/fs/cgroup" + path + "/memory.max");
        if (path == "/") break;
      }
    } else if (line.find(":memory:") != std::string::npos) {
      take("/sys/fs/cgroup/memory" + line.substr(line.find(":memory:") + 8) +
           "/memory.limit_in_bytes");
    }
  }
  return limit;
}

}  // namespace

double memoryPerRankBytes(MPI_Comm comm) {
  MPI_Comm machine;
  EIS_CHECK_MPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &machine));
  const int ranksHere = commSize(machine);
  EIS_CHECK_MPI(MPI_Comm_free(&machine));
  // The least of what the machine, its control group and Slurm's --mem give each rank: the
  // machine's RAM may be far more than the job is allowed to use.
  double share = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE)) / ranksHere;
  const auto atMost = [&](double bytes) {
    if (bytes > 0) share = std::min(share, bytes);
  };
  atMost(cgroupLimitBytes() / ranksHere);
  constexpr double mebibyte = 1024.0 * 1024.0;
  atMost(environmentNumber("SLURM_MEM_PER_NODE") * mebibyte / ranksHere);
  const double cpusPerTask = std::max(1.0, environmentNumber("SLURM_CPUS_PER_TASK"));
  atMost(environmentNumber("SLURM_MEM_PER_CPU") * mebibyte * cpusPerTask);
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &share, 1, MPI_DOUBLE, MPI_MIN, comm));
  return share;
}

}  // namespace eis
