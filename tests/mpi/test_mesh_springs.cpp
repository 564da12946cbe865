// Mesh springs on 1, 2 and 3 ranks: every edge of the mesh is one spring on one rank (also after
// refinement), their energy is counted once, K and B of elastic solid + springs equal finite
// differences of the distributed force, and a run ends in the serial run's state.
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

using EdgeSet = std::set<std::pair<std::int64_t, std::int64_t>>;
using EdgeList = std::vector<std::pair<std::int64_t, std::int64_t>>;

using Model = eis_test::BoxModel;
using eis_test::boxOnRankZero;
using eis_test::disagreement;
using eis_test::relativeGap;
using eis_test::run;
using eis_test::serialReference;

eis_test::SceneFields springBox() {
  eis_test::SceneFields scene = eis_test::cantilever({4, 1, 1}, {6, 2, 2}, 2e3);
  scene.springStiffness = 400;
  scene.springDamping = 3;
  scene.steps = 6;
  return scene;
}

// The edges of the serial box as sorted pairs of node ids.
EdgeSet serialEdges(const eis::SerialMesh& mesh) {
  EdgeSet edges;
  for (const auto& t : mesh.tets)
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b) edges.insert(std::minmax(t[a], t[b]));
  return edges;
}

// Every rank's owned edges as node-id pairs, gathered on every rank (duplicates kept).
EdgeList gatherOwnedEdges(const eis::DistributedMesh& mesh) {
  std::vector<std::int64_t> mine;
  for (const auto& e : mesh.ownedEdges()) {
    const auto& cell = mesh.cells()[e.cell];
    const auto ends = std::minmax(mesh.nodeIds()[cell[e.a]], mesh.nodeIds()[cell[e.b]]);
    mine.insert(mine.end(), {ends.first, ends.second});
  }
  const std::vector<std::int64_t> all = eis_test::allGather(mine, mesh.comm());
  EdgeList edges;
  for (std::size_t i = 0; i < all.size(); i += 2) edges.emplace_back(all[i], all[i + 1]);
  return edges;
}

TEST(Springs, EveryEdgeIsOwnedByExactlyOneRank) {
  const eis_test::SceneFields scene = springBox();
  const auto box = boxOnRankZero(scene);
  const auto expected = serialEdges(eis::makeBoxMesh(scene.boxSize, scene.boxCells));
  for (int refine : {0, 1}) {
    SCOPED_TRACE(refine);
    const eis::DistributedMesh mesh(PETSC_COMM_WORLD, box, 3, refine);
    const auto owned = gatherOwnedEdges(mesh);
    const EdgeSet unique(owned.begin(), owned.end());
    EXPECT_EQ(unique.size(), owned.size()) << "an edge owned twice";
    if (refine == 0) {
      EXPECT_EQ(unique, expected);
    }
    // Every edge of every local cell is among them.
    const auto& ids = mesh.nodeIds();
    bool covered = true;
    for (const auto& cell : mesh.cells())
      for (int a = 0; a < 4; ++a)
        for (int b = a + 1; b < 4; ++b)
          covered = covered && unique.count(std::minmax(ids[cell[a]], ids[cell[b]])) == 1;
    EXPECT_TRUE(covered);
  }
}

