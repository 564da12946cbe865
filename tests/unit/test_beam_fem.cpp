// SOFA's BeamFEMForceField on rigid frames (model/beam_fem): the circular section's constants,
// the local element against the closed forms of a cantilever under end loads, the force's
// invariance (zero on a rigidly moved chain, turned with the chain when deformed), and the
// stiffness (addDForce and the assembled matrix) against central differences of the force on a
// rigidly moved straight chain whose frames share one orientation at rest, each line running
// along its first frame's x axis (the element's axis, as SOFA lays beams out), where SOFA's
// -R k R^T is the force's exact derivative.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "eis/core/error.hpp"
#include "eis/model/beam_fem.hpp"
#include "eis/model/rigid_body.hpp"
#include "eis/model/rigid_mapping.hpp"

namespace {

constexpr double kPi = 3.14159265358979323846;

std::string errorOf(const eis::BeamParameters& p, const std::vector<double>& rest) {
  try {
    eis::BeamForceField field(p, rest);
  } catch (const eis::Error& e) {
    return e.what();
  }
  return "";
}

// The frames moved rigidly: turned by the unit quaternion q about the origin, then shifted.
std::vector<double> moved(const std::vector<double>& frames, const std::array<double, 4>& q,
                          const eis::Vec3d& shift) {
  std::vector<double> out(frames);
  for (std::size_t f = 0; f < frames.size(); f += 7) {
    const eis::Vec3d c = eis::rotateByQuaternion(q, {frames[f], frames[f + 1], frames[f + 2]});
    const auto o =
        eis::quaternionProduct(q, {frames[f + 3], frames[f + 4], frames[f + 5], frames[f + 6]});
    for (std::size_t i = 0; i < 3; ++i) out[f + i] = c[i] + shift[i];
    for (std::size_t i = 0; i < 4; ++i) out[f + 3 + i] = o[i];
  }
  return out;
}

std::array<double, 4> unitQuaternion(double x, double y, double z, double w) {
  const double n = std::sqrt(x * x + y * y + z * z + w * w);
  return {x / n, y / n, z / n, w / n};
}

std::vector<double> forceOf(eis::BeamForceField& field, const std::vector<double>& x) {
  std::vector<double> f(x.size() / 7 * 6, 0.0);
  field.addForce(x.data(), f.data());
  return f;
}

eis::BeamParameters chainParameters() {
  eis::BeamParameters p;
  p.lines = {{0, 1}, {1, 2}, {3, 2}};
  p.youngModulus = 1000;
  p.poissonRatio = 0.3;
  p.radius = 0.1;
  p.radiusInner = 0.02;
  return p;
}

}  // namespace

TEST(BeamFem, CircularSection) {
  const eis::BeamSection s = eis::circularSection(2e7, 0.49, 0.05, 0.01);
  EXPECT_DOUBLE_EQ(s.area, kPi * (0.05 * 0.05 - 0.01 * 0.01));
  EXPECT_DOUBLE_EQ(s.iz, kPi * (std::pow(0.05, 4) - std::pow(0.01, 4)) / 4);
  EXPECT_DOUBLE_EQ(s.iy, s.iz);
  EXPECT_DOUBLE_EQ(s.polar, 2 * s.iz);
  EXPECT_DOUBLE_EQ(s.shearModulus, 2e7 / 2.98);
}

