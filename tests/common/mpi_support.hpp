#pragma once
// Scaffolding the MPI tests share: ranks, PETSc options held for one test, whole runs compared
// with a serial run, and the built-in box distributed over PETSC_COMM_WORLD as a model.
// Every function here that takes no communicator works on PETSC_COMM_WORLD; the ones marked
// collective must be called on every rank.
#include <gtest/gtest.h>
#include <mpi.h>
#include <petscvec.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "eis/core/tetra_geometry.hpp"
#include "eis/io/state_csv.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/mesh/serial_mesh.hpp"
#include "eis/model/mechanical_system.hpp"
#include "scene_fields.hpp"

namespace eis_test {

// ---------------------------------------------------------------------------------------------
// Ranks

// This process's rank in `comm`.
int rankOf(MPI_Comm comm);

// The number of ranks in `comm`.
int sizeOf(MPI_Comm comm);

// Whether this process is rank 0 of PETSC_COMM_WORLD (where gathered results and files live).
bool root();

// In a test whose check is a property of the discretisation (an order of convergence, energy
// conservation, a settled state), not of the partition: the check is the same on every rank
// count, so the test runs in the 1-rank launch (mpi.np1) and skips the others (mpi.np2, mpi.np3,
// and the checking build's 2-rank launch, jobs/sanitize.sh), which would repeat its minutes of
// steps to check the same thing. Whether ranks agree with one rank is the tests' of whole runs
// against a serial reference (Cantilever.EveryRankCountGivesTheSerialFinalState and others).
#define EIS_ON_ONE_RANK_ONLY()                 \
  if (eis_test::sizeOf(PETSC_COMM_WORLD) != 1) \
  GTEST_SKIP() << "a study of the discretisation, the same on every rank count: mpi.np1 runs it"

// Collective: every rank's `mine`, concatenated in rank order, on every rank.
std::vector<double> allGather(const std::vector<double>& mine, MPI_Comm comm);
std::vector<std::int64_t> allGather(const std::vector<std::int64_t>& mine, MPI_Comm comm);

// ---------------------------------------------------------------------------------------------
// PETSc options for one test

// PETSc options that hold for as long as this object lives: every option set() is cleared again
// when it goes. A fixture holds one, so that a test's options never leak into the next test.
class ScopedOptions {
public:
  ScopedOptions() = default;
  ScopedOptions(std::initializer_list<std::pair<const char*, const char*>> options);
  ~ScopedOptions();
  ScopedOptions(const ScopedOptions&) = delete;
  ScopedOptions& operator=(const ScopedOptions&) = delete;

