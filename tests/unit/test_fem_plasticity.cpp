// The plasticity of SOFA's TetrahedronFEMForceField (model/fem_plasticity.hpp) on one
// tetrahedron, against values worked out by hand from SOFA's update (computeForce): with E the
// Voigt strain (engineering shears) times 6 V and P the plastic strain,
//   if |E - P| > yield: P += creep (E - P);  if |P| > max: P *= max / |P|;  force of E - P.
// The unit tetrahedron (0,0,0) (1,0,0) (0,1,0) (0,0,1) has 6 V = 1, and stretching vertex 1 by
// a along x (or any multiple of it) leaves the element frame the identity for every method, so
// the force at an elastic strain e is the elastic field's at the stretch e, and
// f_1 = -V (lambda + 2 mu) e along x.
#include <gtest/gtest.h>

#include <array>
#include <utility>
#include <vector>

#include "eis/model/corotational_fem.hpp"

namespace {

using eis::Plasticity;
using eis::RotationMethod;
using eis::Vec3;

const eis::LameParameters kLame = eis::lameParameters(1000.0, 0.4);

struct Tetrahedron {
  // The unit tetrahedron scaled by `size`.
  explicit Tetrahedron(double size)
      : points{{{0, 0, 0}, {size, 0, 0}, {0, size, 0}, {0, 0, size}}} {
    cells.push_back(std::array<PetscInt, 4>{0, 1, 2, 3});
  }
  std::vector<Vec3> points;
  eis::Cells cells;
  std::vector<double> rest() const { return moved(0, 0); }
  // Vertex 1 stretched by `stretch` along x, vertex 2 sheared by `shear` times its height.
  std::vector<double> moved(double stretch, double shear) const {
    std::vector<double> x;
    for (const Vec3& p : points) x.insert(x.end(), p.begin(), p.end());
    x[3] += stretch * points[1][0];
    x[6] += shear * points[2][1];
    return x;
  }
  eis::CorotationalFEM field(RotationMethod method, Plasticity plasticity = {}) const {
    return {cells, {cells, points}, rest(), {kLame}, method, plasticity};
  }
};

std::vector<double> force(eis::CorotationalFEM& field, const std::vector<double>& x) {
  std::vector<double> f(x.size(), 0.0);
  field.addForce(x.data(), nullptr, f.data());
  return f;
}

void expectNear(const std::vector<double>& a, const std::vector<double>& b, double scale) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-13 * scale) << i;
}

const Plasticity kPlasticity{0.025, 0.01, 0.6};  // max, yield, creep

TEST(FemPlasticity, BelowTheYieldTheForceIsTheElasticOneBitForBit) {
  const Tetrahedron tet(1.0);
  auto elastic = tet.field(RotationMethod::Large);
  auto plastic = tet.field(RotationMethod::Large, kPlasticity);
  // |E| = |(a, 0, 0, s, 0, 0)| < 0.01.
  for (auto [a, s] : {std::pair{0.005, 0.0015}, {-0.009, -0.0027}, {0.0099, 0.0}}) {
    const std::vector<double> x = tet.moved(a, s);
    for (int call = 0; call < 3; ++call) EXPECT_EQ(force(plastic, x), force(elastic, x)) << a;
  }
}

TEST(FemPlasticity, PastTheYieldCreepFractionTurnsPlasticAndStays) {
  const Tetrahedron tet(1.0);
  const double stiff = (kLame.lambda + 2 * kLame.mu) / 6;  // V (lambda + 2 mu), V = 1/6
  for (RotationMethod method :
       {RotationMethod::Large, RotationMethod::Polar, RotationMethod::Svd}) {
    auto elastic = tet.field(method);
    auto plastic = tet.field(method, kPlasticity);
    // |E| = 0.02 > 0.01: P = 0.6 * 0.02 = 0.012 (below max 0.025), elastic 0.008.
    const std::vector<double> f = force(plastic, tet.moved(0.02, 0));
    EXPECT_NEAR(f[3], -stiff * 0.008, 1e-13 * stiff);
    expectNear(f, force(elastic, tet.moved(0.008, 0)), stiff);
    // |E - P| = 0.008 < 0.01: no more creep, the same force.
    EXPECT_EQ(force(plastic, tet.moved(0.02, 0)), f);
    // At the permanent stretch 0.012 the element is at rest.
    expectNear(force(plastic, tet.moved(0.012, 0)), std::vector<double>(12, 0.0), stiff);
  }
}

TEST(FemPlasticity, ThePlasticStrainIsClampedToTheMaxThreshold) {
  const Tetrahedron tet(1.0);
  auto elastic = tet.field(RotationMethod::Large);
  auto plastic = tet.field(RotationMethod::Large, {0.025, 0.01, 1.0});
  // creep 1: P = 0.1, clamped to 0.025; the elastic strain is 0.075.
  expectNear(force(plastic, tet.moved(0.1, 0)), force(elastic, tet.moved(0.075, 0)), kLame.mu);
  expectNear(force(plastic, tet.moved(0.025, 0)), std::vector<double>(12, 0.0), kLame.mu);
}

TEST(FemPlasticity, TheNormIsOfEngineeringShearsTimesSixVolumes) {
  // Size 2: 6 V = 8. A shear s = 0.02 of vertex 2 is gamma_xy = 0.02, |E| = 0.16 (0.08 with
  // tensor shears, 0.02 unscaled).
  const Tetrahedron tet(2.0);
  auto elastic = tet.field(RotationMethod::Large);
  auto yields = tet.field(RotationMethod::Large, {1.0, 0.1, 0.5});
  // P = 0.5 E: the force of the shear 0.01.
  expectNear(force(yields, tet.moved(0, 0.02)), force(elastic, tet.moved(0, 0.01)), kLame.mu);
  auto holds = tet.field(RotationMethod::Large, {1.0, 0.17, 0.5});
  EXPECT_EQ(force(holds, tet.moved(0, 0.02)), force(elastic, tet.moved(0, 0.02)));
}

}  // namespace
