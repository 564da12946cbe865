// The boundary sub-mesh SOFA's Tetra2TriangleTopologicalMapping gives a child node, on 1, 2 and
// 3 ranks: its order and vertex order on two tetrahedra counted by hand, and on the box against
// this file's own transcription of SOFA's algorithm; the membrane on it (its force as the same
// membrane on those triangles given explicitly, its tangent against central differences where it
// is exact, its element matrices against its products); bending springs across triangles of
// different ranks against one serial evaluation; a traction on the triangles a box selects
// against pressure x area.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "eis/mesh/boundary_faces.hpp"
#include "eis/mesh/box_mesh.hpp"
#include "eis/model/boundary_bending_springs.hpp"
#include "eis/model/mechanical_system.hpp"
#include "eis/model/triangular_bending_springs.hpp"
#include "eis/model/triangular_fem.hpp"
#include "mpi_support.hpp"

namespace {

using Face = std::array<std::int64_t, 3>;

// SOFA master, written out again: TetrahedronSetTopologyContainer::createTriangleSetArray (each
// tetrahedron's faces j = 0..3, turned until the smallest vertex comes first, kept unless it or
// its reverse is there) and Tetra2TriangleTopologicalMapping::init (the triangles of one
// tetrahedron, in that order, reversed as (t0 t2 t1) with flipNormals).
std::vector<Face> sofaBoundary(const eis::SerialCells& tetrahedra, bool flip) {
  static const int faces[4][3] = {{1, 2, 3}, {0, 3, 2}, {1, 3, 0}, {0, 2, 1}};
  std::map<Face, std::size_t> index;
  std::vector<Face> all;
  std::map<Face, int> around;
  for (const auto& t : tetrahedra)
    for (const auto& face : faces) {
      Face v{t[face[0]], t[face[1]], t[face[2]]};
      while (v[0] > v[1] || v[0] > v[2]) v = {v[1], v[2], v[0]};
      if (!index.count({v[0], v[2], v[1]}) && !index.count(v)) {
        index[v] = all.size();
        all.push_back(v);
      }
      Face key = v;
      std::sort(key.begin(), key.end());
      ++around[key];
    }
  std::vector<Face> boundary;
  for (const Face& f : all) {
    Face key = f;
    std::sort(key.begin(), key.end());
    if (around[key] == 1) boundary.push_back(flip ? Face{f[0], f[2], f[1]} : f);
  }
  return boundary;
}

// Every rank's boundary list is `expected`, and each local face is that face through its cell.
void expectBoundary(const eis::DistributedMesh& mesh, const eis::BoundaryFaces& faces,
                    const std::vector<Face>& expected) {
  ASSERT_EQ(faces.nodes.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ((Face{faces.nodes[i][0], faces.nodes[i][1], faces.nodes[i][2]}), expected[i]) << i;
    EXPECT_EQ(faces.nodes[i][3], -1);
  }
  std::int64_t local = std::int64_t(faces.local.size());
  MPI_Allreduce(MPI_IN_PLACE, &local, 1, MPI_INT64_T, MPI_SUM, PETSC_COMM_WORLD);
  EXPECT_EQ(local, std::int64_t(expected.size()));
  for (std::size_t i = 0; i < faces.local.size(); ++i) {
    const auto cell = mesh.cells()[std::size_t(faces.local[i].cell)];
    Face ids;
    for (int k = 0; k < 3; ++k)
      ids[std::size_t(k)] = mesh.nodeIds()[std::size_t(cell[faces.local[i].slots[std::size_t(k)]])];
    EXPECT_EQ(ids, expected[std::size_t(faces.localIndex[i])]);
    EXPECT_EQ(faces.ranks[std::size_t(faces.localIndex[i])], eis_test::rankOf(PETSC_COMM_WORLD));
  }
}

TEST(BoundaryFaces, TwoTetrahedraInSofasOrderCountedByHand) {
  // Tetrahedra (3 0 4 1) and (1 0 4 2), both positive, sharing the face {0 1 4}. By hand: the
  // first gives (0 4 1) (1 4 3) (0 1 3) (0 3 4), the second (0 4 2) (1 2 4) (0 2 1) and its
  // (1 4 0) -> (0 1 4), the reverse of (0 4 1), already there; (0 4 1) lies in both.
  eis::SerialMesh serial;
  if (eis_test::root()) {
    serial.nodes = {{1, 0, 0}, {0, 0, 1}, {1, 1, 1}, {0, 0, 0}, {0, 1, 0}};
    serial.cells = eis::SerialCells(eis::CellType::Tetrahedron, {3, 0, 4, 1, 1, 0, 4, 2});
    serial.cellTags = {0, 0};
  }
  const std::vector<int> parts{0, std::min(1, eis_test::sizeOf(PETSC_COMM_WORLD) - 1)};
  const eis::DistributedMesh mesh(PETSC_COMM_WORLD, serial, 3, 0, &parts);
  const std::vector<Face> expected{{1, 4, 3}, {0, 1, 3}, {0, 3, 4},
                                   {0, 4, 2}, {1, 2, 4}, {0, 2, 1}};
  const std::vector<Face> flipped{{1, 3, 4}, {0, 3, 1}, {0, 4, 3}, {0, 2, 4}, {1, 4, 2}, {0, 1, 2}};
  const eis::SerialCells cells(eis::CellType::Tetrahedron, {3, 0, 4, 1, 1, 0, 4, 2});
  EXPECT_EQ(sofaBoundary(cells, false), expected);
  EXPECT_EQ(sofaBoundary(cells, true), flipped);
  expectBoundary(mesh, eis::boundaryFaces(mesh, false), expected);
  expectBoundary(mesh, eis::boundaryFaces(mesh, true), flipped);
}

constexpr std::array<double, 3> kSize{1, 0.8, 0.6};
constexpr std::array<int, 3> kCells{3, 2, 2};

eis_test::SceneFields boxScene(std::vector<std::pair<std::string, std::string>> extra,
                               eis::OperatorMode op = eis::OperatorMode::Assembled) {
  eis_test::SceneFields scene;
  scene.op = op;
  scene.boxSize = kSize;
  scene.boxCells = kCells;
  scene.youngModulus = 1e-30;  // the body's own elasticity, negligible beside the fields tested
  scene.gravity = {0, 0, 0};
  scene.extra = std::move(extra);
  // A constraint that holds no node, so that the box is not held at x = 0 (the projection would
  // take rows out of the matrix and not out of the products).
  scene.extra.push_back({"constraint.fixed-box", "5 5 5 6 6 6"});
  return scene;
}

TEST(BoundaryFaces, TheBoxInSofasOrder) {
  const eis::SerialMesh box = eis::makeBoxMesh(kSize, kCells);
  eis_test::BoxModel model(boxScene({}));
  expectBoundary(*model.mesh, eis::boundaryFaces(*model.mesh, false),
                 sofaBoundary(box.cells, false));
}

// The force and products of `model`'s system at smooth states, against a serial field on the
// whole box (every rank builds it), compared node by node on the nodes each rank owns.
void expectSerialForces(eis_test::BoxModel& model, eis::ForceField& serial, double tolerance) {
  const eis::SerialMesh box = eis::makeBoxMesh(kSize, kCells);
  const eis::DistributedMesh& mesh = *model.mesh;
  Vec x = model.field([](const eis::Vec3& p) {
    const eis::Vec3 w = eis_test::BoxModel::smooth(p, 1.1, -0.7, 0.9);
    return eis::Vec3{p[0] + 0.3 * w[0], p[1] + 0.3 * w[1], p[2] + 0.3 * w[2]};
  });
  Vec v = model.field(0.4, 1.3, -0.5);
  Vec dx = model.field(-0.9, 0.2, 1.7);
  Vec f = model.system->createVector(), kdx = model.system->createVector();
  model.system->computeForce(x, v, f);
  VecZeroEntries(kdx);
  model.system->addMBKv(kdx, 0, 0, 1, dx);

  std::vector<double> xs, vs, dxs;
  for (const auto& p : box.nodes) {
    const eis::Vec3 w = eis_test::BoxModel::smooth(p, 1.1, -0.7, 0.9);
    const eis::Vec3 vv = eis_test::BoxModel::smooth(p, 0.4, 1.3, -0.5);
    const eis::Vec3 d = eis_test::BoxModel::smooth(p, -0.9, 0.2, 1.7);
    for (int c = 0; c < 3; ++c) {
      xs.push_back(p[std::size_t(c)] + 0.3 * w[std::size_t(c)]);
      vs.push_back(vv[std::size_t(c)]);
      dxs.push_back(d[std::size_t(c)]);
    }
  }
  std::vector<double> fs(xs.size(), 0.0), kdxs(xs.size(), 0.0);
  serial.addForce(xs.data(), vs.data(), fs.data());
  serial.addDForce(dxs.data(), kdxs.data(), 1.0);

  const PetscScalar *fl, *kl;
  VecGetArrayRead(f, &fl);
  VecGetArrayRead(kdx, &kl);
  double scale = 0;
  for (double value : fs) scale = std::max(scale, std::abs(value));
  ASSERT_GT(scale, 0);
  for (std::size_t vtx = 0; vtx < mesh.numLocalVertices(); ++vtx) {
    if (!mesh.owned()[vtx]) continue;
    const std::size_t id = std::size_t(mesh.nodeIds()[vtx]);
    const PetscInt at = mesh.ownedOffset(PetscInt(vtx));
    for (int c = 0; c < 3; ++c) {
      EXPECT_NEAR(fl[at + c], fs[3 * id + std::size_t(c)], tolerance * scale) << id << " " << c;
      EXPECT_NEAR(kl[at + c], kdxs[3 * id + std::size_t(c)], tolerance * scale) << id << " " << c;
    }
  }
  VecRestoreArrayRead(f, &fl);
  VecRestoreArrayRead(kdx, &kl);
  for (Vec* w : {&x, &v, &dx, &f, &kdx}) VecDestroy(w);
}

std::vector<eis::Triangle> asTriangles(const std::vector<Face>& faces) {
  std::vector<eis::Triangle> triangles;
  for (const Face& f : faces) triangles.push_back({PetscInt(f[0]), PetscInt(f[1]), PetscInt(f[2])});
  return triangles;
}

TEST(BoundaryFaces, BendingSpringsAcrossRanksAsOneSerialField) {
  eis_test::BoxModel model(boxScene(
      {{"bending.stiffness", "300"}, {"bending.damping", "2"}, {"bending.faces", "boundary"}},
      eis::OperatorMode::MatrixFree));
  const eis::SerialMesh box = eis::makeBoxMesh(kSize, kCells);
  eis::TriangularBendingSprings serial(
      eis::bendingSprings(asTriangles(sofaBoundary(box.cells, false)), box.nodes), 300, 2);
  expectSerialForces(model, serial, 1e-12);
}

TEST(BoundaryFaces, MembraneOnTheBoundaryAsOnItsTriangles) {
  for (const char* faces : {"boundary", "boundary-flipped"}) {
    eis_test::BoxModel model(boxScene({{"membrane.young-modulus", "60"},
                                       {"membrane.poisson-ratio", "0.3"},
                                       {"membrane.faces", faces}}));
    const eis::SerialMesh box = eis::makeBoxMesh(kSize, kCells);
    eis::TriangularFemForceField serial(
        asTriangles(sofaBoundary(box.cells, std::string(faces) == "boundary-flipped")), box.nodes,
        60, 0.3, eis::TriangleFemMethod::Large);
    expectSerialForces(model, serial, 1e-12);
  }
}

// Where the membrane's stress is zero (its rest shape turned and moved rigidly) its tangent is
// the force's exact derivative: K dx from the assembled matrix and from the products against
// central differences of the force.
TEST(BoundaryFaces, MembraneTangentAgainstCentralDifferences) {
  for (const auto op : {eis::OperatorMode::Assembled, eis::OperatorMode::MatrixFree}) {
    eis_test::BoxModel model(boxScene({{"membrane.young-modulus", "60"},
                                       {"membrane.poisson-ratio", "0.3"},
                                       {"membrane.faces", "boundary"}},
                                      op));
    const double c = std::cos(0.4), s = std::sin(0.4);
    Vec x = model.field([&](const eis::Vec3& p) {
      return eis::Vec3{c * p[0] - s * p[1] + 0.2, s * p[0] + c * p[1] - 0.1, p[2] + 0.3};
    });
    Vec v = model.system->createVector(), dx = model.field(0.7, -1.2, 0.5);
    Vec fd = model.system->createVector(), work = model.system->createVector();
    Vec kdx = model.system->createVector(), product = model.system->createVector();
    VecZeroEntries(v);
    model.forceDifference(x, v, x, dx, 1e-6, fd, work);
    VecZeroEntries(kdx);
    model.system->addMBKv(kdx, 0, 0, 1, dx);
    Mat k = model.system->systemMatrix(0, 0, 1);
    MatMult(k, dx, product);
    PetscReal norm, error, matrixError;
    VecNorm(fd, NORM_INFINITY, &norm);
    VecAXPY(product, -1.0, kdx);
    VecNorm(product, NORM_INFINITY, &matrixError);
    VecAXPY(kdx, -1.0, fd);
    VecNorm(kdx, NORM_INFINITY, &error);
    EXPECT_GT(norm, 1e-3) << int(op);
    EXPECT_LT(error, 1e-6 * norm) << int(op);
    EXPECT_LT(matrixError, 1e-12 * norm) << int(op);
    for (Vec* w : {&x, &v, &dx, &fd, &work, &kdx, &product}) VecDestroy(w);
  }
}

// A traction T on the boundary triangles whose three vertices lie in a box around the face
// x = 1 (SOFA's BoxROI triangleIndices): a total force T times that face's area, 0.8 x 0.6.
TEST(BoundaryFaces, TractionOnTheTrianglesABoxSelects) {
  eis_test::BoxModel model(
      boxScene({{"load.surface-traction",
                 "0.4 -1.5 2 boundary-triangles-in box 0.99 -0.01 -0.01 1.01 0.81 0.61"}}));
  Vec x = model.field([](const eis::Vec3& p) { return p; });
  Vec v = model.system->createVector(), f = model.system->createVector();
  VecZeroEntries(v);
  model.system->computeForce(x, v, f);
  const double traction[3] = {0.4, -1.5, 2};
  for (int c = 0; c < 3; ++c) {
    PetscScalar total;
    VecStrideSum(f, c, &total);
    EXPECT_NEAR(total, traction[c] * 0.8 * 0.6, 1e-13) << c;
  }
  for (Vec* w : {&x, &v, &f}) VecDestroy(w);
}

}  // namespace

