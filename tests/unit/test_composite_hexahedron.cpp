// SOFA's HexahedronCompositeFEMForceFieldAndMass homogenisation (model/composite_hexahedron):
// a full cell of one material against the trilinear condensation (its weights are then
// trilinear by symmetry), rigid-body modes in its null space, a cell with empty and mixed
// children against the 27-vertex assembly built and condensed here, and the finest cells'
// weights reproducing rigid motions.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "eis/core/error.hpp"
#include "eis/model/composite_hexahedron.hpp"
#include "eis/model/isotropic_elasticity.hpp"
#include "eis/model/mass.hpp"
#include "eis/model/nonuniform_hexahedron.hpp"
#include "hexahedra.hpp"

namespace {

using eis::Vec3;
using Nodal = std::array<Vec3, 8>;
constexpr int kCorner[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                               {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};

Nodal box(Vec3 origin, Vec3 size) {
  Nodal out;
  for (int a = 0; a < 8; ++a)
    for (int i = 0; i < 3; ++i) out[a][i] = origin[i] + kCorner[a][i] * size[i];
  return out;
}

double largest(const eis::ElementMatrix& k) {
  double m = 0;
  for (double v : k) m = std::max(m, std::abs(v));
  return m;
}

// Rigid-body modes of points p: 3 translations, 3 infinitesimal rotations about the origin.
std::vector<std::vector<double>> rigidModes(const std::vector<Vec3>& p) {
  std::vector<std::vector<double>> modes(6, std::vector<double>(3 * p.size(), 0.0));
  for (std::size_t a = 0; a < p.size(); ++a) {
    for (int i = 0; i < 3; ++i) modes[i][3 * a + i] = 1;
    const Vec3& x = p[a];
    const double rot[3][3] = {{0, -x[2], x[1]}, {x[2], 0, -x[0]}, {-x[1], x[0], 0}};
    for (int r = 0; r < 3; ++r)
      for (int i = 0; i < 3; ++i) modes[3 + r][3 * a + i] = rot[r][i];
  }
  return modes;
}

TEST(CompositeHexahedron, FullCellOfOneMaterialIsTheTrilinearCondensation) {
  const eis::LameParameters lame = eis::lameParameters(600, 0.3);
  const Nodal shape = box({0, 0, 0}, {2, 1, 1.5});
  for (int levels = 1; levels <= 2; ++levels) {
    const std::vector<double> ones(std::size_t(1) << (3 * levels), 1.0);
    const auto c = eis::compositeHexahedron(shape, lame, 3, levels, ones.data(),
                                            eis::CompositeWeights::Masked);
    const auto trilinear = eis::condensedHexahedronStiffness(0, shape, lame, levels, ones.data());
    const auto mass = eis::condensedHexahedronMass(shape, 3, levels, ones.data());
    for (std::size_t i = 0; i < c.stiffness.size(); ++i)
      EXPECT_NEAR(c.stiffness[i], trilinear[i], 1e-11 * largest(c.stiffness)) << i;
    for (int a = 0; a < 8; ++a)
      for (int b = 0; b < 8; ++b)
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j)
            EXPECT_NEAR(c.mass[(3 * a + i) * 24 + 3 * b + j], i == j ? mass[8 * a + b] : 0.0,
                        1e-12 * mass[0]);
    for (const auto& mode : rigidModes({shape.begin(), shape.end()})) {
      double worst = 0;
      for (int i = 0; i < 24; ++i) {
        double sum = 0;
        for (int j = 0; j < 24; ++j) sum += c.stiffness[i * 24 + j] * mode[j];
        worst = std::max(worst, std::abs(sum));
      }
      EXPECT_LT(worst, 1e-11 * largest(c.stiffness) * 3);
    }
    // Each finest cell's vertices: the trilinear interpolation of the cell's corners.
    const int side = 1 << levels;
    for (std::size_t f = 0; f < ones.size(); ++f) {
      int at[3] = {0, 0, 0};
      for (int l = 0; l < levels; ++l) {
        const std::size_t child = f >> (3 * (levels - 1 - l)) & 7;
        for (int i = 0; i < 3; ++i) at[i] += (child >> i & 1) << (levels - 1 - l);
      }
      for (int k = 0; k < 8; ++k)
        for (int a = 0; a < 8; ++a) {
          double w = 1;
          for (int i = 0; i < 3; ++i) {
            const double t = double(at[i] + kCorner[k][i]) / side;
            w *= kCorner[a][i] ? t : 1 - t;
          }
          for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
              EXPECT_NEAR(c.finestWeights[f][(3 * k + i) * 24 + 3 * a + j], i == j ? w : 0.0,
                          1e-12);
        }
    }
  }
}

TEST(CompositeHexahedron, RigidStiffnessIsSofasTable) {
  const auto& r = eis::rigidHexahedronStiffness();
  EXPECT_EQ(r[0], double(2.26667e+11f));
  EXPECT_EQ(r[1], double(4.25e+10f));
  EXPECT_EQ(r[6], double(-7.08333e+10f));
  EXPECT_EQ(r[9], double(2.83333e+10f));
  EXPECT_EQ(r[23 * 24 + 23], double(2.26667e+11f));
}

// The 27-vertex slot of vertex k of child w (x + 3 y + 9 z).
int slotOf(int w, int k) {
  int s = 0, scale = 1;
  for (int i = 0; i < 3; ++i, scale *= 3) s += ((w >> i & 1) + kCorner[k][i]) * scale;
  return s;
}

// One level on a box with empty and mixed children: the raw weights hold the 8 corners and put
// the other 19 vertices in equilibrium of the assembly with stiff empty children; the stiffness
// and mass are the masked, normalised weights' pull-back of the assembly without them.
TEST(CompositeHexahedron, MixedChildrenMatchTheAssemblyCondensedHere) {
  const eis::LameParameters lame = eis::lameParameters(1000, 0.35);
  const double factors[8] = {1, 0.5, 0, 50, 0.25, 0, 0.75, 1e-4};
  const Vec3 size{2, 1, 1.5};
  const Nodal shape = box({0, 0, 0}, size);
  const auto complete =
      eis::compositeHexahedron(shape, lame, 2, 1, factors, eis::CompositeWeights::Complete);
  const auto masked =
      eis::compositeHexahedron(shape, lame, 2, 1, factors, eis::CompositeWeights::Masked);
  std::vector<double> k(81 * 81, 0.0), ks(81 * 81, 0.0), m(81 * 81, 0.0);
  std::vector<double> wc(81 * 24, 0.0);
  for (int w = 0; w < 8; ++w) {
    const Vec3 origin{(w & 1) * size[0] / 2, (w >> 1 & 1) * size[1] / 2,
                      (w >> 2 & 1) * size[2] / 2};
    const Nodal child = box(origin, {size[0] / 2, size[1] / 2, size[2] / 2});
    const auto own = eis::hexahedronStiffness(0, child, lame);
    const auto mass = eis::sofaHexahedronMass(child, 2).consistent;
    for (int a = 0; a < 8; ++a)
      for (int b = 0; b < 8; ++b)
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) {
            const int r = 3 * slotOf(w, a) + i, c = 3 * slotOf(w, b) + j;
            const int e = (3 * a + i) * 24 + 3 * b + j;
            if (factors[w] == 0) {
              ks[r * 81 + c] += eis::rigidHexahedronStiffness()[e];
              continue;
            }
            k[r * 81 + c] += factors[w] * own[e];
            ks[r * 81 + c] += factors[w] * own[e];
            if (i == j) m[r * 81 + c] += factors[w] * mass[8 * a + b];
          }
    if (factors[w] == 0) continue;
    for (int a = 0; a < 8; ++a)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 24; ++j)
          wc[(3 * slotOf(w, a) + i) * 24 + j] = complete.finestWeights[w][(3 * a + i) * 24 + j];
  }
  // The corners' rows hold them; the corners of empty children only are no kept vertex.
  double scale = 0;
  for (double v : ks) scale = std::max(scale, std::abs(v));
  std::vector<bool> seen(27, false);
  for (int w = 0; w < 8; ++w)
    if (factors[w] != 0)
      for (int a = 0; a < 8; ++a) seen[slotOf(w, a)] = true;
  for (int a = 0; a < 8; ++a)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 24; ++j) {
        const int r = 3 * (2 * slotOf(0, a)) + i;
        const double expected = j == 3 * a + i ? 1.0 : 0.0;
        if (seen[2 * slotOf(0, a)]) EXPECT_EQ(wc[r * 24 + j], expected);
        wc[r * 24 + j] = expected;
      }
  // Each of the 19 other vertices is in equilibrium.
  for (int s = 0; s < 27; ++s) {
    if (s % 3 != 1 && s / 3 % 3 != 1 && s / 9 != 1) continue;
    ASSERT_TRUE(seen[s]) << s;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 24; ++j) {
        double sum = 0;
        for (int c = 0; c < 81; ++c) sum += ks[(3 * s + i) * 81 + c] * wc[c * 24 + j];
        EXPECT_LT(std::abs(sum), 1e-9 * scale) << s << " " << i << " " << j;
      }
  }
  // Masked and normalised, then pulled back.
  std::vector<double> wm(81 * 24, 0.0);
  for (int s = 0; s < 27; ++s)
    for (int i = 0; i < 3; ++i) {
      const int r = 3 * s + i;
      double sum = 0;
      for (int a = 0; a < 8; ++a)
        if (eis::compositeSupport(s, a)) sum += wc[r * 24 + 3 * a + i];
      for (int a = 0; a < 8; ++a)
        if (eis::compositeSupport(s, a)) wm[r * 24 + 3 * a + i] = wc[r * 24 + 3 * a + i] / sum;
    }
  for (const auto& [assembly, result] : {std::pair{&k, &masked.stiffness}, {&m, &masked.mass}}) {
    const double top = largest(*result);
    for (int p = 0; p < 24; ++p)
      for (int q = 0; q < 24; ++q) {
        double sum = 0;
        for (int r = 0; r < 81; ++r)
          for (int c = 0; c < 81; ++c)
            sum += wm[r * 24 + p] * (*assembly)[r * 81 + c] * wm[c * 24 + q];
        EXPECT_NEAR((*result)[p * 24 + q], sum, 1e-9 * top) << p << " " << q;
      }
  }
}

