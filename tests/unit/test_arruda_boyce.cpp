// SOFA's ArrudaBoyce law (material/BoyceAndArruda.h) in HyperelasticFEM, against closed forms:
// SOFA's energy and second Piola-Kirchhoff stress written term by term, SOFA's elasticity tensor
// (applyElasticityTensor) term by term for the tangent, no stress at rest, a uniform dilation, the
// von Mises stress of a uniaxial stretch, linear elasticity with the series' initial shear modulus
// at small strains, and an inverted cell refused. The exact-derivative checks (tangent against
// finite differences of the force, force against those of the energy) are
// test_hyperelastic_fem.cpp's, for every law.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "eis/core/error.hpp"
#include "eis/model/hyperelastic_fem.hpp"
#include "eis/model/linear_elastic_fem.hpp"
#include "eis/model/mat3.hpp"
#include "element_mesh.hpp"
#include "max_norms.hpp"

using testing_norms::largestDifference;
using testing_norms::largestMagnitude;

namespace {

using namespace eis::mat3;

constexpr double E = 1234.0, nu = 0.31;
const eis::LameParameters lame = eis::lameParameters(E, nu);
const double mu = lame.mu, k0 = lame.lambda + 2 * lame.mu / 3;  // our k0 from E and nu
// SOFA's series: mu sum_i c[i-1] (J^(-2i/3) I1^i - 3^i).
constexpr double c[5] = {1.0 / 2, 1.0 / (20 * 8), 11.0 / (1050 * 8 * 8), 19.0 / (7000 * 8 * 8 * 8),
                         519.0 / (673750.0 * 8 * 8 * 8 * 8)};

using Mesh = eis_test::ElementMesh;
using eis_test::boxMesh;
using eis_test::oneTetMesh;

eis::HyperelasticFEM makeField(const Mesh& m) {
  return eis::HyperelasticFEM(m.cells, m.cellShapes(), m.rest(),
                              std::vector<eis::LameParameters>(m.cells.size(), lame),
                              eis::HyperelasticFEM::Law::ArrudaBoyce);
}

// x = A p at every vertex.
std::vector<double> affine(const Mesh& m, const Mat3& A) {
  std::vector<double> x;
  for (const auto& p : m.points)
    for (int i = 0; i < 3; ++i)
      x.push_back(A[3 * i] * p[0] + A[3 * i + 1] * p[1] + A[3 * i + 2] * p[2]);
  return x;
}

std::vector<double> force(eis::ForceField& field, const std::vector<double>& x) {
  std::vector<double> f(x.size(), 0.0);
  field.addForce(x.data(), nullptr, f.data());
  return f;
}

std::vector<double> elementMatrix(const eis::ForceField& field) {
  std::vector<double> block(144, 0.0);
  field.addKToElementMatrices(block.data(), 1.0, {0, 1});
  return block;
}

// F of one cell from its vertex positions.
Mat3 deformationGradient(const Mesh& m, const std::vector<double>& x) {
  Mat3 F{};
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) F[3 * i + j] += x[3 * a + i] * m.shapes[0].gradients[a][j];
  return F;
}

// Random F = I + G, |G_ij| <= strain, at 10%, 20% and 30%.
std::vector<Mat3> strainedGradients() {
  std::mt19937 rng(20251125);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<Mat3> result;
  for (double strain : {0.1, 0.2, 0.3}) {
    Mat3 F = kIdentity;
    for (double& v : F) v += strain * unit(rng);
    result.push_back(F);
  }
  return result;
}

// SOFA's S term by term: 2 mu c_i J^(-2i/3) (i I1^(i-1) I - i/3 I1^i C^-1) + k0 ln J C^-1.
Mat3 sofaSecondPiola(const Mat3& F) {
  const double J = determinant(F), I1 = trace(transposeMultiply(F, F));
  const Mat3 FinvT = inverseTranspose(F, J), Ci = transposeMultiply(FinvT, FinvT);
  Mat3 S = scaled(k0 * std::log(J), Ci);
  for (int i = 1; i <= 5; ++i) {
    const double w = 2 * mu * c[i - 1] * std::pow(J, -2.0 * i / 3);
    S = addScaled(S, w * i * std::pow(I1, i - 1), kIdentity);
    S = addScaled(S, -w * i / 3.0 * std::pow(I1, i), Ci);
  }
  return S;
}

