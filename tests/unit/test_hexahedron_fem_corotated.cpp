// SOFA's HexahedronFEMForceField, methods "large" and "polar": no force under rigid motions,
// SOFA's frames (from the mean edges) and force rebuilt here from the small method's stiffness,
// the tangent R^T K0 R (the small K at rest, turned with the element, the derivative of the force
// at a rigidly moved state, the matrix-free product), the cells a CellRange picks and the
// sharing of one K0 by cells of the same shape.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "eis/model/mat3.hpp"
#include "error_of.hpp"
#include "hexahedra.hpp"
#include "max_norms.hpp"

using testing_norms::largestDifference;
using testing_norms::largestMagnitude;

namespace {

using eis::HexahedronMethod;
using eis_test::force;
using eis_test::HexGrid;
using eis_test::kHexDofs;
using eis_test::Mat3;
using eis_test::stiffness;
using eis_test::Vec3;
using Cell = std::array<PetscInt, 8>;

constexpr double E = 1234.0, nu = 0.31;
// Vertex a's reference coordinates s_a, SOFA's vertex order.
constexpr int kSigns[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                              {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
const HexahedronMethod kMethods[] = {HexahedronMethod::Large, HexahedronMethod::Polar};

const char* name(HexahedronMethod m) {
  return m == HexahedronMethod::Large ? "large" : "polar";
}

double dot(const Vec3& a, const Vec3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
Vec3 unit(const Vec3& a) {
  const double n = std::sqrt(dot(a, a));
  return {a[0] / n, a[1] / n, a[2] / n};
}
Mat3 transpose(const Mat3& m) {
  return {{{m[0][0], m[1][0], m[2][0]}, {m[0][1], m[1][1], m[2][1]}, {m[0][2], m[1][2], m[2][2]}}};
}

// A cell's 24 unknowns of a mesh vector, in the cell's vertex order.
std::array<double, kHexDofs> gathered(const std::vector<double>& x, const Cell& cell) {
  std::array<double, kHexDofs> local;
  for (int a = 0; a < 8; ++a)
    for (int i = 0; i < 3; ++i) local[3 * a + i] = x[3 * cell[a] + i];
  return local;
}
Vec3 vertex(const std::array<double, kHexDofs>& x, int a) {
  return {x[3 * a], x[3 * a + 1], x[3 * a + 2]};
}
Vec3 operator-(const Vec3& a, const Vec3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}

// --- SOFA's frames, rebuilt independently ---------------------------------------------------

// The mean of the four edges along reference axis k, written out as SOFA does.
Vec3 meanEdge(const std::array<double, kHexDofs>& x, int k) {
  static const int ends[3][4][2] = {{{0, 1}, {3, 2}, {4, 5}, {7, 6}},
                                    {{0, 3}, {1, 2}, {4, 7}, {5, 6}},
                                    {{0, 4}, {1, 5}, {3, 7}, {2, 6}}};
  Vec3 e{0, 0, 0};
  for (const auto& edge : ends[k])
    for (int i = 0; i < 3; ++i) e[i] += 0.25 * (x[3 * edge[1] + i] - x[3 * edge[0] + i]);
  return e;
}

// "large": Gram-Schmidt on the mean edges along x and y; rows are the axes.
Mat3 largeFrame(const std::array<double, kHexDofs>& x) {
  const Vec3 u = meanEdge(x, 0), v = meanEdge(x, 1);
  const Vec3 ex = unit(u);
  const double along = dot(v, ex);
  const Vec3 ey = unit({v[0] - along * ex[0], v[1] - along * ex[1], v[2] - along * ex[2]});
  return {ex, ey, cross(ex, ey)};
}

// "polar": the orthogonal factor of the matrix of rows u, v, w, by the plain (unscaled) Newton
// iteration A <- (A + A^-T) / 2.
Mat3 polarFrame(const std::array<double, kHexDofs>& x) {
  Mat3 a{meanEdge(x, 0), meanEdge(x, 1), meanEdge(x, 2)};
  for (int step = 0; step < 60; ++step) {
    const Mat3 cof{cross(a[1], a[2]), cross(a[2], a[0]), cross(a[0], a[1])};  // det(A) A^-T
    const double det = dot(a[0], cof[0]);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) a[i][j] = 0.5 * (a[i][j] + cof[i][j] / det);
  }
  return a;
}

Mat3 sofaFrame(HexahedronMethod method, const std::array<double, kHexDofs>& x) {
  return method == HexahedronMethod::Large ? largeFrame(x) : polarFrame(x);
}

// Blockwise q K q^T of a 24x24 matrix.
std::vector<double> turned(const std::vector<double>& k, const Mat3& q) {
  std::vector<double> out(kHexDofs * kHexDofs, 0.0);
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b < 8; ++b)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          for (int p = 0; p < 3; ++p)
            for (int r = 0; r < 3; ++r)
              out[(3 * a + i) * kHexDofs + 3 * b + j] +=
                  q[i][p] * k[(3 * a + p) * kHexDofs + 3 * b + r] * q[j][r];
  return out;
}

// --- states ---------------------------------------------------------------------------------

struct RigidMotion {
  Mat3 q;
  Vec3 t;
};
const RigidMotion kMotions[] = {
    {eis_test::rotation({1, 0, 0}, 0.0), {0, 0, 0}},
    {eis_test::rotation({1, 0, 0}, 0.0), {3.0, -2.0, 7.5}},
    {eis_test::rotation({0, 0, 1}, 0.4), {0, 0, 0}},
    {eis_test::rotation({1, -2, 0.5}, 2.5), {0.3, 1.1, -0.7}},
    {eis_test::rotation({0.2, 1, 1}, -1.2), {-5.0, 0.0, 2.0}},
};

// p -> q (p + g p) + t.
std::vector<double> deformedAndMoved(const HexGrid& m, const Mat3& g, const RigidMotion& motion) {
  return m.moved([&](const Vec3& p) {
    const Vec3 gp = eis_test::times(g, p);
    const Vec3 r = eis_test::times(motion.q, Vec3{p[0] + gp[0], p[1] + gp[1], p[2] + gp[2]});
    return Vec3{r[0] + motion.t[0], r[1] + motion.t[1], r[2] + motion.t[2]};
  });
}
const Mat3 kShear{{{0.05, 0.3, -0.1}, {0.0, -0.08, 0.2}, {0.15, 0.0, 0.12}}};

// --- tests ----------------------------------------------------------------------------------

TEST(HexahedronFEMCorotated, RigidMotionsGiveNoForceEnergyOrStress) {
  const HexGrid hex = eis_test::distortedHexahedron();
  for (HexahedronMethod method : kMethods) {
    auto field = hex.field(method, E, nu);
    EXPECT_FALSE(field.isLinear());
    for (const RigidMotion& m : kMotions) {
      const auto x = hex.rigidlyMoved(m.q, m.t);
      EXPECT_LT(largestMagnitude(force(field, x)), 1e-10 * E) << name(method);
      EXPECT_LT(field.potentialEnergy(x.data()), 1e-20 * E) << name(method);
      EXPECT_LT(field.vonMisesStress(x.data())[0], 1e-10 * E) << name(method);
    }
  }
}

TEST(HexahedronFEMCorotated, ForceIsSofasInTheFrameOfTheMeanEdges) {
  // f = R^T K0 (R0 (X - X_0) - R (x - x_0)), with K0 = R0 K R0^T from the small method's K.
  const HexGrid hex = eis_test::distortedHexahedron();
  const Cell& cell = hex.cells[0];
  auto small = hex.field(HexahedronMethod::Small, E, nu);
  const auto k = stiffness(small, 1);
  const auto rest = gathered(hex.rest(), cell);
  for (HexahedronMethod method : kMethods) {
    auto field = hex.field(method, E, nu);
    const Mat3 r0 = sofaFrame(method, rest);
    const auto k0 = turned(k, r0);
    for (const RigidMotion& m : kMotions) {
      const auto x = deformedAndMoved(hex, kShear, m);
      const auto local = gathered(x, cell);
      const Mat3 r = sofaFrame(method, local);
      std::array<double, kHexDofs> d;
      for (int a = 0; a < 8; ++a) {
        const Vec3 from = eis_test::times(r0, vertex(rest, a) - vertex(rest, 0));
        const Vec3 to = eis_test::times(r, vertex(local, a) - vertex(local, 0));
        for (int i = 0; i < 3; ++i) d[3 * a + i] = from[i] - to[i];
      }
      std::vector<double> expected(kHexDofs);
      for (int a = 0; a < 8; ++a) {
        Vec3 f{0, 0, 0};
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < kHexDofs; ++j) f[i] += k0[(3 * a + i) * kHexDofs + j] * d[j];
        const Vec3 world = eis_test::times(transpose(r), f);
        for (int i = 0; i < 3; ++i) expected[3 * a + i] = world[i];
      }
      const auto got = gathered(force(field, x), cell);
      EXPECT_LT(largestDifference({got.begin(), got.end()}, expected),
                1e-10 * largestMagnitude(expected))
          << name(method);
    }
  }
}

TEST(HexahedronFEMCorotated, StiffnessAtRestIsTheSmallOne) {
  const HexGrid hex = eis_test::distortedHexahedron();
  auto small = hex.field(HexahedronMethod::Small, E, nu);
  const auto k = stiffness(small, 1);
  for (HexahedronMethod method : kMethods) {
    auto field = hex.field(method, E, nu);
    EXPECT_LT(largestDifference(stiffness(field, 1), k), 1e-12 * E) << name(method);
    force(field, hex.rest());
    EXPECT_LT(largestDifference(stiffness(field, 1), k), 1e-12 * E) << name(method);
  }
}

TEST(HexahedronFEMCorotated, StiffnessTurnsWithARigidMotion) {
  // At x = q X + t the frame is R = R0 q^T, so R^T K0 R = q K q^T with K the small K: SOFA's
  // tangent. There d = 0, so the frame's derivative adds nothing to df/dx and the difference
  // quotient of the force finds the same matrix.
  const HexGrid hex = eis_test::distortedHexahedron();
  auto small = hex.field(HexahedronMethod::Small, E, nu);
  const auto k = stiffness(small, 1);
  for (HexahedronMethod method : kMethods) {
    auto field = hex.field(method, E, nu);
    for (const RigidMotion& m : kMotions) {
      const auto x = hex.rigidlyMoved(m.q, m.t);
      force(field, x);
      const auto kx = stiffness(field, 1);
      EXPECT_LT(largestDifference(kx, turned(k, m.q)), 1e-11 * E) << name(method);
      EXPECT_LT(largestDifference(kx, eis_test::differencedStiffness(field, hex.cells[0], x, 1e-6)),
                1e-6 * largestMagnitude(kx))
          << name(method);
    }
  }
}

TEST(HexahedronFEMCorotated, MatrixFreeProductIsTheElementMatricesProduct) {
  // Two cells (their vertex numbers are not their order) at a deformed, rotated state: addDForce
  // equals the element matrices times dx, each matrix is symmetric, and a CellRange of the
  // second cell gives that cell's matrix alone.
  const HexGrid patch(2, 1, 1, {0.6, 0.9, 0.4});
  const auto x = deformedAndMoved(patch, kShear, kMotions[3]);
  std::vector<double> dx(x.size());
  for (std::size_t i = 0; i < dx.size(); ++i) dx[i] = std::sin(1.7 * i + 0.3);
  const double kFactor = -0.37;
  for (HexahedronMethod method :
       {HexahedronMethod::Small, HexahedronMethod::Large, HexahedronMethod::Polar}) {
    auto field = patch.field(method, E, nu);
    force(field, x);
    std::vector<double> df(x.size(), 0.0);
    field.addDForce(dx.data(), df.data(), kFactor);
    std::vector<double> blocks(2 * kHexDofs * kHexDofs, 0.0);
    field.addKToElementMatrices(blocks.data(), kFactor, {0, 2});
    std::vector<double> product(x.size(), 0.0);
    for (std::size_t c = 0; c < 2; ++c) {
      const double* block = blocks.data() + c * kHexDofs * kHexDofs;
      const auto local = gathered(dx, patch.cells[c]);
      for (int r = 0; r < kHexDofs; ++r) {
        for (int j = 0; j < kHexDofs; ++j) {
          product[3 * patch.cells[c][r / 3] + r % 3] += block[r * kHexDofs + j] * local[j];
          EXPECT_NEAR(block[r * kHexDofs + j], block[j * kHexDofs + r], 1e-12 * E);
        }
      }
    }
    EXPECT_LT(largestDifference(df, product), 1e-12 * E) << static_cast<int>(method);
    std::vector<double> second(kHexDofs * kHexDofs, 0.0);
    field.addKToElementMatrices(second.data(), kFactor, {1, 2});
    EXPECT_EQ(second, std::vector<double>(blocks.begin() + kHexDofs * kHexDofs, blocks.end()));
  }
}

TEST(HexahedronFEMCorotated, CellsOfOneShapeShareTheirStiffnessAndKeepTheirNumbers) {
  // A 3 x 2 x 1 grid of boxes with power-of-two edges, its last column of cells stretched: the
  // four cells of the first two columns have the same K0 to the bit and share it, the last two
  // another. Force, product and matrices at a deformed, rotated state are, to the bit, those of
  // fields made on each cell alone (summed in the same cell order).
  HexGrid grid(3, 2, 1, {0.5, 0.25, 0.125});
  for (auto& p : grid.points)
    if (p[0] == 1.5) p[0] = 1.7;
  const auto x = deformedAndMoved(grid, kShear, kMotions[3]);
  std::vector<double> dx(x.size());
  for (std::size_t i = 0; i < dx.size(); ++i) dx[i] = std::cos(0.9 * i + 0.2);
  const std::size_t cells = grid.cells.size();
  const auto lame = std::vector<eis::LameParameters>(1, eis::lameParameters(E, nu));
  for (HexahedronMethod method :
       {HexahedronMethod::Small, HexahedronMethod::Large, HexahedronMethod::Polar}) {
    auto field = grid.field(method, E, nu);
    EXPECT_EQ(field.distinctStiffnesses(), 2u);
    const auto f = force(field, x);
    std::vector<double> df(x.size(), 0.0);
    field.addDForce(dx.data(), df.data(), 0.7);
    const auto k = stiffness(field, cells);
    std::vector<double> aloneF(x.size(), 0.0), aloneDf(x.size(), 0.0);
    for (std::size_t c = 0; c < cells; ++c) {
      eis::Cells one(eis::CellType::Hexahedron);
      one.push_back(grid.cells[c]);
      eis::HexahedronFEM alone(one, grid.rest(), lame, method);
      EXPECT_EQ(alone.distinctStiffnesses(), 1u);
      alone.addForce(x.data(), nullptr, aloneF.data());
      alone.addDForce(dx.data(), aloneDf.data(), 0.7);
      EXPECT_EQ(stiffness(alone, 1), std::vector<double>(k.begin() + c * kHexDofs * kHexDofs,
                                                         k.begin() + (c + 1) * kHexDofs * kHexDofs))
          << "cell " << c;
    }
    EXPECT_EQ(f, aloneF) << static_cast<int>(method);
    EXPECT_EQ(df, aloneDf) << static_cast<int>(method);
  }
}

TEST(HexahedronFEMCorotated, MatrixIsTheTurnedStiffnessSummedAsSofaDoesToTheBit) {
  // Boxes with power-of-two edges along the axes: their rest frame is the identity exactly, so
  // the matrix at rest with kFactor = -1 is K0 itself. At a deformed, rotated state the frame
  // is rebuilt here with the same operations as the field's ("large": the mean edges, Gram-
  // Schmidt), and -kFactor R^T K0_ab R summed by plain loops in SOFA's order, T = K0_ab R then
  // R^T T: the field's matrices (whatever instruction set its loops were compiled for) are these
  // to the bit.
  const HexGrid grid(2, 1, 1, {0.5, 0.25, 0.125});
  const std::size_t cells = grid.cells.size();
  auto field = grid.field(HexahedronMethod::Large, E, nu);
  const auto k0 = stiffness(field, cells);
  const auto x = deformedAndMoved(grid, kShear, kMotions[3]);
  force(field, x);
  const double kFactor = 0.37;
  std::vector<double> blocks(cells * kHexDofs * kHexDofs, 0.0);
  field.addKToElementMatrices(blocks.data(), kFactor, {0, cells});
  for (std::size_t c = 0; c < cells; ++c) {
    const auto p = gathered(x, grid.cells[c]);
    Vec3 edge[2] = {{0, 0, 0}, {0, 0, 0}};
    for (int axis = 0; axis < 2; ++axis)
      for (int a = 0; a < 8; ++a)
        for (int i = 0; i < 3; ++i) edge[axis][i] += 0.25 * kSigns[a][axis] * p[3 * a + i];
    const auto ex = eis::mat3::normalized(edge[0]);
    const auto ez = eis::mat3::normalized(eis::mat3::cross(ex, edge[1]));
    const auto r = eis::mat3::rowsOf(ex, eis::mat3::cross(ez, ex), ez);
    const double* k = k0.data() + c * kHexDofs * kHexDofs;
    std::vector<double> expected(kHexDofs * kHexDofs, 0.0);
    for (int a = 0; a < 8; ++a)
      for (int b = 0; b < 8; ++b) {
        double t[9] = {};
        for (int i = 0; i < 3; ++i)
          for (int m = 0; m < 3; ++m)
            for (int n = 0; n < 3; ++n)
              t[3 * i + n] += k[(3 * a + i) * kHexDofs + 3 * b + m] * r[3 * m + n];
        for (int i = 0; i < 3; ++i)
          for (int n = 0; n < 3; ++n) {
            double sum = 0;
            for (int m = 0; m < 3; ++m) sum += r[3 * m + i] * t[3 * m + n];
            expected[(3 * a + i) * kHexDofs + 3 * b + n] -= kFactor * sum;
          }
      }
    EXPECT_EQ(std::vector<double>(blocks.begin() + c * kHexDofs * kHexDofs,
                                  blocks.begin() + (c + 1) * kHexDofs * kHexDofs),
              expected)
        << "cell " << c;
  }
}

TEST(HexahedronFEMCorotated, UniaxialStretchKeepsItsStressWhenTurned) {
  // u = eps (x, -nu y, -nu z), then a rotation: both frames are the rotation itself, and von
  // Mises is E eps as for the small method at rest orientation.
  const HexGrid box(1, 1, 1, {0.7, 1.9, 1.3});
  const double eps = 1e-3;
  const Mat3 g{{{eps, 0, 0}, {0, -nu * eps, 0}, {0, 0, -nu * eps}}};
  for (HexahedronMethod method : kMethods) {
    auto field = box.field(method, E, nu);
    const auto x = deformedAndMoved(box, g, kMotions[3]);
    EXPECT_NEAR(field.vonMisesStress(x.data())[0], E * eps, 1e-9 * E) << name(method);
  }
}

TEST(HexahedronFEMCorotated, MirroredCellsAreRefusedButByPolar) {
  // The cube with its two layers swapped: det J < 0. SOFA would integrate a negative stiffness
  // for "small" and "large"; "polar" turns the cell with a reflection into a proper one.
  HexGrid mirrored(1, 1, 1, {1, 1, 1});
  auto& v = mirrored.cells[0];
  v = {v[4], v[5], v[6], v[7], v[0], v[1], v[2], v[3]};
  for (HexahedronMethod method : {HexahedronMethod::Small, HexahedronMethod::Large}) {
    const std::string error = eis_test::errorOf([&] { mirrored.field(method, E, nu); });
    EXPECT_NE(error.find("hexahedron 0 has det J = -0.125"), std::string::npos) << error;
  }
  auto polar = mirrored.field(HexahedronMethod::Polar, E, nu);
  const auto k = stiffness(polar, 1);
  for (int r = 0; r < kHexDofs; ++r) EXPECT_GT(k[r * kHexDofs + r], 0.0);
  const auto x = mirrored.rigidlyMoved(kMotions[4].q, kMotions[4].t);
  EXPECT_LT(largestMagnitude(force(polar, x)), 1e-10 * E);
}

}  // namespace
