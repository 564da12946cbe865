// SOFA's MooneyRivlin and Ogden laws (material/MooneyRivlin.h, material/Ogden.h): the first
// Piola-Kirchhoff stress F S against centred finite differences of the energy, the stress
// increment against those of the stress (at generic and at two-equal-eigenvalue states), no
// stress at rest, S at F = diag(a, b, c) Q^T against SOFA's formulas written out for that C, and
// one tetrahedron's force -|V| F S grad N_a through HyperelasticFEM.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include "eis/model/hyperelastic_fem.hpp"
#include "eis/model/mat3.hpp"
#include "eis/model/mooney_rivlin.hpp"
#include "eis/model/ogden.hpp"
#include "element_mesh.hpp"

namespace {

using namespace eis::mat3;
using eis::Vec3;

const eis::mooney_rivlin::Parameters kMooney{5000, 7000, 10};  // the SOFA example's
const eis::mooney_rivlin::Parameters kMooneyStiff{150, 80, 1000};
const eis::ogden::Parameters kOgden{1500, 500, 5000};  // the SOFA example's
const eis::ogden::Parameters kOgdenMild{400, 2.7, 1000};
const eis::ogden::Parameters kOgdenNegative{300, -3.5, 800};

// One law's S at F = I + H and psi at H, behind one interface.
struct Law {
  std::function<Mat3(const Mat3& H)> stress;  // P = F S
  std::function<Mat3(const Mat3& H, const Mat3& dF)> increment;
  std::function<double(const Mat3& H)> energy;
  std::function<Mat3(const Mat3& H)> secondPiola;
};

Law mooney(const eis::mooney_rivlin::Parameters& p) {
  namespace m = eis::mooney_rivlin;
  auto point = [p](const Mat3& H) {
    const Mat3 F = plusIdentity(H);
    return m::linearize(F, determinant(F), p);
  };
  return {[point](const Mat3& H) { return multiply(plusIdentity(H), point(H).S); },
          [point, p](const Mat3& H, const Mat3& dF) { return m::piolaIncrement(point(H), dF, p); },
          [p](const Mat3& H) { return m::energyDensity(H, p); },
          [point](const Mat3& H) { return point(H).S; }};
}

Law ogden(const eis::ogden::Parameters& p) {
  namespace o = eis::ogden;
  auto point = [p](const Mat3& H) { return o::linearize(H, determinant(plusIdentity(H)), p); };
  return {[point](const Mat3& H) { return multiply(plusIdentity(H), point(H).S); },
          [point, p](const Mat3& H, const Mat3& dF) { return o::piolaIncrement(point(H), dF, p); },
          [p](const Mat3& H) { return o::energyDensity(H, p); },
          [point](const Mat3& H) { return point(H).S; }};
}

double largest(const Mat3& m) {
  double worst = 0;
  for (double v : m) worst = std::max(worst, std::fabs(v));
  return worst;
}

Mat3 randomMatrix(std::mt19937& rng, double size) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  Mat3 m;
  for (double& v : m) v = size * unit(rng);
  return m;
}

// Rodrigues' rotation by `angle` about the unit vector along `axis`.
Mat3 rotation(Vec3 axis, double angle) {
  axis = normalized(axis);
  const double c = std::cos(angle), s = std::sin(angle);
  Mat3 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r[3 * i + j] = (i == j ? c : 0.0) + (1 - c) * axis[i] * axis[j];
  r[1] -= s * axis[2];
  r[3] += s * axis[2];
  r[2] += s * axis[1];
  r[6] -= s * axis[1];
  r[5] -= s * axis[0];
  r[7] += s * axis[0];
  return r;
}

