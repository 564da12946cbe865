// The masses on hexahedra against SOFA's formulas worked by hand: DiagonalMass (lumped, rho V / 8
// a vertex), MeshMatrixMass (consistent: rho V / 20 on the diagonal, rho V / 40 along the 12
// edges) and HexahedronFEMForceFieldAndMass (every entry 8/27 rho V_e, gravity rho V_e / 8), on a
// unit cube, a box of two cells and a sheared one; the element matrices against addMDx; and
// mass.total-mass's density over the hexahedra's volume.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "eis/app/scene_builder.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/mass.hpp"
#include "hexahedra.hpp"

namespace {

using eis::MassType;
using eis_test::HexGrid;

struct HexMass {
  explicit HexMass(const HexGrid& grid, double density, MassType type)
      : cells(eis::CellType::Hexahedron), shapes(cells, grid.points) {
    for (const auto& c : grid.cells) cells.push_back(c);
    mass.emplace(cells, shapes, 3, density, type);
  }
  // M e: the column of vertex v's x.
  std::vector<double> column(std::size_t v) const {
    std::vector<double> e(3 * maxVertex(), 0.0), out(e.size(), 0.0);
    e[3 * v] = 1;
    mass->addMDx(e.data(), out.data(), 1.0);
    return out;
  }
  std::size_t maxVertex() const {
    PetscInt n = 0;
    for (auto v : cells.flat()) n = std::max(n, v + 1);
    return std::size_t(n);
  }
  eis::Cells cells;
  eis::CellShapes shapes;
  std::optional<eis::Mass> mass;
};

TEST(HexahedralMass, UnitCubeAsSofaComputesIt) {
  const HexGrid cube(1, 1, 1, {1, 1, 1});
  const double rho = 3;
  const HexMass lumped(cube, rho, MassType::Lumped);
  const auto l = lumped.column(0);
  EXPECT_DOUBLE_EQ(l[0], rho / 8);
  for (std::size_t i = 1; i < l.size(); ++i) EXPECT_EQ(l[i], 0.0);
  EXPECT_DOUBLE_EQ(lumped.mass->localTotal(), rho);
  // By slot: vertex 0's edges lead to 1, 3 and 4; 2, 5, 6 and 7 are across a face or the body.
  const HexMass consistent(cube, rho, MassType::Consistent);
  const auto c = consistent.column(0);
  const double expected[8] = {rho / 20, rho / 40, 0, rho / 40, rho / 40, 0, 0, 0};
  for (int a = 0; a < 8; ++a) {
    const auto v = cube.cells[0][a];
    EXPECT_DOUBLE_EQ(c[3 * v], expected[a]) << a;
    EXPECT_EQ(c[3 * v + 1], 0.0);
  }
  EXPECT_DOUBLE_EQ(consistent.mass->localTotal(), rho);
}

// Two cells of 0.5 x 1.5 x 2 (V = 1.5) side by side and a sheared copy (the same volume): the
// nodes of the shared face get two cells' shares; M 1 gives each node its lumped mass; gravity is
// M g; the element matrices give addMDx's product.
TEST(HexahedralMass, BoxOfTwoCells) {
  HexGrid box(2, 1, 1, {0.5, 1.5, 2});
  for (double shear : {0.0, 0.4}) {
    for (auto& p : box.points) p[0] += shear * p[2];
    const double rho = 2.5, cellMass = rho * 1.5;
    EXPECT_NEAR(eis::hexahedronVolume(HexMass(box, 1, MassType::Lumped).shapes.corners<8>(0)), 1.5,
                1e-15);
    for (MassType type : {MassType::Lumped, MassType::Consistent}) {
      SCOPED_TRACE(std::to_string(int(type)) + " shear " + std::to_string(shear));
      const HexMass m(box, rho, type);
      const std::size_t n = box.points.size();
      std::vector<double> ones(3 * n, 1.0), rows(3 * n, 0.0), f(3 * n, 0.0);
      m.mass->addMDx(ones.data(), rows.data(), 1.0);
      const double g[3] = {0.3, -9.81, 1};
      m.mass->addGravity(f.data(), g);
      for (std::size_t v = 0; v < n; ++v) {
        const bool shared = v % 3 == 1;  // i = 1
        for (int d = 0; d < 3; ++d) {
          EXPECT_NEAR(rows[3 * v + d], (shared ? 2 : 1) * cellMass / 8, 1e-14);
          EXPECT_NEAR(f[3 * v + d], rows[3 * v + d] * g[d], 1e-13);
        }
      }
      EXPECT_NEAR(m.mass->localTotal(), 2 * cellMass, 1e-13);
      std::vector<double> dx(3 * n), product(3 * n, 0.0), assembled(3 * n, 0.0);
      for (std::size_t i = 0; i < dx.size(); ++i) dx[i] = std::cos(0.7 * double(i));
      m.mass->addMDx(dx.data(), product.data(), 2.0);
      std::vector<double> blocks(2 * 24 * 24, 0.0);
      m.mass->addMToElementMatrices(blocks.data(), 2.0, {0, 2});
      for (std::size_t c = 0; c < 2; ++c)
        for (int i = 0; i < 24; ++i)
          for (int j = 0; j < 24; ++j)
            assembled[3 * m.cells[c][i / 3] + i % 3] +=
                blocks[c * 576 + i * 24 + j] * dx[3 * m.cells[c][j / 3] + j % 3];
      for (std::size_t i = 0; i < dx.size(); ++i) EXPECT_NEAR(assembled[i], product[i], 1e-13);
    }
  }
}

// HexahedronFEMForceFieldAndMass: V_e = |0->1| |0->3| |0->4| (on the sheared box the slanted
// edge's length, not the volume); every entry 8/27 rho V_e, lumped 64/27 rho V_e, gravity on
// rho V_e / 8 a vertex.
TEST(HexahedralMass, HexahedronFemMassIsSofas) {
  HexGrid box(1, 1, 1, {0.5, 1.5, 2});
  for (auto& p : box.points) p[0] += 0.4 * p[2];
  const double rho = 2.5, ve = 0.5 * 1.5 * std::hypot(2, 0.8);
  const HexMass full(box, rho, MassType::HexahedronFem);
  const auto c = full.column(0);
  for (int v = 0; v < 8; ++v) EXPECT_NEAR(c[3 * v], 8.0 / 27 * rho * ve, 1e-14);
  const HexMass lumped(box, rho, MassType::HexahedronFemLumped);
  const auto l = lumped.column(5);
  for (int v = 0; v < 8; ++v) EXPECT_NEAR(l[3 * v], v == 5 ? 64.0 / 27 * rho * ve : 0, 1e-13);
  for (const HexMass* m : {&full, &lumped}) {
    std::vector<double> f(24, 0.0);
    const double g[3] = {0, 0, -10};
    m->mass->addGravity(f.data(), g);
    for (int v = 0; v < 8; ++v) EXPECT_NEAR(f[3 * v + 2], -10 * rho * ve / 8, 1e-13);
    EXPECT_NEAR(m->mass->localTotal(), rho * ve, 1e-13);
    std::vector<double> block(576, 0.0), dx(24), product(24, 0.0);
    for (int i = 0; i < 24; ++i) dx[i] = std::sin(1.3 * i);
    m->mass->addMToElementMatrices(block.data(), 1.0, {0, 1});
    m->mass->addMDx(dx.data(), product.data(), 1.0);
    for (int i = 0; i < 24; ++i) {
      double row = 0;
      for (int j = 0; j < 24; ++j) row += block[i * 24 + j] * dx[j];
      EXPECT_NEAR(row, product[i], 1e-13);
    }
  }
}

// mass.cell-factor (SOFA's sparse grid getMassCoef in HexahedronFEMForceFieldAndMass): each
// cell's element mass and the mass gravity acts on scaled by its factor. Two unit cubes side by
// side, factors 0.25 and 0.5: the shared vertex 1 gets (0.25 + 0.5) rho / 8 of gravity, and the
// matrix's entry between vertices 0 and 1 (cube 0 only) 0.25 8/27 rho.
TEST(HexahedralMass, HexahedronFemMassTakesEachCellsFactor) {
  const HexGrid box(2, 1, 1, {1, 1, 1});
  const double rho = 3;
  eis::Cells cells(eis::CellType::Hexahedron);
  for (const auto& c : box.cells) cells.push_back(c);
  const eis::CellShapes shapes(cells, box.points);
  for (auto type : {MassType::HexahedronFem, MassType::HexahedronFemLumped}) {
    const eis::Mass mass(cells, shapes, 3, rho, type, {}, {0.25, 0.5});
    EXPECT_NEAR(mass.localTotal(), 0.75 * rho, 1e-14);
    std::vector<double> f(3 * box.points.size(), 0.0);
    const double g[3] = {0, 0, -8};
    mass.addGravity(f.data(), g);
    const PetscInt shared = box.cells[0][1];
    EXPECT_NEAR(f[3 * std::size_t(shared) + 2], -(0.25 + 0.5) * rho, 1e-14);
    EXPECT_NEAR(f[3 * std::size_t(box.cells[0][0]) + 2], -0.25 * rho, 1e-14);
    if (type != MassType::HexahedronFem) continue;
    std::vector<double> e(f.size(), 0.0), out(f.size(), 0.0);
    e[3 * std::size_t(box.cells[0][0])] = 1;
    mass.addMDx(e.data(), out.data(), 1.0);
    EXPECT_NEAR(out[3 * std::size_t(shared)], 0.25 * 8.0 / 27 * rho, 1e-14);
  }
}

TEST(HexahedralMass, TotalMassOverTheHexahedraVolume) {
  const HexGrid box(2, 1, 1, {0.5, 1.5, 2});
  eis::SerialMesh serial;
  serial.nodes = box.points;
  serial.cells = eis::SerialCells(eis::CellType::Hexahedron);
  for (const auto& c : box.cells) serial.cells.push_back(c);
  serial.cellTags = {0, 0};
  const eis::DistributedMesh mesh(PETSC_COMM_SELF, serial, 3, 0);
  EXPECT_NEAR(eis::meshVolume(mesh), 3, 1e-14);
  for (const char* type : {"lumped", "consistent"}) {
    eis::Scene scene = eis::defaultScene();
    scene.set("mass.type", type);
    scene.set("mass.total-mass", "6");
    EXPECT_NEAR(
        eis::massCoefficientOf(eis::readMassParameters(scene), eis::Physics::Elasticity, mesh), 2,
        1e-14);
  }
}

TEST(HexahedralMass, HexahedronFemMassRefusesTetrahedra) {
  eis::Cells cells(eis::CellType::Tetrahedron, {0, 1, 2, 3});
  const std::vector<eis::Vec3> p = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const eis::CellShapes shapes(cells, p);
  try {
    eis::Mass(cells, shapes, 3, 1, MassType::HexahedronFem);
    ADD_FAILURE() << "no error";
  } catch (const eis::Error& e) {
    EXPECT_NE(std::string(e.what()).find("hexahedron-fem"), std::string::npos) << e.what();
  }
}

}  // namespace
