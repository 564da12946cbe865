// Hyperelastic tetrahedra, every law: the tangent is the exact derivative of the force and the
// force minus the gradient of the energy (at large, rotated strains, on one cell and on a box),
// rigid motions carry no stress; for the laws given by Lame parameters as such, small strains
// reproduce linear elasticity and uniform stretches give the closed-form von Mises stress; an
// inverted Neo-Hookean cell is refused. Arruda-Boyce's own checks: test_arruda_boyce.cpp;
// Mooney-Rivlin's and Ogden's: test_mooney_rivlin_ogden.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "eis/core/error.hpp"
#include "eis/model/hyperelastic_fem.hpp"
#include "eis/model/linear_elastic_fem.hpp"
#include "element_mesh.hpp"
#include "max_norms.hpp"

using testing_norms::largestDifference;
using testing_norms::largestMagnitude;

namespace {

using Law = eis::HyperelasticFEM::Law;
using Mat = std::array<eis::Vec3, 3>;

constexpr double E = 1234.0, nu = 0.31;
const double lambda = E * nu / ((1 + nu) * (1 - 2 * nu)), mu = E / (2 * (1 + nu));

// The same material, E and nu, on each of `cells` cells.
std::vector<eis::LameParameters> uniformLame(std::size_t cells) {
  return std::vector<eis::LameParameters>(cells, eis::lameParameters(E, nu));
}

using Mesh = eis_test::ElementMesh;
using eis_test::boxMesh;
using eis_test::oneTetMesh;

// The laws with their own parameters: Mooney-Rivlin "C10 C01 K0", Ogden "MU1 ALPHA1 K0" (an
// alpha other than 2, whose C^(alpha/2 - 1) is not I).
std::array<double, 3> ownParameters(Law law) {
  if (law == Law::MooneyRivlin) return {150.0, 80.0, 1000.0};
  if (law == Law::Ogden) return {400.0, 2.7, 1000.0};
  return {};
}

eis::HyperelasticFEM makeField(const Mesh& m, Law law) {
  return eis::HyperelasticFEM(m.cells, m.cellShapes(), m.rest(), uniformLame(m.cells.size()), law,
                              ownParameters(law));
}

Mat identity() {
  return {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
}

Mat multiply(const Mat& a, const Mat& b) {
  Mat c{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) c[i][j] += a[i][k] * b[k][j];
  return c;
}

// Rodrigues: the rotation by `angle` about `axis`.
Mat rotation(eis::Vec3 axis, double angle) {
  const double n = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  for (double& a : axis) a /= n;
  const double c = std::cos(angle), s = std::sin(angle);
  Mat r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r[i][j] = (i == j ? c : 0.0) + (1 - c) * axis[i] * axis[j];
  r[0][1] -= s * axis[2];
  r[1][0] += s * axis[2];
  r[0][2] += s * axis[1];
  r[2][0] -= s * axis[1];
  r[1][2] -= s * axis[0];
  r[2][1] += s * axis[0];
  return r;
}

// x = A p + t at every vertex.
std::vector<double> affine(const Mesh& m, const Mat& A, const eis::Vec3& t) {
  std::vector<double> x;
  for (const auto& p : m.points)
    for (int i = 0; i < 3; ++i)
      x.push_back(A[i][0] * p[0] + A[i][1] * p[1] + A[i][2] * p[2] + t[i]);
  return x;
}

// x = R (I + G) p + t + noise: G random with entries up to `strain`, and a per-vertex noise of
// 0.02 so that a mesh's deformation is not uniform.
std::vector<double> randomState(const Mesh& m, std::mt19937& rng, double strain, const Mat& R) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  Mat stretch = identity();
  for (auto& row : stretch)
    for (double& v : row) v += strain * unit(rng);
  auto x = affine(m, multiply(R, stretch), {0.3, -0.2, 0.5});
  for (double& v : x) v += 0.02 * unit(rng);
  return x;
}

std::vector<double> force(eis::ForceField& field, const std::vector<double>& x) {
  std::vector<double> f(x.size(), 0.0);
  field.addForce(x.data(), nullptr, f.data());
  return f;
}

// The dense global kFactor * df/dx (row-major, dofs x dofs) from the field's element blocks.
std::vector<double> tangent(const eis::ForceField& field, const Mesh& m, double kFactor = 1.0) {
  std::vector<double> blocks(144 * m.cells.size(), 0.0);
  field.addKToElementMatrices(blocks.data(), kFactor, {0, m.cells.size()});
  const std::size_t n = m.dofs();
  std::vector<double> K(n * n, 0.0);
  for (std::size_t c = 0; c < m.cells.size(); ++c)
    for (int i = 0; i < 12; ++i)
      for (int j = 0; j < 12; ++j) {
        const std::size_t row = 3 * m.cells[c][i / 3] + i % 3, col = 3 * m.cells[c][j / 3] + j % 3;
        K[row * n + col] += blocks[144 * c + 12 * i + j];
      }
  return K;
}

// At x: the element matrices are symmetric, scale with kFactor, give addDForce's product, and
// equal the centred finite differences of addForce.
void expectExactTangent(const Mesh& m, Law law, const std::vector<double>& x) {
  auto field = makeField(m, law);
  force(field, x);  // the linearization point
  const auto K = tangent(field, m);
  const std::size_t n = m.dofs();
  const double scale = largestMagnitude(K);

  double asymmetry = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      asymmetry = std::max(asymmetry, std::fabs(K[i * n + j] - K[j * n + i]));
  EXPECT_LT(asymmetry, 1e-12 * scale);

  const double kFactor = -0.7;
  auto scaledK = K;
  for (double& v : scaledK) v *= kFactor;
  EXPECT_LT(largestDifference(tangent(field, m, kFactor), scaledK), 1e-13 * scale);

  std::vector<double> dx(n), product(n, 0.0), expected(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) dx[i] = std::sin(1.7 * double(i) + 0.3);
  field.addDForce(dx.data(), product.data(), kFactor);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) expected[i] += kFactor * K[i * n + j] * dx[j];
  EXPECT_LT(largestDifference(product, expected), 1e-12 * scale * std::sqrt(double(n)));

