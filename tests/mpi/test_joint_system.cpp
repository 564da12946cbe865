// Two bodies of rigid frames (a RigidGroup, a spring between their centres) and a mesh body in
// one system (model/joint_system), joined by springs from the
// frames' mapped points to mesh nodes (one of them fixed), with springs between the mesh's own
// nodes beside them, or by points of the mesh a frame carries under planes, on 1, 2 and 3
// ranks: the tangent the products and the assembled matrix give is the central difference of
// the force with frames (turned by the quaternion rule) and nodes moved together, the two agree,
// and steps of the library's EulerImplicitSolver end where the same steps on rank 0 alone do.
#include <gtest/gtest.h>
#include <mpi.h>
#include <petscksp.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "eis/app/scene_builder.hpp"
#include "eis/linalg/linear_solver.hpp"
#include "eis/mesh/box_mesh.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/joint_system.hpp"
#include "eis/ode/euler_implicit_solver.hpp"
#include "mpi_support.hpp"

namespace {

using eis::RigidGeometricStiffness;

const eis_test::SceneFields& boxScene() {
  static const eis_test::SceneFields scene = eis_test::cantilever({1, 0.5, 0.5}, {2, 1, 1}, 2e3);
  return scene;
}

// Two bodies of one frame each beyond the box's free end (x = 1), a spring between their
// centres (SpringForceField<Rigid3>), three points on them, and four springs to the box's nodes
// (ids i + 3 (j + 2 k)): three on the free end, one on the fixed face (node 3).
eis::RigidBodyParameters framesParameters(RigidGeometricStiffness mode, int body) {
  eis::RigidBodyParameters p;
  const double s = std::sin(0.2), c = std::cos(0.2);
  p.mass.mass = 0.7;
  p.mass.inertia = {0.2, 0.01, 0, 0.01, 0.3, 0, 0, 0, 0.25};
  p.gravity = {0, -9.81, 0};
  p.mapped.mass = 0.2;
  p.mapped.geometric = mode;
  if (body == 0) {
    p.frames = {1.5, 0.25, 0.25, 0, s, 0, c};
    p.mapped.frameOf = {0, 0};
    p.mapped.local = {{-0.3, 0.1, 0}, {0, -0.2, 0.1}};
    p.mapped.forces = {{0, 0, 0}, {0.1, 0, 0}};
  } else {
    p.frames = {1.4, 0.9, 0.2, s * 0.6, 0, s * 0.8, c};
    p.fixed = {{false, false, false, true, false, false}};
    p.mapped.frameOf = {0};
    p.mapped.local = {{-0.4, 0, 0.1}};
    p.mapped.forces = {{0, 0, -0.2}};
  }
  return p;
}

std::unique_ptr<eis::RigidGroup> framesGroup(MPI_Comm comm, RigidGeometricStiffness mode) {
  std::vector<std::unique_ptr<eis::RigidBody>> members;
  for (int body : {0, 1})
    members.push_back(std::make_unique<eis::RigidBody>(comm, framesParameters(mode, body)));
  eis::RigidFrameSpring between;
  between.frame1 = 0;
  between.frame2 = 1;
  between.law.ks = 30;
  between.law.kd = 0.2;
  between.law.length = 0.5;
  return std::make_unique<eis::RigidGroup>(std::move(members),
                                           std::vector<eis::RigidFrameSpring>{between});
}

std::vector<eis::PointNodeSpring> springs(double kd) {
  const auto spring = [kd](std::size_t member, std::size_t point, std::int64_t node, double ks,
                           double length) {
    eis::PointNodeSpring s;
    s.member = member;
    s.point = point;
    s.node = node;
    s.law.ks = ks;
    s.law.kd = kd;
    s.law.length = length;
    return s;
  };
  return {spring(0, 0, 2, 50, 0.4), spring(0, 1, 11, 80, 0.3), spring(1, 0, 5, 60, 0.5),
          spring(1, 0, 3, 40, 1.0)};
}

// The box's own springs (its interaction.springs to itself): free nodes, a free node to one
// on the fixed face (9), and nodes the springs from points reach too (2, 5, 11).
std::vector<eis::MeshSpring> meshSprings(double kd) {
  const auto spring = [kd](std::int64_t a, std::int64_t b, double ks, double length) {
    eis::MeshSpring s;
    s.law.node1 = a;
    s.law.node2 = b;
    s.law.ks = ks;
    s.law.kd = kd;
    s.law.length = length;
    return s;
  };
  return {spring(4, 11, 70, 0.2), spring(5, 9, 45, 0.6), spring(2, 8, 55, 0.3)};
}

// Points the first body's frame carries from the box, given in its coordinates (the box's nodes
// on y = 0: ids i + 6 k): the frame turns about y, so they lie at y = 0.25 + u_y, on the
// bilateral plane y = 0.25, where their force is zero (OnPlane; Slack: that plane without
// stiffness); Pushed adds a plane below which all lie (a force on every point) and damping.
enum class Carried { None, OnPlane, Slack, Pushed };

eis::JointCarried carriedPoints(Carried kind) {
  const bool pushed = kind == Carried::Pushed;
  eis::JointCarried c;
  c.points = {{{{0, 0.5}, {2, 0.5}}}, {{{6, 0.25}, {7, 0.25}, {1, 0.5}}}, {{{8, 1.0}}}};
  eis::Plane floor;
  floor.normal = {0, 1, 0};
  floor.d = 0.25;
  floor.stiffness = kind == Carried::Slack ? 0 : 40;
  floor.damping = pushed ? 0.5 : 0;
  floor.bilateral = true;
  c.planes = {floor};
  if (pushed) {
    eis::Plane wall;
    wall.normal = {0.2, 0.1, 1};
    wall.d = 5;
    wall.stiffness = 25;
    wall.damping = 0.3;
    c.planes.push_back(wall);
  }
  return c;
}

struct Joint {
  // carried: the frame carries the box's points (carriedPoints) instead of springs joining them.
  Joint(MPI_Comm comm, RigidGeometricStiffness mode, double kd, Carried carried = Carried::None) {
    const eis_test::SceneFields& scene = boxScene();
    mesh = std::make_unique<eis::DistributedMesh>(
        comm,
        eis_test::rankOf(comm) == 0 ? eis::makeBoxMesh(scene.boxSize, scene.boxCells)
                                    : eis::SerialMesh{},
        3, 0);
    std::vector<std::string> warnings;
    system = eis::buildSystem(scene.toScene(), *mesh, warnings);
    frames = framesGroup(comm, mode);
    joint = carried != Carried::None ? std::make_unique<eis::JointSystem>(
                                           *frames, *system, std::vector<eis::PointNodeSpring>{},
                                           std::vector<eis::MeshSpring>{}, carriedPoints(carried))
                                     : std::make_unique<eis::JointSystem>(
                                           *frames, *system, springs(kd), meshSprings(kd));
    Vec fx = frames->createPositions(), mx = system->createVector();
    system->setRestState(mx);
    x = joint->createPositions(fx, mx);
    VecDestroy(&fx);
    VecDestroy(&mx);
    v = joint->createVector();
    VecZeroEntries(v);
  }
  ~Joint() {
    VecDestroy(&x);
    VecDestroy(&v);
  }
  // A joined velocity-shaped field the same on any partition: frame unknown a gets
  // sin(a + c) / 4, node n's component d sin(n + 0.3 d + c) / 10.
  Vec field(double c) {
    Vec framePart = frames->createVelocities(), meshPart = system->createVector();
    PetscScalar* values;
    PetscInt n;
    VecGetLocalSize(framePart, &n);
    VecGetArray(framePart, &values);
    for (PetscInt a = 0; a < n; ++a) values[a] = std::sin(double(a) + c) / 4;
    VecRestoreArray(framePart, &values);
    VecGetArray(meshPart, &values);
    for (std::size_t node = 0; node < mesh->numLocalVertices(); ++node) {
      if (!mesh->owned()[node]) continue;
      const double id = double(mesh->nodeIds()[node]);
      for (int d = 0; d < 3; ++d)
        values[mesh->ownedOffset(PetscInt(node)) + d] = std::sin(id + 0.3 * d + c) / 10;
    }
    VecRestoreArray(meshPart, &values);
    Vec whole = joint->createVector();
    joint->join(framePart, meshPart, whole, false);
    VecDestroy(&framePart);
    VecDestroy(&meshPart);
    return whole;
  }
  // The frames' state and the nodes' positions by id, on every rank.
  std::vector<double> gathered() {
    Vec framePart = frames->createPositions(), meshPart = system->createVector();
    joint->split(x, framePart, meshPart, true);
    std::vector<double> framesState(std::size_t(frames->frames()) * 7, 0.0);
    const PetscScalar* values;
    PetscInt n;
    VecGetLocalSize(framePart, &n);
    VecGetArrayRead(framePart, &values);
    std::copy(values, values + n, framesState.begin());
    VecRestoreArrayRead(framePart, &values);
    MPI_Bcast(framesState.data(), int(framesState.size()), MPI_DOUBLE, 0, mesh->comm());
    std::vector<double> mine;
    VecGetArrayRead(meshPart, &values);
    for (std::size_t node = 0; node < mesh->numLocalVertices(); ++node) {
      if (!mesh->owned()[node]) continue;
      mine.push_back(double(mesh->nodeIds()[node]));
      for (int d = 0; d < 3; ++d) mine.push_back(values[mesh->ownedOffset(PetscInt(node)) + d]);
    }
    VecRestoreArrayRead(meshPart, &values);
    VecDestroy(&framePart);
    VecDestroy(&meshPart);
    const std::vector<double> all = eis_test::allGather(mine, mesh->comm());
    std::map<double, std::array<double, 3>> byId;
    for (std::size_t i = 0; i < all.size(); i += 4)
      byId[all[i]] = {all[i + 1], all[i + 2], all[i + 3]};
    std::vector<double> state = framesState;
    for (const auto& [id, p] : byId) state.insert(state.end(), p.begin(), p.end());
    return state;
  }

