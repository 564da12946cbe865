// SOFA's MeshSpringForceField on hexahedra, on 1, 2 and 3 ranks: its cubes springs join every two
// vertices of a hexahedron (k < j over the 8, one spring a pair however many cells share it), so
// the springs are the mesh's edges, the two diagonals of every face and the four of every cell,
// each on one rank; K of the hexahedral solid with springs equals finite differences of the
// distributed force; and runs with the springs and each hexahedral mass end in the serial state.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "eis/mesh/box_mesh.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/mechanical_system.hpp"
#include "mpi_support.hpp"

namespace {

using PairSet = std::set<std::pair<std::int64_t, std::int64_t>>;

eis_test::SceneFields hexSpringBox() {
  eis_test::SceneFields scene = eis_test::cantilever({3, 1, 1}, {3, 2, 2}, 2e3);
  scene.cellType = eis::CellType::Hexahedron;
  scene.springStiffness = 400;
  scene.springDamping = 3;
  scene.steps = 5;
  return scene;
}

// Every rank's springs as node-id pairs, gathered on every rank; `count` is how many there were
// with repeats.
PairSet gatherPairs(const eis::DistributedMesh& mesh, std::size_t& count) {
  std::vector<std::int64_t> mine;
  for (const auto& e : mesh.ownedCellPairs()) {
    const auto& cell = mesh.cells()[e.cell];
    const auto ends = std::minmax(mesh.nodeIds()[cell[e.a]], mesh.nodeIds()[cell[e.b]]);
    mine.insert(mine.end(), {ends.first, ends.second});
  }
  const std::vector<std::int64_t> all = eis_test::allGather(mine, mesh.comm());
  PairSet pairs;
  for (std::size_t i = 0; i < all.size(); i += 2) pairs.emplace(all[i], all[i + 1]);
  count = all.size() / 2;
  return pairs;
}

// Counted by hand on the nx x ny x nz = 3 x 2 x 2 box: edges along x 3*3*3 = 27, along y 4*2*3 =
// 24, along z 4*3*2 = 24 (75); faces 3*2*3 + 3*3*2 + 4*2*2 = 52, two diagonals each (104); four
// diagonals in each of the 12 cells (48): 227 springs. And 3 x 1 x 1: edges 12 + 8 + 8, faces
// 6 + 6 + 4 (32 diagonals), 12 body diagonals: 72.
TEST(HexahedralSprings, EveryPairOfACellIsOneSpringOnOneRank) {
  for (const auto& [cells, expected] :
       {std::pair<std::array<int, 3>, std::size_t>{{3, 2, 2}, 227}, {{3, 1, 1}, 72}}) {
    eis_test::SceneFields scene = hexSpringBox();
    scene.boxCells = cells;
    const eis::DistributedMesh mesh(PETSC_COMM_WORLD, eis_test::boxOnRankZero(scene), 3, 0);
    std::size_t count = 0;
    const PairSet owned = gatherPairs(mesh, count);
    EXPECT_EQ(count, owned.size()) << "a pair owned twice";
    EXPECT_EQ(owned.size(), expected);
    // SOFA's rule on the serial mesh: k < j over each hexahedron's 8 vertices, a set of pairs.
    PairSet sofa;
    for (const auto& h : eis::makeBoxMesh(scene.boxSize, cells, eis::CellType::Hexahedron).cells)
      for (int k = 0; k < 8; ++k)
        for (int j = k + 1; j < 8; ++j) sofa.insert(std::minmax(h[k], h[j]));
    EXPECT_EQ(owned, sofa);
  }
}

// The kinds SOFA's RegularGridSpringForceField gives each its own constants, counted by hand on
// the 3 x 1 x 1 box: 28 edges, 32 face diagonals (two on each of 16 faces), 12 body diagonals.
TEST(HexahedralSprings, PairsKnowTheirKind) {
  eis_test::SceneFields scene = hexSpringBox();
  scene.boxCells = {3, 1, 1};
  const eis::DistributedMesh mesh(PETSC_COMM_WORLD, eis_test::boxOnRankZero(scene), 3, 0);
  std::vector<std::int64_t> counts(3, 0);
  for (const auto& e : mesh.ownedCellPairs()) ++counts[std::size_t(e.kind)];
  const std::vector<std::int64_t> total = eis_test::allGather(counts, mesh.comm());
  std::vector<std::int64_t> sum(3, 0);
  for (std::size_t i = 0; i < total.size(); ++i) sum[i % 3] += total[i];
  EXPECT_EQ(sum, (std::vector<std::int64_t>{28, 32, 12}));
}

// The springs' energy, sum ks/2 (l - L0)^2 with ks = K / L0 and K the constant of the pair's kind
// (springs.stiffness-by-kind), over SOFA's pairs of the serial box, a pair's kind read from how
// many grid directions its two nodes differ in (1: an edge, 2: a face diagonal, 3: the body's).
TEST(HexahedralSprings, EnergyByKindCountsEveryPairOnce) {
  eis_test::SceneFields scene = hexSpringBox();
  scene.springStiffness = scene.springDamping = 0;
  const double constant[3] = {300, 200, 100};
  const auto serial = eis::makeBoxMesh(scene.boxSize, scene.boxCells, eis::CellType::Hexahedron);
  PairSet pairs;
  for (const auto& h : serial.cells)
    for (int k = 0; k < 8; ++k)
      for (int j = k + 1; j < 8; ++j) pairs.insert(std::minmax(h[k], h[j]));
  const int nx = scene.boxCells[0] + 1, ny = scene.boxCells[1] + 1;
  double expected = 0;
  for (const auto& [a, b] : pairs) {
    const int directions =
        (a % nx != b % nx) + (a / nx % ny != b / nx % ny) + (a / (nx * ny) != b / (nx * ny));
    const auto &p = serial.nodes[a], &q = serial.nodes[b];
    const auto u = eis_test::BoxModel::smooth(p, 0.13, 0.07, -0.04),
               w = eis_test::BoxModel::smooth(q, 0.13, 0.07, -0.04);
    double rest = 0, now = 0;
    for (int d = 0; d < 3; ++d) {
      rest += (q[d] - p[d]) * (q[d] - p[d]);
      now += (q[d] + w[d] - p[d] - u[d]) * (q[d] + w[d] - p[d] - u[d]);
    }
    const double restLength = std::sqrt(rest), elongation = std::sqrt(now) - restLength;
    expected += constant[directions - 1] / restLength * elongation * elongation / 2;
  }
  double energies[2];
  for (int withSprings : {1, 0}) {
    if (withSprings)
      scene.extra = {{"springs.stiffness-by-kind", "300 200 100"}};
    else
      scene.extra.clear();
    eis_test::BoxModel m(scene);
    Vec x = m.system->createVector(), u = m.field(0.13, 0.07, -0.04);
    m.system->setRestState(x);
    VecAXPY(x, 1.0, u);
    energies[withSprings] = m.system->potentialEnergy(x);
    for (Vec* v : {&x, &u}) VecDestroy(v);
  }
  EXPECT_GT(expected, 1e-3);
  EXPECT_NEAR(energies[1] - energies[0], expected, 1e-10 * expected);
}

// Directional derivatives of the distributed force (the springs alone, and with HexahedronFEM
// small, whose K is exact; SOFA's corotated K is not the derivative) against K (at v = 0, where
// SOFA's spring tangent is exact), through addMBKv and the assembled matrix (free rows); the
// springs' damping is in the force and, as in SOFA, not in the matrix (B = 0).
TEST(HexahedralSprings, TangentsEqualFiniteDifferences) {
  for (auto model : {eis::MaterialModel::None, eis::MaterialModel::Linear}) {
    SCOPED_TRACE(int(model));
    eis_test::SceneFields scene = hexSpringBox();
    scene.material = model;
    eis_test::BoxModel m(scene);
    Vec x = m.system->createVector(), u = m.field(0.13, 0.07, -0.04), v = m.field(-0.5, 1.1, 0.9),
        dx = m.field(0.9, -1.7, 0.6), zero = m.system->createVector(),
        fd = m.system->createVector(), work = m.system->createVector(),
        product = m.system->createVector();
    m.system->setRestState(x);
    VecAXPY(x, 1.0, u);
    VecZeroEntries(zero);
    m.forceDifference(x, zero, x, dx, 1e-6, fd, work);
    VecZeroEntries(product);
    m.system->addMBKv(product, 0.0, 0.0, 1.0, dx);
    EXPECT_LT(eis_test::relativeGap(fd, product), 1e-6) << "K";
    m.system->projectResponse(dx);
    m.forceDifference(x, zero, x, dx, 1e-6, fd, work);
    MatMult(m.system->systemMatrix(0.0, 0.0, 1.0), dx, product);
    m.system->projectResponse(product);
    m.system->projectResponse(fd);
    EXPECT_LT(eis_test::relativeGap(fd, product), 1e-6) << "assembled K";
    // The springs' damping is in f (linear in v: a large step is exact), but, as in SOFA, not in
    // the step's matrix: its B is zero.
    m.forceDifference(x, v, v, dx, 1e-2, fd, work);
    MatMult(m.system->systemMatrix(0.0, 1.0, 0.0), dx, product);
    m.system->projectResponse(product);
    m.system->projectResponse(fd);
    PetscReal dampingForce = 0, b = 0;
    VecNorm(fd, NORM_INFINITY, &dampingForce);
    VecNorm(product, NORM_INFINITY, &b);
    EXPECT_GT(dampingForce, 1e-3) << "the damping force";
    EXPECT_EQ(b, 0.0) << "assembled B";
    for (Vec* w : {&x, &u, &v, &zero, &dx, &fd, &work, &product}) VecDestroy(w);
  }
}

class HexahedralRuns : public ::testing::Test {
protected:
  eis_test::TightSolveOptions tight_{eis_test::Tighten::Linear};
};

TEST_F(HexahedralRuns, EveryRankCountGivesTheSerialFinalState) {
  for (auto mass : {eis::MassType::Lumped, eis::MassType::Consistent, eis::MassType::HexahedronFem,
                    eis::MassType::HexahedronFemLumped}) {
    SCOPED_TRACE(eis::parse::nameOf(mass, eis::kMassTypes));
    eis_test::SceneFields scene = hexSpringBox();
    scene.material = eis::MaterialModel::Corotational;
    scene.mass = mass;
    scene.density = 2.5;
    EXPECT_LT(eis_test::disagreement(eis_test::serialReference(scene),
                                     eis_test::run(scene, PETSC_COMM_WORLD), scene),
              1e-10);
  }
}

// RegularGridSpringForceField's constants by kind: one state on every rank count too.
TEST_F(HexahedralRuns, SpringsByKindGiveTheSerialFinalState) {
  eis_test::SceneFields scene = hexSpringBox();
  scene.springStiffness = scene.springDamping = 0;
  scene.extra = {{"springs.stiffness-by-kind", "300 200 100"},
                 {"springs.damping-by-kind", "3 2 1"}};
  EXPECT_LT(eis_test::disagreement(eis_test::serialReference(scene),
                                   eis_test::run(scene, PETSC_COMM_WORLD), scene),
            1e-10);
}

}  // namespace