// End b loaded, end a clamped: k's block on b's unknowns solved for the end's displacement gives
// the cantilever's closed forms, u = P L / (E A), v = P L^3 / (3 E I) with the turn
// P L^2 / (2 E I), the twist T L / (G J).
TEST(BeamFem, LocalStiffnessIsTheCantilever) {
  const double L = 1.7;
  const eis::BeamSection s = eis::circularSection(3e5, 0.3, 0.04, 0.01);
  const std::array<double, 144> k = eis::beamLocalStiffness(s, L);
  for (std::size_t r = 0; r < 12; ++r)
    for (std::size_t c = 0; c < 12; ++c) EXPECT_EQ(k[12 * r + c], k[12 * c + r]);
  // Gauss elimination on the 6 x 6 block of b, the loads P = 2 along x, y and z, T = 0.5.
  std::array<std::array<double, 7>, 6> a;
  const std::array<double, 6> load = {2, 2, 2, 0.5, 0, 0};
  for (std::size_t r = 0; r < 6; ++r) {
    for (std::size_t c = 0; c < 6; ++c) a[r][c] = k[12 * (6 + r) + 6 + c];
    a[r][6] = load[r];
  }
  for (std::size_t p = 0; p < 6; ++p)
    for (std::size_t r = 0; r < 6; ++r)
      if (r != p) {
        const double t = a[r][p] / a[p][p];
        for (std::size_t c = p; c < 7; ++c) a[r][c] -= t * a[p][c];
      }
  std::array<double, 6> d;
  for (std::size_t r = 0; r < 6; ++r) d[r] = a[r][6] / a[r][r];
  const double EI = 3e5 * s.iz;
  EXPECT_NEAR(d[0], 2 * L / (3e5 * s.area), 1e-12 * std::abs(d[0]));
  EXPECT_NEAR(d[1], 2 * L * L * L / (3 * EI), 1e-12 * d[1]);
  EXPECT_NEAR(d[2], 2 * L * L * L / (3 * EI), 1e-12 * d[2]);
  EXPECT_NEAR(d[3], 0.5 * L / (s.shearModulus * s.polar), 1e-12 * d[3]);
  EXPECT_NEAR(d[5], 2 * L * L / (2 * EI), 1e-12 * d[5]);   // v turns the end about z
  EXPECT_NEAR(d[4], -2 * L * L / (2 * EI), 1e-12 * d[5]);  // w the other way about y
}

// A deformed chain turned and shifted as a whole: its forces turn with it; a rigidly moved chain
// feels none.
TEST(BeamFem, ForcesAreObjective) {
  std::vector<double> rest;
  const std::array<eis::Vec3d, 4> centres = {
      eis::Vec3d{0, 0, 0}, {1.0, 0.2, 0.1}, {1.8, 0.5, 0.4}, {2.6, 1.1, 0.3}};
  const std::array<std::array<double, 4>, 4> orientations = {
      unitQuaternion(0.1, 0, 0.2, 0.97), unitQuaternion(0, 0.3, 0.1, 0.95),
      unitQuaternion(0, 0, 0.2, 0.98), unitQuaternion(0.3, 0.1, 0, 0.95)};
  for (std::size_t i = 0; i < 4; ++i) {
    rest.insert(rest.end(), centres[i].begin(), centres[i].end());
    rest.insert(rest.end(), orientations[i].begin(), orientations[i].end());
  }
  eis::BeamForceField field(chainParameters(), rest);
  const auto q = unitQuaternion(0.3, -0.5, 0.2, 0.7);
  const std::vector<double> still = forceOf(field, moved(rest, q, {1, -2, 0.5}));
  for (double f : still) EXPECT_NEAR(f, 0, 1e-10);
  std::vector<double> deformed = rest;
  deformed[7] += 0.05;
  deformed[15] -= 0.03;
  const auto twisted =
      eis::rotateQuaternion({rest[24], rest[25], rest[26], rest[27]}, {0.1, -0.05, 0.2});
  std::copy(twisted.begin(), twisted.end(), deformed.begin() + 24);
  const std::vector<double> f = forceOf(field, deformed);
  const std::vector<double> g = forceOf(field, moved(deformed, q, {1, -2, 0.5}));
  double largest = 0;
  for (double e : f) largest = std::max(largest, std::abs(e));
  EXPECT_GT(largest, 1e-2);
  for (std::size_t i = 0; i < f.size(); i += 3) {
    const eis::Vec3d turned = eis::rotateByQuaternion(q, {f[i], f[i + 1], f[i + 2]});
    for (std::size_t d = 0; d < 3; ++d) EXPECT_NEAR(g[i + d], turned[d], 1e-11 * largest);
  }
}

