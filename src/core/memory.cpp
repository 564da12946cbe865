#include "eis/core/memory.hpp"

#include <sys/resource.h>

namespace eis {

double peakResidentBytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_maxrss) * 1024.0;  // Linux reports kilobytes
}

}  // namespace eis
