// Springs on tetrahedra's volumes (SOFA's VolumeMapping with a RestShapeSpringsForceField<Vec1>
// in its child): the volume of a known tetrahedron; the force equals the child's force carried
// by hand through J (f_c = -k (V - V0) times dV/dx by central differences of the volume alone);
// K with Exact geometric stiffness against finite differences of the force, None as -k g g^T,
// Stabilized as one or the other by the sign of f_c; products against the element matrices.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "eis/model/volume_springs.hpp"

namespace {

using eis::GeometricStiffness;
using eis::VolumeSprings;

constexpr double k = 1500.0;

const eis::Cells& cells() {
  static const eis::Cells c(eis::CellType::Tetrahedron, {0, 1, 2, 3});
  return c;
}

std::vector<double> rest() {
  return {0, 0, 0, 1.5, 0.1, 0, 0.2, 1.1, 0.1, 0.3, 0.2, 0.9};
}

// A state whose volume differs from the rest volume (bigger when `grow`).
std::vector<double> moved(bool grow) {
  std::vector<double> x = rest();
  const double d[12] = {0.02, -0.03, 0.01, 0.05, 0.02, -0.04, -0.03, 0.06, 0.02, 0.01, -0.02, 0.07};
  for (int i = 0; i < 12; ++i) x[i] += (grow ? 1 : -1) * d[i] + (i == 11 ? (grow ? 0.2 : -0.2) : 0);
  return x;
}

double volumeOf(const std::vector<double>& x) {
  double g[12];
  return VolumeSprings::volume({&x[0], &x[3], &x[6], &x[9]}, g);
}

std::vector<double> force(VolumeSprings& field, const std::vector<double>& x) {
  std::vector<double> f(12, 0.0), v(12, 0.0);
  field.addForce(x.data(), v.data(), f.data());
  return f;
}

std::vector<double> elementMatrix(const VolumeSprings& field) {
  std::vector<double> m(144, 0.0);
  field.addKToElementMatrices(m.data(), 1.0, {0, 1});
  return m;
}

TEST(VolumeSprings, VolumeOfAKnownTetrahedron) {
  const std::vector<double> x = {1, 1, 1, 3, 1, 1, 1, 4, 1, 1, 1, 5};
  EXPECT_NEAR(volumeOf(x), 2.0 * 3.0 * 4.0 / 6.0, 1e-14);
  const std::vector<double> flipped = {1, 1, 1, 1, 4, 1, 3, 1, 1, 1, 1, 5};
  EXPECT_NEAR(volumeOf(flipped), -4.0, 1e-14);
}

TEST(VolumeSprings, ForceIsTheChildForceThroughTheMappingByHand) {
  VolumeSprings field(cells(), rest(), k, GeometricStiffness::Exact);
  const std::vector<double> x = moved(true);
  const std::vector<double> f = force(field, x);
  const double fc = -k * (volumeOf(x) - volumeOf(rest()));
  ASSERT_LT(fc, 0);
  const double h = 1e-6;
  for (int i = 0; i < 12; ++i) {
    std::vector<double> p = x, m = x;
    p[i] += h;
    m[i] -= h;
    const double dVdx = (volumeOf(p) - volumeOf(m)) / (2 * h);
    EXPECT_NEAR(f[i], fc * dVdx, 1e-8 * std::abs(fc)) << "unknown " << i;
  }
}

// (f(x + h e_j) - f(x - h e_j)) / 2h, column j.
std::vector<double> finiteDifferenceK(const std::vector<double>& x) {
  std::vector<double> m(144);
  const double h = 1e-6;
  for (int j = 0; j < 12; ++j) {
    std::vector<double> p = x, q = x;
    p[j] += h;
    q[j] -= h;
    VolumeSprings a(cells(), rest(), k, GeometricStiffness::Exact);
    const std::vector<double> fp = force(a, p), fq = force(a, q);
    for (int i = 0; i < 12; ++i) m[12 * i + j] = (fp[i] - fq[i]) / (2 * h);
  }
  return m;
}

double largest(const std::vector<double>& m) {
  double s = 0;
  for (double v : m) s = std::max(s, std::abs(v));
  return s;
}

TEST(VolumeSprings, ExactTangentIsTheDerivativeOfTheForce) {
  for (bool grow : {true, false}) {
    const std::vector<double> x = moved(grow);
    VolumeSprings field(cells(), rest(), k, GeometricStiffness::Exact);
    force(field, x);
    const std::vector<double> kExact = elementMatrix(field), kFd = finiteDifferenceK(x);
    const double scale = largest(kFd);
    for (int e = 0; e < 144; ++e) EXPECT_NEAR(kExact[e], kFd[e], 1e-6 * scale) << "entry " << e;
    for (int i = 0; i < 12; ++i)
      for (int j = 0; j < 12; ++j)
        EXPECT_NEAR(kExact[12 * i + j], kExact[12 * j + i], 1e-12 * scale);
  }
}

TEST(VolumeSprings, NoneAndStabilizedDropTheGeometricPart) {
  for (bool grow : {true, false}) {
    const std::vector<double> x = moved(grow);
    double g[12];
    VolumeSprings::volume({&x[0], &x[3], &x[6], &x[9]}, g);
    VolumeSprings none(cells(), rest(), k, GeometricStiffness::None),
        exact(cells(), rest(), k, GeometricStiffness::Exact),
        stabilized(cells(), rest(), k, GeometricStiffness::Stabilized);
    for (VolumeSprings* f : {&none, &exact, &stabilized}) force(*f, x);
    const std::vector<double> kNone = elementMatrix(none), kExact = elementMatrix(exact),
                              kStabilized = elementMatrix(stabilized);
    for (int i = 0; i < 12; ++i)
      for (int j = 0; j < 12; ++j) EXPECT_NEAR(kNone[12 * i + j], -k * g[i] * g[j], 1e-9);
    // f_c < 0 when the volume grew: Stabilized keeps the geometric part then.
    EXPECT_EQ(kStabilized, grow ? kExact : kNone);
    EXPECT_NE(kExact, kNone);
  }
}

TEST(VolumeSprings, ProductIsTheElementMatrixTimesTheDisplacement) {
  const std::vector<double> x = moved(true);
  VolumeSprings field(cells(), rest(), k, GeometricStiffness::Exact);
  force(field, x);
  const std::vector<double> m = elementMatrix(field);
  std::vector<double> dx(12), df(12, 0.0);
  for (int i = 0; i < 12; ++i) dx[i] = std::sin(1.0 + i);
  field.addDForce(dx.data(), df.data(), 0.7);
  for (int i = 0; i < 12; ++i) {
    double want = 0;
    for (int j = 0; j < 12; ++j) want += 0.7 * m[12 * i + j] * dx[j];
    EXPECT_NEAR(df[i], want, 1e-10 * largest(m));
  }
  EXPECT_NEAR(field.potentialEnergy(x.data()),
              0.5 * k * std::pow(volumeOf(x) - volumeOf(rest()), 2), 1e-12);
}

}  // namespace
