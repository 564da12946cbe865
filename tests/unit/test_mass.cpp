// The mass, lumped and consistent, on a box: its total is density times volume, M applied to a
// translation and gravity have the same row sums, and the element matrices give the products;
// mass.total-mass sets the density to the total over the mesh's volume, as SOFA's DiagonalMass
// and MeshMatrixMass do, checked by hand on one tetrahedron and on two.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "eis/app/scene_builder.hpp"
#include "eis/mesh/box_mesh.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/mass.hpp"
#include "one_tetrahedron.hpp"

namespace {

using eis_test::Cells;

TEST(Mass, LumpedAndConsistentSumToDensityTimesVolume) {
  const auto box = eis::makeBoxMesh({2, 1, 3}, {2, 2, 2});
  Cells cells;
  for (const auto& t : box.cells)
    cells.push_back({PetscInt(t[0]), PetscInt(t[1]), PetscInt(t[2]), PetscInt(t[3])});
  const eis::CellShapes shapes(cells, box.nodes);
  const double density = 7.5, volume = 6.0;
  for (auto type : {eis::MassType::Lumped, eis::MassType::Consistent}) {
    const eis::Mass mass(cells, shapes, 3, density, type);
    EXPECT_NEAR(mass.localTotal(), density * volume, 1e-12);
    // M applied to a unit translation gives each node its lumped mass; they sum to rho V.
    std::vector<double> ones(3 * box.nodes.size(), 1.0), out(ones.size(), 0.0);
    mass.addMDx(ones.data(), out.data(), 1.0);
    double sum = 0;
    for (std::size_t i = 0; i < out.size(); i += 3) sum += out[i];
    EXPECT_NEAR(sum, density * volume, 1e-12);
    // Gravity is f = M g with the same row sums.
    const double g[3] = {0, -9.81, 0};
    std::vector<double> f(ones.size(), 0.0);
    mass.addGravity(f.data(), g);
    for (std::size_t i = 0; i < out.size(); ++i) EXPECT_NEAR(f[i], out[i] * g[i % 3], 1e-12);
    // The element matrices give the same product as addMDx.
    std::vector<double> blocks(cells.size() * 144, 0.0), assembled(ones.size(), 0.0);
    std::vector<double> dx(ones.size());
    for (std::size_t i = 0; i < dx.size(); ++i) dx[i] = std::cos(0.7 * double(i));
    mass.addMToElementMatrices(blocks.data(), 2.0, {0, cells.size()});
    for (std::size_t c = 0; c < cells.size(); ++c)
      for (int i = 0; i < 12; ++i)
        for (int j = 0; j < 12; ++j)
          assembled[3 * cells[c][i / 3] + i % 3] +=
              blocks[c * 144 + i * 12 + j] * dx[3 * cells[c][j / 3] + j % 3];
    std::vector<double> product(ones.size(), 0.0);
    mass.addMDx(dx.data(), product.data(), 2.0);
    for (std::size_t i = 0; i < dx.size(); ++i) EXPECT_NEAR(assembled[i], product[i], 1e-12);
  }
}

// Uniform: whatever the cells' volumes, every node gets the vertex mass, and gravity is m g.
TEST(Mass, UniformGivesEveryNodeTheSameMass) {
  const auto box = eis::makeBoxMesh({2, 1, 3}, {2, 3, 2});
  Cells cells;
  std::vector<double> cellsPerVertex(box.nodes.size(), 0.0);
  for (const auto& t : box.cells) {
    cells.push_back({PetscInt(t[0]), PetscInt(t[1]), PetscInt(t[2]), PetscInt(t[3])});
    for (auto v : t) cellsPerVertex[v] += 1;
  }
  const eis::CellShapes shapes(cells, box.nodes);
  const double vertexMass = 0.3;
  const eis::Mass mass(cells, shapes, 3, vertexMass, eis::MassType::Uniform, cellsPerVertex);
  EXPECT_NEAR(mass.localTotal(), vertexMass * double(box.nodes.size()), 1e-12);
  std::vector<double> ones(3 * box.nodes.size(), 1.0), out(ones.size(), 0.0);
  mass.addMDx(ones.data(), out.data(), 2.0);
  for (double m : out) EXPECT_NEAR(m, 2 * vertexMass, 1e-14);
  const double g[3] = {0.5, -9.81, 2};
  std::vector<double> f(ones.size(), 0.0);
  mass.addGravity(f.data(), g);
  for (std::size_t i = 0; i < f.size(); ++i) EXPECT_NEAR(f[i], vertexMass * g[i % 3], 1e-14);
}

// none: SOFA's M = 0 with no mass component: no product, no element matrix, no gravity, whatever
// the coefficient.
TEST(Mass, NoneIsZero) {
  const auto box = eis::makeBoxMesh({2, 1, 3}, {2, 2, 2});
  Cells cells;
  for (const auto& t : box.cells)
    cells.push_back({PetscInt(t[0]), PetscInt(t[1]), PetscInt(t[2]), PetscInt(t[3])});
  const eis::CellShapes shapes(cells, box.nodes);
  const eis::Mass mass(cells, shapes, 3, 7.5, eis::MassType::None);
  EXPECT_EQ(mass.localTotal(), 0.0);
  std::vector<double> ones(3 * box.nodes.size(), 1.0), out(ones.size(), 0.0);
  mass.addMDx(ones.data(), out.data(), 2.0);
  const double g[3] = {0.5, -9.81, 2};
  mass.addGravity(out.data(), g);
  for (double m : out) EXPECT_EQ(m, 0.0);
  std::vector<double> blocks(cells.size() * 144, 0.0);
  mass.addMToElementMatrices(blocks.data(), 2.0, {0, cells.size()});
  for (double b : blocks) EXPECT_EQ(b, 0.0);
}

// The unit tetrahedron (V = 1/6) and a second one on its slanted face with apex (1, 1, 1)
// (V = 1/3), 3 kg in all: SOFA's density is 3 / (1/6) = 18, then 3 / (1/2) = 6, and each node
// gets density * (the volumes around it) / 4 lumped; the consistent matrix has density V / 10 on
// its diagonal and density V / 20 off it, with the same row sums.
TEST(Mass, TotalMassSetsTheDensityAsSofa) {
  eis::SerialMesh serial;
  serial.nodes = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}};
  serial.cells = eis::SerialCells(eis::CellType::Tetrahedron, {0, 1, 2, 3, 1, 2, 3, 4});
  serial.cellTags = {0, 0};
  struct Case {
    std::size_t tets;
    double volume, density;
    std::vector<double> nodeMasses;  // by node id
  };
  const Case cases[] = {{1, 1.0 / 6, 18, {0.75, 0.75, 0.75, 0.75}},
                        {2, 0.5, 6, {0.25, 0.75, 0.75, 0.75, 0.5}}};
  for (const Case& c : cases) {
    eis::SerialMesh part = serial;
    part.cells.resize(c.tets);
    part.cellTags.resize(c.tets);
    part.nodes.resize(c.tets + 3);
    const eis::DistributedMesh mesh(PETSC_COMM_SELF, part, 3, 0);
    EXPECT_NEAR(eis::meshVolume(mesh), c.volume, 1e-15);
    for (const char* type : {"lumped", "consistent"}) {
      SCOPED_TRACE(std::string(type) + " " + std::to_string(c.tets));
      eis::Scene scene = eis::defaultScene();
      scene.set("mass.type", type);
      scene.set("mass.total-mass", "3");
      const eis::MassParameters parameters = eis::readMassParameters(scene);
      const double density = eis::massCoefficientOf(parameters, eis::Physics::Elasticity, mesh);
      EXPECT_NEAR(density, c.density, 1e-13);
      const Cells& cells = mesh.cells();
      const auto& p = mesh.restCoords();
      const eis::CellShapes shapes(cells, p);
      const eis::Mass mass(cells, shapes, 3, density, parameters.type);
      EXPECT_NEAR(mass.localTotal(), 3, 1e-14);
      const std::size_t n = p.size();
      std::vector<double> ones(3 * n, 1.0), rows(3 * n, 0.0);
      mass.addMDx(ones.data(), rows.data(), 1.0);
      for (std::size_t v = 0; v < n; ++v)
        for (int d = 0; d < 3; ++d)
          EXPECT_NEAR(rows[3 * v + d], c.nodeMasses[std::size_t(mesh.nodeIds()[v])], 1e-14);
      if (c.tets != 1 || std::string(type) != "consistent") continue;
      // One tetrahedron's consistent matrix: column of node 0's x.
      std::vector<double> e0(3 * n, 0.0), column(3 * n, 0.0);
      std::size_t first = 0;
      while (mesh.nodeIds()[first] != 0) ++first;
      e0[3 * first] = 1;
      mass.addMDx(e0.data(), column.data(), 1.0);
      for (std::size_t v = 0; v < n; ++v) {
        EXPECT_NEAR(column[3 * v], v == first ? 18.0 / 60 : 18.0 / 120, 1e-14);
        EXPECT_EQ(column[3 * v + 1], 0.0);
      }
    }
  }
}

}  // namespace