// Displacement gradients: random ones of 10% to 30%, and uniaxial stretches (two equal
// eigenvalues of C), one of them rotated.
std::vector<Mat3> states() {
  std::mt19937 rng(91);
  std::vector<Mat3> hs = {randomMatrix(rng, 0.1),
                          randomMatrix(rng, 0.2),
                          randomMatrix(rng, 0.3),
                          {0.2, 0, 0, 0, 0, 0, 0, 0, 0}};
  const Mat3 R = rotation({1, 2, -1}, 0.7);
  hs.push_back(
      addScaled(multiply(R, plusIdentity({-0.15, 0, 0, 0, 0, 0, 0, 0, 0})), -1.0, kIdentity));
  return hs;
}

void expectStressIsEnergyGradient(const Law& law) {
  for (const Mat3& H : states()) {
    const Mat3 P = law.stress(H);
    Mat3 gradient;
    const double eps = 1e-6;
    for (int k = 0; k < 9; ++k) {
      Mat3 plus = H, minus = H;
      plus[k] += eps;
      minus[k] -= eps;
      gradient[k] = (law.energy(plus) - law.energy(minus)) / (2 * eps);
    }
    EXPECT_LT(largest(addScaled(P, -1.0, gradient)), 1e-6 * largest(P));
  }
}

void expectIncrementIsStressDerivative(const Law& law) {
  std::mt19937 rng(5);
  for (const Mat3& H : states())
    for (int trial = 0; trial < 3; ++trial) {
      const Mat3 dF = randomMatrix(rng, 1.0);
      const double eps = 1e-6;
      const Mat3 fd = scaled(1 / (2 * eps), addScaled(law.stress(addScaled(H, eps, dF)), -1.0,
                                                      law.stress(addScaled(H, -eps, dF))));
      const Mat3 dP = law.increment(H, dF);
      EXPECT_LT(largest(addScaled(dP, -1.0, fd)), 1e-6 * largest(dP));
    }
}

TEST(MooneyRivlin, StressIsTheEnergyGradient) {
  expectStressIsEnergyGradient(mooney(kMooney));
  expectStressIsEnergyGradient(mooney(kMooneyStiff));
}

TEST(MooneyRivlin, IncrementIsTheStressDerivative) {
  expectIncrementIsStressDerivative(mooney(kMooney));
  expectIncrementIsStressDerivative(mooney(kMooneyStiff));
}

TEST(Ogden, StressIsTheEnergyGradient) {
  expectStressIsEnergyGradient(ogden(kOgdenMild));
  expectStressIsEnergyGradient(ogden(kOgdenNegative));
}

TEST(Ogden, IncrementIsTheStressDerivative) {
  expectIncrementIsStressDerivative(ogden(kOgdenMild));
  expectIncrementIsStressDerivative(ogden(kOgdenNegative));
}

TEST(MooneyRivlinAndOgden, RestIsStressFree) {
  for (const Law& law : {mooney(kMooney), ogden(kOgden), ogden(kOgdenMild)}) {
    EXPECT_LT(largest(law.secondPiola(Mat3{})), 1e-9);
    EXPECT_EQ(law.energy(Mat3{}), 0.0);
  }
}

