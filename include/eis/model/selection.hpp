#pragma once
// What is said of a node selection (a box, a group) that selects nothing: legal, since a scene
// may be generic, but worth a warning naming it.
#include <string>

namespace eis {

inline std::string emptySelectionWarning(const std::string& key, const std::string& value) {
  return key + " = " + value + " selects no node";
}

}  // namespace eis
