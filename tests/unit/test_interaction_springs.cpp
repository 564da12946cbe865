// One interaction spring (SOFA's SpringForceField law, model/interaction_springs.hpp): its force
// and D written out by hand, D against central differences of the undamped force, none for a
// spring shorter than 1e-9, and the parse of interaction.springs; a polynomial spring's (SOFA's
// PolynomialSpringsForceField) force by hand, stretched and compressed, its D against central
// differences where it is the force's derivative, its length from the first evaluation, and the
// parse of interaction.polynomial-springs.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

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

// L = 2, d = 5: strain s = 1.5, P(s) = 20 s + 10 s^2 + 50 s^3 = 221.25, P'(s) = 20 + 20 s +
// 150 s^2 = 387.5.
TEST(PolynomialSprings, ForceByHand) {
  InteractionSpring spring;
  spring.length = 2;
  spring.polynomial = {20, 10, 50};
  const double p1[3] = {0, 0, 0}, p2[3] = {3, 4, 0}, v[3] = {5, 6, 7};
  SpringState state;
  ASSERT_TRUE(eis::springForce(spring, p1, p2, v, v, state));
  EXPECT_NEAR(state.force[0], 221.25 * 0.6, 1e-12);
  EXPECT_NEAR(state.force[1], 221.25 * 0.8, 1e-12);
  EXPECT_EQ(state.force[2], 0.0);
  // D = (P'/L - P/d) U U^T + P/d I
  EXPECT_NEAR(state.dfdx[0], (387.5 / 2 - 221.25 / 5) * 0.36 + 221.25 / 5, 1e-12);
  EXPECT_NEAR(state.dfdx[1], (387.5 / 2 - 221.25 / 5) * 0.48, 1e-12);
  EXPECT_NEAR(state.dfdx[8], 221.25 / 5, 1e-12);
}

// L = 8, d = 5: s = 3/8; no force unless compressible, then -P(s) along U; D is SOFA's, the
// same either way.
TEST(PolynomialSprings, Compressed) {
  InteractionSpring spring;
  spring.length = 8;
  spring.polynomial = {4, 2};
  const double p1[3] = {0, 0, 0}, p2[3] = {0, 3, 4}, v[3] = {0, 0, 0};
  const double s = 3.0 / 8, P = 4 * s + 2 * s * s, slope = 4 + 4 * s;
  SpringState state;
  ASSERT_TRUE(eis::springForce(spring, p1, p2, v, v, state));
  for (double f : state.force) EXPECT_EQ(f, 0.0);
  EXPECT_NEAR(state.dfdx[4], (slope / 8 - P / 5) * 0.36 + P / 5, 1e-12);
  spring.compressible = true;
  SpringState pushed;
  ASSERT_TRUE(eis::springForce(spring, p1, p2, v, v, pushed));
  EXPECT_NEAR(pushed.force[1], -P * 0.6, 1e-12);
  EXPECT_NEAR(pushed.force[2], -P * 0.8, 1e-12);
  EXPECT_EQ(pushed.dfdx, state.dfdx);
}

// Stretched, f on node 1 is F(x2 - x1) and D its derivative, by central differences.
TEST(PolynomialSprings, StiffnessIsTheForceDerivativeWhenStretched) {
  InteractionSpring spring;
  spring.length = 0.6;
  spring.polynomial = {3, -1, 2.5};
  const double p1[3] = {0.1, -0.2, 0.3}, p2[3] = {1.1, 0.4, -0.5}, v[3] = {0, 0, 0};
  SpringState state;
  ASSERT_TRUE(eis::springForce(spring, p1, p2, v, v, state));
  const double eps = 1e-6;
  for (int k = 0; k < 3; ++k) {
    double plus[3] = {p2[0], p2[1], p2[2]}, minus[3] = {p2[0], p2[1], p2[2]};
    plus[k] += eps;
    minus[k] -= eps;
    SpringState a, b;
    eis::springForce(spring, p1, plus, v, v, a);
    eis::springForce(spring, p1, minus, v, v, b);
    for (int j = 0; j < 3; ++j)
      EXPECT_NEAR(state.dfdx[3 * j + k], (a.force[j] - b.force[j]) / (2 * eps), 1e-7)
          << "row " << j << " column " << k;
  }
}

TEST(PolynomialSprings, LengthFromTheFirstEvaluation) {
  InteractionSpring spring;
  spring.length = eis::kLengthAtFirstEvaluation;
  spring.polynomial = {1};
  const double p1[3] = {1, 1, 1}, p2[3] = {1, 4, 5}, far[3] = {9, 9, 9};
  eis::settleLength(spring, p1, p2);
  EXPECT_EQ(spring.length, 5.0);
  eis::settleLength(spring, p1, far);
  EXPECT_EQ(spring.length, 5.0);
}

TEST(PolynomialSprings, ParsesTheKey) {
  eis::Scene scene({&eis::interactionSpringsComponent()});
  scene.set("interaction.polynomial-springs", "/b 0 15 initial 0 20 10 50");
  scene.set("interaction.polynomial-springs", "self 1 2 0.5 1 7");
  const auto sets = eis::interactionSpringsOf(scene);
  ASSERT_EQ(sets.size(), 2u);
  EXPECT_EQ(sets[0].target, "/b");
  ASSERT_EQ(sets[0].springs.size(), 1u);
  EXPECT_EQ(sets[0].springs[0].node2, 15);
  EXPECT_TRUE(std::isnan(sets[0].springs[0].length));
  EXPECT_EQ(sets[0].springs[0].polynomial, (std::vector<double>{20, 10, 50}));
  EXPECT_FALSE(sets[0].springs[0].compressible);
  EXPECT_EQ(sets[1].springs[0].length, 0.5);
  EXPECT_TRUE(sets[1].springs[0].compressible);
  for (const char* bad : {"/b 0 1 initial 0", "/b 0 1 0 0 1", "/b 0 1 1 2 1", "b 0 1 1 0 1",
                          "/b 0 -1 1 0 1", "/b 0 1 1 0 x"})
    EXPECT_THROW(scene.set("interaction.polynomial-springs", bad), eis::Error) << bad;
}

}  // namespace
