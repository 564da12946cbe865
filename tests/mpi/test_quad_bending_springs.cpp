// SOFA's QuadBendingSprings (model/quad_bending_springs) on 1, 2 and 3 ranks: the springs of a
// patch of 2 x 2 quadrangles against the list worked out by hand from SOFA's rules; a spring
// across quadrangles of two ranks against its force by hand; a sheet whose quadrangles are
// dealt to the ranks in turn against one serial evaluation of the same springs, and its tangent
// against central differences of its force.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "eis/mesh/boundary_faces.hpp"
#include "eis/model/boundary_bending_springs.hpp"
#include "eis/model/quad_bending_springs.hpp"
#include "eis/model/triangular_bending_springs.hpp"
#include "mpi_support.hpp"
#include "spread_springs.hpp"

namespace {

using eis_test::force;
using eis_test::localOf;
using eis_test::summed;

// A sheet of nx x ny unit squares in z = 0, its quadrangles as GridTopology::updateQuads lists
// them: (x,y) (x+1,y) (x+1,y+1) (x,y+1), x fastest.
eis::SerialMesh sheet(int nx, int ny) {
  eis::SerialMesh mesh;
  mesh.cells = eis::SerialCells(eis::CellType::Quadrangle);
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) mesh.nodes.push_back({double(i), double(j), 0});
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const std::int64_t a = (nx + 1) * j + i;
      mesh.cells.push_back({a, a + 1, a + nx + 2, a + nx + 1});
    }
  mesh.cellTags.assign(mesh.cells.size(), 0);
  return mesh;
}

std::vector<eis::QuadIds> quadsOf(const eis::SerialMesh& mesh) {
  std::vector<eis::QuadIds> quads;
  for (std::size_t c = 0; c < mesh.cells.size(); ++c)
    quads.push_back({mesh.cells[c][0], mesh.cells[c][1], mesh.cells[c][2], mesh.cells[c][3]});
  return quads;
}

TEST(QuadBendingSprings, PairsOfATwoByTwoPatchAsSofaAddsThem) {
  // Nodes 6 7 8 / 3 4 5 / 0 1 2; quadrangles (0 1 4 3), (1 2 5 4), (3 4 7 6), (4 5 8 7).
  // The first meets its four edges first. The second meets 1-4, recorded by the first with the
  // pair (0 3) (0 beside 1, 3 beside 4): springs (2, 0) and (5, 3). The third meets 3-4, pair
  // (0 1): (6, 0), (7, 1). The fourth meets 4-5, recorded by the second with (1 2): (7, 1)
  // again, left out, and (8, 2); then 4-7, recorded by the third with (3 6): (5, 3) again, left
  // out, and (8, 6).
  const std::vector<eis::SpringIds> expected{{2, 0}, {5, 3}, {6, 0}, {7, 1}, {8, 2}, {8, 6}};
  EXPECT_EQ(eis::quadBendingPairs(quadsOf(sheet(2, 2))), expected);
  // The same quadrangles each started at another corner, and the last one reversed: the edges
  // are met in another order, the springs join the same vertices.
  const std::vector<eis::QuadIds> turned{{1, 4, 3, 0}, {5, 4, 1, 2}, {7, 6, 3, 4}, {7, 8, 5, 4}};
  std::vector<eis::SpringIds> sorted;
  for (auto s : eis::quadBendingPairs(turned))
    sorted.push_back({std::min(s[0], s[1]), std::max(s[0], s[1])});
  std::sort(sorted.begin(), sorted.end());
  const std::vector<eis::SpringIds> joined{{0, 2}, {0, 6}, {1, 7}, {2, 8}, {3, 5}, {6, 8}};
  EXPECT_EQ(sorted, joined);
}