// SOFA's elasticity tensor applied to dC, term by term: with t = C^-1 : dC, r = tr dC,
// dS_i = 2 mu c_i J^(-2i/3) [-(i/3) t (i I1^(i-1) I - (i/3) I1^i C^-1) + i (i-1) I1^(i-2) r I
//        - (i^2/3) I1^(i-1) r C^-1 + (i/3) I1^i C^-1 dC C^-1], plus k0 (t/2 C^-1 - ln J C^-1 dC
//        C^-1).
Mat3 sofaStressIncrement(const Mat3& F, const Mat3& dC) {
  const double J = determinant(F), I1 = trace(transposeMultiply(F, F));
  const Mat3 FinvT = inverseTranspose(F, J), Ci = transposeMultiply(FinvT, FinvT);
  const Mat3 CdCC = multiply(Ci, multiply(dC, Ci));
  const double t = contract(Ci, dC), r = trace(dC);
  Mat3 dS = addScaled(scaled(0.5 * k0 * t, Ci), -k0 * std::log(J), CdCC);
  for (int i = 1; i <= 5; ++i) {
    const double w = 2 * mu * c[i - 1] * std::pow(J, -2.0 * i / 3);
    const double identity = -i / 3.0 * t * i * std::pow(I1, i - 1) +
                            (i > 1 ? i * (i - 1) * std::pow(I1, i - 2) * r : 0.0);
    const double inverse =
        i / 3.0 * t * i / 3.0 * std::pow(I1, i) - i * i / 3.0 * std::pow(I1, i - 1) * r;
    dS = addScaled(dS, w * identity, kIdentity);
    dS = addScaled(dS, w * inverse, Ci);
    dS = addScaled(dS, w * i / 3.0 * std::pow(I1, i), CdCC);
  }
  return dS;
}

TEST(ArrudaBoyce, IsSofasEnergyAndStress) {
  const Mesh m = oneTetMesh();
  auto field = makeField(m);
  const double volume = m.shapes[0].volume;
  const Mat3 R = {0.36, 0.48, -0.8, -0.8, 0.6, 0, 0.48, 0.64, 0.6};  // a rotation
  for (const Mat3& G : strainedGradients())
    for (const Mat3& F : {G, multiply(R, G)}) {
      const auto x = affine(m, F);
      const double J = determinant(F), I1 = trace(transposeMultiply(F, F));
      double sofa = 0.5 * k0 * std::log(J) * std::log(J);
      for (int i = 1; i <= 5; ++i)
        sofa += mu * c[i - 1] * (std::pow(J, -2.0 * i / 3) * std::pow(I1, i) - std::pow(3.0, i));
      EXPECT_NEAR(field.potentialEnergy(x.data()), volume * sofa, 1e-12 * volume * (sofa + mu));

      const Mat3 P = multiply(F, sofaSecondPiola(F));
      const auto f = force(field, x);
      for (int a = 0; a < 4; ++a)
        for (int i = 0; i < 3; ++i) {
          const auto& g = m.shapes[0].gradients[a];
          const double expected =
              -volume * (P[3 * i] * g[0] + P[3 * i + 1] * g[1] + P[3 * i + 2] * g[2]);
          EXPECT_NEAR(f[3 * a + i], expected, 1e-12 * largestMagnitude(f));
        }
    }
}

// SOFA's tangent (updateTangentMatrix): for dF = e_j (x) grad N_b, dC = F^T dF + dF^T F and
// dP = dF S + F dS(dC); block (a, b)_ij = -|V| (dP grad N_a)_i.
TEST(ArrudaBoyce, TangentIsSofasElasticityTensor) {
  const Mesh m = oneTetMesh();
  auto field = makeField(m);
  const auto& g = m.shapes[0].gradients;
  for (const Mat3& F : strainedGradients()) {
    force(field, affine(m, F));
    const auto block = elementMatrix(field);
    const Mat3 S = sofaSecondPiola(F);
    std::vector<double> expected(144, 0.0);
    for (int b = 0; b < 4; ++b)
      for (int j = 0; j < 3; ++j) {
        Mat3 dF{};
        for (int l = 0; l < 3; ++l) dF[3 * j + l] = g[b][l];
        const Mat3 FtdF = transposeMultiply(F, dF);
        Mat3 dC;
        for (int p = 0; p < 3; ++p)
          for (int q = 0; q < 3; ++q) dC[3 * p + q] = FtdF[3 * p + q] + FtdF[3 * q + p];
        const Mat3 dP = addScaled(multiply(dF, S), 1.0, multiply(F, sofaStressIncrement(F, dC)));
        for (int a = 0; a < 4; ++a)
          for (int i = 0; i < 3; ++i)
            expected[(3 * a + i) * 12 + 3 * b + j] =
                -m.shapes[0].volume *
                (dP[3 * i] * g[a][0] + dP[3 * i + 1] * g[a][1] + dP[3 * i + 2] * g[a][2]);
      }
    EXPECT_LT(largestDifference(block, expected), 1e-12 * largestMagnitude(expected));
  }
}

