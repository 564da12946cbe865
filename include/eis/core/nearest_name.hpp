#pragma once
// The valid name nearest a misspelt one, for error messages that suggest it: SOFA data fields
// (io/sofa_data_fields), our keys and options (io/command_line).
#include <string>
#include <vector>

namespace eis {

// Edits (insert, delete, replace, swap of two neighbours) from a to b, letter case ignored: a
// misspelling is usually one or two of them.
std::size_t editDistance(const std::string& a, const std::string& b);

// The candidate nearest `name`, when it is near enough to be a misspelling of it (one edit in
// four letters at most, one for short names), else "". Ties go to the first candidate.
std::string nearestName(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace eis