  const double eps = 1e-6;
  double worst = 0;
  for (std::size_t j = 0; j < n; ++j) {
    auto xp = x, xm = x;
    xp[j] += eps;
    xm[j] -= eps;
    const auto fp = force(field, xp), fm = force(field, xm);
    for (std::size_t i = 0; i < n; ++i)
      worst = std::max(worst, std::fabs((fp[i] - fm[i]) / (2 * eps) - K[i * n + j]));
  }
  EXPECT_LT(worst, 1e-6 * scale);
}

// The force at x is minus the centred finite-difference gradient of the energy.
void expectForceIsMinusEnergyGradient(const Mesh& m, Law law, const std::vector<double>& x) {
  auto field = makeField(m, law);
  const auto f = force(field, x);
  const double eps = 1e-6;
  std::vector<double> gradient(x.size());
  for (std::size_t j = 0; j < x.size(); ++j) {
    auto xp = x, xm = x;
    xp[j] += eps;
    xm[j] -= eps;
    gradient[j] =
        -(field.potentialEnergy(xp.data()) - field.potentialEnergy(xm.data())) / (2 * eps);
  }
  EXPECT_LT(largestDifference(f, gradient), 1e-6 * largestMagnitude(f));
}

// Several moderately strained states (10% to 30%), the last one also turned by a large rotation.
std::vector<std::vector<double>> strainedStates(const Mesh& m) {
  std::mt19937 rng(20240611);
  return {randomState(m, rng, 0.1, identity()), randomState(m, rng, 0.2, identity()),
          randomState(m, rng, 0.3, identity()),
          randomState(m, rng, 0.2, rotation({1.0, -2.0, 0.5}, 2.3))};
}

class Hyperelastic : public ::testing::TestWithParam<Law> {};
class LameHyperelastic : public ::testing::TestWithParam<Law> {};

std::string lawName(const ::testing::TestParamInfo<Law>& info) {
  switch (info.param) {
    case Law::StVenantKirchhoff: return "StVenantKirchhoff";
    case Law::NeoHookean: return "NeoHookean";
    case Law::StableNeoHookean: return "StableNeoHookean";
    case Law::ArrudaBoyce: return "ArrudaBoyce";
    case Law::MooneyRivlin: return "MooneyRivlin";
    case Law::Ogden: return "Ogden";
  }
  return "";
}

TEST_P(Hyperelastic, TangentIsTheExactDerivativeOnOneTetrahedron) {
  const Mesh m = oneTetMesh();
  for (const auto& x : strainedStates(m)) expectExactTangent(m, GetParam(), x);
}

TEST_P(Hyperelastic, TangentIsTheExactDerivativeOnABox) {
  const Mesh m = boxMesh();
  for (const auto& x : strainedStates(m)) expectExactTangent(m, GetParam(), x);
}

