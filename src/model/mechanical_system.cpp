#include "eis/model/mechanical_system.hpp"

#include <algorithm>

#include "eis/core/error.hpp"
#include "eis/core/log_stage.hpp"
#include "eis/model/diffusion_fem.hpp"
#include "eis/model/elastic_force_fields.hpp"
#include "eis/model/mesh_springs.hpp"

namespace eis {

namespace {

// The shell's product as its own -log_view event: in a matrix-free run every MatMult of the
// "KSP solve" stage is one ShellProduct, so no assembled operator is ever multiplied.
PetscLogEvent shellProductEvent() {
  static PetscLogEvent event = -1;
  if (event < 0) EIS_CHECK(PetscLogEventRegister("ShellProduct", MAT_CLASSID, &event));
  return event;
}

PetscErrorCode shellMult(Mat A, Vec x, Vec y) {
  MechanicalSystem* system;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &system));
  try {
    system->applyShell(x, y);
  } catch (const Error& e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "%s", e.what());
  }
  PetscFunctionReturn(0);
}

PetscErrorCode shellDiagonal(Mat A, Vec d) {
  MechanicalSystem* system;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &system));
  try {
    system->shellDiagonal(d);
  } catch (const Error& e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "%s", e.what());
  }
  PetscFunctionReturn(0);
}

// Rest positions as a local array (3 per local vertex), for the linear FEM's x - x0.
std::vector<double> restArray(const DistributedMesh& mesh) {
  std::vector<double> rest;
  rest.reserve(3 * mesh.numLocalVertices());
  for (const auto& p : mesh.restCoords()) rest.insert(rest.end(), p.begin(), p.end());
  return rest;
}

std::vector<TetraShape> cellShapes(const DistributedMesh& mesh) {
  std::vector<TetraShape> shapes;
  shapes.reserve(mesh.cells().size());
  const auto& p = mesh.restCoords();
  for (const auto& c : mesh.cells()) shapes.emplace_back(p[c[0]], p[c[1]], p[c[2]], p[c[3]]);
  return shapes;
}

}  // namespace

MechanicalSystem::MechanicalSystem(const DistributedMesh& mesh, const Scene& scene,
                                   const std::vector<int>& fixedGroupTags)
    : mesh_(mesh),
      dofs_(mesh.dofsPerNode()),
      shapes_(cellShapes(mesh)),
      mass_(mesh.cells(), shapes_, mesh.dofsPerNode(),
            scene.physics == Physics::Elasticity ? scene.density : scene.capacity, scene.mass),
      constraint_(mesh, scene.fixedBoxes, fixedGroupTags),
      damping_(scene.physics == Physics::Elasticity ? scene.dampingCoefficient : 0.0),
      matrixFree_(scene.op == OperatorMode::MatrixFree) {
  if (scene.physics == Physics::Elasticity) {
    forceFields_.push_back(makeElasticForceField(scene, mesh.cells(), shapes_, restArray(mesh)));
    if (scene.springStiffness != 0 || scene.springDamping != 0)
      forceFields_.push_back(std::make_unique<MeshSpringForceField>(
          mesh.cells(), mesh.ownedEdges(), mesh.restCoords(), scene.springStiffness,
          scene.springDamping));
    gravity_.assign(scene.gravity.begin(), scene.gravity.end());
  } else {
    forceFields_.push_back(std::make_unique<DiffusionFEM>(mesh.cells(), shapes_, scene.conductivity));
  }
  if (scene.physics == Physics::Elasticity) shareForceBoxes(scene.forceBoxes);
  for (const auto& field : forceFields_) {
    linear_ = linear_ && field->isLinear();
    usesVelocity_ = usesVelocity_ || field->usesVelocity();
  }
  usesVelocity_ = usesVelocity_ || damping_ != 0;
  EIS_CHECK(DMCreateLocalVector(mesh.dm(), &localA_));
  EIS_CHECK(DMCreateLocalVector(mesh.dm(), &localV_));
  EIS_CHECK(DMCreateLocalVector(mesh.dm(), &localB_));
  EIS_CHECK(DMCreateGlobalVector(mesh.dm(), &globalWork_));
  if (matrixFree_) createShellMatrix();
  else createAssembledMatrix();
}

