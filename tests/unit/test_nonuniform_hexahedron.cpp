// SOFA's NonUniformHexahedronFEMForceFieldAndMass condensation (model/nonuniform_hexahedron):
// the interpolation weights by hand, the stiffness and mass of one cell from children of mixed
// coefficients against an independent numpy computation (nonuniform_hexahedron_reference.py),
// and a cell whose children are all full against its own element stiffness.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "eis/model/isotropic_elasticity.hpp"
#include "eis/model/mass.hpp"
#include "eis/model/nonuniform_hexahedron.hpp"
#include "hexahedra.hpp"

namespace {

using eis::Vec3;
using Nodal = std::array<Vec3, 8>;

Nodal box(double a, double b, double c) {
  return {Vec3{0, 0, 0}, Vec3{a, 0, 0}, Vec3{a, b, 0}, Vec3{0, b, 0},
          Vec3{0, 0, c}, Vec3{a, 0, c}, Vec3{a, b, c}, Vec3{0, b, c}};
}

double largest(const eis::HexahedronFEM::Stiffness& k) {
  double m = 0;
  for (double v : k) m = std::max(m, std::abs(v));
  return m;
}

TEST(NonUniformHexahedron, InterpolationWeightsByHand) {
  // Child 0 sits at the parent's vertex 0: its vertex 0 is the parent's, its vertex 1 the middle
  // of the parent's edge 0-1, its vertex 6 the parent's centre.
  const auto p0 = eis::fineToCoarse(0);
  EXPECT_EQ(p0[0 * 8 + 0], 1.0);
  EXPECT_EQ(p0[1 * 8 + 0], 0.5);
  EXPECT_EQ(p0[1 * 8 + 1], 0.5);
  for (int j = 0; j < 8; ++j) EXPECT_EQ(p0[6 * 8 + j], 0.125);
  // Child 1 (offset 1, 0, 0) sits at the parent's vertex 1, child 4 (0, 0, 1) at its vertex 4.
  EXPECT_EQ(eis::fineToCoarse(1)[1 * 8 + 1], 1.0);
  EXPECT_EQ(eis::fineToCoarse(4)[4 * 8 + 4], 1.0);
  // Child 2 (offset 0, 1, 0) sits at the parent's vertex 3; its vertex 0 halves the edge 0-3.
  const auto p2 = eis::fineToCoarse(2);
  EXPECT_EQ(p2[3 * 8 + 3], 1.0);
  EXPECT_EQ(p2[0 * 8 + 0], 0.5);
  EXPECT_EQ(p2[0 * 8 + 3], 0.5);
  // Child 7 sits at the parent's vertex 6; its vertex 4 is the middle of the face 4-5-6-7.
  const auto p7 = eis::fineToCoarse(7);
  EXPECT_EQ(p7[6 * 8 + 6], 1.0);
  for (int j = 0; j < 8; ++j) EXPECT_EQ(p7[4 * 8 + j], j < 4 ? 0.0 : 0.25);
  for (int w = 0; w < 8; ++w) {
    const auto p = eis::fineToCoarse(w);
    for (int k = 0; k < 8; ++k) {
      double sum = 0;
      for (int j = 0; j < 8; ++j) sum += p[k * 8 + j];
      EXPECT_EQ(sum, 1.0);
    }
  }
}

TEST(NonUniformHexahedron, MixedChildrenMatchAnIndependentComputation) {
  const eis::LameParameters lame = eis::lameParameters(1000, 0.3);
  const double factors[8] = {1, 0.5, 0, 1, 0.25, 1, 0.75, 0};
  const Nodal shape = box(2, 1, 1.5);
  const auto k = eis::condensedHexahedronStiffness(0, shape, lame, 1, factors);
  // nonuniform_hexahedron_reference.py.
  EXPECT_NEAR(k[0 * 24 + 0], 181.20659722222214, 1e-12 * 200);
  EXPECT_NEAR(k[0 * 24 + 4], 14.272836538461537, 1e-12 * 200);
  EXPECT_NEAR(k[7 * 24 + 20], 37.560096153846153, 1e-12 * 200);
  EXPECT_NEAR(k[23 * 24 + 23], 162.25961538461536, 1e-12 * 200);
  const auto m = eis::condensedHexahedronMass(shape, 10, 1, factors);
  EXPECT_NEAR(m[0 * 8 + 0], 14.140624999999998, 1e-13 * 15);
  EXPECT_NEAR(m[2 * 8 + 6], 5.3385416666666661, 1e-13 * 15);
  EXPECT_NEAR(m[7 * 8 + 7], 10.321180555555555, 1e-13 * 15);
}

TEST(NonUniformHexahedron, FullChildrenGiveTheCellsOwnStiffness) {
  const eis::LameParameters lame = eis::lameParameters(2500, 0.42);
  const Nodal shape = box(0.75, 1.25, 0.5);
  const auto own = eis::hexahedronStiffness(0, shape, lame);
  for (int levels = 1; levels <= 2; ++levels) {
    const std::vector<double> ones(std::size_t(1) << (3 * levels), 1.0);
    const auto k = eis::condensedHexahedronStiffness(0, shape, lame, levels, ones.data());
    double difference = 0;
    for (std::size_t i = 0; i < k.size(); ++i)
      difference = std::max(difference, std::abs(k[i] - own[i]));
    EXPECT_LT(difference, 1e-13 * largest(own)) << levels << " levels";
  }
  // SOFA's element mass is no integral of N_a N_b: condensed from full children each entry gets
  // sum over the children of (P^T 1)(P^T 1)^T / 8 of the parent's; 1.953125 = 125/64 at (0, 0).
  const double ones[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  const auto m = eis::condensedHexahedronMass(shape, 3, 1, ones);
  const double entry = eis::sofaHexahedronMass(shape, 3).consistent[0];
  EXPECT_NEAR(m[0] / entry, 1.953125, 1e-14);
}

// The force field and the mass take each cell's condensed matrices, and gravity still the
// cell's own mass (rho V / 8 a vertex times mass.cell-factor), on a box of two cells.
TEST(NonUniformHexahedron, ForceFieldAndMassUseTheCondensedMatrices) {
  const eis_test::HexGrid grid(2, 1, 1, {2, 1, 1.5});
  eis::Cells cells(eis::CellType::Hexahedron);
  for (const auto& c : grid.cells) cells.push_back(c);
  const eis::CellShapes shapes(cells, grid.points);
  eis::HexahedronRefinement refinement;
  refinement.levels = 1;
  refinement.factors = {1, 1, 1, 1, 1, 1, 1, 1, 1, 0.5, 0, 1, 0.25, 1, 0.75, 0};
  const eis::LameParameters lame = eis::lameParameters(1000, 0.3);
  eis::HexahedronFEM field(cells, grid.rest(), {lame, lame}, eis::HexahedronMethod::Large,
                           &refinement);
  std::vector<double> blocks(2 * 24 * 24, 0.0);
  field.addKToElementMatrices(blocks.data(), 1.0, {0, 2});
  const auto k1 =
      eis::condensedHexahedronStiffness(1, box(2, 1, 1.5), lame, 1, &refinement.factors[8]);
  const auto own = eis::hexahedronStiffness(0, box(2, 1, 1.5), lame);
  for (std::size_t i = 0; i < k1.size(); ++i) {
    EXPECT_NEAR(-blocks[24 * 24 + i], k1[i], 1e-12 * largest(k1)) << i;
    EXPECT_NEAR(-blocks[i], own[i], 1e-12 * largest(own)) << i;
  }
  const double rho = 10;
  for (auto type : {eis::MassType::HexahedronFem, eis::MassType::HexahedronFemLumped}) {
    const eis::Mass mass(cells, shapes, 3, rho, type, {}, {1, 0.5}, refinement);
    const auto m1 = eis::condensedHexahedronMass(box(2, 1, 1.5), rho, 1, &refinement.factors[8]);
    std::vector<double> blocks(2 * 24 * 24, 0.0);
    mass.addMToElementMatrices(blocks.data(), 1.0, {0, 2});
    for (int a = 0; a < 8; ++a) {
      double row = 0;
      for (int b = 0; b < 8; ++b) row += m1[8 * a + b];
      for (int b = 0; b < 8; ++b) {
        const double expected =
            type == eis::MassType::HexahedronFem ? m1[8 * a + b] : (a == b ? row : 0.0);
        EXPECT_EQ(blocks[24 * 24 + (3 * a + 2) * 24 + 3 * b + 2], expected);
      }
    }
    // M dx agrees with the element matrices: vertex 0 of cell 1 is the box's vertex 1.
    std::vector<double> e(3 * grid.points.size(), 0.0), out(e.size(), 0.0);
    e[3 * std::size_t(grid.cells[1][0]) + 1] = 1;
    mass.addMDx(e.data(), out.data(), 1.0);
    const std::size_t far = std::size_t(grid.cells[1][6]);
    EXPECT_EQ(out[3 * far + 1], blocks[24 * 24 + (3 * 6 + 1) * 24 + 1]);
    std::vector<double> f(e.size(), 0.0);
    const double g[3] = {0, 0, -1};
    mass.addGravity(f.data(), g);
    EXPECT_NEAR(f[3 * far + 2], -0.5 * rho * 3 / 8, 1e-14);
  }
}

}  // namespace
