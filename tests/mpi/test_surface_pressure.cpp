// Surface loads on 1, 2 and 3 ranks: the file's triangles reach the ranks of the tetrahedra they
// are faces of (each on exactly one rank, in the file's vertex order); a unit cube under a
// uniform follower pressure on its outward-oriented surface, held on three symmetry planes,
// reaches the exact homogeneous static state of linear elasticity with the follower load (which
// a dead load misses by 2 strains); partial pressures end every rank count in the serial state,
// iterative (GMRES), direct (LU) and matrix-free alike; triangles that are no face of exactly one
// tetrahedron, and indices past the file's triangles, are errors naming them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>

#include "eis/app/simulation.hpp"
#include "eis/mesh/box_mesh.hpp"
#include "eis/mesh/gmsh_reader.hpp"
#include "eis/model/mechanical_system.hpp"
#include "eis/model/surface_selection.hpp"
#include "mpi_support.hpp"

namespace {

constexpr std::array<double, 3> kSize{1, 1, 1};
constexpr std::array<int, 3> kCells{3, 3, 3};
using Face = std::array<std::int64_t, 3>;

// The faces of the box that lie in one tetrahedron, oriented outward (right-hand rule), in the
// order the tetrahedra give them.
std::vector<Face> outwardBoundary(const eis::SerialMesh& mesh) {
  std::map<Face, std::vector<Face>> faces;
  for (const auto& t : mesh.cells)
    for (int skip = 0; skip < 4; ++skip) {
      Face f;
      for (int k = 0, i = 0; k < 4; ++k)
        if (k != skip) f[i++] = t[k];
      const auto &a = mesh.nodes[f[0]], &b = mesh.nodes[f[1]], &c = mesh.nodes[f[2]],
                 &d = mesh.nodes[t[skip]];
      const eis::Vec3 u{b[0] - a[0], b[1] - a[1], b[2] - a[2]},
          v{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
      const eis::Vec3 n{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                        u[0] * v[1] - u[1] * v[0]};
      if (n[0] * (d[0] - a[0]) + n[1] * (d[1] - a[1]) + n[2] * (d[2] - a[2]) > 0)
        std::swap(f[1], f[2]);
      Face key = f;
      std::sort(key.begin(), key.end());
      faces[key].push_back(f);
    }
  std::vector<Face> boundary;
  for (const auto& [key, list] : faces)
    if (list.size() == 1) boundary.push_back(list[0]);
  return boundary;
}

// The interior face shared by the first two tetrahedra of the first hexahedron.
Face interiorFace(const eis::SerialMesh& mesh) {
  std::vector<std::int64_t> shared;
  for (auto v : mesh.cells[0])
    if (std::count(mesh.cells[1].begin(), mesh.cells[1].end(), v)) shared.push_back(v);
  return {shared[0], shared[1], shared[2]};
}

// The cube as a Gmsh 2.2 file: surface group "outer" (1) of the 108 outward boundary triangles,
// "inner" (2) of one interior face, a triangle "loose" (3) of no tetrahedron (three nodes of
// different hexahedra), volume group "body" (4).
void writeCube(const std::string& path) {
  const eis::SerialMesh mesh = eis::makeBoxMesh(kSize, kCells);
  const std::vector<Face> boundary = outwardBoundary(mesh);
  std::ofstream out(path);
  out.precision(17);
  out << "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n4\n2 1 \"outer\"\n"
         "2 2 \"inner\"\n2 3 \"loose\"\n3 4 \"body\"\n$EndPhysicalNames\n$Nodes\n"
      << mesh.nodes.size() << "\n";
  for (std::size_t i = 0; i < mesh.nodes.size(); ++i)
    out << i + 1 << " " << mesh.nodes[i][0] << " " << mesh.nodes[i][1] << " " << mesh.nodes[i][2]
        << "\n";
  out << "$EndNodes\n$Elements\n" << boundary.size() + 2 + mesh.cells.size() << "\n";
  std::size_t number = 1;
  auto triangle = [&](const Face& f, int tag) {
    out << number++ << " 2 2 " << tag << " " << tag << " " << f[0] + 1 << " " << f[1] + 1 << " "
        << f[2] + 1 << "\n";
  };
  for (const Face& f : boundary) triangle(f, 1);
  triangle(interiorFace(mesh), 2);
  triangle({0, 5, 63}, 3);
  for (const auto& t : mesh.cells)
    out << number++ << " 4 2 4 4 " << t[0] + 1 << " " << t[1] + 1 << " " << t[2] + 1 << " "
        << t[3] + 1 << "\n";
  out << "$EndElements\n";
}

class SurfacePressureRuns : public eis_test::TemporaryFolderTest {
protected:
  eis_test::TightSolveOptions tight_{eis_test::Tighten::Linear};

  void SetUp() override {
    TemporaryFolderTest::SetUp();
    if (eis_test::root()) writeCube(file("cube.msh"));
    MPI_Barrier(PETSC_COMM_WORLD);
  }

  // The cube held on its three symmetry planes x = 0, y = 0, z = 0 (each plane's normal
  // component only), no gravity; static: first order, steps of 1e8 s, each a Newton iteration.
  eis_test::SceneFields cube(const std::string& pressure) const {
    eis_test::SceneFields scene;
    scene.meshFile = file("cube.msh");
    scene.boxSize = kSize;  // the file's mesh, for the helpers' node positions
    scene.boxCells = kCells;
    scene.youngModulus = 1e3;
    scene.poissonRatio = 0.3;
    scene.gravity = {0, 0, 0};
    scene.firstOrder = true;
    scene.dt = 1e8;
    scene.steps = 6;
    scene.initialGuess = eis::InitialGuess::Zero;
    scene.extra = {{"constraint.partial-fixed", "1 0 0 box -0.01 -0.01 -0.01 0.01 1.01 1.01"},
                   {"constraint.partial-fixed", "0 1 0 box -0.01 -0.01 -0.01 1.01 0.01 1.01"},
                   {"constraint.partial-fixed", "0 0 1 box -0.01 -0.01 -0.01 1.01 1.01 0.01"},
                   {"load.pressure", pressure}};
    return scene;
  }
};

TEST_F(SurfacePressureRuns, EveryTriangleOfTheFileIsOnTheRankOfItsTetrahedron) {
  const eis::SerialMesh serial =
      eis_test::root() ? eis::readGmsh(file("cube.msh")) : eis::SerialMesh{};
  const eis::DistributedMesh mesh(PETSC_COMM_WORLD, serial, 3, 0);
  const eis::SurfaceTriangles& surface = mesh.surfaceTriangles();
  EXPECT_EQ(surface.count, 110);
  ASSERT_EQ(surface.unattached.size(), 2u);
  EXPECT_EQ(surface.unattached[0].id, 108);  // the interior face
  EXPECT_EQ(surface.unattached[0].tetrahedra, 2);
  EXPECT_EQ(surface.unattached[1].id, 109);
  EXPECT_EQ(surface.unattached[1].tetrahedra, 0);
  // Every local triangle's vertices, through its cell's slots, are the file's, in its order.
  const eis::SerialMesh box = eis::makeBoxMesh(kSize, kCells);
  const std::vector<Face> boundary = outwardBoundary(box);
  std::vector<std::int64_t> ids;
  for (const auto& t : surface.local) {
    ASSERT_LT(t.id, 108);
    const auto& cell = mesh.cells()[std::size_t(t.cell)];
    for (int j = 0; j < 3; ++j)
      EXPECT_EQ(mesh.nodeIds()[std::size_t(cell[t.slots[j]])], boundary[std::size_t(t.id)][j]);
    EXPECT_EQ(t.tag, 1);
    ids.push_back(t.id);
  }
  std::vector<std::int64_t> all = eis_test::allGather(ids, PETSC_COMM_WORLD);
  std::sort(all.begin(), all.end());
  std::vector<std::int64_t> expected(108);
  for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = std::int64_t(i);
  EXPECT_EQ(all, expected);  // each boundary triangle once over the ranks
}

// The distributed force's directional derivative (central differences, exact but for rounding:
// the linear solid is linear in x, the pressure quadratic) against the product with K
// (addDForce) and the assembled matrix (element blocks summed across ranks), at a deformed state,
// for a pressure on the whole surface plus one on a face; the matrix is declared nonsymmetric.
TEST_F(SurfacePressureRuns, DistributedTangentEqualsCentralDifferences) {
  eis_test::SceneFields scene = cube("-40 group outer");
  scene.extra.push_back({"load.pressure", "25 box 0.99 -0.01 -0.01 1.01 1.01 1.01"});
  eis::Simulation simulation(scene.toScene(), PETSC_COMM_WORLD, nullptr);
  eis::MechanicalSystem& system = simulation.system();
  const eis::DistributedMesh& mesh = system.mesh();
  Vec x = system.createVector(), v = system.createVector(), dx = system.createVector(),
      f = system.createVector(), fd = system.createVector(), product = system.createVector();
  system.setRestState(x);
  VecZeroEntries(v);
  PetscScalar *xs, *ds;
  VecGetArray(x, &xs);
  VecGetArray(dx, &ds);
  for (std::size_t n = 0; n < mesh.restCoords().size(); ++n) {
    if (!mesh.owned()[n]) continue;
    const auto& p = mesh.restCoords()[n];
    for (int d = 0; d < 3; ++d) {
      xs[mesh.ownedOffset(PetscInt(n)) + d] += 0.04 * std::sin(3 * p[0] + 2 * p[1] - p[2] + d);
      ds[mesh.ownedOffset(PetscInt(n)) + d] = std::cos(2 * p[0] - p[1] + 3 * p[2] + 2 * d);
    }
  }
  VecRestoreArray(dx, &ds);
  VecRestoreArray(x, &xs);
  system.projectResponse(dx);  // the assembled matrix holds P K P: compare along free directions
  const double eps = 1e-3;
  VecAXPY(x, eps, dx);
  system.computeForce(x, v, fd);
  VecAXPY(x, -2 * eps, dx);
  system.computeForce(x, v, f);
  VecAXPY(x, eps, dx);
  VecAXPY(fd, -1.0, f);
  VecScale(fd, 1 / (2 * eps));
  system.computeForce(x, v, f);  // the linearization point
  VecZeroEntries(product);
  system.addMBKv(product, 0.0, 0.0, 1.0, dx);
  const double productGap = eis_test::relativeGap(fd, product);
  EXPECT_LT(productGap, 1e-9);
  system.projectResponse(fd);
  MatMult(system.systemMatrix(0.0, 0.0, 1.0), dx, product);
  system.projectResponse(product);
  const double matrixGap = eis_test::relativeGap(fd, product);
  EXPECT_LT(matrixGap, 1e-9);
  PetscBool known = PETSC_FALSE, symmetric = PETSC_TRUE;
  MatIsSymmetricKnown(system.systemMatrix(0.0, 0.0, 1.0), &known, &symmetric);
  EXPECT_TRUE(known && !symmetric) << "the matrix is declared nonsymmetric";
  if (eis_test::root())
    std::cout << "[ figures ] tangent vs central differences: addDForce " << productGap
              << ", assembled " << matrixGap << "\n";
  for (Vec* w : {&x, &v, &dx, &f, &fd, &product}) VecDestroy(w);
}

// Uniform pressure p on the outward surface (load.pressure = -p: SOFA's P > 0 pushes along the
// normal): the state is x = (1 + e) X with E e / (1 - 2 nu) = -p (1 + e)^2, the follower load
// acting on the current area (1 + e)^2 of a unit rest area. Linear tetrahedra represent it
// exactly; a dead load would give e = -p (1 - 2 nu) / E, 2 |e| = 0.8% away.
TEST_F(SurfacePressureRuns, UniformPressureCompressesTheCubeHomogeneously) {
  const double p = 10, E = 1e3, nu = 0.3, k = E / (1 - 2 * nu);
  // The root near 0 of p e^2 + (2p + k) e + p = 0, in the form without cancellation.
  const double e = -2 * p / ((2 * p + k) + std::sqrt((2 * p + k) * (2 * p + k) - 4 * p * p));
  for (const char* route : {"iterative", "direct", "newton"}) {
    SCOPED_TRACE(route);
    eis_test::SceneFields scene = cube("-10 group outer");
    if (route == std::string("direct")) scene.extra.push_back({"solver.linear", "direct"});
    if (route == std::string("newton")) {  // SNES to convergence: the first step is static
      scene.newton = eis::NewtonMode::Full;
      scene.steps = 2;
    }
    const eis::NodalTable state = eis_test::run(scene);
    if (!eis_test::root()) continue;
    ASSERT_EQ(state.ids.size(), 64u);
    double worst = 0;
    for (std::size_t i = 0; i < state.ids.size(); ++i) {
      const auto rest = eis_test::boxRestPosition(kSize, kCells, state.ids[i]);
      for (int d = 0; d < 3; ++d)
        worst = std::max(worst, std::fabs(state.values[i * state.width + d] - (1 + e) * rest[d]));
    }
    EXPECT_LT(worst, 1e-9 * std::fabs(e)) << "e = " << e;
    std::cout << "[ figures ] " << route << ": homogeneous compression e = " << e
              << ", largest error / |e| = " << worst / std::fabs(e) << "\n";
  }
}

// A pressure on one face (a box on the current positions) and another on a group, dynamic steps:
// every rank count ends in the serial state; matrix-free products (addDForce) and the direct LU
// solve end there too.
TEST_F(SurfacePressureRuns, PartialPressuresGiveTheSerialStateOnEveryRankCount) {
  eis_test::SceneFields scene = cube("30 box 0.99 -0.01 -0.01 1.01 1.01 1.01");
  scene.extra.push_back({"load.pressure", "-5 group outer"});
  scene.extra.push_back({"load.surface-traction", "0 2 1 triangles 3 7 11"});
  scene.firstOrder = false;
  scene.dt = 0.02;
  scene.steps = 5;
  scene.initialGuess = eis::InitialGuess::Automatic;
  const eis::NodalTable reference = eis_test::serialReference(scene);
  const double gap = eis_test::disagreement(reference, eis_test::run(scene), scene);
  EXPECT_LT(gap, 1e-10);
  eis_test::SceneFields direct = scene, free = scene;
  direct.extra.push_back({"solver.linear", "direct"});
  free.op = eis::OperatorMode::MatrixFree;
  free.preconditioner = eis::Preconditioner::Jacobi;
  const double gapDirect = eis_test::disagreement(reference, eis_test::run(direct), scene);
  const double gapFree = eis_test::disagreement(reference, eis_test::run(free), scene);
  EXPECT_LT(gapDirect, 1e-9);
  EXPECT_LT(gapFree, 1e-9);
  if (eis_test::root())
    std::cout << "[ figures ] disagreement with the serial run: iterative " << gap << ", direct "
              << gapDirect << ", matrix-free " << gapFree << "\n";
}

// The two triangles of one square of the face x = 1, so on one or two ranks only: the other
// ranks still treat the matrix as nonlinear and nonsymmetric (a verdict that differed between
// ranks once left them in different collective calls).
TEST_F(SurfacePressureRuns, ALoadOnFewRanksGivesTheSerialState) {
  const eis::SerialMesh box = eis::makeBoxMesh(kSize, kCells);
  const std::vector<Face> boundary = outwardBoundary(box);
  std::string square = "400 triangles";
  for (std::size_t t = 0; t < boundary.size(); ++t) {
    bool inSquare = true;
    for (auto v : boundary[t]) {
      const auto& p = box.nodes[std::size_t(v)];
      inSquare = inSquare && p[0] == 1 && p[1] > 0.6 && p[2] > 0.6;
    }
    if (inSquare) square += " " + std::to_string(t);
  }
  eis_test::SceneFields scene = cube(square);
  scene.firstOrder = false;
  scene.dt = 0.02;
  scene.steps = 4;
  scene.initialGuess = eis::InitialGuess::Automatic;
  const eis::NodalTable reference = eis_test::serialReference(scene);
  const double gap = eis_test::disagreement(reference, eis_test::run(scene), scene);
  EXPECT_LT(gap, 1e-10);
  if (eis_test::root()) std::cout << "[ figures ] one square: disagreement " << gap << "\n";
}

// A pulsed pressure (SOFA's pulseMode) P = 30, 500 a second, dt = 0.02: 10, 20, 30 (the bound)
// and 20 over four steps, equals four one-step runs of those constant pressures, each from the
// state the last ended in; and the serial run on every rank count.
TEST_F(SurfacePressureRuns, APulsedPressureIsItsStepsConstantPressures) {
  eis_test::SceneFields pulsed = cube("1 all");
  pulsed.extra.back() = {"load.pressure-pulse", "30 500 0 group outer"};
  pulsed.firstOrder = false;
  pulsed.dt = 0.02;
  pulsed.steps = 4;
  const eis::NodalTable reference = eis_test::serialReference(pulsed);
  const eis::NodalTable whole = eis_test::run(pulsed);
  eis::NodalTable chained;
  const double pressures[] = {10, 20, 30, 20};
  for (int step = 0; step < 4; ++step) {
    eis_test::SceneFields one = cube(std::to_string(pressures[step]) + " group outer");
    one.firstOrder = false;
    one.dt = 0.02;
    one.steps = 1;
    if (step > 0) one.initialState = file("s" + std::to_string(step) + ".csv");
    one.finalState = file("s" + std::to_string(step + 1) + ".csv");
    chained = eis_test::run(one);
  }
  const double gapRanks = eis_test::disagreement(reference, whole, pulsed);
  const double gapChain = eis_test::disagreement(whole, chained, pulsed);
  EXPECT_LT(gapRanks, 1e-10);
  EXPECT_LT(gapChain, 1e-9);
  if (eis_test::root())
    std::cout << "[ figures ] pulse: disagreement with the serial run " << gapRanks
              << ", with the chained constant pressures " << gapChain << "\n";
}

TEST_F(SurfacePressureRuns, TrianglesThatAreNoSingleFaceAreErrors) {
  const std::pair<std::string, std::string> cases[] = {
      {"1 group inner",
       "triangle 108 of the mesh file is a face of 2 tetrahedra (an interior face)"},
      {"1 group loose", "triangle 109 of the mesh file is a face of 0 tetrahedra"},
      {"1 triangles 3 109", "triangle 109 of the mesh file is a face of 0 tetrahedra"},
      {"1 triangles 110", "triangle 110 is past the mesh file's 110 triangles"},
      {"1 group nosuch", "the mesh has no physical group nosuch"}};
  for (const auto& [value, fragment] : cases) {
    eis_test::SceneFields scene = cube(value);
    scene.steps = 1;
    try {
      eis_test::run(scene);
      ADD_FAILURE() << value << ": no error";
    } catch (const eis::Error& error) {
      const std::string message = error.what();
      EXPECT_NE(message.find("load.pressure: " + fragment), std::string::npos) << message;
    }
  }
}

}  // namespace