MechanicalSystem::~MechanicalSystem() {
  MatDestroy(&matrix_);
  VecDestroy(&localA_);
  VecDestroy(&localB_);
  VecDestroy(&localV_);
  VecDestroy(&globalWork_);
}

// Each box's total force, shared equally by the mesh nodes inside it (SOFA's ConstantForceField
// with totalForce): every rank counts its owned nodes, and the sum decides the share.
void MechanicalSystem::shareForceBoxes(const std::vector<Scene::ForceBox>& boxes) {
  const auto& coords = mesh_.restCoords();
  for (const auto& forceBox : boxes) {
    std::vector<PetscInt> inside;
    for (PetscInt v = 0; v < PetscInt(coords.size()); ++v)
      if (mesh_.owned()[v] && forceBox.box.contains(coords[v])) inside.push_back(v);
    std::int64_t count = std::int64_t(inside.size());
    MPI_Allreduce(MPI_IN_PLACE, &count, 1, MPI_INT64_T, MPI_SUM, mesh_.comm());
    nodesPerForceBox_.push_back(count);
    for (auto v : inside) {
      NodalLoad load{mesh_.ownedOffset(v), {}};
      for (int d = 0; d < 3; ++d) load.force[d] = forceBox.force[d] / double(count);
      nodalLoads_.push_back(load);
    }
  }
}

Vec MechanicalSystem::createVector() const {
  Vec v;
  EIS_CHECK(DMCreateGlobalVector(mesh_.dm(), &v));
  EIS_CHECK(VecSetBlockSize(v, dofs_));
  return v;
}

void MechanicalSystem::setRestState(Vec x) const {
  EIS_CHECK(VecZeroEntries(x));
  if (dofs_ != 3) return;
  PetscScalar* values;
  EIS_CHECK(VecGetArray(x, &values));
  const auto& coords = mesh_.restCoords();
  for (PetscInt v = 0; v < PetscInt(coords.size()); ++v)
    if (mesh_.owned()[v])
      for (int d = 0; d < 3; ++d) values[mesh_.ownedOffset(v) + d] = coords[v][d];
  EIS_CHECK(VecRestoreArray(x, &values));
}

void MechanicalSystem::toLocal(Vec global, Vec local) {
  EIS_CHECK(DMGlobalToLocalBegin(mesh_.dm(), global, INSERT_VALUES, local));
  EIS_CHECK(DMGlobalToLocalEnd(mesh_.dm(), global, INSERT_VALUES, local));
}

void MechanicalSystem::computeForce(Vec x, Vec v, Vec f) {
  const ScopedStage stage("Forces");
  const double start = MPI_Wtime();
  toLocal(x, localA_);
  if (usesVelocity_) toLocal(v, localV_);
  EIS_CHECK(VecZeroEntries(localB_));
  const PetscScalar *xl, *vl = nullptr;
  PetscScalar* fl;
  EIS_CHECK(VecGetArrayRead(localA_, &xl));
  if (usesVelocity_) EIS_CHECK(VecGetArrayRead(localV_, &vl));
  EIS_CHECK(VecGetArray(localB_, &fl));
  std::string failure;  // an inverted element seen here must stop every rank together
  try {
    for (auto& field : forceFields_) field->addForce(xl, vl, fl);
  } catch (const InvertedElement& e) {
    failure = "inverted tetrahedron " + std::to_string(mesh_.inputCellIds()[e.cell]) +
              " of the mesh (J = " + std::to_string(e.J) + ")";
  }
  if (!gravity_.empty()) mass_.addGravity(fl, gravity_.data());
  if (damping_ != 0) mass_.addMDx(vl, fl, -damping_);  // f -= c M v
  EIS_CHECK(VecRestoreArray(localB_, &fl));
  if (usesVelocity_) EIS_CHECK(VecRestoreArrayRead(localV_, &vl));
  EIS_CHECK(VecRestoreArrayRead(localA_, &xl));
  throwIfAnyRankFailed(failure, mesh_.comm());
  EIS_CHECK(VecZeroEntries(f));
  EIS_CHECK(DMLocalToGlobal(mesh_.dm(), localB_, ADD_VALUES, f));
  if (!nodalLoads_.empty()) {
    PetscScalar* fs;
    EIS_CHECK(VecGetArray(f, &fs));
    for (const auto& load : nodalLoads_)
      for (int d = 0; d < 3; ++d) fs[load.offset + d] += load.force[d];
    EIS_CHECK(VecRestoreArray(f, &fs));
  }
  forceSeconds_ += MPI_Wtime() - start;
}

