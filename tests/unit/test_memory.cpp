// Large allocations mapped by themselves (eis::mapLargeAllocations): a large array freed leaves
// the resident set, as it does not where mapping is off (what Debian's SuperLU_DIST sets as this
// test program loads it); a threshold glibc cannot take is refused. Under a sanitizer, whose
// allocator takes no mallopt, the first test is skipped.
#include <gtest/gtest.h>
#include <malloc.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "eis/core/error.hpp"
#include "eis/core/memory.hpp"

namespace {

constexpr std::size_t kMiB = std::size_t(1) << 20;

// This process's resident set now, in bytes (VmRSS).
double residentBytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmRSS:", 0) == 0) return std::stod(line.substr(6)) * 1024.0;
  return -1;
}

// How much the resident set grew over an array of `bytes`, every page written, then freed.
double residentGrowthAfterFree(std::size_t bytes) {
  const double before = residentBytes();
  char* array = static_cast<char*>(std::malloc(bytes));
  std::memset(array, 1, bytes);
  // Read back through a volatile pointer, so that the writes are not optimised away.
  EXPECT_EQ(static_cast<volatile char*>(array)[bytes - 1], 1);
  std::free(array);
  return residentBytes() - before;
}

TEST(MapLargeAllocations, AFreedLargeArrayLeavesTheResidentSet) {
  // Mapping off and the heap never trimmed, as SuperLU_DIST leaves glibc.
  if (mallopt(M_MMAP_MAX, 0) != 1)
    GTEST_SKIP() << "the allocator is not glibc's (a sanitizer's): it takes no mallopt";
  ASSERT_EQ(mallopt(M_TRIM_THRESHOLD, -1), 1);
  EXPECT_GT(residentGrowthAfterFree(96 * kMiB), 64.0 * kMiB);
  EXPECT_TRUE(eis::mapLargeAllocations(eis::kLargestMapThreshold));
  // The heap's top, already resident, may hold the next array: one larger than it is mapped.
  EXPECT_LT(residentGrowthAfterFree(192 * kMiB), 8.0 * kMiB);
}

TEST(MapLargeAllocations, ZeroLeavesTheAllocatorAndTooLargeIsRefused) {
  EXPECT_TRUE(eis::mapLargeAllocations(0));
  EXPECT_THROW(eis::mapLargeAllocations(eis::kLargestMapThreshold + 1), eis::Error);
}

}  // namespace
