#include "eis/model/mechanical_system.hpp"

#include <cmath>

#include "eis/core/error.hpp"
#include "eis/core/timer.hpp"

namespace eis {

MechanicalSystem::MechanicalSystem(const DistributedMesh& mesh, MassType massType,
                                   double massCoefficient,
                                   const std::vector<double>& cellMassFactors,
                                   const HexahedronRefinement& massRefinement)
    : mesh_(mesh),
      dofs_(mesh.dofsPerNode()),
      shapes_(mesh.cells(), mesh.restCoords()),
      mass_(mesh.cells(), shapes_, mesh.dofsPerNode(), massCoefficient, massType,
            massType == MassType::Uniform ? cellsPerVertex(mesh) : std::vector<double>{},
            cellMassFactors, massRefinement),
      massless_(massType == MassType::None) {
  EIS_CHECK(DMCreateLocalVector(mesh.dm(), &localA_));
  EIS_CHECK(DMCreateLocalVector(mesh.dm(), &localV_));
  EIS_CHECK(DMCreateLocalVector(mesh.dm(), &localB_));
  EIS_CHECK(DMCreateGlobalVector(mesh.dm(), &globalWork_));
}

MechanicalSystem::~MechanicalSystem() {
  matrix_.reset();
  VecDestroy(&localA_);
  VecDestroy(&localB_);
  VecDestroy(&localV_);
  VecDestroy(&globalWork_);
}

void MechanicalSystem::addForceField(std::unique_ptr<ForceField> field) {
  linear_ = linear_ && field->isLinear();
  symmetric_ = symmetric_ && field->symmetricK();
  usesVelocity_ = usesVelocity_ || field->usesVelocity();
  affine_ = affine_ && field->affine();
  limitsState_ = limitsState_ || field->limitsState();
  forceFields_.push_back(std::move(field));
}

void MechanicalSystem::setConstraint(std::vector<FixedConstraint::FixedNodes> fixed,
                                     std::unique_ptr<PrescribedMotion> motion,
                                     std::unique_ptr<NodeProjectors> projectors) {
  fixed_ = std::move(fixed);
  motion_ = std::move(motion);
  projectors_ = std::move(projectors);
  acting_ = motion_->activeAt(time_);
  buildConstraint();
}

void MechanicalSystem::buildConstraint() {
  auto sets = fixed_;
  for (auto& set : motion_->activeSets(acting_)) sets.push_back(std::move(set));
  constraint_ = projectors_
                    ? std::make_unique<FixedConstraint>(mesh_, sets, projectors_->projectedSets())
                    : std::make_unique<FixedConstraint>(mesh_, sets);
}

void MechanicalSystem::startMotion(Vec x, Vec v) {
  motion_->start(time_, x, v);
  if (projectors_) projectors_->start(time_, x, v);
}

void MechanicalSystem::projectMotion(Vec x, Vec v) const {
  motion_->project(time_, x, v);
  if (projectors_) projectors_->projectState(time_, x, v);
}

void MechanicalSystem::setTime(double t, double dt) {
  time_ = t;
  for (const auto& field : forceFields_) field->setTime(t, dt);
  if (lagrangian_) lagrangian_->setTime(t);
  std::vector<bool> acting = motion_->activeAt(t);
  if (acting == acting_) return;
  acting_ = std::move(acting);
  const bool haveMatrix = matrix_ != nullptr;
  matrix_.reset();  // it refers to the constraint
  buildConstraint();
  if (haveMatrix) createMatrix(mode_);
}

bool MechanicalSystem::prescribedDisplacement(double h, Vec x, Vec dx) {
  if (!prescribesMotion()) return false;
  motion_->displacement(time_, h, x, dx);
  return true;
}

bool MechanicalSystem::prescribesMotion() const {
  return motion_->lifts();
}

void MechanicalSystem::createMatrix(OperatorMode mode) {
  mode_ = mode;
  matrix_ = std::make_unique<SystemMatrix>(mesh_.dm(), mesh_.cells(), dofs_, mesh_.owned(), mode,
                                           static_cast<const ElementOperator&>(*this), *constraint_,
                                           linear_, symmetric_);
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
  const ScopedTimer timer("Forces");
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
  EIS_CHECK(VecRestoreArray(localB_, &fl));
  if (usesVelocity_) EIS_CHECK(VecRestoreArrayRead(localV_, &vl));
  EIS_CHECK(VecRestoreArrayRead(localA_, &xl));
  throwIfAnyRankFailed(failure, mesh_.comm());
  EIS_CHECK(VecZeroEntries(f));
  EIS_CHECK(DMLocalToGlobal(mesh_.dm(), localB_, ADD_VALUES, f));
  PetscScalar* fs;
  EIS_CHECK(VecGetArray(f, &fs));
  for (const auto& field : forceFields_) field->addNodalForce(fs);
  EIS_CHECK(VecRestoreArray(f, &fs));
}

void MechanicalSystem::checkState(Vec x, Vec v) {
  // NORM_1 sums every entry's magnitude: one NaN or infinity anywhere makes it so. Both sums
  // share one reduction.
  PetscReal sums[2];
  EIS_CHECK(VecNormBegin(x, NORM_1, &sums[0]));
  EIS_CHECK(VecNormBegin(v, NORM_1, &sums[1]));
  EIS_CHECK(VecNormEnd(x, NORM_1, &sums[0]));
  EIS_CHECK(VecNormEnd(v, NORM_1, &sums[1]));
  if (!std::isfinite(sums[0]) || !std::isfinite(sums[1]))
    throw Error(std::string("the step gave ") +
                (std::isfinite(sums[0]) ? "velocities" : "positions") +
                " that are not finite numbers (the solve diverged)");
  if (!limitsState_) return;
  toLocal(x, localA_);
  const PetscScalar* xl;
  EIS_CHECK(VecGetArrayRead(localA_, &xl));
  std::string failure;
  try {
    for (const auto& field : forceFields_) field->checkState(xl);
  } catch (const InvertedElement& e) {
    failure = "the step inverted tetrahedron " + std::to_string(mesh_.inputCellIds()[e.cell]) +
              " of the mesh (J = " + std::to_string(e.J) +
              "), where the material law is not defined";
  }
  EIS_CHECK(VecRestoreArrayRead(localA_, &xl));
  throwIfAnyRankFailed(failure, mesh_.comm());
}

void MechanicalSystem::addProducts(const double* in, double* out, double mFactor, double bFactor,
                                   double kFactor) const {
  if (mFactor != 0) mass_.addMDx(in, out, mFactor);
  for (const auto& field : forceFields_) {
    if (mFactor != 0) field->addMDx(in, out, mFactor);
    if (kFactor != 0) field->addDForce(in, out, kFactor);
    if (bFactor != 0) field->addBDv(in, out, bFactor);
  }
}

void MechanicalSystem::addElementMatrices(double* values, double mFactor, double bFactor,
                                          double kFactor, CellRange range) const {
  mass_.addMToElementMatrices(values, mFactor, range);
  for (const auto& field : forceFields_) {
    field->addMToElementMatrices(values, mFactor, range);
    field->addKToElementMatrices(values, kFactor, range);
    if (bFactor != 0) field->addBToElementMatrices(values, bFactor, range);
  }
}

void MechanicalSystem::addElementDiagonals(double* values, double mFactor, double bFactor,
                                           double kFactor, CellRange range) const {
  mass_.addMToElementMatrices(values, mFactor, range);
  for (const auto& field : forceFields_) {
    field->addMToElementMatrices(values, mFactor, range);
    field->addKToElementDiagonals(values, kFactor, range);
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

// One pass over the elements where every force is affine in x: f(x + kFactor v), the mass term
// added apart. The elements' forces are taken at another point, so the sums round otherwise than
// computeForce's and addMBKv's (within 1e-13 of them on test_mechanical_system's beam).
void MechanicalSystem::computeForcePlusMKv(Vec x, Vec v, double mFactor, double kFactor, Vec f) {
  if (!affine_ || usesVelocity_) {
    MechanicalOperations::computeForcePlusMKv(x, v, mFactor, kFactor, f);
    return;
  }
  EIS_CHECK(VecWAXPY(globalWork_, kFactor, v, x));
  computeForce(globalWork_, v, f);
  if (mFactor != 0) addMBKv(f, mFactor, 0.0, 0.0, v);
}

Mat MechanicalSystem::systemMatrix(double mFactor, double bFactor, double kFactor) {
  return matrix_->at(mFactor, bFactor, kFactor);
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

double MechanicalSystem::sumOverFields(Vec x, double (ForceField::*value)(const double*) const) {
  toLocal(x, localA_);
  const PetscScalar* xl;
  EIS_CHECK(VecGetArrayRead(localA_, &xl));
  double sum = 0;
  for (const auto& field : forceFields_) sum += (*field.*value)(xl);
  EIS_CHECK(VecRestoreArrayRead(localA_, &xl));
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, mesh_.comm()));
  return sum;
}

double MechanicalSystem::potentialEnergy(Vec x) {
  return sumOverFields(x, &ForceField::potentialEnergy);
}

double MechanicalSystem::externalPotential(Vec x) {
  return sumOverFields(x, &ForceField::externalPotential);
}

std::vector<double> MechanicalSystem::vonMisesStress(Vec x) {
  toLocal(x, localA_);
  const PetscScalar* xl;
  EIS_CHECK(VecGetArrayRead(localA_, &xl));
  std::vector<double> stress;
  for (const auto& field : forceFields_)
    if (stress = field->vonMisesStress(xl); !stress.empty()) break;
  EIS_CHECK(VecRestoreArrayRead(localA_, &xl));
  if (stress.empty()) stress.assign(mesh_.cells().size(), 0.0);
  return stress;
}

}  // namespace eis