// On a straight chain along its frames' common x axis at rest, rigidly moved, each column of the
// stiffness is the central difference of the forces along that unknown (the centre moved, the
// orientation turned as RigidCoord's operator+= turns it).
TEST(BeamFem, StiffnessIsTheForceDerivativeOnAMovedChain) {
  const auto q0 = unitQuaternion(0.2, -0.1, 0.3, 0.9);
  const eis::Vec3d axis = eis::rotateByQuaternion(q0, {1, 0, 0});
  std::vector<double> rest;
  for (double s : {0.0, 0.9, 1.7, 2.2})
    rest.insert(rest.end(), {0.5 + s * axis[0], -0.2 + s * axis[1], 0.1 + s * axis[2], q0[0], q0[1],
                             q0[2], q0[3]});
  eis::BeamParameters p = chainParameters();
  p.lines = {{0, 1}, {1, 2}, {2, 3}};
  eis::BeamForceField field(p, rest);
  const std::vector<double> x = moved(rest, unitQuaternion(-0.4, 0.3, 0.5, 0.6), {0.3, 0.1, -1});
  forceOf(field, x);  // the frames' orientations for the stiffness
  const std::size_t n = 24;
  std::vector<double> dense(n * n, 0.0);
  field.addToMatrix(2.0, dense.data(), n);
  double largest = 0;
  for (double e : dense) largest = std::max(largest, std::abs(e) / 2);
  const double eps = 1e-6;
  for (std::size_t j = 0; j < n; ++j) {
    std::array<std::vector<double>, 2> f;
    for (int side = 0; side < 2; ++side) {
      std::vector<double> y = x;
      const double step = side ? -eps : eps;
      double* frame = y.data() + 7 * (j / 6);
      if (j % 6 < 3) {
        frame[j % 6] += step;
      } else {
        eis::Vec3d turn{0, 0, 0};
        turn[j % 6 - 3] = step;
        const auto o = eis::rotateQuaternion({frame[3], frame[4], frame[5], frame[6]}, turn);
        std::copy(o.begin(), o.end(), frame + 3);
      }
      eis::BeamForceField probe(p, rest);
      f[std::size_t(side)] = forceOf(probe, y);
    }
    std::vector<double> unit(n, 0.0), column(n, 0.0);
    unit[j] = 1;
    field.addDForce(unit.data(), column.data(), 1.0);
    for (std::size_t i = 0; i < n; ++i) {
      const double difference = (f[0][i] - f[1][i]) / (2 * eps);
      EXPECT_NEAR(column[i], difference, 1e-6 * largest) << "row " << i << ", column " << j;
      EXPECT_NEAR(dense[i * n + j], 2 * column[i], 1e-12 * largest);
    }
  }
}

TEST(BeamFem, RefusesBadLinesAndSections) {
  const std::vector<double> rest = {0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1};
  eis::BeamParameters p;
  p.lines = {{0, 3}};
  EXPECT_NE(errorOf(p, rest).find("beam line 0 3: a frame past the last of 3"), std::string::npos);
  p.lines = {{1, 1}};
  EXPECT_NE(errorOf(p, rest).find("joins a frame to itself"), std::string::npos);
  p.lines = {{1, 2}};
  EXPECT_NE(errorOf(p, rest).find("centres coincide"), std::string::npos);
  p.lines = {{0, 1}};
  p.radiusInner = 0.1;
  EXPECT_NE(errorOf(p, rest).find("radiusInner"), std::string::npos);
  p.radiusInner = 0;
  p.poissonRatio = 0.5;
  EXPECT_NE(errorOf(p, rest).find("poissonRatio"), std::string::npos);
}