// The springs' share of the system's energy is sum ks/2 (l - L0)^2 over the serial mesh's edges,
// ks = stiffness / L0: each edge counted once whatever the rank count.
TEST(Springs, EnergyCountsEveryEdgeOnce) {
  eis_test::SceneFields scene = springBox();
  const auto serial = eis::makeBoxMesh(scene.boxSize, scene.boxCells);
  double expected = 0;
  for (const auto& [a, b] : serialEdges(serial)) {
    const auto &p = serial.nodes[a], &q = serial.nodes[b];
    const auto u = Model::smooth(p, 1.3, 0.7, -0.4), w = Model::smooth(q, 1.3, 0.7, -0.4);
    double rest = 0, now = 0;
    for (int d = 0; d < 3; ++d) {
      rest += (q[d] - p[d]) * (q[d] - p[d]);
      now += (q[d] + w[d] - p[d] - u[d]) * (q[d] + w[d] - p[d] - u[d]);
    }
    const double restLength = std::sqrt(rest), elongation = std::sqrt(now) - restLength;
    expected += scene.springStiffness / restLength * elongation * elongation / 2;
  }
  double energies[2];
  for (int withSprings : {1, 0}) {
    if (!withSprings) scene.springStiffness = scene.springDamping = 0;
    Model m(scene);
    Vec x = m.system->createVector(), u = m.field(1.3, 0.7, -0.4);
    m.system->setRestState(x);
    VecAXPY(x, 1.0, u);
    energies[withSprings] = m.system->potentialEnergy(x);
    for (Vec* w : {&x, &u}) VecDestroy(w);
  }
  EXPECT_GT(expected, 1.0);
  EXPECT_NEAR(energies[1] - energies[0], expected, 1e-10 * expected);
}

// Directional derivatives of the distributed force against K (at v = 0, where SOFA's spring
// tangent is exact) and B, through addMBKv and through the assembled matrix (free rows).
TEST(Springs, TangentsOfSolidAndSpringsEqualFiniteDifferences) {
  for (auto model : {eis::MaterialModel::Linear, eis::MaterialModel::StVenantKirchhoff}) {
    SCOPED_TRACE(int(model));
    eis_test::SceneFields scene = springBox();
    scene.material = model;
    Model m(scene);
    Vec x = m.system->createVector(), u = m.field(1.3, 0.7, -0.4), v = m.field(-0.5, 1.1, 0.9),
        dx = m.field(0.9, -1.7, 0.6), zero = m.system->createVector(),
        fd = m.system->createVector(), work = m.system->createVector(),
        product = m.system->createVector();
    m.system->setRestState(x);
    VecAXPY(x, 1.0, u);
    VecZeroEntries(zero);
    // (f(moved + eps dx) - f(moved - eps dx)) / 2 eps, then f at (x, velocity) again: the
    // linearization point the tangents use.
    auto derivative = [&](Vec moved, Vec velocity, double eps) {
      m.forceDifference(x, velocity, moved, dx, eps, fd, work);
    };
    derivative(x, zero, 1e-6);
    VecZeroEntries(product);
    m.system->addMBKv(product, 0.0, 0.0, 1.0, dx);
    EXPECT_LT(relativeGap(fd, product), 1e-6) << "K";
    // f is linear in v: a large step is exact for B.
    derivative(v, v, 1e-2);
    VecZeroEntries(product);
    m.system->addMBKv(product, 0.0, 1.0, 0.0, dx);
    EXPECT_LT(relativeGap(fd, product), 1e-9) << "B";
    // The assembled matrices have their fixed rows and columns replaced: compare projected.
    m.system->projectResponse(dx);
    for (bool b : {false, true}) {
      if (b)
        derivative(v, v, 1e-2);
      else
        derivative(x, zero, 1e-6);
      MatMult(m.system->systemMatrix(0.0, b ? 1.0 : 0.0, b ? 0.0 : 1.0), dx, product);
      m.system->projectResponse(product);
      m.system->projectResponse(fd);
      EXPECT_LT(relativeGap(fd, product), b ? 1e-9 : 1e-6) << (b ? "assembled B" : "assembled K");
    }
    for (Vec* w : {&x, &u, &v, &zero, &dx, &fd, &work, &product}) VecDestroy(w);
  }
}

// Tight linear solves: these runs take SOFA's linearized step, which has no nonlinear solve.
class SpringRuns : public ::testing::Test {
protected:
  eis_test::TightSolveOptions tight_{eis_test::Tighten::Linear};
};

TEST_F(SpringRuns, EveryRankCountGivesTheSerialFinalState) {
  for (auto model : {eis::MaterialModel::Linear, eis::MaterialModel::Corotational}) {
    SCOPED_TRACE(int(model));
    eis_test::SceneFields scene = springBox();
    scene.material = model;
    EXPECT_LT(disagreement(serialReference(scene), run(scene, PETSC_COMM_WORLD), scene), 1e-10);
  }
}

}  // namespace