// The weights of HexahedronCompositeFEMMapping's finest cells. Complete, on one level of full
// cells of mixed coefficients (whose assembly has the rigid modes in its null space), they move
// the cells' vertices rigidly with the corners. Masked, on two levels with empty cells, they
// translate them (their rows sum to 1 on each axis). SOFA's stiff element, rounded, has no exact
// null space: complete weights beside an empty cell do not translate exactly, as in SOFA.
void expectRigid(const eis::CompositeHexahedron& c, const std::vector<double>& factors, int levels,
                 const Nodal& shape, std::size_t modes) {
  const auto coarse = rigidModes({shape.begin(), shape.end()});
  const std::size_t finest = std::size_t(1) << (3 * levels);
  ASSERT_EQ(c.finestWeights.size(), finest);
  for (std::size_t f = 0; f < finest; ++f) {
    double norm = 0;
    for (double v : c.finestWeights[f]) norm = std::max(norm, std::abs(v));
    if (factors[f] == 0) {
      EXPECT_EQ(norm, 0.0) << f;
      continue;
    }
    std::vector<Vec3> vertices;
    for (int k = 0; k < 8; ++k) {
      Vec3 x = shape[0];
      for (int l = 0; l < levels; ++l) {
        const std::size_t child = f >> (3 * (levels - 1 - l)) & 7;
        for (int i = 0; i < 3; ++i)
          x[i] += (child >> i & 1) * (shape[6][i] - shape[0][i]) / (2 << l);
      }
      for (int i = 0; i < 3; ++i)
        x[i] += kCorner[k][i] * (shape[6][i] - shape[0][i]) / (1 << levels);
      vertices.push_back(x);
    }
    const auto expected = rigidModes(vertices);
    for (std::size_t m = 0; m < modes; ++m)
      for (int r = 0; r < 24; ++r) {
        double moved = 0;
        for (int j = 0; j < 24; ++j) moved += c.finestWeights[f][r * 24 + j] * coarse[m][j];
        EXPECT_NEAR(moved, expected[m][r], 1e-10) << f << " mode " << m << " row " << r;
      }
  }
}