// F = diag(a, b, c) Q^T: C = Q diag(a^2, b^2, c^2) Q^T and S = Q diag(S1, S2, S3) Q^T, each Si
// SOFA's formula with C's eigenvalue li = a^2 ..:
//   MooneyRivlin  2 C10 J^(-2/3) (1 - I1/(3 li)) + 2 C01 J^(-4/3) (I1 - li - 2 I2/(3 li))
//                 + k0 ln J / li
//   Ogden         MU1/ALPHA1 J^(-ALPHA1/3) (li^(ALPHA1/2 - 1) - T/(3 li)) + k0 ln J / li,
//                 T = sum li^(ALPHA1/2)
Mat3 principal(const Vec3& stretch, const Mat3& Q, bool isOgden) {
  const double l[3] = {stretch[0] * stretch[0], stretch[1] * stretch[1], stretch[2] * stretch[2]};
  const double J = stretch[0] * stretch[1] * stretch[2], logJ = std::log(J);
  const double I1 = l[0] + l[1] + l[2], I2 = l[0] * l[1] + l[1] * l[2] + l[2] * l[0];
  const auto& m = kMooney;
  const auto& o = kOgdenMild;
  const double T =
      std::pow(l[0], o.alpha1 / 2) + std::pow(l[1], o.alpha1 / 2) + std::pow(l[2], o.alpha1 / 2);
  Mat3 D{};
  for (int i = 0; i < 3; ++i)
    D[4 * i] = isOgden ? o.mu1 / o.alpha1 * std::pow(J, -o.alpha1 / 3) *
                                 (std::pow(l[i], o.alpha1 / 2 - 1) - T / (3 * l[i])) +
                             o.k0 * logJ / l[i]
                       : 2 * m.c10 * std::pow(J, -2.0 / 3) * (1 - I1 / (3 * l[i])) +
                             2 * m.c01 * std::pow(J, -4.0 / 3) * (I1 - l[i] - 2 * I2 / (3 * l[i])) +
                             m.k0 * logJ / l[i];
  return multiplyTranspose(multiply(Q, D), Q);
}

TEST(MooneyRivlinAndOgden, PrincipalStressIsSofas) {
  const Mat3 Q = rotation({0.3, -1, 2}, 1.1);
  for (const Vec3& stretch : {Vec3{1.2, 0.9, 1.05}, Vec3{0.8, 1.3, 1.3}})
    for (bool isOgden : {false, true}) {
      const Mat3 F =
          multiplyTranspose(rowsOf({stretch[0], 0, 0}, {0, stretch[1], 0}, {0, 0, stretch[2]}), Q);
      const Mat3 H = addScaled(F, -1.0, kIdentity);
      const Mat3 expected = principal(stretch, Q, isOgden);
      const Mat3 S = (isOgden ? ogden(kOgdenMild) : mooney(kMooney)).secondPiola(H);
      EXPECT_LT(largest(addScaled(S, -1.0, expected)), 1e-12 * largest(expected)) << isOgden;
    }
}

// Through the element: x = F p on one tetrahedron gives f_a = -|V| F S grad N_a.
TEST(MooneyRivlinAndOgden, OneTetrahedronForceIsTheStressOnItsFaces) {
  const auto m = eis_test::oneTetMesh();
  const Mat3 Q = rotation({1, 1, 0.2}, -0.6);
  const Vec3 stretch{1.1, 0.95, 1.2};
  const Mat3 F =
      multiplyTranspose(rowsOf({stretch[0], 0, 0}, {0, stretch[1], 0}, {0, 0, stretch[2]}), Q);
  std::vector<double> x;
  for (const auto& p : m.points) {
    const Vec3 q = times(F, p);
    x.insert(x.end(), q.begin(), q.end());
  }
  for (bool isOgden : {false, true}) {
    const auto law =
        isOgden ? eis::HyperelasticFEM::Law::Ogden : eis::HyperelasticFEM::Law::MooneyRivlin;
    const std::array<double, 3> parameters =
        isOgden ? std::array<double, 3>{kOgdenMild.mu1, kOgdenMild.alpha1, kOgdenMild.k0}
                : std::array<double, 3>{kMooney.c10, kMooney.c01, kMooney.k0};
    eis::HyperelasticFEM field(m.cells, m.cellShapes(), m.rest(),
                               std::vector<eis::LameParameters>(1, {1, 1}), law, parameters);
    std::vector<double> f(12, 0.0);
    field.addForce(x.data(), nullptr, f.data());
    const Mat3 P = multiply(F, principal(stretch, Q, isOgden));
    const auto& shape = m.shapes[0];
    for (int a = 0; a < 4; ++a) {
      const Vec3 expected = times(P, shape.gradients[a]);
      for (int i = 0; i < 3; ++i)
        EXPECT_NEAR(f[3 * a + i], -shape.volume * expected[i], 1e-11 * largest(P)) << isOgden;
    }
  }
}

}  // namespace
