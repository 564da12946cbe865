// One interaction spring (SOFA's SpringForceField law, model/interaction_springs.hpp): its force
// and D written out by hand, D against central differences of the undamped force, none for a
// spring shorter than 1e-9, and the parse of interaction.springs.
#include <gtest/gtest.h>

#include <cmath>

#include "eis/core/error.hpp"
#include "eis/core/scene.hpp"
#include "eis/model/interaction_springs.hpp"

namespace {

using eis::InteractionSpring;
using eis::SpringState;

TEST(InteractionSprings, ForceByHand) {
  const InteractionSpring spring{0, 0, 50.0, 2.0, 1.2};
  const double p1[3] = {0, 0, 0}, p2[3] = {3, 4, 0};  // d = 5, U = (0.6, 0.8, 0)
  const double v1[3] = {1, 0, 0}, v2[3] = {0, 1, 0};  // (v2 - v1).U = -0.6 + 0.8 = 0.2
  SpringState state;
  ASSERT_TRUE(eis::springForce(spring, p1, p2, v1, v2, state));
  const double f = 50.0 * (5 - 1.2) + 2.0 * 0.2;
  EXPECT_NEAR(state.force[0], f * 0.6, 1e-12);
  EXPECT_NEAR(state.force[1], f * 0.8, 1e-12);
  EXPECT_EQ(state.force[2], 0.0);
  // D = (ks - f/d) U U^T + f/d I
  EXPECT_NEAR(state.dfdx[0], (50 - f / 5) * 0.36 + f / 5, 1e-12);
  EXPECT_NEAR(state.dfdx[1], (50 - f / 5) * 0.48, 1e-12);
  EXPECT_NEAR(state.dfdx[8], f / 5, 1e-12);
}

// Undamped, f on node 1 is F(x2 - x1): dF/dx2 = D and dF/dx1 = -D, by central differences.
// (Damped, SOFA's D keeps f/d with the damping term in f and is no exact derivative; its
// formula is checked by hand above.)
TEST(InteractionSprings, StiffnessIsTheForceDerivative) {
  const InteractionSpring spring{0, 0, 80.0, 0.0, 0.7};
  const double p1[3] = {0.1, -0.2, 0.3}, p2[3] = {1.1, 0.4, -0.5};
  const double v1[3] = {0.3, -0.1, 0.2}, v2[3] = {-0.2, 0.5, 0.1};
  SpringState state;
  ASSERT_TRUE(eis::springForce(spring, p1, p2, v1, v2, state));
  const double eps = 1e-6;
  for (int k = 0; k < 3; ++k) {
    double plus2[3] = {p2[0], p2[1], p2[2]}, minus2[3] = {p2[0], p2[1], p2[2]};
    double plus1[3] = {p1[0], p1[1], p1[2]}, minus1[3] = {p1[0], p1[1], p1[2]};
    plus2[k] += eps;
    minus2[k] -= eps;
    plus1[k] += eps;
    minus1[k] -= eps;
    SpringState a, b, c, d;
    eis::springForce(spring, p1, plus2, v1, v2, a);
    eis::springForce(spring, p1, minus2, v1, v2, b);
    eis::springForce(spring, plus1, p2, v1, v2, c);
    eis::springForce(spring, minus1, p2, v1, v2, d);
    for (int j = 0; j < 3; ++j) {
      EXPECT_NEAR(state.dfdx[3 * j + k], (a.force[j] - b.force[j]) / (2 * eps), 1e-7)
          << "row " << j << " column " << k;
      EXPECT_NEAR(-state.dfdx[3 * j + k], (c.force[j] - d.force[j]) / (2 * eps), 1e-7)
          << "row " << j << " column " << k;
    }
  }
}

TEST(InteractionSprings, ShortSpringGivesNothing) {
  const InteractionSpring spring{0, 0, 50.0, 2.0, 1.0};
  const double p[3] = {1, 2, 3}, v[3] = {0, 0, 0};
  SpringState state;
  EXPECT_FALSE(eis::springForce(spring, p, p, v, v, state));
  for (double value : state.force) EXPECT_EQ(value, 0.0);
  for (double value : state.dfdx) EXPECT_EQ(value, 0.0);
}

TEST(InteractionSprings, ParsesTheKey) {
  eis::Scene scene({&eis::interactionSpringsComponent()});
  scene.set("interaction.springs", "/b 0 3 50 2 1.2 4 5 10 0 0");
  scene.set("interaction.springs", "self 1 2 1 1 1");
  const auto sets = eis::interactionSpringsOf(scene);
  ASSERT_EQ(sets.size(), 2u);
  EXPECT_EQ(sets[0].target, "/b");
  ASSERT_EQ(sets[0].springs.size(), 2u);
  EXPECT_EQ(sets[0].springs[1].node1, 4);
  EXPECT_EQ(sets[0].springs[1].node2, 5);
  EXPECT_EQ(sets[0].springs[0].length, 1.2);
  EXPECT_EQ(sets[1].target, "self");
  for (const char* bad : {"/b 0 3 50 2", "b 0 3 50 2 1", "/b -1 3 50 2 1", "/b 0 3 50 2 -1"})
    EXPECT_THROW(scene.set("interaction.springs", bad), eis::Error) << bad;
}

}  // namespace
