#include "mpi_support.hpp"

#include <stdlib.h>

#include <algorithm>
#include <cmath>

#include "eis/app/scene_builder.hpp"
#include "eis/app/simulation.hpp"
#include "eis/mesh/box_mesh.hpp"

namespace eis_test {

int rankOf(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

int sizeOf(MPI_Comm comm) {
  int size;
  MPI_Comm_size(comm, &size);
  return size;
}

bool root() {
  return rankOf(PETSC_COMM_WORLD) == 0;
}

namespace {

template <class T>
std::vector<T> allGatherOf(const std::vector<T>& mine, MPI_Datatype type, MPI_Comm comm) {
  const int size = sizeOf(comm);
  int count = int(mine.size());
  std::vector<int> counts(size), displs(size);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
  int total = 0;
  for (int r = 0; r < size; ++r) displs[r] = total, total += counts[r];
  std::vector<T> all(total);
  MPI_Allgatherv(mine.data(), count, type, all.data(), counts.data(), displs.data(), type, comm);
  return all;
}

}  // namespace

std::vector<double> allGather(const std::vector<double>& mine, MPI_Comm comm) {
  return allGatherOf(mine, MPI_DOUBLE, comm);
}

std::vector<std::int64_t> allGather(const std::vector<std::int64_t>& mine, MPI_Comm comm) {
  return allGatherOf(mine, MPI_INT64_T, comm);
}

ScopedOptions::ScopedOptions(std::initializer_list<std::pair<const char*, const char*>> options) {
  for (const auto& [name, value] : options) set(name, value);
}

ScopedOptions::~ScopedOptions() {
  for (const char* name : names_) PetscOptionsClearValue(nullptr, name);
}

void ScopedOptions::set(const char* name, const char* value) {
  PetscOptionsSetValue(nullptr, name, value);
  names_.push_back(name);
}

TightSolveOptions::TightSolveOptions(Tighten what) {
  set("-ksp_rtol", "1e-13");
  if (what == Tighten::LinearAndNonlinear) set("-snes_rtol", "1e-12");
}

eis_test::SceneFields cantilever(const std::array<double, 3>& size, const std::array<int, 3>& cells,
                                 double youngModulus) {
  eis_test::SceneFields scene;
  scene.boxSize = size;
  scene.boxCells = cells;
  scene.fixedBoxes = {{{0, 0, 0}, {0, size[1], size[2]}}};
  scene.youngModulus = youngModulus;
  return scene;
}

eis::NodalTable run(const eis_test::SceneFields& scene, MPI_Comm comm) {
  eis::Simulation simulation(scene.toScene(), comm, nullptr);
  simulation.run();
  return simulation.gatherState();
}

eis::NodalTable serialReference(const eis_test::SceneFields& scene) {
  MPI_Comm self;
  MPI_Comm_split(PETSC_COMM_WORLD, root() ? 0 : MPI_UNDEFINED, 0, &self);
  eis::NodalTable reference;
  if (self != MPI_COMM_NULL) {
    reference = run(scene, self);
    MPI_Comm_free(&self);
  }
  return reference;
}

std::array<double, 3> boxRestPosition(const std::array<double, 3>& size,
                                      const std::array<int, 3>& cells, std::int64_t id) {
  const std::int64_t nx1 = cells[0] + 1, ny1 = cells[1] + 1;
  const std::int64_t ijk[3] = {id % nx1, (id / nx1) % ny1, id / (nx1 * ny1)};
  std::array<double, 3> p;
  for (int d = 0; d < 3; ++d) p[d] = double(ijk[d]) * size[d] / cells[d];
  return p;
}

double disagreement(const eis::NodalTable& a, const eis::NodalTable& b,
                    const eis_test::SceneFields& scene) {
  double result = 0;
  if (root()) {
    EXPECT_EQ(a.ids, b.ids);
    double largestDifference = 0, largestDisplacement = 0;
    for (std::size_t n = 0; n < a.ids.size() && n < b.ids.size(); ++n) {
      const auto rest = boxRestPosition(scene.boxSize, scene.boxCells, a.ids[n]);
      for (int c = 0; c < a.width; ++c) {
        const double value = a.values[n * a.width + c];
        largestDifference =
            std::max(largestDifference, std::fabs(value - b.values[n * b.width + c]));
        if (c < 3) largestDisplacement = std::max(largestDisplacement, std::fabs(value - rest[c]));
      }
    }
    result = largestDifference / largestDisplacement;
  }
  MPI_Bcast(&result, 1, MPI_DOUBLE, 0, PETSC_COMM_WORLD);
  return result;
}

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

double relativeResidual(Mat A, Vec x, Vec b) {
  Vec r;
  VecDuplicate(b, &r);
  MatMult(A, x, r);
  VecAYPX(r, -1.0, b);
  PetscReal residual, rhs;
  VecNorm(r, NORM_2, &residual);
  VecNorm(b, NORM_2, &rhs);
  VecDestroy(&r);
  return double(residual / rhs);
}

Operation operationOf(Mat A, MatOperation operation) {
  Operation function;
  MatGetOperation(A, operation, &function);
  return function;
}

eis::SerialMesh boxOnRankZero(const eis_test::SceneFields& scene) {
  return root() ? eis::makeBoxMesh(scene.boxSize, scene.boxCells, scene.cellType)
                : eis::SerialMesh{};
}

BoxModel::BoxModel(const eis_test::SceneFields& s, int dofsPerNode) : scene(s) {
  mesh = std::make_unique<eis::DistributedMesh>(PETSC_COMM_WORLD, boxOnRankZero(scene), dofsPerNode,
                                                0);
  std::vector<std::string> warnings;
  system = eis::buildSystem(scene.toScene(), *mesh, warnings);
}

eis::Vec3 BoxModel::smooth(const eis::Vec3& p, double a, double b, double c) {
  eis::Vec3 w;
  for (int d = 0; d < 3; ++d)
    w[d] = std::sin(a * p[0] + b * p[1] + c * p[2] + d) * (0.2 + 0.1 * p[0]);
  return w;
}

Vec BoxModel::field(double a, double b, double c) {
  return field([&](const eis::Vec3& p) { return smooth(p, a, b, c); });
}

Vec BoxModel::field(const std::function<eis::Vec3(const eis::Vec3&)>& at) {
  Vec v = system->createVector();
  PetscScalar* values;
  VecGetArray(v, &values);
  for (std::size_t n = 0; n < mesh->numLocalVertices(); ++n) {
    if (!mesh->owned()[n]) continue;
    const auto w = at(mesh->restCoords()[n]);
    for (int d = 0; d < 3; ++d) values[mesh->ownedOffset(PetscInt(n)) + d] = w[d];
  }
  VecRestoreArray(v, &values);
  return v;
}

void BoxModel::forceDifference(Vec x, Vec velocity, Vec moved, Vec dx, double eps, Vec fd,
                               Vec work) {
  VecAXPY(moved, eps, dx);
  system->computeForce(x, velocity, fd);
  VecAXPY(moved, -2 * eps, dx);
  system->computeForce(x, velocity, work);
  VecAXPY(moved, eps, dx);
  VecAXPY(fd, -1.0, work);
  VecScale(fd, 1.0 / (2 * eps));
  system->computeForce(x, velocity, work);
}

namespace {

// The vectors of a tangent check at the point and direction BoxModel's tangent gaps use.
struct TangentProbe {
  explicit TangentProbe(BoxModel& m)
      : x(m.system->createVector()),
        u(m.field(1.3, 0.7, -0.4)),
        v(m.system->createVector()),
        dx(m.field(0.9, -1.7, 0.6)),
        fd(m.system->createVector()),
        work(m.system->createVector()),
        product(m.system->createVector()) {
    m.system->setRestState(x);
    VecAXPY(x, 0.1, u);
    VecZeroEntries(v);
  }
  ~TangentProbe() {
    for (Vec* w : {&x, &u, &v, &dx, &fd, &work, &product}) VecDestroy(w);
  }
  TangentProbe(const TangentProbe&) = delete;
  TangentProbe& operator=(const TangentProbe&) = delete;
  Vec x, u, v, dx, fd, work, product;
};

}  // namespace

double BoxModel::productTangentGap(double eps) {
  TangentProbe p(*this);
  forceDifference(p.x, p.v, p.x, p.dx, eps, p.fd, p.work);
  VecZeroEntries(p.product);
  system->addMBKv(p.product, 0.0, 0.0, 1.0, p.dx);
  return relativeGap(p.fd, p.product);
}

double BoxModel::matrixTangentGap(double eps) {
  TangentProbe p(*this);
  system->projectResponse(p.dx);
  forceDifference(p.x, p.v, p.x, p.dx, eps, p.fd, p.work);
  MatMult(system->systemMatrix(0.0, 0.0, 1.0), p.dx, p.product);
  system->projectResponse(p.product);
  system->projectResponse(p.fd);
  return relativeGap(p.fd, p.product);
}

void TemporaryFolderTest::SetUp() {
  std::string path;
  if (root()) {
    std::string pattern = (std::filesystem::temp_directory_path() / "eis_test_XXXXXX").string();
    if (::mkdtemp(pattern.data())) path = pattern;
  }
  int length = int(path.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, PETSC_COMM_WORLD);
  path.resize(length);
  MPI_Bcast(path.data(), length, MPI_CHAR, 0, PETSC_COMM_WORLD);
  ASSERT_FALSE(path.empty()) << "cannot create a temporary folder";
  dir_ = path;
}

void TemporaryFolderTest::TearDown() {
  MPI_Barrier(PETSC_COMM_WORLD);  // every rank is done with the files
  if (root() && !dir_.empty()) std::filesystem::remove_all(dir_);
}

}  // namespace eis_test
