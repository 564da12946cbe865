// The diffusion tetrahedron: its matrix is the derivative of the flux, symmetric, annihilates
// constants, and gives the energy.
#include <gtest/gtest.h>

#include <vector>

#include "eis/model/diffusion_fem.hpp"
#include "one_tetrahedron.hpp"

namespace {

using eis_test::OneTet;

TEST(DiffusionElement, MatrixIsTheDerivativeOfTheFluxAndAnnihilatesConstants) {
  const OneTet t;
  const double k = 2.5;
  eis::DiffusionFEM fem(t.cells, t.cellShapes(), k);
  std::vector<double> dfdu(16, 0.0);
  fem.addKToElementMatrices(dfdu.data(), 1.0, {0, 1});
  const std::vector<double> u{0.3, -1.2, 0.8, 2.0};
  for (int j = 0; j < 4; ++j) {
    std::vector<double> up = u, f0(4, 0.0), f1(4, 0.0);
    up[j] += 1.0;  // the force is linear in u: a unit difference is exact
    fem.addForce(u.data(), nullptr, f0.data());
    fem.addForce(up.data(), nullptr, f1.data());
    double rowSum = 0;
    for (int i = 0; i < 4; ++i) {
      EXPECT_NEAR(f1[i] - f0[i], dfdu[i * 4 + j], 1e-12);
      EXPECT_NEAR(dfdu[i * 4 + j], dfdu[j * 4 + i], 1e-12);
      rowSum += dfdu[j * 4 + i];
    }
    EXPECT_NEAR(rowSum, 0.0, 1e-12);
  }
  // Energy 1/2 u.L u equals -1/2 u.f(u).
  std::vector<double> f(4, 0.0);
  fem.addForce(u.data(), nullptr, f.data());
  double uf = 0;
  for (int i = 0; i < 4; ++i) uf += u[i] * f[i];
  EXPECT_NEAR(fem.potentialEnergy(u.data()), -0.5 * uf, 1e-12);
}

}  // namespace
