// The built-in box follows docs/architecture.md's numbering and split, node for node.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "eis/core/tetra_geometry.hpp"
#include "eis/mesh/box_mesh.hpp"

namespace {

TEST(BoxMesh, NodesAreNumberedXFastestWithExactCoordinates) {
  const auto mesh = eis::makeBoxMesh({10, 1, 2}, {5, 2, 4});
  ASSERT_EQ(mesh.nodes.size(), 6u * 3u * 5u);
  for (int k = 0; k <= 4; ++k)
    for (int j = 0; j <= 2; ++j)
      for (int i = 0; i <= 5; ++i) {
        const auto& p = mesh.nodes[i + 6 * (j + 3 * k)];
        EXPECT_EQ(p[0], i * 10.0 / 5);
        EXPECT_EQ(p[1], j * 1.0 / 2);
        EXPECT_EQ(p[2], k * 2.0 / 4);
      }
}

TEST(BoxMesh, SixPositiveTetrahedraPerHexAroundTheMainDiagonal) {
  const auto mesh = eis::makeBoxMesh({2, 3, 4}, {2, 2, 2});
  ASSERT_EQ(mesh.cells.size(), 6u * 8u);
  double volume = 0;
  for (const auto& t : mesh.cells) {
    const eis::TetraShape shape(mesh.nodes[t[0]], mesh.nodes[t[1]], mesh.nodes[t[2]],
                                mesh.nodes[t[3]]);
    EXPECT_GT(shape.signedVolume, 0);
    volume += shape.volume;
  }
  EXPECT_NEAR(volume, 24.0, 1e-12);
  // First hex (i=j=k=0): v0 = 0, v6 = node (1,1,1) = 1 + 3*(1 + 3*1) = 13; first tet (v0,v1,v2,v6)
  // with v1 = 1, v2 = 4, possibly with its 2nd and 3rd vertices swapped for orientation.
  const auto& first = mesh.cells[0];
  EXPECT_EQ(first[0], 0);
  EXPECT_EQ(first[3], 13);
  EXPECT_TRUE((first[1] == 1 && first[2] == 4) || (first[1] == 4 && first[2] == 1));
  // The second cell in the list is i = 1 (i fastest): its tets start at node 1.
  EXPECT_EQ(mesh.cells[6][0], 1);
}

// As SOFA's RegularGridTopology numbers a grid's hexahedra (x fastest) and each one's vertices:
// (i,j,k) (i+1,j,k) (i+1,j+1,k) (i,j+1,k), then the same at k+1.
TEST(BoxMesh, HexahedraAreSofasGridCells) {
  const auto mesh = eis::makeBoxMesh({2, 3, 4}, {2, 3, 4}, eis::CellType::Hexahedron);
  ASSERT_EQ(mesh.cells.type(), eis::CellType::Hexahedron);
  ASSERT_EQ(mesh.cells.size(), 24u);
  ASSERT_EQ(mesh.cellTags.size(), 24u);
  const auto node = [](int i, int j, int k) { return std::int64_t(i + 3 * (j + 4 * k)); };
  std::size_t c = 0;
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 2; ++i, ++c) {
        const auto cell = mesh.cells[c];
        const std::vector<std::int64_t> got(cell.begin(), cell.end());
        EXPECT_EQ(got, (std::vector<std::int64_t>{
                           node(i, j, k), node(i + 1, j, k), node(i + 1, j + 1, k),
                           node(i, j + 1, k), node(i, j, k + 1), node(i + 1, j, k + 1),
                           node(i + 1, j + 1, k + 1), node(i, j + 1, k + 1)}))
            << "cell " << c;
      }
}

}  // namespace