TEST(ArrudaBoyce, RestIsStressFree) {
  const Mesh m = boxMesh();
  auto field = makeField(m);
  const auto rest = m.rest();
  EXPECT_LT(largestMagnitude(force(field, rest)), 1e-12 * E);
  EXPECT_EQ(field.potentialEnergy(rest.data()), 0.0);
  EXPECT_LT(largestMagnitude(field.vonMisesStress(rest.data())), 1e-12 * E);
}

// F = s I: Ib = 3, no deviatoric stress, P = k0 ln(s^3) / s I and psi = k0/2 (3 ln s)^2.
TEST(ArrudaBoyce, UniformDilation) {
  const Mesh m = oneTetMesh();
  auto field = makeField(m);
  const double volume = m.shapes[0].volume;
  for (double s : {0.85, 1.2}) {
    const auto x = affine(m, scaled(s, kIdentity));
    const double p = k0 * 3 * std::log(s) / s;
    const auto f = force(field, x);
    for (int a = 0; a < 4; ++a)
      for (int i = 0; i < 3; ++i)
        EXPECT_NEAR(f[3 * a + i], -volume * p * m.shapes[0].gradients[a][i], 1e-12 * std::fabs(p));
    const double psi = 0.5 * k0 * 9 * std::log(s) * std::log(s);
    EXPECT_NEAR(field.potentialEnergy(x.data()), volume * psi, 1e-12 * volume * psi);
    EXPECT_LT(field.vonMisesStress(x.data())[0], 1e-10 * std::fabs(p));
  }
}

// F = diag(s, 1, 1): sigma = [2 w' X (B - I1/3 I) + k0 ln J I] / J with X = J^(-2/3),
// w' = mu sum_i i c_i Ib^(i-1), so von Mises is 2 w' X |s^2 - 1| / s.
TEST(ArrudaBoyce, VonMisesOfAUniaxialStretch) {
  const Mesh m = boxMesh();
  const auto field = makeField(m);
  for (double s : {0.8, 1.25, 1.6}) {
    const double X = std::pow(s, -2.0 / 3), Ib = X * (s * s + 2);
    double dW = 0;
    for (int i = 1; i <= 5; ++i) dW += mu * i * c[i - 1] * std::pow(Ib, i - 1);
    const double expected = 2 * dW * X * std::fabs(s * s - 1) / s;
    const Mat3 stretch{s, 0, 0, 0, 1, 0, 0, 0, 1};
    for (double vm : field.vonMisesStress(affine(m, stretch).data()))
      EXPECT_NEAR(vm, expected, 1e-12 * expected);
  }
}

// At rest the tangent is linear elasticity with bulk modulus k0 and the series' initial shear
// modulus mu0 = 2 mu sum_i i c_i 3^(i-1) (Ib - 3 = 2 |dev e|^2 to second order).
TEST(ArrudaBoyce, RestTangentIsLinearElasticityWithTheInitialShearModulus) {
  const Mesh m = boxMesh();
  auto field = makeField(m);
  double mu0 = 0;
  for (int i = 1; i <= 5; ++i) mu0 += 2 * mu * i * c[i - 1] * std::pow(3.0, i - 1);
  const eis::LameParameters initial{k0 - 2 * mu0 / 3, mu0};
  eis::LinearElasticFEM linear(m.cells, m.cellShapes(), m.rest(),
                               std::vector<eis::LameParameters>(m.cells.size(), initial));
  std::vector<double> ours(144 * m.cells.size(), 0.0), theirs(ours.size(), 0.0);
  force(field, m.rest());
  field.addKToElementMatrices(ours.data(), 1.0, {0, m.cells.size()});
  linear.addKToElementMatrices(theirs.data(), 1.0, {0, m.cells.size()});
  EXPECT_LT(largestDifference(ours, theirs), 1e-12 * largestMagnitude(theirs));
  EXPECT_GT(mu0, 1.05 * mu);  // the test tells mu0 from mu
}

TEST(ArrudaBoyce, RefusesAnInvertedCell) {
  const Mesh m = oneTetMesh();
  auto field = makeField(m);
  auto x = m.rest();
  for (int d = 0; d < 3; ++d) std::swap(x[d], x[3 + d]);
  try {
    force(field, x);
    ADD_FAILURE() << "no error for an inverted Arruda-Boyce cell";
  } catch (const eis::Error& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find("inverted tetrahedron (J = -"), std::string::npos) << what;
  }
  EXPECT_TRUE(std::isinf(field.potentialEnergy(x.data())));
  EXPECT_TRUE(std::isnan(field.vonMisesStress(x.data())[0]));
}

}  // namespace