namespace {

// SOFA master's QuadularBendingSprings on Hexa2QuadTopologicalMapping's quadrangles, written out
// again: HexahedronSetTopologyContainer::createQuadSetArray's faces (turned until the smallest
// vertex comes first, kept once), those of one hexahedron; each quadrangle's edge j joins its
// vertices j + 1 and j + 2 (QuadSetTopologyContainer::createEdgesInQuadArray); across an edge of
// two quadrangles, t2 the first, the springs (t1[i1], t2[i2 + 3]) and (t1[i1 + 3], t2[i2]).
using Quad = std::array<std::int64_t, 4>;

std::vector<Quad> sofaQuads(const eis::SerialMesh& box) {
  static const int faces[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4},
                                  {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};
  std::map<Quad, std::size_t> index;
  std::vector<Quad> all;
  std::map<Quad, int> around;
  for (const auto& h : box.cells)
    for (const auto& face : faces) {
      Quad v{h[face[0]], h[face[1]], h[face[2]], h[face[3]]};
      while (v[0] > v[1] || v[0] > v[2] || v[0] > v[3]) v = {v[1], v[2], v[3], v[0]};
      if (!index.count({v[0], v[3], v[2], v[1]}) && !index.count(v)) {
        index[v] = all.size();
        all.push_back(v);
      }
      Quad key = v;
      std::sort(key.begin(), key.end());
      ++around[key];
    }
  std::vector<Quad> quads;
  for (const Quad& q : all) {
    Quad key = q;
    std::sort(key.begin(), key.end());
    if (around[key] == 1) quads.push_back(q);
  }
  return quads;
}

std::vector<eis::BendingSpring> sofaQuadularSprings(const eis::SerialMesh& box) {
  const std::vector<Quad> quads = sofaQuads(box);
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::pair<std::size_t, int>>> edges;
  for (std::size_t q = 0; q < quads.size(); ++q)
    for (int j = 0; j < 4; ++j) {
      const std::int64_t a = quads[q][std::size_t((j + 1) % 4)],
                         b = quads[q][std::size_t((j + 2) % 4)];
      edges[{std::min(a, b), std::max(a, b)}].push_back({q, j});
    }
  std::vector<eis::BendingSpring> springs;
  for (const auto& [edge, holders] : edges) {
    if (holders.size() != 2) continue;
    const Quad& t2 = quads[holders[0].first];
    const Quad& t1 = quads[holders[1].first];
    const int i2 = holders[0].second, i1 = holders[1].second;
    for (const auto& [a, b] : {std::pair{t1[std::size_t(i1)], t2[std::size_t((i2 + 3) % 4)]},
                               std::pair{t1[std::size_t((i1 + 3) % 4)], t2[std::size_t(i2)]}}) {
      double l2 = 0;
      for (int c = 0; c < 3; ++c) {
        const double d =
            box.nodes[std::size_t(a)][std::size_t(c)] - box.nodes[std::size_t(b)][std::size_t(c)];
        l2 += d * d;
      }
      springs.push_back({PetscInt(a), PetscInt(b), std::sqrt(l2)});
    }
  }
  return springs;
}

TEST(BoundaryFaces, QuadularBendingSpringsAcrossRanksAsOneSerialField) {
  const std::array<double, 3> size{1, 0.8, 0.6};
  const std::array<int, 3> cells{3, 2, 2};
  const eis::SerialMesh box = eis::makeBoxMesh(size, cells, eis::CellType::Hexahedron);
  const eis::DistributedMesh mesh(PETSC_COMM_WORLD, eis_test::root() ? box : eis::SerialMesh{}, 3,
                                  0);
  eis::BoundaryBendingSprings field(mesh, 3000, 1.5, true);
  eis::TriangularBendingSprings serial(sofaQuadularSprings(box), 3000, 1.5);
  EXPECT_EQ(field.globalCount(), std::int64_t(serial.springs().size()));
  auto state = [](const eis::Vec3& p, int which) {
    const double a[3][3] = {{1.1, -0.7, 0.9}, {0.4, 1.3, -0.5}, {-0.9, 0.2, 1.7}};
    const eis::Vec3 w = eis_test::BoxModel::smooth(p, a[which][0], a[which][1], a[which][2]);
    return which == 0 ? eis::Vec3{p[0] + 0.3 * w[0], p[1] + 0.3 * w[1], p[2] + 0.3 * w[2]} : w;
  };
  // Local arrays at smooth states, and the serial ones on every node.
  std::vector<double> x, v, dx, xs, vs, dxs;
  for (const auto& p : mesh.restCoords())
    for (int c = 0; c < 3; ++c) {
      x.push_back(state(p, 0)[std::size_t(c)]);
      v.push_back(state(p, 1)[std::size_t(c)]);
      dx.push_back(state(p, 2)[std::size_t(c)]);
    }
  for (const auto& p : box.nodes)
    for (int c = 0; c < 3; ++c) {
      xs.push_back(state(p, 0)[std::size_t(c)]);
      vs.push_back(state(p, 1)[std::size_t(c)]);
      dxs.push_back(state(p, 2)[std::size_t(c)]);
    }
  std::vector<double> f(x.size(), 0.0), kdx(x.size(), 0.0);
  field.addForce(x.data(), v.data(), f.data());
  field.addDForce(dx.data(), kdx.data(), 1.0);
  std::vector<double> fs(xs.size(), 0.0), kdxs(xs.size(), 0.0);
  serial.addForce(xs.data(), vs.data(), fs.data());
  serial.addDForce(dxs.data(), kdxs.data(), 1.0);
  // Every rank's local forces summed by node, as the global vector sums them.
  std::vector<double> sum(xs.size(), 0.0), sumK(xs.size(), 0.0);
  for (std::size_t vtx = 0; vtx < mesh.numLocalVertices(); ++vtx)
    for (int c = 0; c < 3; ++c) {
      sum[3 * std::size_t(mesh.nodeIds()[vtx]) + std::size_t(c)] += f[3 * vtx + std::size_t(c)];
      sumK[3 * std::size_t(mesh.nodeIds()[vtx]) + std::size_t(c)] += kdx[3 * vtx + std::size_t(c)];
    }
  MPI_Allreduce(MPI_IN_PLACE, sum.data(), int(sum.size()), MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, sumK.data(), int(sumK.size()), MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD);
  double scale = 0;
  for (double value : fs) scale = std::max(scale, std::abs(value));
  ASSERT_GT(scale, 0);
  for (std::size_t i = 0; i < fs.size(); ++i) {
    EXPECT_NEAR(sum[i], fs[i], 1e-12 * scale) << i;
    EXPECT_NEAR(sumK[i], kdxs[i], 1e-12 * scale) << i;
  }
}

// Quad2TriangleTopologicalMapping after Hexa2QuadTopologicalMapping: each boundary quadrangle q
// as (q1 q2 q0) and (q3 q0 q2); the membrane on them, on every rank count, as on those triangles
// given explicitly.
TEST(BoundaryFaces, MembraneOnSplitQuadranglesOfHexahedra) {
  const std::array<double, 3> size{1, 0.8, 0.6};
  const std::array<int, 3> cells{3, 2, 2};
  const eis::SerialMesh box = eis::makeBoxMesh(size, cells, eis::CellType::Hexahedron);
  const eis::DistributedMesh mesh(PETSC_COMM_WORLD, eis_test::root() ? box : eis::SerialMesh{}, 3,
                                  0);
  std::vector<eis::Triangle> split;
  for (const Quad& q : sofaQuads(box)) {
    split.push_back({PetscInt(q[1]), PetscInt(q[2]), PetscInt(q[0])});
    split.push_back({PetscInt(q[3]), PetscInt(q[0]), PetscInt(q[2])});
  }
  eis::BodyTriangles body =
      eis::bodyTriangles(mesh, eis::BodyFaces::Boundary, "membrane.young-modulus", "membranes");
  eis::TriangularFemForceField field(std::move(body.triangles), mesh.restCoords(), 60, 0.3,
                                     eis::TriangleFemMethod::Large);
  eis::TriangularFemForceField serial(split, box.nodes, 60, 0.3, eis::TriangleFemMethod::Large);
  std::vector<double> x, xs;
  for (const auto& p : mesh.restCoords()) {
    const eis::Vec3 w = eis_test::BoxModel::smooth(p, 1.1, -0.7, 0.9);
    for (int c = 0; c < 3; ++c) x.push_back(p[std::size_t(c)] + 0.3 * w[std::size_t(c)]);
  }
  for (const auto& p : box.nodes) {
    const eis::Vec3 w = eis_test::BoxModel::smooth(p, 1.1, -0.7, 0.9);
    for (int c = 0; c < 3; ++c) xs.push_back(p[std::size_t(c)] + 0.3 * w[std::size_t(c)]);
  }
  std::vector<double> f(x.size(), 0.0), fs(xs.size(), 0.0), sum(xs.size(), 0.0);
  field.addForce(x.data(), nullptr, f.data());
  serial.addForce(xs.data(), nullptr, fs.data());
  for (std::size_t vtx = 0; vtx < mesh.numLocalVertices(); ++vtx)
    for (int c = 0; c < 3; ++c)
      sum[3 * std::size_t(mesh.nodeIds()[vtx]) + std::size_t(c)] += f[3 * vtx + std::size_t(c)];
  MPI_Allreduce(MPI_IN_PLACE, sum.data(), int(sum.size()), MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD);
  double scale = 0;
  for (double value : fs) scale = std::max(scale, std::abs(value));
  ASSERT_GT(scale, 0);
  for (std::size_t i = 0; i < fs.size(); ++i) EXPECT_NEAR(sum[i], fs[i], 1e-12 * scale) << i;
}

}  // namespace
