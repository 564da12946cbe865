// SOFA's TriangularBendingSprings on a body of triangles whose cells lie on several ranks, on 1,
// 2 and 3 ranks: a spring across two triangles of two ranks against its force worked out by hand;
// a sheet whose triangles are dealt to the ranks in turn against one serial evaluation of the
// same springs, and its tangent against central differences of its force.
#include <gtest/gtest.h>

#include <cmath>

#include "eis/mesh/boundary_faces.hpp"
#include "eis/model/boundary_bending_springs.hpp"
#include "eis/model/triangular_bending_springs.hpp"
#include "mpi_support.hpp"
#include "spread_springs.hpp"

namespace {

// `w` at every local vertex, from a global array by node id.
using eis_test::force;
using eis_test::localOf;
using eis_test::summed;

TEST(FlatBendingSprings, OneSpringAcrossTwoRanksByHand) {
  // Triangles (0 1 2) and (2 1 3) share the edge 1-2: one spring, 3 (m1) to 0 (m2), of rest
  // length sqrt(2). Node 3 moved to (1 1 1): l = sqrt(3), so f_0 = ks (sqrt(3) - sqrt(2)) (1 1 1)
  // / sqrt(3) = -f_3, nothing on 1 and 2.
  eis::SerialMesh serial;
  if (eis_test::root()) {
    serial.nodes = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
    serial.cells = eis::SerialCells(eis::CellType::Triangle, {0, 1, 2, 2, 1, 3});
    serial.cellTags = {0, 0};
  }
  const std::vector<int> parts{0, std::min(1, eis_test::sizeOf(PETSC_COMM_WORLD) - 1)};
  const eis::DistributedMesh mesh(PETSC_COMM_WORLD, serial, 3, 0, &parts);
  const double ks = 7;
  // Damped, at rest: no force from it, but on 3 ranks one rank holds no vertex and must still
  // take part in the velocities' exchange.
  eis::BoundaryBendingSprings field(mesh, eis::cellFaces(mesh), ks, 0.5, false);
  EXPECT_EQ(field.globalCount(), 1);
  const std::vector<double> x{0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 1}, v(12, 0.0);
  const std::vector<double> f = force(mesh, field, x, v, 4);
  const double expected = ks * (std::sqrt(3.0) - std::sqrt(2.0)) / std::sqrt(3.0);
  for (int c = 0; c < 3; ++c) {
    EXPECT_NEAR(f[std::size_t(c)], expected, 1e-14);
    EXPECT_NEAR(f[9 + std::size_t(c)], -expected, 1e-14);
    EXPECT_EQ(f[3 + std::size_t(c)], 0.0);
    EXPECT_EQ(f[6 + std::size_t(c)], 0.0);
  }
}

// A sheet of 5 x 4 squares cut into triangles along alternating diagonals, in z = 0.
eis::SerialMesh sheet() {
  eis::SerialMesh mesh;
  mesh.cells = eis::SerialCells(eis::CellType::Triangle);
  for (int j = 0; j <= 4; ++j)
    for (int i = 0; i <= 5; ++i) mesh.nodes.push_back({0.2 * i, 0.25 * j, 0});
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 5; ++i) {
      const std::int64_t a = 6 * j + i, b = a + 1, c = a + 7, d = a + 6;
      if ((i + j) % 2) {
        mesh.cells.push_back({a, b, c});
        mesh.cells.push_back({a, c, d});
      } else {
        mesh.cells.push_back({a, b, d});
        mesh.cells.push_back({b, c, d});
      }
    }
  mesh.cellTags.assign(mesh.cells.size(), 0);
  return mesh;
}

eis::Vec3 smooth(const eis::Vec3& p, double a, double b, double c) {
  return {a * std::sin(1.3 * p[0] + 0.4 * p[1]), b * std::cos(0.7 * p[0] - 1.1 * p[1]),
          c * std::sin(0.9 * p[0] * p[1] + 0.3)};
}

TEST(FlatBendingSprings, SheetOnRanksAsOneSerialFieldAndItsTangent) {
  const eis::SerialMesh whole = sheet();
  const int size = eis_test::sizeOf(PETSC_COMM_WORLD);
  std::vector<int> parts;
  for (std::size_t c = 0; c < whole.cells.size(); ++c) parts.push_back(int(c / 3 + c) % size);
  const eis::DistributedMesh mesh(PETSC_COMM_WORLD, eis_test::root() ? whole : eis::SerialMesh{}, 3,
                                  0, &parts);
  eis::BoundaryBendingSprings field(mesh, eis::cellFaces(mesh), 300, 2, false);
  std::vector<eis::Triangle> triangles;
  for (std::size_t c = 0; c < whole.cells.size(); ++c)
    triangles.push_back(
        {PetscInt(whole.cells[c][0]), PetscInt(whole.cells[c][1]), PetscInt(whole.cells[c][2])});
  eis::TriangularBendingSprings serial(eis::bendingSprings(triangles, whole.nodes), 300, 2);
  EXPECT_EQ(field.globalCount(), std::int64_t(serial.springs().size()));

  eis_test::expectAsSerialWithItsTangent(mesh, field, serial, whole.nodes, smooth);
}

}  // namespace