TEST_P(Hyperelastic, ForceIsMinusTheEnergyGradient) {
  for (const Mesh& m : {oneTetMesh(), boxMesh()})
    for (const auto& x : strainedStates(m)) expectForceIsMinusEnergyGradient(m, GetParam(), x);
}

TEST_P(Hyperelastic, RigidMotionCarriesNoStress) {
  const Mesh m = boxMesh();
  auto field = makeField(m, GetParam());
  // The scales to compare with: a 10% uniaxial stretch.
  const Mat stretch{{{1.1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
  const auto stretched = affine(m, stretch, {0, 0, 0});
  const double forceScale = largestMagnitude(force(field, stretched));
  const double energyScale = field.potentialEnergy(stretched.data());
  ASSERT_GT(forceScale, 0);
  ASSERT_GT(energyScale, 0);

  const auto x = affine(m, rotation({0.3, 1.0, -0.7}, 2.0), {3.0, -1.0, 2.0});
  EXPECT_LT(largestMagnitude(force(field, x)), 1e-10 * forceScale);
  EXPECT_LT(std::fabs(field.potentialEnergy(x.data())), 1e-10 * energyScale);
  EXPECT_LT(largestMagnitude(field.vonMisesStress(x.data())), 1e-10 * E);
}

// Linearized at rest both laws are linear elasticity: the tangent equals LinearElasticFEM's, and
// at a displacement of size delta force and tangent differ from it by O(delta^2) and O(delta).
TEST_P(LameHyperelastic, SmallStrainMatchesLinearElasticity) {
  const Mesh m = boxMesh();
  auto field = makeField(m, GetParam());
  eis::LinearElasticFEM linear(m.cells, m.cellShapes(), m.rest(), uniformLame(m.cells.size()));
  const auto linearK = tangent(linear, m);
  const double scale = largestMagnitude(linearK);
  EXPECT_LT(largestDifference(tangent(field, m), linearK), 1e-12 * scale);  // before any addForce
  force(field, m.rest());
  EXPECT_LT(largestDifference(tangent(field, m), linearK), 1e-12 * scale);

  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<double> direction(m.dofs());
  for (double& d : direction) d = unit(rng);
  for (double delta : {1e-2, 1e-3, 1e-4}) {
    auto x = m.rest();
    for (std::size_t i = 0; i < x.size(); ++i) x[i] += delta * direction[i];
    const auto linearForce = force(linear, x);
    const double forceError =
        largestDifference(force(field, x), linearForce) / largestMagnitude(linearForce);
    const double tangentError = largestDifference(tangent(field, m), linearK) / scale;
    EXPECT_LT(forceError, 20 * delta) << "delta " << delta;
    EXPECT_LT(tangentError, 20 * delta) << "delta " << delta;
  }
}

// F = diag(s, 1, 1): the Cauchy stress is diag(s^2 (lambda + 2 mu) e, lambda e, lambda e) / s with
// e = (s^2 - 1)/2 for St Venant-Kirchhoff, and mu (B - I) / s + lambda ln(s) I / s for
// Neo-Hookean, so von Mises is |sigma_xx - sigma_yy|.
TEST_P(LameHyperelastic, VonMisesOfAUniformStretchMatchesTheClosedForm) {
  const Mesh m = boxMesh();
  const auto field = makeField(m, GetParam());
  for (double s : {0.8, 1.25}) {
    const Mat stretch{{{s, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
    const double e = 0.5 * (s * s - 1);
    const double expected = GetParam() == Law::StVenantKirchhoff
                                ? std::fabs(e * ((lambda + 2 * mu) * s * s - lambda)) / s
                                : mu * std::fabs(s * s - 1) / s;
    for (double vm : field.vonMisesStress(affine(m, stretch, {0.1, 0.2, 0.3}).data()))
      EXPECT_NEAR(vm, expected, 1e-12 * E);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryLaw, Hyperelastic,
                         ::testing::Values(Law::StVenantKirchhoff, Law::NeoHookean,
                                           Law::StableNeoHookean, Law::ArrudaBoyce,
                                           Law::MooneyRivlin, Law::Ogden),
                         lawName);
INSTANTIATE_TEST_SUITE_P(LameLaws, LameHyperelastic,
                         ::testing::Values(Law::StVenantKirchhoff, Law::NeoHookean,
                                           Law::StableNeoHookean),
                         lawName);

// SOFA's StableNeoHookean (material/StableNeoHookean.h): psi = (mu (tr C - 3) + k (J - alpha)^2)/2
// with k = lambda + mu, alpha = 1 + mu / k, and S = mu I + k J (J - alpha) C^-1; ours is psi less
// its rest value mu^2 / (2 k), with the force -|V| F S grad N_a.
TEST(StableNeoHookean, IsSofasEnergyAndStress) {
  const Mesh m = oneTetMesh();
  auto field = makeField(m, Law::StableNeoHookean);
  const double k = lambda + mu, alpha = 1 + mu / k;
  for (const auto& x : strainedStates(m)) {
    Mat F{};
    for (int a = 0; a < 4; ++a)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) F[i][j] += x[3 * a + i] * m.shapes[0].gradients[a][j];
    const double J = F[0][0] * (F[1][1] * F[2][2] - F[1][2] * F[2][1]) -
                     F[0][1] * (F[1][0] * F[2][2] - F[1][2] * F[2][0]) +
                     F[0][2] * (F[1][0] * F[2][1] - F[1][1] * F[2][0]);
    Mat C{};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        for (int l = 0; l < 3; ++l) C[i][j] += F[l][i] * F[l][j];
    const double sofa =
        0.5 * (mu * (C[0][0] + C[1][1] + C[2][2] - 3) + k * (J - alpha) * (J - alpha));
    const double volume = m.shapes[0].volume;
    EXPECT_NEAR(field.potentialEnergy(x.data()), volume * (sofa - mu * mu / (2 * k)),
                1e-12 * volume * (std::fabs(sofa) + mu));
    // P = F S = mu F + k J (J - alpha) F^-T, and F^-T = cof(F) / J.
    Mat P;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        const int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
        const double cofactor = F[i1][j1] * F[i2][j2] - F[i1][j2] * F[i2][j1];
        P[i][j] = mu * F[i][j] + k * (J - alpha) * cofactor;
      }
    const auto f = force(field, x);
    for (int a = 0; a < 4; ++a)
      for (int i = 0; i < 3; ++i) {
        const auto& g = m.shapes[0].gradients[a];
        const double expected = -volume * (P[i][0] * g[0] + P[i][1] * g[1] + P[i][2] * g[2]);
        EXPECT_NEAR(f[3 * a + i], expected, 1e-12 * largestMagnitude(f));
      }
  }
}

// Two separate tetrahedra; the second is turned inside out by swapping two of its vertices.
TEST(HyperelasticInversion, NeoHookeanRefusesAnInvertedCellTheOtherLawsDoNot) {
  Mesh m = oneTetMesh();
  for (int a = 0; a < 4; ++a)
    m.points.push_back({m.points[a][0] + 2, m.points[a][1], m.points[a][2]});
  m.addCell({4, 5, 6, 7});
  auto x = m.rest();
  for (int d = 0; d < 3; ++d) std::swap(x[3 * 4 + d], x[3 * 5 + d]);

  auto neoHookean = makeField(m, Law::NeoHookean);
  try {
    force(neoHookean, x);
    ADD_FAILURE() << "no error for an inverted Neo-Hookean cell";
  } catch (const eis::Error& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find("inverted tetrahedron (J = -"), std::string::npos) << what;
    EXPECT_NE(what.find(") in cell 1"), std::string::npos) << what;
  }
  EXPECT_TRUE(std::isinf(neoHookean.potentialEnergy(x.data())));
  const auto vm = neoHookean.vonMisesStress(x.data());
  EXPECT_EQ(vm[0], 0.0);
  EXPECT_TRUE(std::isnan(vm[1]));

  auto stvk = makeField(m, Law::StVenantKirchhoff);
  std::vector<double> f;
  EXPECT_NO_THROW(f = force(stvk, x));
  for (double v : f) EXPECT_TRUE(std::isfinite(v));
  EXPECT_GT(largestMagnitude(f), 0);
  EXPECT_TRUE(std::isfinite(stvk.potentialEnergy(x.data())));
  expectExactTangent(m, Law::StVenantKirchhoff, x);
  expectForceIsMinusEnergyGradient(m, Law::StVenantKirchhoff, x);

  // SOFA's stable law is defined for J < 0 too.
  auto stable = makeField(m, Law::StableNeoHookean);
  EXPECT_NO_THROW(f = force(stable, x));
  for (double v : f) EXPECT_TRUE(std::isfinite(v));
  EXPECT_TRUE(std::isfinite(stable.potentialEnergy(x.data())));
  expectExactTangent(m, Law::StableNeoHookean, x);
  expectForceIsMinusEnergyGradient(m, Law::StableNeoHookean, x);
}

}  // namespace