TEST(QuadBendingSprings, OneSpringAcrossRanksByHand) {
  // The patch's quadrangles on ranks 0, 1, 2, 0 (as many as there are). Node 1 lifted to
  // (1 0 1): the spring (7, 1), rest length 2, now sqrt(5): f_7 = ks (sqrt(5) - 2) u = -f_1,
  // u = (x_1 - x_7) / sqrt(5) = (0 -2 1) / sqrt(5); the other springs keep their length.
  const eis::SerialMesh whole = sheet(2, 2);
  const int size = eis_test::sizeOf(PETSC_COMM_WORLD);
  const std::vector<int> parts{0, 1 % size, 2 % size, 0};
  const eis::DistributedMesh mesh(PETSC_COMM_WORLD, eis_test::root() ? whole : eis::SerialMesh{}, 3,
                                  0, &parts);
  const double ks = 20;
  eis::BoundaryBendingSprings field(mesh, eis::quadBendingPairs(quadsOf(whole)), ks, 0.5, 1e-9);
  EXPECT_EQ(field.globalCount(), 6);
  std::vector<double> x;
  for (const auto& p : whole.nodes) x.insert(x.end(), p.begin(), p.end());
  x[3 * 1 + 2] = 1;
  const std::vector<double> f = force(mesh, field, x, std::vector<double>(27, 0.0), 9);
  const double F = ks * (std::sqrt(5.0) - 2) / std::sqrt(5.0);
  const double u[3] = {0, -2, 1};
  for (std::size_t i = 0; i < 27; ++i) {
    const double expected = i / 3 == 7 ? F * u[i % 3] : i / 3 == 1 ? -F * u[i % 3] : 0.0;
    EXPECT_NEAR(f[i], expected, 1e-13) << i;
  }
}

eis::Vec3 smooth(const eis::Vec3& p, double a, double b, double c) {
  return {a * std::sin(0.3 * p[0] + 0.1 * p[1]), b * std::cos(0.2 * p[0] - 0.25 * p[1]),
          c * std::sin(0.2 * p[0] * p[1] + 0.3)};
}

TEST(QuadBendingSprings, SheetOnRanksAsOneSerialFieldAndItsTangent) {
  const eis::SerialMesh whole = sheet(5, 4);
  const int size = eis_test::sizeOf(PETSC_COMM_WORLD);
  std::vector<int> parts;
  for (std::size_t c = 0; c < whole.cells.size(); ++c) parts.push_back(int(c / 3 + c) % size);
  const eis::DistributedMesh mesh(PETSC_COMM_WORLD, eis_test::root() ? whole : eis::SerialMesh{}, 3,
                                  0, &parts);
  const auto pairs = eis::quadBendingPairs(quadsOf(whole));
  // Each inner edge gives the two straight springs across it, 2 long, each shared with the next
  // edge along the line: along the 5 rows of nodes 4 each, along the 6 columns 3 each.
  EXPECT_EQ(pairs.size(), 38u);
  eis::BoundaryBendingSprings field(mesh, pairs, 300, 2, 1e-9);
  std::vector<eis::BendingSpring> springs;
  for (const auto& [a, b] : pairs) {
    const auto& p = whole.nodes[std::size_t(a)];
    const auto& q = whole.nodes[std::size_t(b)];
    springs.push_back({PetscInt(a), PetscInt(b),
                       std::sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]))});
    EXPECT_EQ(springs.back().restLength, 2.0);
  }
  eis::TriangularBendingSprings serial(springs, 300, 2, 1e-9);
  EXPECT_EQ(field.globalCount(), std::int64_t(pairs.size()));

  eis_test::expectAsSerialWithItsTangent(mesh, field, serial, whole.nodes, smooth);
}

