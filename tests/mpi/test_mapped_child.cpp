// mapped-child (SOFA IdentityMapping, SubsetMapping, BarycentricMapping with masses and force
// fields in the child; model/child_mapping.cpp, model/mapped_child.cpp) on 1, 2 and 3 ranks:
// J and the cell SOFA's rule picks against hand-computed weights, J^T f and J^T K J against a
// reference assembled by hand, the tangent against finite differences of the force, an
// identity-mapped child against the same mass and loads on the body, and any rank count against
// one.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "eis/app/simulation.hpp"
#include "eis/model/mapped_child.hpp"
#include "eis/model/mechanical_system.hpp"
#include "mpi_support.hpp"

namespace {

using Model = eis_test::BoxModel;

// The box 2 x 1 x 1 of 2 x 1 x 1 cells: node id = i + 3 (j + 2 k).
eis_test::SceneFields twoCells(eis::CellType type) {
  eis_test::SceneFields scene = eis_test::cantilever({2, 1, 1}, {2, 1, 1}, 1e3);
  scene.cellType = type;
  scene.mass = eis::MassType::Uniform;
  return scene;
}

// p = (0.7, 0.2, 0.1) lies in the box's first cube, in its tetrahedron (v0, v1, v2, v6)
// (0 <= z <= y <= x <= 1), with weights 1 - x, x - y, y - z, z on nodes 0, 1, 4, 10; in the cube
// itself (a hexahedron) with the trilinear weights of (x, y, z).
std::map<std::int64_t, double> handWeights(eis::CellType type) {
  const double x = 0.7, y = 0.2, z = 0.1;
  if (type == eis::CellType::Tetrahedron) return {{0, 1 - x}, {1, x - y}, {4, y - z}, {10, z}};
  std::map<std::int64_t, double> w;
  const std::int64_t ids[8] = {0, 1, 4, 3, 6, 7, 10, 9};  // v0..v7
  const int corner[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                            {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  for (int k = 0; k < 8; ++k)
    w[ids[k]] =
        (corner[k][0] ? x : 1 - x) * (corner[k][1] ? y : 1 - y) * (corner[k][2] ? z : 1 - z);
  return w;
}

// Collective: the largest |a - b| over owned entries, over all ranks.
double maxGap(const std::vector<double>& a, const std::vector<double>& b) {
  double gap = 0;
  for (std::size_t i = 0; i < a.size(); ++i) gap = std::max(gap, std::abs(a[i] - b[i]));
  MPI_Allreduce(MPI_IN_PLACE, &gap, 1, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD);
  return gap;
}

// The owned entries of a global vector by node id: out[id] = its three values.
std::map<std::int64_t, eis::Vec3> byNode(const Model& m, Vec v) {
  const PetscScalar* a;
  VecGetArrayRead(v, &a);
  std::map<std::int64_t, eis::Vec3> out;
  for (std::size_t i = 0; i < m.mesh->numLocalVertices(); ++i)
    if (m.mesh->owned()[i]) {
      const PetscInt o = m.mesh->ownedOffset(PetscInt(i));
      out[m.mesh->nodeIds()[i]] = {a[o], a[o + 1], a[o + 2]};
    }
  VecRestoreArrayRead(v, &a);
  return out;
}

class MappedChildOperators : public ::testing::TestWithParam<eis::CellType> {};

// With one child point of rest-shape stiffness k, the difference the child makes to the force at
// x = rest + u is J^T (-k J u), to K dx (the assembled matrix and the matrix-free product) is
// -k J^T J dx, and to M dx (vertex mass m) m J^T J dx, J being the hand weights above.
TEST_P(MappedChildOperators, EqualHandAssembledReference) {
  const eis::CellType type = GetParam();
  const double k = 70, mass = 0.3;
  for (auto op : {eis::OperatorMode::Assembled, eis::OperatorMode::MatrixFree}) {
    SCOPED_TRACE(int(op));
    eis_test::SceneFields plain = twoCells(type), child = plain;
    plain.op = child.op = op;
    child.extra = {{"mapped.mapping", "barycentric"},
                   {"mapped.points", "0.7 0.2 0.1"},
                   {"mapped.rest-shape-stiffness", eis::parse::text(k)},
                   {"mapped.vertex-mass", eis::parse::text(mass)},
                   {"mapped.gravity", "0 0 0"}};
    Model a(plain), b(child);
    const auto weights = handWeights(type);
    const auto u = [](const eis::Vec3& p) { return Model::smooth(p, 0.8, -1.1, 0.5); };
    Vec xa = a.system->createVector(), xb = b.system->createVector(), ua = a.field(u),
        ub = b.field(u), fa = a.system->createVector(), fb = b.system->createVector();
    a.system->setRestState(xa);
    b.system->setRestState(xb);
    VecAXPY(xa, 1.0, ua);
    VecAXPY(xb, 1.0, ub);
    // J u from the owned nodes' u, summed over ranks.
    eis::Vec3 ju{0, 0, 0};
    for (const auto& [id, value] : byNode(b, ub))
      if (weights.count(id))
        for (int d = 0; d < 3; ++d) ju[d] += weights.at(id) * value[d];
    MPI_Allreduce(MPI_IN_PLACE, ju.data(), 3, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD);
    const auto expect = [&](double scale) {
      std::vector<double> out;
      for (const auto& [id, value] : byNode(b, ub)) {
        (void)value;
        const double w = weights.count(id) ? weights.at(id) : 0.0;
        for (int d = 0; d < 3; ++d) out.push_back(scale * w * ju[d]);
      }
      return out;
    };
    const auto difference = [&](Vec va, Vec vb) {
      std::vector<double> out;
      const auto ra = byNode(a, va), rb = byNode(b, vb);
      for (const auto& [id, value] : rb)
        for (int d = 0; d < 3; ++d) out.push_back(value[d] - ra.at(id)[d]);
      return out;
    };
    Vec va = a.system->createVector(), vb = b.system->createVector();
    VecZeroEntries(va);
    VecZeroEntries(vb);
    a.system->computeForce(xa, va, fa);
    b.system->computeForce(xb, vb, fb);
    EXPECT_LT(maxGap(difference(fa, fb), expect(-k)), 1e-12);
    for (const auto& [mf, kf] : {std::pair{0.0, 1.0}, std::pair{1.0, 0.0}}) {
      SCOPED_TRACE(mf);
      VecZeroEntries(fa);
      VecZeroEntries(fb);
      a.system->addMBKv(fa, mf, 0, kf, ua);
      b.system->addMBKv(fb, mf, 0, kf, ub);
      EXPECT_LT(maxGap(difference(fa, fb), expect(mf * mass - kf * k)), 1e-12);
      // The matrix: P A P on the free rows, the fixed face x = 0 (nodes with id % 3 == 0)
      // projected out of u first.
      a.system->createMatrix(op);
      b.system->createMatrix(op);
      {
        Vec pa, pb;
        VecDuplicate(ua, &pa);
        VecDuplicate(ub, &pb);
        VecCopy(ua, pa);
        VecCopy(ub, pb);
        a.system->projectResponse(pa);
        b.system->projectResponse(pb);
        MatMult(a.system->systemMatrix(mf, 0, kf), pa, fa);
        MatMult(b.system->systemMatrix(mf, 0, kf), pb, fb);
        eis::Vec3 jp{0, 0, 0};
        for (const auto& [id, value] : byNode(b, pb))
          if (weights.count(id))
            for (int d = 0; d < 3; ++d) jp[d] += weights.at(id) * value[d];
        MPI_Allreduce(MPI_IN_PLACE, jp.data(), 3, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD);
        std::vector<double> wanted;
        for (const auto& [id, value] : byNode(b, pb)) {
          (void)value;
          const double w = weights.count(id) && id % 3 != 0 ? weights.at(id) : 0.0;
          for (int d = 0; d < 3; ++d) wanted.push_back((mf * mass - kf * k) * w * jp[d]);
        }
        EXPECT_LT(maxGap(difference(fa, fb), wanted), 1e-12);
        VecDestroy(&pa);
        VecDestroy(&pb);
      }
    }
    for (Vec* w : {&xa, &xb, &ua, &ub, &fa, &fb, &va, &vb}) VecDestroy(w);
  }
}

INSTANTIATE_TEST_SUITE_P(Cells, MappedChildOperators,
                         ::testing::Values(eis::CellType::Tetrahedron, eis::CellType::Hexahedron));

// J reproduces an affine field at every point (the barycentric and trilinear weights of a
// parallelepiped do), inside and outside the box, and each point is carried once over all ranks.
TEST(ChildMapping, ReproducesAffineFieldsAndCarriesEachPointOnce) {
  for (auto type : {eis::CellType::Tetrahedron, eis::CellType::Hexahedron}) {
    SCOPED_TRACE(int(type));
    eis_test::SceneFields scene = eis_test::cantilever({2, 1, 1}, {4, 2, 3}, 1e3);
    scene.cellType = type;
    Model m(scene);
    const std::vector<eis::Vec3> points = {{0.3, 0.2, 0.1},   {1.0, 0.5, 0.5},
                                           {1.99, 0.01, 0.4}, {0.5, 0.5, 1.0 / 3},  // inside
                                           {2.5, 0.5, 0.5},   {-0.2, -0.3, 1.4}};   // outside
    const eis::ChildMapping mapping = eis::ChildMapping::barycentric(*m.mesh, points);
    const auto affine = [](const eis::Vec3& p) {
      return eis::Vec3{0.3 + 1.2 * p[0] - 0.4 * p[1], -0.7 + 0.5 * p[2], 2 * p[0] + p[1] - p[2]};
    };
    std::vector<double> x;
    for (const auto& p : m.mesh->restCoords())
      for (double e : affine(p)) x.push_back(e);
    std::vector<int> carried(points.size(), 0);
    double gap = 0;
    for (const auto& p : mapping.points()) {
      ++carried[std::size_t(p.index)];
      const eis::Vec3 got = mapping.apply(p, x.data()), want = affine(points[std::size_t(p.index)]);
      for (int d = 0; d < 3; ++d) gap = std::max(gap, std::abs(got[d] - want[d]));
    }
    MPI_Allreduce(MPI_IN_PLACE, carried.data(), int(carried.size()), MPI_INT, MPI_SUM,
                  PETSC_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &gap, 1, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD);
    EXPECT_LT(gap, 1e-13);
    for (int c : carried) EXPECT_EQ(c, 1);
  }
}

// SOFA's rule: a point on the face two cells share is as deep in both (distance 0): the first in
// input order takes it; a point inside one cell goes to it; a point outside every cell to the
// cell with the nearest centre.
TEST(ChildMapping, PicksTheCellAsSofaDoes) {
  eis_test::SceneFields scene = eis_test::cantilever({2, 1, 1}, {2, 1, 1}, 1e3);
  scene.cellType = eis::CellType::Hexahedron;
  Model m(scene);
  const eis::ChildMapping mapping =
      eis::ChildMapping::barycentric(*m.mesh, {{1.0, 0.5, 0.5}, {1.9, 0.5, 0.5}, {2.2, 0.5, 0.5}});
  std::vector<std::int64_t> cellOf(3, -1);
  for (const auto& p : mapping.points())
    cellOf[std::size_t(p.index)] = m.mesh->inputCellIds()[p.cell];
  MPI_Allreduce(MPI_IN_PLACE, cellOf.data(), 3, MPI_INT64_T, MPI_MAX, PETSC_COMM_WORLD);
  EXPECT_EQ(cellOf[0], 0);
  EXPECT_EQ(cellOf[1], 1);
  EXPECT_EQ(cellOf[2], 1);
}

class MappedChildRuns : public eis_test::TightSolvesTest {};

// The child's tangent (rest springs and contacts with a plane, through J) through addMBKv and
// the assembled matrix against centred differences of the force.
TEST_F(MappedChildRuns, TangentEqualsFiniteDifferencesOfTheForce) {
  for (auto type : {eis::CellType::Tetrahedron, eis::CellType::Hexahedron}) {
    SCOPED_TRACE(int(type));
    eis_test::SceneFields scene = eis_test::cantilever({4, 1, 1}, {8, 2, 2}, 2e3);
    scene.cellType = type;
    scene.extra = {{"mapped.mapping", "barycentric"},
                   {"mapped.points", "3.3 0.1 0.2 2.05 0.9 0.77 3.9 0.5 0.5 1.2 0.4 0.6"},
                   {"mapped.rest-shape-stiffness", "300"},
                   {"mapped.plane", "0.3 1 0.1 1.2 900 0"}};
    Model m(scene);
    EXPECT_LT(m.productTangentGap(1e-6), 1e-7);
    m.system->createMatrix(eis::OperatorMode::Assembled);
    EXPECT_LT(m.matrixTangentGap(1e-6), 1e-7);
  }
}

// A child that IdentityMapping ties to the body, carrying half the mass (with its weight), a
// plane, rest springs and forces and springs on listed points, moves the body as the body carrying
// them itself does, with either operator and with Newton's iterations.
TEST_F(MappedChildRuns, IdentityChildEqualsTheBodyCarryingItsLoads) {
  for (auto [op, newton] : {std::pair{eis::OperatorMode::Assembled, eis::NewtonMode::Linearized},
                            std::pair{eis::OperatorMode::MatrixFree, eis::NewtonMode::Linearized},
                            std::pair{eis::OperatorMode::Assembled, eis::NewtonMode::Full}}) {
    SCOPED_TRACE(int(op) * 10 + int(newton));
    eis_test::SceneFields body = eis_test::cantilever({4, 1, 1}, {8, 2, 2}, 2e3);
    body.op = op;
    body.newton = newton;
    body.steps = 15;
    body.dt = 0.02;
    body.mass = eis::MassType::Uniform;
    body.gravity = {0.5, -9.81, 0.2};
    eis_test::SceneFields child = body;
    body.extra = {{"mass.vertex-mass", "0.02"},
                  {"springs.rest-shape", "40 all"},
                  {"obstacle.plane", "0 1 0 0.2 500 2"},
                  {"load.nodal-forces", "3 0 0 -2  7 1 0 0  3 0 0.5 0"},
                  {"springs.rest-shape-nodes", "5 30  44 12"}};
    child.extra = {{"mass.vertex-mass", "0.01"},
                   {"mapped.mapping", "identity"},
                   {"mapped.vertex-mass", "0.01"},
                   {"mapped.gravity", "0.5 -9.81 0.2"},
                   {"mapped.rest-shape-stiffness", "40"},
                   {"mapped.plane", "0 1 0 0.2 500 2"},
                   {"mapped.nodal-forces", "3 0 0 -2  7 1 0 0  3 0 0.5 0"},
                   {"mapped.rest-shape-nodes", "5 30  44 12"}};
    const eis::NodalTable a = eis_test::run(body), b = eis_test::run(child);
    EXPECT_LT(eis_test::disagreement(a, b, body), 1e-9);
  }
}

// An identity child's own rest points (mapped.points) are its springs' rest: points moved by t
// from the nodes pull as springs to the nodes plus a constant force k t on each.
TEST_F(MappedChildRuns, IdentityChildSpringsPullToItsOwnPoints) {
  eis_test::SceneFields body = eis_test::cantilever({4, 1, 1}, {4, 1, 1}, 2e3);
  body.steps = 10;
  const double k = 30, t[3] = {0.1, -0.2, 0.05};
  std::string points;
  const std::int64_t nodes = 5 * 2 * 2;
  for (std::int64_t id = 0; id < nodes; ++id) {
    const auto p = eis_test::boxRestPosition(body.boxSize, body.boxCells, id);
    for (int d = 0; d < 3; ++d) points += eis::parse::text(p[d] + t[d]) + " ";
  }
  eis_test::SceneFields child = body;
  body.extra = {
      {"springs.rest-shape", eis::parse::text(k) + " all"},
      {"load.constant-force", eis::parse::text(k * t[0]) + " " + eis::parse::text(k * t[1]) + " " +
                                  eis::parse::text(k * t[2]) + " all"}};
  child.extra = {{"mapped.mapping", "identity"},
                 {"mapped.points", points},
                 {"mapped.rest-shape-stiffness", eis::parse::text(k)}};
  const eis::NodalTable a = eis_test::run(body), b = eis_test::run(child);
  EXPECT_LT(eis_test::disagreement(a, b, body), 1e-9);
}

// A barycentric child with every kind of load gives the same answer on any rank count.
TEST_F(MappedChildRuns, AnyRankCountAgreesWithOne) {
  eis_test::SceneFields scene = eis_test::cantilever({4, 1, 1}, {8, 2, 2}, 2e3);
  scene.steps = 10;
  scene.extra = {{"mapped.mapping", "barycentric"},
                 {"mapped.points", "3.3 0.1 0.2 2.05 0.9 0.77 3.9 0.5 0.5 4.2 0.5 -0.1"},
                 {"mapped.total-mass", "2"},
                 {"mapped.constant-force", "0 0 -3"},
                 {"mapped.nodal-forces", "2 1 1 0"},
                 {"mapped.rest-shape-nodes", "3 50"},
                 {"mapped.rest-shape-stiffness", "10"},
                 {"mapped.plane", "0 1 0 0.3 800 1"}};
  const eis::NodalTable state = eis_test::run(scene), one = eis_test::serialReference(scene);
  EXPECT_LT(eis_test::disagreement(one, state, scene), 1e-9);
}

}  // namespace
