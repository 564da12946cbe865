#pragma once
// SOFA's SubsetMultiMapping (Sofa/Component/Mapping/Linear): a child state whose point i is point
// k_i of parent p_i, (p_i, k_i) the i-th pair of its indexPairs, x_child[i] = x_{p_i}[k_i]; the
// same for velocities and displacements. J is a selection (one 1 per row and coordinate), so J^T
// adds child point i's force to point k_i of parent p_i, and J^T K J of a force field between
// child points is that force field between the parent points they pick: the importer carries a
// child's springs to its parents that way (io/sofa_subset_multi_mapping.cpp, docs/architecture.md
// "Mapped children").
#include <cstddef>
#include <vector>

#include "eis/core/tetra_geometry.hpp"

namespace eis {

class SubsetMultiMapping {
public:
  struct Pick {
    std::size_t parent;  // which input state
    std::size_t index;   // its point
  };

  // `indexPairs`: parent and point per child point, flat. Throws eis::Error (naming the pair) for
  // an odd count, a parent out of `parentSizes` or a point out of its parent.
  SubsetMultiMapping(std::vector<std::size_t> parentSizes,
                     const std::vector<long long>& indexPairs);

  std::size_t size() const { return picks_.size(); }
  std::size_t parents() const { return parentSizes_.size(); }
  const Pick& pick(std::size_t i) const { return picks_[i]; }

  // x_child = J (x_0, x_1, ...): one array of points per parent, of its size.
  std::vector<Vec3> apply(const std::vector<std::vector<Vec3>>& parents) const;

private:
  std::vector<std::size_t> parentSizes_;
  std::vector<Pick> picks_;
};

}  // namespace eis
