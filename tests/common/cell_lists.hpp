#pragma once
// A tetrahedral cell list as a vector of arrays, to compare with a list written in a test.
#include <array>
#include <vector>

#include "eis/core/cells.hpp"

namespace eis_test {

template <class Index>
std::vector<std::array<Index, 4>> tetrahedraOf(const eis::CellList<Index>& cells) {
  std::vector<std::array<Index, 4>> tets;
  for (const auto cell : cells) tets.push_back({cell[0], cell[1], cell[2], cell[3]});
  return tets;
}

}  // namespace eis_test
