// SOFA's SubsetMultiMapping as a selection (model/subset_multi_mapping.hpp).
#include "eis/model/subset_multi_mapping.hpp"

#include <string>
#include <utility>

#include "eis/core/error.hpp"

namespace eis {

SubsetMultiMapping::SubsetMultiMapping(std::vector<std::size_t> parentSizes,
                                       const std::vector<long long>& indexPairs)
    : parentSizes_(std::move(parentSizes)) {
  if (indexPairs.size() % 2 != 0)
    throw Error("SubsetMultiMapping: indexPairs has " + std::to_string(indexPairs.size()) +
                " numbers: expected a parent and a point for each child point");
  for (std::size_t i = 0; i < indexPairs.size(); i += 2) {
    const long long parent = indexPairs[i], index = indexPairs[i + 1];
    const std::string pair = "SubsetMultiMapping: pair " + std::to_string(i / 2) + " (" +
                             std::to_string(parent) + " " + std::to_string(index) + ")";
    if (parent < 0 || std::size_t(parent) >= parentSizes_.size())
      throw Error(pair + ": no input " + std::to_string(parent) + " of the " +
                  std::to_string(parentSizes_.size()));
    if (index < 0 || std::size_t(index) >= parentSizes_[std::size_t(parent)])
      throw Error(pair + ": input " + std::to_string(parent) + " has " +
                  std::to_string(parentSizes_[std::size_t(parent)]) + " points");
    picks_.push_back({std::size_t(parent), std::size_t(index)});
  }
}

std::vector<Vec3> SubsetMultiMapping::apply(const std::vector<std::vector<Vec3>>& parents) const {
  if (parents.size() != parentSizes_.size())
    throw Error("SubsetMultiMapping::apply: " + std::to_string(parents.size()) +
                " parents given, the mapping has " + std::to_string(parentSizes_.size()));
  for (std::size_t p = 0; p < parents.size(); ++p)
    if (parents[p].size() != parentSizes_[p])
      throw Error("SubsetMultiMapping::apply: parent " + std::to_string(p) + " has " +
                  std::to_string(parents[p].size()) + " points, the mapping reads " +
                  std::to_string(parentSizes_[p]));
  std::vector<Vec3> child;
  child.reserve(picks_.size());
  for (const Pick& pick : picks_) child.push_back(parents[pick.parent][pick.index]);
  return child;
}

}  // namespace eis