  void set(const char* name, const char* value);

private:
  std::vector<const char*> names_;
};

// Which solves TightSolveOptions tightens: the linear ones, or the nonlinear (Newton) ones too.
enum class Tighten { Linear, LinearAndNonlinear };

// Tight solves, so that two routes to the same state agree to rounding: -ksp_rtol 1e-13 and,
// with Tighten::LinearAndNonlinear, -snes_rtol 1e-12, for as long as the object lives.
class TightSolveOptions : public ScopedOptions {
public:
  explicit TightSolveOptions(Tighten what = Tighten::LinearAndNonlinear);
};

// A fixture whose every test runs with tight linear and nonlinear solves. GoogleTest wants one
// fixture class per test suite name, so each suite derives its own (class X : public
// TightSolvesTest {};) rather than naming this one in TEST_F.
class TightSolvesTest : public ::testing::Test {
protected:
  TightSolveOptions tight_;
};

// A folder of its own for each test: made on rank 0, its name sent to every rank, removed after
// every rank is done with it. Suites derive from it as from TightSolvesTest.
class TemporaryFolderTest : public ::testing::Test {
protected:
  void SetUp() override;
  void TearDown() override;
  std::string file(const std::string& name) const { return (dir_ / name).string(); }
  std::filesystem::path dir_;
};

// ---------------------------------------------------------------------------------------------
// Scenes

// The built-in box of `size` and `cells` as a cantilever held at x = 0 (the fixed box is that
// face), of Young's modulus `youngModulus`; everything else at the scene's defaults.
eis_test::SceneFields cantilever(const std::array<double, 3>& size, const std::array<int, 3>& cells,
                                 double youngModulus);

// ---------------------------------------------------------------------------------------------
// Whole runs

// Collective on `comm`: runs the scene to its end and returns the state gathered on rank 0 of
// `comm` (empty elsewhere).
eis::NodalTable run(const eis_test::SceneFields& scene, MPI_Comm comm = PETSC_COMM_WORLD);

// Collective: the scene run on rank 0 of PETSC_COMM_WORLD alone (a communicator split off for it),
// the reference the same scene on every rank of the world is held to. Empty on other ranks.
eis::NodalTable serialReference(const eis_test::SceneFields& scene);

// Rest position of node `id` of the built-in box, from docs/architecture.md's formula:
// (i Lx/nx, j Ly/ny, k Lz/nz) for id = i + (nx + 1) (j + (ny + 1) k).
std::array<double, 3> boxRestPosition(const std::array<double, 3>& size,
                                      const std::array<int, 3>& cells, std::int64_t id);

// Collective: the largest difference over all nodes and components of two gathered states of the
// scene's built-in box divided by the largest displacement of `a` from rest, as
// docs/architecture.md measures agreement; evaluated on rank 0 (which also checks that both have
// the same ids) and shared with every rank.
double disagreement(const eis::NodalTable& a, const eis::NodalTable& b,
                    const eis_test::SceneFields& scene);

// Collective: |b - a|_inf / |a|_inf of two distributed vectors.
double relativeGap(Vec a, Vec b);

// Collective: ||b - A x||_2 / ||b||_2, by PETSc's product.
double relativeResidual(Mat A, Vec x, Vec b);

// The entry `operation` of A's operation table, to tell which function a product runs.
using Operation = void (*)(void);
Operation operationOf(Mat A, MatOperation operation);

// ---------------------------------------------------------------------------------------------
// The built-in box as a distributed model

// Collective: the scene's built-in box on rank 0, an empty mesh elsewhere (what DistributedMesh
// takes).
eis::SerialMesh boxOnRankZero(const eis_test::SceneFields& scene);

// Collective: the scene's built-in box distributed over PETSC_COMM_WORLD (unrefined, with
// `dofsPerNode` unknowns per node) and the mechanical system the scene builds on it.
struct BoxModel {
  explicit BoxModel(const eis_test::SceneFields& s, int dofsPerNode = 3);

  // A smooth field of the rest coordinates, so that it is the same whatever the rank count:
  // w_d = sin(a x + b y + c z + d) (0.2 + 0.1 x).
  static eis::Vec3 smooth(const eis::Vec3& p, double a, double b, double c);
  // A new vector (3 unknowns per node) with smooth(p, a, b, c) at every owned node p.
  Vec field(double a, double b, double c);
  // A new vector (3 unknowns per node) with at(p) at every owned node p.
  Vec field(const std::function<eis::Vec3(const eis::Vec3&)>& at);
  // Centred difference of the force f(x, velocity) along dx, into fd: (f(moved + eps dx) -
  // f(moved - eps dx)) / 2 eps, where `moved` is x or velocity (and is put back); then f(x,
  // velocity) again (into work), so that the system is linearized where its tangents are compared.
  void forceDifference(Vec x, Vec velocity, Vec moved, Vec dx, double eps, Vec fd, Vec work);
  // The tangent K against centred differences of the force (step eps), relativeGap(fd, K dx):
  // at the rest state moved by 0.1 field(1.3, 0.7, -0.4), at rest, along dx = field(0.9, -1.7,
  // 0.6). productTangentGap takes K dx from addMBKv(0, 0, 1); matrixTangentGap from the system
  // matrix (0, 0, 1), dx and both sides projected.
  double productTangentGap(double eps);
  double matrixTangentGap(double eps);

  eis_test::SceneFields scene;
  std::unique_ptr<eis::DistributedMesh> mesh;
  std::unique_ptr<eis::MechanicalSystem> system;
};

}  // namespace eis_test
