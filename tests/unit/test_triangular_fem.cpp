// SOFA's TriangularFEMForceField (large, small), TriangularBendingSprings and DiagonalMass on
// triangles: no force under rigid motions, objectivity, the patch test, large equal to small where
// the frames agree, the tangent against finite differences of the force where SOFA's tangent is
// exact (zero stress), the element matrices against the matrix-free product, SOFA's spring
// pairing, and the masses by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "eis/model/triangle_mass.hpp"
#include "eis/model/triangular_bending_springs.hpp"
#include "eis/model/triangular_fem.hpp"

namespace {

using eis::Triangle;
using eis::TriangleFemMethod;
using eis::TriangularFemForceField;
using eis::Vec3;
using Mat3 = eis::mat3::Mat3;

constexpr double E = 3000.0, nu = 0.3;

// Four triangles around a centre node 4, not in one plane (node 4 raised), numbered so that no
// triangle's first edge is along an axis.
const std::vector<Vec3> kRest{{0, 0, 0}, {1, 0.1, 0}, {1.1, 1, 0.2}, {0, 1.2, 0}, {0.5, 0.55, 0.3}};
const std::vector<Triangle> kPatch{{4, 0, 1}, {4, 1, 2}, {2, 3, 4}, {3, 0, 4}};
// The same in the xy plane, for method small.
const std::vector<Vec3> kFlat{{0, 0, 0}, {1, 0.1, 0}, {1.1, 1, 0}, {0, 1.2, 0}, {0.5, 0.55, 0}};

std::vector<double> flatten(const std::vector<Vec3>& p) {
  std::vector<double> x;
  for (const auto& q : p) x.insert(x.end(), q.begin(), q.end());
  return x;
}

Mat3 rotation(double angle, Vec3 axis) {
  axis = eis::mat3::normalized(axis);
  const double c = std::cos(angle), s = std::sin(angle);
  Mat3 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r[3 * i + j] = (1 - c) * axis[i] * axis[j] + (i == j) * c;
  r[1] -= s * axis[2], r[2] += s * axis[1], r[3] += s * axis[2];
  r[5] -= s * axis[0], r[6] -= s * axis[1], r[7] += s * axis[0];
  return r;
}

std::vector<double> moved(const std::vector<double>& x, const Mat3& r, const Vec3& shift) {
  std::vector<double> y(x.size());
  for (std::size_t n = 0; n < x.size() / 3; ++n) {
    const Vec3 p = eis::mat3::times(r, {x[3 * n], x[3 * n + 1], x[3 * n + 2]});
    for (int c = 0; c < 3; ++c) y[3 * n + c] = p[c] + shift[c];
  }
  return y;
}

std::vector<double> force(eis::ForceField& field, const std::vector<double>& x) {
  std::vector<double> f(x.size(), 0.0);
  field.addForce(x.data(), nullptr, f.data());
  return f;
}

double largest(const std::vector<double>& v) {
  double m = 0;
  for (double a : v) m = std::max(m, std::fabs(a));
  return m;
}

// The dense K = df/dx from a field's element matrices (9 x 9 per triangle).
std::vector<double> assembled(const TriangularFemForceField& field,
                              const std::vector<Triangle>& triangles, std::size_t n) {
  std::vector<double> blocks(81 * triangles.size(), 0.0), k(9 * n * n, 0.0);
  field.addKToElementMatrices(blocks.data(), 1.0, {0, triangles.size()});
  for (std::size_t t = 0; t < triangles.size(); ++t)
    for (int r = 0; r < 9; ++r)
      for (int c = 0; c < 9; ++c)
        k[(3 * triangles[t][r / 3] + r % 3) * 3 * n + 3 * triangles[t][c / 3] + c % 3] +=
            blocks[81 * t + 9 * r + c];
  return k;
}

// Central differences of the force at x, column by column (df/dx, 3n x 3n).
std::vector<double> finiteDifferences(TriangularFemForceField& field,
                                      const std::vector<double>& x) {
  const std::size_t m = x.size();
  std::vector<double> k(m * m);
  const double h = 1e-6;
  for (std::size_t c = 0; c < m; ++c) {
    auto plus = x, minus = x;
    plus[c] += h, minus[c] -= h;
    const auto fp = force(field, plus), fm = force(field, minus);
    for (std::size_t r = 0; r < m; ++r) k[r * m + c] = (fp[r] - fm[r]) / (2 * h);
  }
  return k;
}

TEST(TriangularFem, LargeGivesNoForceUnderRigidMotion) {
  TriangularFemForceField field(kPatch, kRest, E, nu, TriangleFemMethod::Large);
  const auto x0 = flatten(kRest);
  EXPECT_LT(largest(force(field, x0)), 1e-12);
  for (double angle : {0.3, 1.7, 3.0}) {
    const auto x = moved(x0, rotation(angle, {0.2, -1, 0.7}), {0.4, -2, 5});
    EXPECT_LT(largest(force(field, x)), 1e-10 * E) << "angle " << angle;
  }
}

TEST(TriangularFem, LargeForceTurnsWithTheBody) {
  TriangularFemForceField field(kPatch, kRest, E, nu, TriangleFemMethod::Large);
  auto x = flatten(kRest);
  x[3] += 0.05, x[7] -= 0.04, x[14] += 0.03, x[12] += 0.02;
  const auto f = force(field, x);
  ASSERT_GT(largest(f), 1.0);
  const Mat3 r = rotation(2.1, {1, 1, -0.3});
  const auto fr = force(field, moved(x, r, {1, 2, 3}));
  const auto expected = moved(f, r, {0, 0, 0});
  for (std::size_t i = 0; i < f.size(); ++i) EXPECT_NEAR(fr[i], expected[i], 1e-10 * largest(f));
}

// A uniform in-plane strain: every triangle has the same stress, so the centre node, inside the
// patch, gets no force and the forces sum to zero.
TEST(TriangularFem, PatchTestOnAnAffineMap) {
  for (auto method : {TriangleFemMethod::Small, TriangleFemMethod::Large}) {
    TriangularFemForceField field(kPatch, kFlat, E, nu, method);
    std::vector<double> x;
    for (const auto& p : kFlat) x.insert(x.end(), {1.02 * p[0] + 0.01 * p[1], 0.99 * p[1], 0});
    const auto f = force(field, x);
    ASSERT_GT(largest(f), 1.0);
    for (int c = 0; c < 3; ++c) {
      if (method == TriangleFemMethod::Small) EXPECT_NEAR(f[12 + c], 0, 1e-12 * E);
      double sum = 0;
      for (std::size_t n = 0; n < 5; ++n) sum += f[3 * n + c];
      EXPECT_NEAR(sum, 0, 1e-12 * E);
    }
  }
}

// Where b - a stays on the x axis and the triangle in the xy plane, the large frame is the
// world's and both methods compute the same force.
TEST(TriangularFem, LargeEqualsSmallWhereTheFramesAgree) {
  const std::vector<Vec3> rest{{0, 0, 0}, {2, 0, 0}, {0.5, 1.5, 0}};
  const std::vector<Triangle> one{{0, 1, 2}};
  TriangularFemForceField large(one, rest, E, nu, TriangleFemMethod::Large);
  TriangularFemForceField small(one, rest, E, nu, TriangleFemMethod::Small);
  const std::vector<double> x{0, 0, 0, 2.1, 0, 0, 0.45, 1.6, 0};
  const auto fl = force(large, x), fs = force(small, x);
  ASSERT_GT(largest(fs), 10.0);
  for (std::size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(fl[i], fs[i], 1e-12 * E);
  // The single triangle by hand: rest area 1.5, current J from b = (2.1, 0), c = (0.45, 1.6).
  EXPECT_NEAR(large.restArea(0), 1.5, 1e-15);
  const double inv = 1 / (2.1 * 1.6);
  // D = (0, 0, 2 - 2.1, 0, 0.5 - 0.45, 1.5 - 1.6); strain = J^T D.
  const double ex = 1.6 * inv * (2 - 2.1);
  const double ey = 2.1 * inv * (1.5 - 1.6);
  const double gxy = -0.45 * inv * (2 - 2.1) + 2.1 * inv * (0.5 - 0.45);
  const double s = E / (1 - nu * nu) * 1.5;
  const double sx = s * (ex + nu * ey), sy = s * (nu * ex + ey), sxy = s * (1 - nu) / 2 * gxy;
  // Node c: (J(4,2) sxy, J(5,1) sy).
  EXPECT_NEAR(fs[6], 2.1 * inv * sxy, 1e-12 * E);
  EXPECT_NEAR(fs[7], 2.1 * inv * sy, 1e-12 * E);
  // Node b: (J(2,0) sx + J(2,2) sxy, J(3,1) sy + J(3,2) sxy).
  EXPECT_NEAR(fs[3], 1.6 * inv * sx - 0.45 * inv * sxy, 1e-12 * E);
  EXPECT_NEAR(fs[4], -0.45 * inv * sy + 1.6 * inv * sxy, 1e-12 * E);
  // The energy strain . stress / 2, at x whatever the last addForce.
  force(small, {0, 0, 0, 2, 0, 0, 0.5, 1.5, 0});
  EXPECT_NEAR(small.potentialEnergy(x.data()), 0.5 * (ex * sx + ey * sy + gxy * sxy), 1e-12 * E);
  EXPECT_NEAR(large.potentialEnergy(x.data()), 0.5 * (ex * sx + ey * sy + gxy * sxy), 1e-12 * E);
}

// At zero stress SOFA's tangent is the derivative of its force: the rest shape moved rigidly
// (large), or moved along x and y (small).
TEST(TriangularFem, TangentMatchesFiniteDifferencesAtZeroStress) {
  struct Case {
    TriangleFemMethod method;
    const std::vector<Vec3>* rest;
    Mat3 r;
  };
  for (const Case& c : {Case{TriangleFemMethod::Large, &kRest, rotation(0.8, {1, -2, 0.5})},
                        Case{TriangleFemMethod::Small, &kFlat, rotation(0, {0, 0, 1})}}) {
    TriangularFemForceField field(kPatch, *c.rest, E, nu, c.method);
    const auto x = moved(flatten(*c.rest), c.r, {0.3, 0.1, -0.2});
    const auto fd = finiteDifferences(field, x);
    force(field, x);
    const auto k = assembled(field, kPatch, 5);
    const double scale = largest(k);
    ASSERT_GT(scale, 100.0);
    for (std::size_t i = 0; i < k.size(); ++i) EXPECT_NEAR(k[i], fd[i], 1e-6 * scale) << i;
  }
}

// Away from zero stress the tangent is not the derivative of the force: the finite
// differences tell them apart (the check above can fail), and the matrix-free product still
// equals the element matrices.
TEST(TriangularFem, ElementMatricesEqualTheMatrixFreeProduct) {
  for (auto method : {TriangleFemMethod::Large, TriangleFemMethod::Small}) {
    const auto& rest = method == TriangleFemMethod::Large ? kRest : kFlat;
    TriangularFemForceField field(kPatch, rest, E, nu, method);
    auto x = flatten(rest);
    x[3] += 0.2, x[7] -= 0.15, x[12] += 0.1;
    const auto fd = finiteDifferences(field, x);
    force(field, x);
    const auto k = assembled(field, kPatch, 5);
    double gap = 0;
    for (std::size_t i = 0; i < k.size(); ++i) gap = std::max(gap, std::fabs(k[i] - fd[i]));
    EXPECT_GT(gap, 1e-3 * largest(k));
    std::vector<double> dx(15), df(15, 0.0);
    for (std::size_t i = 0; i < dx.size(); ++i) dx[i] = std::sin(1.0 + i);
    field.addDForce(dx.data(), df.data(), -0.7);
    for (std::size_t r = 0; r < 15; ++r) {
      double expected = 0;
      for (std::size_t c = 0; c < 15; ++c) expected += -0.7 * k[r * 15 + c] * dx[c];
      EXPECT_NEAR(df[r], expected, 1e-12 * largest(k));
    }
  }
}

// SOFA's TriangleFEMForceField: its large method is TriangularFEMForceField's times the
// thickness; plane strain with (E, nu) is plane stress with E / (1 - nu^2), nu / (1 - nu).
TEST(TriangleFem, ThicknessAndPlaneStrain) {
  auto x = flatten(kRest);
  x[3] += 0.05, x[7] -= 0.04, x[14] += 0.03;
  TriangularFemForceField triangular(kPatch, kRest, E, nu, TriangleFemMethod::Large);
  TriangularFemForceField thick(kPatch, kRest, E, nu, TriangleFemMethod::Large, {true, 2.5});
  const auto f = force(triangular, x), ft = force(thick, x);
  ASSERT_GT(largest(f), 1.0);
  for (std::size_t i = 0; i < f.size(); ++i) EXPECT_NEAR(ft[i], 2.5 * f[i], 1e-12 * E);
  TriangularFemForceField strain(kPatch, kRest, E, nu, TriangleFemMethod::Large, {true, 1, true});
  TriangularFemForceField stress(kPatch, kRest, E / (1 - nu * nu), nu / (1 - nu),
                                 TriangleFemMethod::Large, {true});
  const auto fe = force(strain, x), fs = force(stress, x);
  for (std::size_t i = 0; i < f.size(); ++i) EXPECT_NEAR(fe[i], fs[i], 1e-12 * E);
}

// TriangleFEMForceField's small J is the large frame's formula on the world edges: the same as
// TriangularFEMForceField's where b - a has no y, another where it has; its tangent is still
// the derivative of its force at zero stress.
TEST(TriangleFem, SmallUsesTheFirstEdgeFormula) {
  const std::vector<Triangle> one{{0, 1, 2}};
  const std::vector<Vec3> alongX{{0, 0, 0}, {1, 0, 0}, {0.2, 1, 0}};
  const std::vector<double> moved1{0, 0, 0, 1.05, 0, 0, 0.15, 1.02, 0};
  TriangularFemForceField a(one, alongX, E, nu, TriangleFemMethod::Small, {true});
  TriangularFemForceField b(one, alongX, E, nu, TriangleFemMethod::Small);
  const auto fa = force(a, moved1), fb = force(b, moved1);
  ASSERT_GT(largest(fa), 10.0);
  for (std::size_t i = 0; i < fa.size(); ++i) EXPECT_NEAR(fa[i], fb[i], 1e-12 * E);

  const std::vector<Vec3> tilted{{0, 0, 0}, {1, 0.3, 0}, {0.2, 1, 0}};
  TriangularFemForceField c(one, tilted, E, nu, TriangleFemMethod::Small, {true});
  TriangularFemForceField d(one, tilted, E, nu, TriangleFemMethod::Small);
  const std::vector<double> moved2{0, 0, 0, 1.05, 0.3, 0, 0.15, 1.02, 0};
  const auto fc = force(c, moved2), fd = force(d, moved2);
  double gap = 0;
  for (std::size_t i = 0; i < fc.size(); ++i) gap = std::max(gap, std::fabs(fc[i] - fd[i]));
  EXPECT_GT(gap, 1e-3 * largest(fd));

  const auto x = moved(flatten(tilted), rotation(0, {0, 0, 1}), {0.3, 0.1, 0});
  const auto differences = finiteDifferences(c, x);
  force(c, x);
  const auto k = assembled(c, one, 3);
  for (std::size_t i = 0; i < k.size(); ++i)
    EXPECT_NEAR(k[i], differences[i], 1e-6 * largest(k)) << i;
}

TEST(TriangularFem, ZeroAreaIsAnError) {
  const std::vector<Vec3> line{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
  for (auto method : {TriangleFemMethod::Large, TriangleFemMethod::Small})
    EXPECT_THROW(TriangularFemForceField({{0, 1, 2}}, line, E, nu, method), eis::Error);
}

// A 2 x 2 square of 8 triangles: 8 inner edges, each with the vertices opposite it.
TEST(TriangularBendingSprings, PairsTheVerticesAcrossEachInnerEdge) {
  std::vector<Vec3> rest;
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) rest.push_back({0.5 * i, 0.5 * j, 0});
  std::vector<Triangle> tris;
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 2; ++i) {
      const PetscInt a = 3 * j + i, b = a + 1, c = a + 4, d = a + 3;
      tris.push_back({a, b, c});
      tris.push_back({a, c, d});
    }
  const auto springs = eis::bendingSprings(tris, rest);
  ASSERT_EQ(springs.size(), 8u);
  // Triangle 0 (0, 1, 4): its edge 0 (1, 4) is shared with triangle 3 (1, 5, 4): the first
  // spring joins 5 (m1, the other triangle's) and 0 (m2, triangle 0's); its edge 1 (4, 0) with
  // triangle 1 (0, 4, 3): 3 and 1.
  EXPECT_EQ(springs[0].a, 5);
  EXPECT_EQ(springs[0].b, 0);
  EXPECT_EQ(springs[1].a, 3);
  EXPECT_EQ(springs[1].b, 1);
  EXPECT_NEAR(springs[0].restLength, std::sqrt(1.25), 1e-15);
  for (const auto& s : springs) EXPECT_GT(s.restLength, 0.49);
}

TEST(TriangularBendingSprings, TangentMatchesFiniteDifferences) {
  const std::vector<Triangle> tris{{0, 1, 2}, {0, 2, 3}};
  const std::vector<Vec3> rest{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  auto springs = eis::bendingSprings(tris, rest);
  ASSERT_EQ(springs.size(), 1u);
  EXPECT_EQ(springs[0].a, 3);
  EXPECT_EQ(springs[0].b, 1);
  eis::TriangularBendingSprings field(springs, 40.0, 0.0);
  std::vector<double> x{0, 0, 0, 1.1, 0.1, 0.3, 1, 1, 0, -0.1, 0.9, 0.4};
  std::vector<double> f(12, 0.0);
  field.addForce(x.data(), nullptr, f.data());
  // One spring 3 -> 1: F = ks (l - sqrt 2) along u.
  const Vec3 d{1.2, -0.8, -0.1};
  const double l = std::sqrt(eis::mat3::dot(d, d));
  EXPECT_NEAR(f[9], 40.0 * (l - std::sqrt(2.0)) * d[0] / l, 1e-13);
  std::vector<double> dx(12), df(12, 0.0);
  for (std::size_t i = 0; i < 12; ++i) dx[i] = std::cos(0.5 + i);
  field.addDForce(dx.data(), df.data(), 1.0);
  const double h = 1e-6;
  auto plus = x, minus = x;
  for (std::size_t i = 0; i < 12; ++i) plus[i] += h * dx[i], minus[i] -= h * dx[i];
  eis::TriangularBendingSprings probe(springs, 40.0, 0.0);
  std::vector<double> fp(12, 0.0), fm(12, 0.0);
  probe.addForce(plus.data(), nullptr, fp.data());
  probe.addForce(minus.data(), nullptr, fm.data());
  for (std::size_t i = 0; i < 12; ++i) EXPECT_NEAR(df[i], (fp[i] - fm[i]) / (2 * h), 1e-7);
  EXPECT_THROW(field.addKToElementMatrices(nullptr, 1.0, {0, 1}), eis::Error);
}

TEST(TriangularBendingSprings, DampingActsAlongTheSpring) {
  const std::vector<Vec3> rest{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  eis::TriangularBendingSprings field(eis::bendingSprings({{0, 1, 2}, {0, 2, 3}}, rest), 40.0, 2.0);
  const auto x = flatten(rest);
  std::vector<double> v(12, 0.0), f(12, 0.0);
  v[3] = 1.0;  // vertex 1 moves along +x: away from 3 along u = (1, -1, 0) / sqrt 2
  field.addForce(x.data(), v.data(), f.data());
  EXPECT_NEAR(f[9], 2.0 * (1 / std::sqrt(2.0)) / std::sqrt(2.0), 1e-14);
  EXPECT_NEAR(f[10], -2.0 * (1 / std::sqrt(2.0)) / std::sqrt(2.0), 1e-14);
}

TEST(TriangleMass, DiagonalMassIsDensityTimesAreaOverThree) {
  const std::vector<Vec3> rest{{0, 0, 0}, {2, 0, 0}, {2, 1, 0}, {0, 1, 5}};
  const auto m = eis::triangleDiagonalMasses({{0, 1, 2}, {0, 2, 3}}, rest, 0.6);
  // Areas 1 and |(2,1,0) x (0,1,5)| / 2 = |(5, -10, 2)| / 2.
  const double a2 = std::sqrt(25.0 + 100 + 4) / 2;
  EXPECT_NEAR(m[0], 0.6 * (1 + a2) / 3, 1e-15);
  EXPECT_NEAR(m[1], 0.6 / 3, 1e-15);
  EXPECT_NEAR(m[2], 0.6 * (1 + a2) / 3, 1e-15);
  EXPECT_NEAR(m[3], 0.6 * a2 / 3, 1e-15);
}

}  // namespace