TEST(CompositeHexahedron, FinestWeightsFollowARigidMotion) {
  const eis::LameParameters lame = eis::lameParameters(100, 0.35);
  const Nodal shape = box({0.5, -1, 2}, {2, 1, 1.5});
  const std::vector<double> mixed{1, 50, 1e-4, 1, 0.5, 3, 1, 0.25};
  expectRigid(
      eis::compositeHexahedron(shape, lame, 2, 1, mixed.data(), eis::CompositeWeights::Complete),
      mixed, 1, shape, 6);
  std::vector<double> factors(64, 1.0);
  for (std::size_t f = 0; f < factors.size(); ++f)
    factors[f] = f % 5 == 0 ? 0.0 : f % 3 == 0 ? 1e6 : 1.0;
  std::fill(factors.begin() + 40, factors.begin() + 48, 0.0);  // an empty cell of level 1
  expectRigid(
      eis::compositeHexahedron(shape, lame, 2, 2, factors.data(), eis::CompositeWeights::Masked),
      factors, 2, shape, 3);
}

// HexahedronFEM and Mass (hexahedron-fem) take the statically homogenised matrices, each axis
// of the mass its own, on a box of two cells (the second with mixed and empty finer cells).
TEST(CompositeHexahedron, ForceFieldAndMassUseTheHomogenisedMatrices) {
  const eis_test::HexGrid grid(2, 1, 1, {2, 1, 1.5});
  eis::Cells cells(eis::CellType::Hexahedron);
  for (const auto& c : grid.cells) cells.push_back(c);
  const eis::CellShapes shapes(cells, grid.points);
  eis::HexahedronRefinement refinement;
  refinement.levels = 1;
  refinement.factors = {1, 1, 1, 1, 1, 1, 1, 1, 1, 0.5, 0, 50, 0.25, 1, 0.75, 0};
  refinement.homogenisation = eis::FinerHomogenisation::Static;
  const eis::LameParameters lame = eis::lameParameters(1000, 0.3);
  refinement.lame = lame;
  const Nodal second = box({0, 0, 0}, {2, 1, 1.5});
  const double rho = 10;
  const auto expected = eis::compositeHexahedron(second, lame, rho, 1, &refinement.factors[8],
                                                 eis::CompositeWeights::None);
  eis::HexahedronFEM field(cells, grid.rest(), {lame, lame}, eis::HexahedronMethod::Large,
                           &refinement);
  std::vector<double> blocks(2 * 24 * 24, 0.0);
  field.addKToElementMatrices(blocks.data(), 1.0, {0, 2});
  const double top = largest(expected.stiffness);
  for (std::size_t i = 0; i < expected.stiffness.size(); ++i)
    EXPECT_NEAR(-blocks[24 * 24 + i], expected.stiffness[i], 1e-12 * top) << i;
  const eis::Mass mass(cells, shapes, 3, rho, eis::MassType::HexahedronFem, {}, {}, refinement);
  std::fill(blocks.begin(), blocks.end(), 0.0);
  mass.addMToElementMatrices(blocks.data(), 1.0, {0, 2});
  for (std::size_t i = 0; i < expected.mass.size(); ++i)
    EXPECT_NEAR(blocks[24 * 24 + i], expected.mass[i], 1e-13 * largest(expected.mass)) << i;
  // The axes differ; M dx agrees with the element matrices on each.
  EXPECT_NE(expected.mass[0], expected.mass[1 * 24 + 1]);
  for (int axis = 0; axis < 3; ++axis) {
    std::vector<double> e(3 * grid.points.size(), 0.0), out(e.size(), 0.0);
    e[3 * std::size_t(grid.cells[1][0]) + axis] = 1;
    mass.addMDx(e.data(), out.data(), 1.0);
    const std::size_t far = std::size_t(grid.cells[1][6]);
    EXPECT_NEAR(out[3 * far + axis], expected.mass[(3 * 6 + axis) * 24 + axis], 1e-13 * rho);
  }
  EXPECT_THROW(
      eis::Mass(cells, shapes, 3, rho, eis::MassType::HexahedronFemLumped, {}, {}, refinement),
      eis::Error);
}

}  // namespace