void MechanicalSystem::addProducts(const double* in, double* out, double mFactor, double bFactor,
                                   double kFactor) const {
  const double m = massFactor(mFactor, bFactor);
  if (m != 0) mass_.addMDx(in, out, m);
  for (const auto& field : forceFields_) {
    if (kFactor != 0) field->addDForce(in, out, kFactor);
    if (bFactor != 0) field->addBDv(in, out, bFactor);
  }
}

void MechanicalSystem::addElementMatrices(double* values, double mFactor, double bFactor,
                                          double kFactor, CellRange range) const {
  mass_.addMToElementMatrices(values, massFactor(mFactor, bFactor), range);
  for (const auto& field : forceFields_) {
    field->addKToElementMatrices(values, kFactor, range);
    if (bFactor != 0) field->addBToElementMatrices(values, bFactor, range);
  }
}

void MechanicalSystem::addMBKv(Vec out, double mFactor, double bFactor, double kFactor, Vec v) {
  toLocal(v, localA_);
  EIS_CHECK(VecZeroEntries(localB_));
  const PetscScalar* vl;
  PetscScalar* ol;
  EIS_CHECK(VecGetArrayRead(localA_, &vl));
  EIS_CHECK(VecGetArray(localB_, &ol));
  addProducts(vl, ol, mFactor, bFactor, kFactor);
  EIS_CHECK(VecRestoreArray(localB_, &ol));
  EIS_CHECK(VecRestoreArrayRead(localA_, &vl));
  EIS_CHECK(VecZeroEntries(globalWork_));
  EIS_CHECK(DMLocalToGlobal(mesh_.dm(), localB_, ADD_VALUES, globalWork_));
  EIS_CHECK(VecAXPY(out, 1.0, globalWork_));
}

