#pragma once
// The message of the eis::Error a call throws, "" when it throws none: what the tests of error
// messages compare.
#include <functional>
#include <string>

#include "eis/core/error.hpp"

namespace eis_test {

inline std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const eis::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace eis_test
