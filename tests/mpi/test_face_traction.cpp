// SOFA's QuadPressureForceField and TrianglePressureForceField (load.face-traction) on 1, 2 and 3
// ranks: on a 2 x 1 x 1 box of 2 x 2 x 2 hexahedra (27 nodes, faces of 1 x 0.5), the quadrangles
// with four vertices in a box each give a quarter of traction x area to their vertices, whatever
// rank holds them: the four quads of the top face z = 1, and the four interior quads of z = 0.5
// (each a face of two hexahedra, counted once). Worked by hand: a node of such a 3 x 3 plane of
// nodes is a vertex of 1 (corner), 2 (edge middle) or 4 (centre) quads, so it gets t 0.5 / 4
// times that count. The same box cut into tetrahedra has 8 triangles on each plane (each quad
// cut in two), whose forces sum to t x 2 (the plane's area), on the plane's 9 nodes only.
#include <gtest/gtest.h>

#include <map>

#include "eis/core/error.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/face_traction.hpp"
#include "mpi_support.hpp"

namespace {

eis::Selection slab(double z) {
  return eis::Selection::ofBox(eis::Box::fromCorners({-1, -1, z - 0.01, 3, 2, z + 0.01}));
}

eis_test::SceneFields hexBox(eis::CellType type) {
  eis_test::SceneFields scene;
  scene.boxSize = {2, 1, 1};
  scene.boxCells = {2, 2, 2};
  scene.cellType = type;
  return scene;
}

TEST(FaceTraction, GivesAQuarterOfTractionTimesAreaToEachVertexOnce) {
  const eis::DistributedMesh mesh(PETSC_COMM_WORLD,
                                  eis_test::boxOnRankZero(hexBox(eis::CellType::Hexahedron)), 3, 0);
  const eis::FaceTraction field(mesh, {{{0, 0, -2}, slab(1), "load.face-traction", "top"},
                                       {{1, 0, 0}, slab(0.5), "load.face-traction", "middle"}});
  EXPECT_EQ(field.facesPerLoad(), (std::vector<std::int64_t>{4, 4}));
  PetscInt owned = 0;
  for (std::size_t v = 0; v < mesh.numLocalVertices(); ++v) owned += mesh.owned()[v];
  std::vector<double> f(std::size_t(3 * owned), 0.0);
  field.addNodalForce(f.data());
  std::vector<double> mine;
  for (std::size_t v = 0; v < mesh.numLocalVertices(); ++v)
    if (mesh.owned()[v]) {
      const PetscInt o = mesh.ownedOffset(PetscInt(v));
      mine.insert(mine.end(), {double(mesh.nodeIds()[v]), f[o], f[o + 1], f[o + 2]});
    }
  const std::vector<double> all = eis_test::allGather(mine, mesh.comm());
  ASSERT_EQ(all.size(), 27u * 4);
  std::map<int, std::array<double, 3>> byId;
  for (std::size_t i = 0; i < all.size(); i += 4)
    byId[int(all[i])] = {all[i + 1], all[i + 2], all[i + 3]};
  for (const auto& [id, force] : byId) {
    const int i = id % 3, j = id / 3 % 3, k = id / 9;
    const double quads = (i == 1 ? 2 : 1) * (j == 1 ? 2 : 1);
    const std::array<double, 3> expected{k == 1 ? 0.125 * quads : 0, 0, k == 2 ? -0.25 * quads : 0};
    for (int d = 0; d < 3; ++d) EXPECT_DOUBLE_EQ(force[d], expected[d]) << "node " << id;
  }
}

TEST(FaceTraction, GivesAThirdOfTractionTimesAreaOnTetrahedraFaces) {
  const eis::DistributedMesh mesh(
      PETSC_COMM_WORLD, eis_test::boxOnRankZero(hexBox(eis::CellType::Tetrahedron)), 3, 0);
  const eis::FaceTraction field(mesh, {{{0, 0, -2}, slab(1), "load.face-traction", "top"},
                                       {{1, 0, 0}, slab(0.5), "load.face-traction", "middle"}});
  EXPECT_EQ(field.facesPerLoad(), (std::vector<std::int64_t>{8, 8}));
  PetscInt owned = 0;
  for (std::size_t v = 0; v < mesh.numLocalVertices(); ++v) owned += mesh.owned()[v];
  std::vector<double> f(std::size_t(3 * owned), 0.0);
  field.addNodalForce(f.data());
  std::vector<double> mine;
  for (std::size_t v = 0; v < mesh.numLocalVertices(); ++v)
    if (mesh.owned()[v]) {
      const PetscInt o = mesh.ownedOffset(PetscInt(v));
      mine.insert(mine.end(), {double(mesh.nodeIds()[v]), f[o], f[o + 1], f[o + 2]});
    }
  const std::vector<double> all = eis_test::allGather(mine, mesh.comm());
  ASSERT_EQ(all.size(), 27u * 4);
  double sum[3] = {0, 0, 0};
  for (std::size_t i = 0; i < all.size(); i += 4) {
    const int k = int(all[i]) / 9;
    EXPECT_EQ(all[i + 1] != 0, k == 1) << "node " << all[i];
    EXPECT_EQ(all[i + 3] != 0, k == 2) << "node " << all[i];
    EXPECT_EQ(all[i + 2], 0.0);
    for (int d = 0; d < 3; ++d) sum[d] += all[i + 1 + d];
  }
  EXPECT_NEAR(sum[0], 2, 1e-14);
  EXPECT_NEAR(sum[2], -4, 1e-14);
}

}  // namespace