void MechanicalSystem::createAssembledMatrix() {
  // The global block row of each local vertex: its first global unknown / dofs.
  ISLocalToGlobalMapping l2g;
  EIS_CHECK(DMGetLocalToGlobalMapping(mesh_.dm(), &l2g));
  const PetscInt* globalUnknown;
  EIS_CHECK(ISLocalToGlobalMappingGetIndices(l2g, &globalUnknown));
  std::vector<PetscInt> globalBlock(mesh_.numLocalVertices());
  for (std::size_t v = 0; v < globalBlock.size(); ++v)
    globalBlock[v] = globalUnknown[mesh_.localOffset(PetscInt(v))] / dofs_;
  EIS_CHECK(ISLocalToGlobalMappingRestoreIndices(l2g, &globalUnknown));

  PetscInt localSize, globalSize;
  EIS_CHECK(VecGetLocalSize(globalWork_, &localSize));
  EIS_CHECK(VecGetSize(globalWork_, &globalSize));
  EIS_CHECK(MatCreate(mesh_.comm(), &matrix_));
  EIS_CHECK(MatSetSizes(matrix_, localSize, localSize, globalSize, globalSize));
  EIS_CHECK(MatSetBlockSize(matrix_, dofs_));
  EIS_CHECK(MatSetType(matrix_, MATAIJ));
  assembler_ = std::make_unique<ElementMatrixAssembler>(matrix_, mesh_.cells(), dofs_, globalBlock,
                                                        mesh_.owned());
  // M, and the K and B of every force field here, are symmetric: so is every system matrix.
  EIS_CHECK(MatSetOption(matrix_, MAT_SYMMETRIC, PETSC_TRUE));
  EIS_CHECK(MatSetOption(matrix_, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
}

void MechanicalSystem::createShellMatrix() {
  PetscInt localSize, globalSize;
  EIS_CHECK(VecGetLocalSize(globalWork_, &localSize));
  EIS_CHECK(VecGetSize(globalWork_, &globalSize));
  EIS_CHECK(MatCreateShell(mesh_.comm(), localSize, localSize, globalSize, globalSize, this, &matrix_));
  EIS_CHECK(MatShellSetOperation(matrix_, MATOP_MULT, reinterpret_cast<void (*)(void)>(shellMult)));
  EIS_CHECK(MatShellSetOperation(matrix_, MATOP_GET_DIAGONAL,
                                 reinterpret_cast<void (*)(void)>(eis::shellDiagonal)));
  EIS_CHECK(MatSetOption(matrix_, MAT_SYMMETRIC, PETSC_TRUE));
}

Mat MechanicalSystem::systemMatrix(double mFactor, double bFactor, double kFactor) {
  // A linear model's matrix changes only with the factors; a nonlinear one's with every state.
  if (linear_ && haveFactors_ && factors_[0] == mFactor &&
      factors_[1] == bFactor && factors_[2] == kFactor)
    return matrix_;
  factors_[0] = mFactor;
  factors_[1] = bFactor;
  factors_[2] = kFactor;
  haveFactors_ = true;
  if (matrixFree_) {
    // New factors are new values: assembling the shell bumps its state, so the
    // preconditioner is rebuilt.
    EIS_CHECK(MatAssemblyBegin(matrix_, MAT_FINAL_ASSEMBLY));
    EIS_CHECK(MatAssemblyEnd(matrix_, MAT_FINAL_ASSEMBLY));
  } else {
    assemble(mFactor, bFactor, kFactor);
  }
  return matrix_;
}

void MechanicalSystem::assemble(double mFactor, double bFactor, double kFactor) {
  const double start = MPI_Wtime();
  {
    const ScopedStage stage("Matrix assembly");
    assembler_->assemble([&](double* blocks, CellRange range) {
      addElementMatrices(blocks, mFactor, bFactor, kFactor, range);
    });
  }
  const double constraintStart = MPI_Wtime();
  {
    const ScopedStage stage("Constraints");
    EIS_CHECK(MatZeroRowsColumnsIS(matrix_, constraint_.rows(), 1.0, nullptr, nullptr));
  }
  assemblySeconds_ += constraintStart - start;
  constraintSeconds_ += MPI_Wtime() - constraintStart;
}

void MechanicalSystem::applyShell(Vec x, Vec y) {
  // y = P A P x + (I - P) x: the fixed unknowns pass through unchanged, as with the identity
  // rows and columns of the assembled matrix.
  EIS_CHECK(PetscLogEventBegin(shellProductEvent(), matrix_, x, y, 0));
  toLocal(x, localA_);
  EIS_CHECK(VecZeroEntries(localB_));
  PetscScalar* xl;
  PetscScalar* yl;
  EIS_CHECK(VecGetArray(localA_, &xl));
  EIS_CHECK(VecGetArray(localB_, &yl));
  constraint_.projectLocal(xl);
  addProducts(xl, yl, factors_[0], factors_[1], factors_[2]);
  EIS_CHECK(VecRestoreArray(localB_, &yl));
  EIS_CHECK(VecRestoreArray(localA_, &xl));
  EIS_CHECK(VecZeroEntries(y));
  EIS_CHECK(DMLocalToGlobal(mesh_.dm(), localB_, ADD_VALUES, y));
  constraint_.project(y);
  const PetscScalar* xg;
  PetscScalar* yg;
  EIS_CHECK(VecGetArrayRead(x, &xg));
  EIS_CHECK(VecGetArray(y, &yg));
  for (auto i : constraint_.ownedDofs()) yg[i] = xg[i];
  EIS_CHECK(VecRestoreArray(y, &yg));
  EIS_CHECK(VecRestoreArrayRead(x, &xg));
  EIS_CHECK(PetscLogEventEnd(shellProductEvent(), matrix_, x, y, 0));
}

void MechanicalSystem::shellDiagonal(Vec diagonal) {
  // The diagonal of each element matrix, summed: no global matrix is ever formed.
  const std::size_t n = std::size_t(4 * dofs_);
  std::vector<PetscScalar> values(kCellsPerRange * n * n);
  EIS_CHECK(VecZeroEntries(localB_));
  PetscScalar* dl;
  EIS_CHECK(VecGetArray(localB_, &dl));
  const auto& cells = mesh_.cells();
  forEachCellRange(cells.size(), [&](CellRange range) {
    std::fill(values.begin(), values.begin() + range.size() * n * n, 0.0);
    addElementMatrices(values.data(), factors_[0], factors_[1], factors_[2], range);
    for (std::size_t c = range.begin; c < range.end; ++c)
      for (std::size_t i = 0; i < n; ++i)
        dl[mesh_.localOffset(cells[c][i / dofs_]) + i % dofs_] +=
            values[(c - range.begin) * n * n + i * n + i];
  });
  EIS_CHECK(VecRestoreArray(localB_, &dl));
  EIS_CHECK(VecZeroEntries(diagonal));
  EIS_CHECK(DMLocalToGlobal(mesh_.dm(), localB_, ADD_VALUES, diagonal));
  PetscScalar* d;
  EIS_CHECK(VecGetArray(diagonal, &d));
  for (auto i : constraint_.ownedDofs()) d[i] = 1.0;
  EIS_CHECK(VecRestoreArray(diagonal, &d));
}

double MechanicalSystem::kineticEnergy(Vec v) {
  Vec mv;
  EIS_CHECK(VecDuplicate(v, &mv));
  EIS_CHECK(VecZeroEntries(mv));
  addMBKv(mv, 1.0, 0.0, 0.0, v);
  PetscScalar vmv;
  EIS_CHECK(VecDot(v, mv, &vmv));
  EIS_CHECK(VecDestroy(&mv));
  return 0.5 * vmv;
}

double MechanicalSystem::gravityEnergy(Vec x) {
  if (gravity_.empty()) return 0.0;
  toLocal(x, localA_);
  // -sum over elements of (their share of M g) . x: the potential whose gradient is -M g.
  std::vector<double> weight(std::size_t(dofs_) * mesh_.numLocalVertices(), 0.0);
  mass_.addGravity(weight.data(), gravity_.data());
  const PetscScalar* xl;
  EIS_CHECK(VecGetArrayRead(localA_, &xl));
  double energy = 0;
  for (std::size_t i = 0; i < weight.size(); ++i) energy -= weight[i] * xl[i];
  EIS_CHECK(VecRestoreArrayRead(localA_, &xl));
  MPI_Allreduce(MPI_IN_PLACE, &energy, 1, MPI_DOUBLE, MPI_SUM, mesh_.comm());
  return energy;
}

double MechanicalSystem::potentialEnergy(Vec x) {
  toLocal(x, localA_);
  const PetscScalar* xl;
  EIS_CHECK(VecGetArrayRead(localA_, &xl));
  double energy = 0;
  for (const auto& field : forceFields_) energy += field->potentialEnergy(xl);
  EIS_CHECK(VecRestoreArrayRead(localA_, &xl));
  MPI_Allreduce(MPI_IN_PLACE, &energy, 1, MPI_DOUBLE, MPI_SUM, mesh_.comm());
  return energy;
}

std::vector<double> MechanicalSystem::vonMisesStress(Vec x) {
  toLocal(x, localA_);
  const PetscScalar* xl;
  EIS_CHECK(VecGetArrayRead(localA_, &xl));
  auto stress = forceFields_.front()->vonMisesStress(xl);
  EIS_CHECK(VecRestoreArrayRead(localA_, &xl));
  return stress;
}

}  // namespace eis
