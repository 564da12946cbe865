// Mesh springs on 1, 2 and 3 ranks: every edge of the mesh is one spring on one rank (also after
// refinement), their energy is counted once, K and B of elastic solid + springs equal finite
// differences of the distributed force, and a run ends in the serial run's state.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <utility>

#include "eis/app/simulation.hpp"
#include "eis/mesh/box_mesh.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/mechanical_system.hpp"

namespace {

using EdgeSet = std::set<std::pair<std::int64_t, std::int64_t>>;
using EdgeList = std::vector<std::pair<std::int64_t, std::int64_t>>;

int rankOf(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

eis::Scene springBox() {
  eis::Scene scene;
  scene.boxSize = {4, 1, 1};
  scene.boxCells = {6, 2, 2};
  scene.fixedBoxes = {{{0, 0, 0}, {0, 1, 1}}};
  scene.youngModulus = 2e3;
  scene.springStiffness = 400;
  scene.springDamping = 3;
  scene.steps = 6;
  return scene;
}

eis::SerialMesh boxOnRankZero(const eis::Scene& scene) {
  return rankOf(PETSC_COMM_WORLD) == 0 ? eis::makeBoxMesh(scene.boxSize, scene.boxCells)
                                       : eis::SerialMesh{};
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
  int size;
  MPI_Comm_size(mesh.comm(), &size);
  int count = int(mine.size());
  std::vector<int> counts(size), displs(size);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, mesh.comm());
  int total = 0;
  for (int r = 0; r < size; ++r) displs[r] = total, total += counts[r];
  std::vector<std::int64_t> all(total);
  MPI_Allgatherv(mine.data(), count, MPI_INT64_T, all.data(), counts.data(), displs.data(),
                 MPI_INT64_T, mesh.comm());
  EdgeList edges;
  for (int i = 0; i < total; i += 2) edges.emplace_back(all[i], all[i + 1]);
  return edges;
}

TEST(Springs, EveryEdgeIsOwnedByExactlyOneRank) {
  const eis::Scene scene = springBox();
  const auto box = boxOnRankZero(scene);
  const auto expected = serialEdges(eis::makeBoxMesh(scene.boxSize, scene.boxCells));
  for (int refine : {0, 1}) {
    SCOPED_TRACE(refine);
    const eis::DistributedMesh mesh(PETSC_COMM_WORLD, box, 3, refine);
    const auto owned = gatherOwnedEdges(mesh);
    const EdgeSet unique(owned.begin(), owned.end());
    EXPECT_EQ(unique.size(), owned.size()) << "an edge owned twice";
    if (refine == 0) EXPECT_EQ(unique, expected);
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

struct Model {
  explicit Model(const eis::Scene& s) : scene(s) {
    mesh = std::make_unique<eis::DistributedMesh>(PETSC_COMM_WORLD, boxOnRankZero(scene), 3, 0);
    system = std::make_unique<eis::MechanicalSystem>(*mesh, scene, std::vector<int>{});
  }
  // A smooth field of the rest coordinates, the same whatever the rank count.
  static eis::Vec3 at(const eis::Vec3& p, double a, double b, double c) {
    eis::Vec3 w;
    for (int d = 0; d < 3; ++d)
      w[d] = std::sin(a * p[0] + b * p[1] + c * p[2] + d) * (0.2 + 0.1 * p[0]);
    return w;
  }
  Vec field(double a, double b, double c) {
    Vec v = system->createVector();
    PetscScalar* values;
    VecGetArray(v, &values);
    for (std::size_t n = 0; n < mesh->numLocalVertices(); ++n) {
      if (!mesh->owned()[n]) continue;
      const auto w = at(mesh->restCoords()[n], a, b, c);
      for (int d = 0; d < 3; ++d) values[mesh->ownedOffset(PetscInt(n)) + d] = w[d];
    }
    VecRestoreArray(v, &values);
    return v;
  }
  eis::Scene scene;
  std::unique_ptr<eis::DistributedMesh> mesh;
  std::unique_ptr<eis::MechanicalSystem> system;
};

double relativeGap(Vec a, Vec b) {
  Vec d;
  VecDuplicate(a, &d);
  VecWAXPY(d, -1.0, a, b);
  PetscReal gap, size;
  VecNorm(d, NORM_INFINITY, &gap);
  VecNorm(a, NORM_INFINITY, &size);
  VecDestroy(&d);
  return gap / size;
}

// The springs' share of the system's energy is sum ks/2 (l - L0)^2 over the serial mesh's edges,
// ks = stiffness / L0: each edge counted once whatever the rank count.
TEST(Springs, EnergyCountsEveryEdgeOnce) {
  eis::Scene scene = springBox();
  const auto serial = eis::makeBoxMesh(scene.boxSize, scene.boxCells);
  double expected = 0;
  for (const auto& [a, b] : serialEdges(serial)) {
    const auto &p = serial.nodes[a], &q = serial.nodes[b];
    const auto u = Model::at(p, 1.3, 0.7, -0.4), w = Model::at(q, 1.3, 0.7, -0.4);
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
    eis::Scene scene = springBox();
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
      VecAXPY(moved, eps, dx);
      m.system->computeForce(x, velocity, fd);
      VecAXPY(moved, -2 * eps, dx);
      m.system->computeForce(x, velocity, work);
      VecAXPY(moved, eps, dx);
      VecAXPY(fd, -1.0, work);
      VecScale(fd, 1.0 / (2 * eps));
      m.system->computeForce(x, velocity, work);
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
      if (b) derivative(v, v, 1e-2);
      else derivative(x, zero, 1e-6);
      MatMult(m.system->systemMatrix(0.0, b ? 1.0 : 0.0, b ? 0.0 : 1.0), dx, product);
      m.system->projectResponse(product);
      m.system->projectResponse(fd);
      EXPECT_LT(relativeGap(fd, product), b ? 1e-9 : 1e-6) << (b ? "assembled B" : "assembled K");
    }
    for (Vec* w : {&x, &u, &v, &zero, &dx, &fd, &work, &product}) VecDestroy(w);
  }
}

// Largest difference over nodes and components divided by the largest displacement (DESIGN.md),
// on rank 0, shared with every rank.
double disagreement(const eis::NodalTable& reference, const eis::NodalTable& other,
                    const eis::Scene& scene) {
  double result = 0;
  if (rankOf(PETSC_COMM_WORLD) == 0) {
    EXPECT_EQ(reference.ids, other.ids);
    const auto box = eis::makeBoxMesh(scene.boxSize, scene.boxCells);
    double difference = 0, displacement = 0;
    for (std::size_t n = 0; n < reference.ids.size() && n < other.ids.size(); ++n)
      for (int c = 0; c < reference.width; ++c) {
        const double value = reference.values[n * reference.width + c];
        difference = std::max(difference, std::fabs(value - other.values[n * other.width + c]));
        if (c < 3)
          displacement = std::max(displacement, std::fabs(value - box.nodes[reference.ids[n]][c]));
      }
    result = difference / displacement;
  }
  MPI_Bcast(&result, 1, MPI_DOUBLE, 0, PETSC_COMM_WORLD);
  return result;
}

eis::NodalTable run(const eis::Scene& scene, MPI_Comm comm) {
  eis::Simulation simulation(scene, comm, nullptr);
  simulation.run();
  return simulation.gatherState();
}

// The reference runs on rank 0 alone.
eis::NodalTable serialReference(const eis::Scene& scene) {
  MPI_Comm self;
  MPI_Comm_split(PETSC_COMM_WORLD, rankOf(PETSC_COMM_WORLD) == 0 ? 0 : MPI_UNDEFINED, 0, &self);
  eis::NodalTable reference;
  if (self != MPI_COMM_NULL) {
    reference = run(scene, self);
    MPI_Comm_free(&self);
  }
  return reference;
}

class TightSpringSolves : public ::testing::Test {
protected:
  void SetUp() override { PetscOptionsSetValue(nullptr, "-ksp_rtol", "1e-13"); }
  void TearDown() override { PetscOptionsClearValue(nullptr, "-ksp_rtol"); }
};

TEST_F(TightSpringSolves, EveryRankCountGivesTheSerialFinalState) {
  for (auto model : {eis::MaterialModel::Linear, eis::MaterialModel::Corotational}) {
    SCOPED_TRACE(int(model));
    eis::Scene scene = springBox();
    scene.material = model;
    EXPECT_LT(disagreement(serialReference(scene), run(scene, PETSC_COMM_WORLD), scene), 1e-10);
  }
}

}  // namespace