// The springs of `triangles`, each as its two node ids sorted, in sorted order.
std::vector<eis::SpringIds> joined(const std::vector<eis::Triangle>& triangles,
                                   const std::vector<eis::Vec3>& rest) {
  std::vector<eis::SpringIds> pairs;
  for (const auto& s : eis::bendingSprings(triangles, rest))
    pairs.push_back({std::min<std::int64_t>(s.a, s.b), std::max<std::int64_t>(s.a, s.b)});
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

TEST(QuadBendingSprings, GridOrderCutsTheBoundaryAsTheHexahedraDo) {
  // A Hexa2QuadTopologicalMapping of a RegularGridTopology lists the boundary quadrangles in
  // GridTopology::updateQuads's order and vertex order, not HexahedronSetTopologyContainer's
  // (mesh/boundary_faces); Quad2TriangleTopologicalMapping cuts each along q0-q2. Either way q0
  // is the quadrangle's smallest vertex, so the triangles, and TriangularBendingSprings' springs,
  // are the same (io/sofa_boundary_faces accepts the grid for them). Here on 4 x 3 x 2 points.
  const int nx = 4, ny = 3, nz = 2;
  auto point = [&](int x, int y, int z) { return std::int64_t(x + nx * (y + ny * z)); };
  eis::SerialMesh grid;
  grid.cells = eis::SerialCells(eis::CellType::Hexahedron);
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) grid.nodes.push_back({double(x), double(y), double(z)});
  for (int z = 0; z + 1 < nz; ++z)
    for (int y = 0; y + 1 < ny; ++y)
      for (int x = 0; x + 1 < nx; ++x)
        grid.cells.push_back({point(x, y, z), point(x + 1, y, z), point(x + 1, y + 1, z),
                              point(x, y + 1, z), point(x, y, z + 1), point(x + 1, y, z + 1),
                              point(x + 1, y + 1, z + 1), point(x, y + 1, z + 1)});
  grid.cellTags.assign(grid.cells.size(), 0);
  const eis::DistributedMesh mesh(PETSC_COMM_WORLD, eis_test::root() ? grid : eis::SerialMesh{}, 3,
                                  0);
  for (bool flip : {false, true}) {
    std::vector<eis::Triangle> hexahedral;
    for (const auto& t : eis::boundaryTriangles(mesh, flip).nodes)
      hexahedral.push_back({PetscInt(t[0]), PetscInt(t[1]), PetscInt(t[2])});
    // GridTopology::updateQuads: the XY, XZ and YZ planes; those on the grid's outer faces.
    std::vector<eis::QuadIds> quads;
    for (int z = 0; z < nz; ++z)
      for (int y = 0; y + 1 < ny; ++y)
        for (int x = 0; x + 1 < nx; ++x)
          if (z == 0 || z == nz - 1)
            quads.push_back(
                {point(x, y, z), point(x + 1, y, z), point(x + 1, y + 1, z), point(x, y + 1, z)});
    for (int z = 0; z + 1 < nz; ++z)
      for (int y = 0; y < ny; ++y)
        for (int x = 0; x + 1 < nx; ++x)
          if (y == 0 || y == ny - 1)
            quads.push_back(
                {point(x, y, z), point(x + 1, y, z), point(x + 1, y, z + 1), point(x, y, z + 1)});
    for (int z = 0; z + 1 < nz; ++z)
      for (int y = 0; y + 1 < ny; ++y)
        for (int x = 0; x < nx; ++x)
          if (x == 0 || x == nx - 1)
            quads.push_back(
                {point(x, y, z), point(x, y + 1, z), point(x, y + 1, z + 1), point(x, y, z + 1)});
    std::vector<eis::Triangle> gridOrder;
    for (auto q : quads) {
      if (flip) q = {q[3], q[2], q[1], q[0]};
      gridOrder.push_back({PetscInt(q[1]), PetscInt(q[2]), PetscInt(q[0])});
      gridOrder.push_back({PetscInt(q[3]), PetscInt(q[0]), PetscInt(q[2])});
    }
    ASSERT_EQ(gridOrder.size(), hexahedral.size());
    const auto springs = joined(gridOrder, grid.nodes);
    EXPECT_EQ(springs.size(), 3 * gridOrder.size() / 2);  // a closed surface: every edge inner
    EXPECT_EQ(springs, joined(hexahedral, grid.nodes)) << "flip " << flip;
  }
}

}  // namespace
