// linalg/null_space_regularization: SOFA's useSVDForRegularization on compliances whose null
// space is known by hand.
#include "eis/linalg/null_space_regularization.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace {

// Rows 0 and 1 constrain the same motion twice (W's null space is (1, -1, 0) / sqrt 2): only
// they get the term; row 2 keeps its diagonal.
TEST(NullSpaceRegularization, RegularizesOnlyTheAntagonistRows) {
  std::vector<double> w = {2, 2, 0, 2, 2, 0, 0, 0, 1};
  const std::vector<bool> rows = eis::regularizeNullSpace(w, 0.1);
  EXPECT_EQ(rows, (std::vector<bool>{true, true, false}));
  EXPECT_EQ(w, (std::vector<double>{2.1, 2, 0, 2, 2.1, 0, 0, 0, 1}));
}

// W = J J^T with J's rows (1 0 0), (0 1 0), (1 1 0), (0 0 1): the null space is (1, 1, -1, 0)
// / sqrt 3; a term at or below the machine epsilon changes nothing; a W of full rank none.
TEST(NullSpaceRegularization, FindsTheRowsOfACombination) {
  const double j[4][3] = {{1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 1}};
  std::vector<double> w(16);
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b)
      for (int k = 0; k < 3; ++k) w[std::size_t(4 * a + b)] += j[a][k] * j[b][k];
  std::vector<double> same = w;
  EXPECT_EQ(eis::regularizeNullSpace(same, 1e-17), std::vector<bool>(4, false));
  EXPECT_EQ(same, w);
  const std::vector<bool> rows = eis::regularizeNullSpace(w, 0.5);
  EXPECT_EQ(rows, (std::vector<bool>{true, true, true, false}));
  EXPECT_DOUBLE_EQ(w[0], 1.5);
  EXPECT_DOUBLE_EQ(w[10], 2.5);
  EXPECT_DOUBLE_EQ(w[15], 1.0);
  std::vector<double> full = {4, 1, 1, 3};
  EXPECT_EQ(eis::regularizeNullSpace(full, 0.5), std::vector<bool>(2, false));
}

}  // namespace
