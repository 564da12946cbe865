// SOFA's SubsetMultiMapping as a selection (model/subset_multi_mapping.hpp): its J, the
// derivative of apply, against finite differences of apply; its refusals of bad pairs.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "eis/core/error.hpp"
#include "eis/model/subset_multi_mapping.hpp"

namespace {

using eis::SubsetMultiMapping;
using eis::Vec3;
using Parents = std::vector<std::vector<Vec3>>;

Parents someParents() {
  return {{{0.1, 0.2, 0.3}, {1.5, -0.5, 2.0}, {-1.0, 0.7, 0.4}},
          {{3.0, 1.0, -2.0}, {0.25, 0.5, 0.75}}};
}

TEST(SubsetMultiMapping, PicksEachChildPointFromItsParent) {
  const SubsetMultiMapping map({3, 2}, {1, 1, 0, 2, 0, 0, 1, 1});
  const Parents parents = someParents();
  const std::vector<Vec3> child = map.apply(parents);
  ASSERT_EQ(child.size(), 4u);
  EXPECT_EQ(child[0], parents[1][1]);
  EXPECT_EQ(child[1], parents[0][2]);
  EXPECT_EQ(child[2], parents[0][0]);
  EXPECT_EQ(child[3], parents[1][1]);
}

// J[i d][(p, k) e] = 1 where child point i picks point k of parent p and d = e, else 0: each
// entry against (apply(x + h e_{p k e}) - apply(x - h e_{p k e})) / 2h.
TEST(SubsetMultiMapping, JacobianIsTheDerivativeOfApply) {
  const SubsetMultiMapping map({3, 2}, {1, 1, 0, 2, 0, 0, 1, 1, 0, 2});
  const Parents x = someParents();
  const double h = 1e-3;
  for (std::size_t p = 0; p < x.size(); ++p)
    for (std::size_t k = 0; k < x[p].size(); ++k)
      for (std::size_t e = 0; e < 3; ++e) {
        Parents plus = x, minus = x;
        plus[p][k][e] += h;
        minus[p][k][e] -= h;
        const std::vector<Vec3> up = map.apply(plus), down = map.apply(minus);
        for (std::size_t i = 0; i < map.size(); ++i)
          for (std::size_t d = 0; d < 3; ++d) {
            const bool picks = map.pick(i).parent == p && map.pick(i).index == k && d == e;
            EXPECT_NEAR((up[i][d] - down[i][d]) / (2 * h), picks ? 1.0 : 0.0, 1e-9)
                << "child " << i << "." << d << ", parent " << p << " point " << k << "." << e;
          }
      }
}

TEST(SubsetMultiMapping, RefusesPairsThatNameNoPoint) {
  EXPECT_THROW(SubsetMultiMapping({3, 2}, {0, 1, 1}), eis::Error);
  EXPECT_THROW(SubsetMultiMapping({3, 2}, {2, 0}), eis::Error);
  EXPECT_THROW(SubsetMultiMapping({3, 2}, {1, 2}), eis::Error);
  EXPECT_THROW(SubsetMultiMapping({3, 2}, {0, -1}), eis::Error);
  const SubsetMultiMapping map({3, 2}, {0, 1});
  EXPECT_THROW(map.apply({{{0, 0, 0}}, {{0, 0, 0}, {0, 0, 0}}}), eis::Error);
}

}  // namespace
