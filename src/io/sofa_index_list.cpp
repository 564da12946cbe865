// SOFA's reading of the words of an index list (eis/io/sofa_index_list.hpp).
#include "eis/io/sofa_index_list.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <utility>

namespace eis {

namespace {

constexpr std::size_t kMostIndices = 10'000'000;

// A bound: the whole text one integer of 0 .. 2^32 - 1 (SOFA's strtoll, then unsigned int).
bool bound(const std::string& text, std::uint32_t& value, std::string& why) {
  if (text.empty()) {
    why = "a range with an empty bound";
    return false;
  }
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (end != text.c_str() + text.size()) {
    why = "'" + text + "' is no integer";
    return false;
  }
  if (v < 0) {
    why = "'" + text + "' is negative";
    return false;
  }
  if (errno == ERANGE || v > 0xFFFFFFFFLL) {
    why = "'" + text + "' is past 2^32 - 1";
    return false;
  }
  value = std::uint32_t(v);
  return true;
}

// A step: the whole text one int (SOFA's strtol, then int).
bool step(const std::string& text, std::int32_t& value, std::string& why) {
  if (text.empty()) {
    why = "a range with an empty step";
    return false;
  }
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (end != text.c_str() + text.size()) {
    why = "step '" + text + "' is no integer";
    return false;
  }
  if (errno == ERANGE || v < INT32_MIN || v > INT32_MAX) {
    why = "step '" + text + "' is past an int";
    return false;
  }
  value = std::int32_t(v);
  return true;
}

}  // namespace

bool expandSofaIndexWord(const std::string& word, std::vector<long long>& into, std::string& why) {
  // The first '-' after the first character splits the bounds; a second one, at least two
  // characters further, the step.
  const std::string::size_type hyphen = word.find('-', 1);
  std::uint32_t first = 0;
  if (hyphen == std::string::npos) {
    if (!bound(word, first, why)) return false;
    into.push_back(first);
    return true;
  }
  std::uint32_t last = 0;
  std::int32_t by = 0;
  if (!bound(word.substr(0, hyphen), first, why)) return false;
  const std::string::size_type hyphen2 = word.find('-', hyphen + 2);
  if (hyphen2 == std::string::npos) {
    if (!bound(word.substr(hyphen + 1), last, why)) return false;
    by = first <= last ? 1 : -1;
  } else {
    if (!bound(word.substr(hyphen + 1, hyphen2 - hyphen - 1), last, why) ||
        !step(word.substr(hyphen2 + 1), by, why))
      return false;
    if (by == 0) by = first <= last ? 1 : -1;
    // SOFA compares the sign of int(last - first), computed in unsigned arithmetic, with the
    // step's, and swaps the bounds when they differ.
    const std::int32_t span = std::int32_t(std::uint32_t(last - first));
    if ((span < 0 && by > 0) || (span > 0 && by < 0)) std::swap(first, last);
  }
  const std::size_t start = into.size();
  const auto full = [&] {
    if (into.size() - start < kMostIndices) return false;
    into.resize(start);
    why = "it stands for more than 10^7 indices";
    return true;
  };
  // SOFA's loops, in its unsigned int arithmetic.
  std::uint32_t t = first;
  if (by < 0) {
    for (; t > last; t += std::uint32_t(by)) {
      if (full()) return false;
      into.push_back(t);
    }
    into.push_back(last);
  } else {
    for (; t <= last; t += std::uint32_t(by)) {
      if (full()) return false;
      into.push_back(t);
    }
  }
  return true;
}

}  // namespace eis
