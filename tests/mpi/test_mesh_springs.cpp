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
  for (const auto& t : mesh.cells)
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b) edges.insert(std::minmax(t[a], t[b]));
  return edges;
}

// Every rank's owned edges as node-id pairs, gathered on every rank (duplicates kept).
EdgeList gatherOwnedEdges(const eis::DistributedMesh& mesh) {
  std::vector<std::int64_t> mine;
  for (const auto& e : mesh.ownedCellPairs()) {
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
// tangent is exact), through addMBKv and through the assembled matrix (free rows); the damping
// force is in f and not in the matrix.
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
    // The springs' damping is in f (linear in v: a large step is exact) and, as in SOFA's
    // SpringForceField, not in the step's matrix: B is zero, matrix-free and assembled.
    derivative(v, v, 1e-2);
    PetscReal dampingForce = 0, bNorm = 0;
    EIS_CHECK(VecNorm(fd, NORM_INFINITY, &dampingForce));
    EXPECT_GT(dampingForce, 1e-3) << "the damping force";
    VecZeroEntries(product);
    m.system->addMBKv(product, 0.0, 1.0, 0.0, dx);
    EIS_CHECK(VecNorm(product, NORM_INFINITY, &bNorm));
    EXPECT_EQ(bNorm, 0.0) << "B";
    // The assembled matrices have their fixed rows and columns replaced: compare projected.
    m.system->projectResponse(dx);
    derivative(x, zero, 1e-6);
    MatMult(m.system->systemMatrix(0.0, 0.0, 1.0), dx, product);
    m.system->projectResponse(product);
    m.system->projectResponse(fd);
    EXPECT_LT(relativeGap(fd, product), 1e-6) << "assembled K";
    MatMult(m.system->systemMatrix(0.0, 1.0, 0.0), dx, product);
    m.system->projectResponse(product);
    EIS_CHECK(VecNorm(product, NORM_INFINITY, &bNorm));
    EXPECT_EQ(bNorm, 0.0) << "assembled B";
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

// A scene of springs only (material.model = none, what a SOFA scene with a MeshSpringForceField
// and no FEM maps to): one free corner of a one-cell box, the seven springs of its edges to fixed
// nodes, a uniform mass m and gravity g. One step of SOFA's linearized Euler from rest, by hand:
// (m I + h^2 sum_e ks_e u_e u_e^T) dv = h m g, ks_e = KS / L_e, then x = x0 + h dv.
TEST_F(SpringRuns, ASceneOfSpringsOnlyStepsAsTheSpringsComputedByHand) {
  eis_test::SceneFields scene;
  scene.boxSize = {1, 2, 0.5};
  scene.boxCells = {1, 1, 1};
  scene.material = eis::MaterialModel::None;
  scene.mass = eis::MassType::Uniform;
  scene.springStiffness = 40;
  scene.dt = 0.1;
  scene.steps = 1;
  const double m = 0.5, h = scene.dt, ks = scene.springStiffness;
  scene.extra = {{"mass.vertex-mass", "0.5"}, {"constraint.fixed", "indices 0 1 2 3 4 5 6"}};
  const std::array<double, 3> corner =
      scene.boxSize;  // node 7, the one every cell's diagonal ends at
  double A[3][3] = {{m, 0, 0}, {0, m, 0}, {0, 0, m}};
  for (std::int64_t id = 0; id < 7; ++id) {
    const auto p = eis_test::boxRestPosition(scene.boxSize, scene.boxCells, id);
    const double d[3] = {corner[0] - p[0], corner[1] - p[1], corner[2] - p[2]};
    const double length = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        A[i][j] += h * h * (ks / length) * d[i] * d[j] / (length * length);
  }
  double b[3];
  for (int i = 0; i < 3; ++i) b[i] = h * m * scene.gravity[i];
  // Cramer's rule for the 3 x 3 system A dv = b.
  const auto det = [](const double M[3][3]) {
    return M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) -
           M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
           M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0]);
  };
  const double D = det(A);
  const eis::NodalTable state = run(scene, PETSC_COMM_WORLD);
  if (!eis_test::root()) return;
  const double* row = state.find(7);
  ASSERT_NE(row, nullptr);
  for (int c = 0; c < 3; ++c) {
    double Ac[3][3];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) Ac[i][j] = j == c ? b[i] : A[i][j];
    const double dv = det(Ac) / D;
    EXPECT_NEAR(row[3 + c], dv, 1e-12 * std::abs(h * 9.81)) << "velocity " << c;
    EXPECT_NEAR(row[c], corner[c] + h * dv, 1e-12) << "position " << c;
  }
  // The fixed nodes stay where they are.
  const double* origin = state.find(0);
  ASSERT_NE(origin, nullptr);
  EXPECT_EQ(origin[0], 0.0);
}

}  // namespace