  std::unique_ptr<eis::DistributedMesh> mesh;
  std::unique_ptr<eis::MechanicalSystem> system;
  std::unique_ptr<eis::RigidGroup> frames;
  std::unique_ptr<eis::JointSystem> joint;
  Vec x = nullptr, v = nullptr;
};

double maxAbs(Vec a) {
  PetscReal n;
  VecNorm(a, NORM_INFINITY, &n);
  return double(n);
}

// (f(x + eps dx) - f(x - eps dx)) / 2 eps, x moved by addToPosition (the frames turned).
void forceDifference(Joint& j, Vec dx, double eps, Vec fd) {
  Vec moved, f;
  VecDuplicate(j.x, &moved);
  VecDuplicate(dx, &f);
  VecCopy(j.x, moved);
  j.joint->addToPosition(moved, eps, dx);
  j.joint->computeForce(moved, j.v, fd);
  VecCopy(j.x, moved);
  j.joint->addToPosition(moved, -eps, dx);
  j.joint->computeForce(moved, j.v, f);
  VecAXPBY(fd, -1 / (2 * eps), 1 / (2 * eps), f);
  j.joint->computeForce(j.x, j.v, f);  // linearized at x again
  VecDestroy(&moved);
  VecDestroy(&f);
}

// With the mapping's exact geometric stiffness, K is df/dx: the products and the matrix give the
// central difference along a direction that moves frames and nodes, projected, and each other.
TEST(JointSystem, TangentIsTheForcesCentralDifference) {
  Joint j(PETSC_COMM_WORLD, RigidGeometricStiffness::Exact, 0);
  Vec shift = j.field(0.4), dx = j.field(1.3);
  j.joint->addToPosition(j.x, 1, shift);
  j.joint->projectResponse(dx);
  Vec fd = j.joint->createVector(), product = j.joint->createVector(),
      assembled = j.joint->createVector();
  forceDifference(j, dx, 1e-6, fd);
  VecZeroEntries(product);
  j.joint->addMBKv(product, 0, 0, 1, dx);
  MatMult(j.joint->systemMatrix(0, 0, 1), dx, assembled);
  for (Vec u : {fd, product, assembled}) j.joint->projectResponse(u);
  const double scale = maxAbs(fd);
  EXPECT_GT(scale, 1);
  VecAXPY(product, -1, fd);
  VecAXPY(assembled, -1, fd);
  EXPECT_LT(maxAbs(product) / scale, 1e-7);
  EXPECT_LT(maxAbs(assembled) / scale, 1e-7);
  for (Vec* u : {&shift, &dx, &fd, &product, &assembled}) VecDestroy(u);
}

// With mass, damping and the stabilized geometric stiffness (symmetric), at a moved and moving
// state: the matrix of a step's factors times a vector is the product, to rounding.
void expectMatrixGivesTheProducts(Carried carried) {
  Joint j(PETSC_COMM_WORLD, RigidGeometricStiffness::Stabilized, 0.5, carried);
  Vec shift = j.field(0.4), dx = j.field(2.1);
  j.joint->addToPosition(j.x, 1, shift);
  VecCopy(shift, j.v);
  j.joint->projectResponse(dx);
  Vec f = j.joint->createVector(), product = j.joint->createVector(),
      assembled = j.joint->createVector();
  j.joint->computeForce(j.x, j.v, f);
  VecZeroEntries(product);
  j.joint->addMBKv(product, 1.2, -0.01, -0.0003, dx);
  MatMult(j.joint->systemMatrix(1.2, -0.01, -0.0003), dx, assembled);
  for (Vec u : {product, assembled}) j.joint->projectResponse(u);
  const double scale = maxAbs(product);
  VecAXPY(assembled, -1, product);
  EXPECT_LT(maxAbs(assembled) / scale, 1e-13);
  for (Vec* u : {&shift, &dx, &f, &product, &assembled}) VecDestroy(u);
}

TEST(JointSystem, MatrixGivesTheProducts) {
  expectMatrixGivesTheProducts(Carried::None);
}

// Points the frame carries, all on the bilateral plane (no force there): J^T K J, by the
// products and by the matrix, is the central difference of the force (SOFA's mapping has no
// geometric stiffness, which a force would bring), with the frames' own exact tangent.
TEST(JointSystem, CarriedPointsTangentIsTheForcesCentralDifference) {
  Joint j(PETSC_COMM_WORLD, RigidGeometricStiffness::Exact, 0, Carried::OnPlane);
  Joint slack(PETSC_COMM_WORLD, RigidGeometricStiffness::Exact, 0, Carried::Slack);
  Vec dx = j.field(1.3);
  j.joint->projectResponse(dx);
  Vec fd = j.joint->createVector(), product = j.joint->createVector(),
      assembled = j.joint->createVector(), without = j.joint->createVector();
  forceDifference(j, dx, 1e-6, fd);
  VecZeroEntries(product);
  j.joint->addMBKv(product, 0, 0, 1, dx);
  MatMult(j.joint->systemMatrix(0, 0, 1), dx, assembled);
  VecZeroEntries(without);
  slack.joint->addMBKv(without, 0, 0, 1, dx);
  for (Vec u : {fd, product, assembled, without}) j.joint->projectResponse(u);
  const double scale = maxAbs(fd);
  EXPECT_GT(scale, 1);
  // The plane's stiffness is a good part of it.
  VecAXPY(without, -1, fd);
  EXPECT_GT(maxAbs(without) / scale, 0.1);
  VecAXPY(product, -1, fd);
  VecAXPY(assembled, -1, fd);
  EXPECT_LT(maxAbs(product) / scale, 1e-7);
  EXPECT_LT(maxAbs(assembled) / scale, 1e-7);
  for (Vec* u : {&dx, &fd, &product, &assembled, &without}) VecDestroy(u);
}

// Carried points pushed by two planes, with damping.
TEST(JointSystem, CarriedPointsMatrixGivesTheProducts) {
  expectMatrixGivesTheProducts(Carried::Pushed);
}

class JointSteps : public eis_test::TightSolvesTest {};

std::vector<double> stepped(MPI_Comm comm, Carried carried = Carried::None) {
  Joint j(comm, RigidGeometricStiffness::None, 0.5, carried);
  eis::EulerImplicitOptions options;
  options.rayleighMass = 0.1;
  options.rayleighStiffness = 0.01;
  {
    eis::EulerImplicitSolver solver(options, j.v,
                                    std::make_unique<eis::LinearSolver>(comm, PCJACOBI, nullptr));
    for (int step = 0; step < 4; ++step) solver.step(*j.joint, j.x, j.v, 0.01);
  }
  return j.gathered();
}

// The steps on every rank end where the same steps on rank 0 alone do, the frames moved.
void expectEveryRankCountGivesTheOneRankState(Carried carried) {
  const std::vector<double> all = stepped(PETSC_COMM_WORLD, carried);
  MPI_Comm self;
  MPI_Comm_split(PETSC_COMM_WORLD, eis_test::root() ? 0 : MPI_UNDEFINED, 0, &self);
  if (self == MPI_COMM_NULL) return;
  const std::vector<double> alone = stepped(self, carried);
  MPI_Comm_free(&self);
  ASSERT_EQ(all.size(), alone.size());
  const std::vector<double> start = framesParameters(RigidGeometricStiffness::None, 0).frames;
  double moved = 0, gap = 0;
  for (std::size_t i = 0; i < all.size(); ++i) gap = std::max(gap, std::abs(all[i] - alone[i]));
  for (std::size_t i = 0; i < 3; ++i) moved = std::max(moved, std::abs(alone[i] - start[i]));
  EXPECT_GT(moved, 1e-4);
  EXPECT_LT(gap, 1e-12);
}

TEST_F(JointSteps, EveryRankCountGivesTheOneRankState) {
  expectEveryRankCountGivesTheOneRankState(Carried::None);
}

// The same with points the frame carries under two planes instead of the springs.
TEST_F(JointSteps, CarriedPointsEveryRankCountGivesTheOneRankState) {
  expectEveryRankCountGivesTheOneRankState(Carried::Pushed);
}

}  // namespace
