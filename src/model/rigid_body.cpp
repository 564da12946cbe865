// SOFA's Rigid3d state under UniformMass (master: RigidCoord.h, RigidMass.h, UniformMass.inl).
#include "eis/model/rigid_body.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "eis/core/error.hpp"

namespace eis {

namespace {

using Quaternion = std::array<double, 4>;  // qx qy qz qw

}  // namespace

Quaternion quaternionProduct(const Quaternion& a, const Quaternion& b) {
  Quaternion r;
  r[3] = a[3] * b[3] - (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]);
  r[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
  r[1] = a[3] * b[1] + a[1] * b[3] + a[2] * b[0] - a[0] * b[2];
  r[2] = a[3] * b[2] + a[2] * b[3] + a[0] * b[1] - a[1] * b[0];
  return r;
}

namespace {

// SOFA's Quat::normalize: left as it is within 1e-10 of unit length.
void normalize(Quaternion& q) {
  const double magnitude = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  if (std::abs(magnitude - 1.0) <= 1e-10) return;
  if (magnitude == 0) {
    q[3] = 1;
    return;
  }
  const double scale = 1.0 / std::sqrt(magnitude);
  for (double& value : q) value *= scale;
}

// A 3x3 matrix (row by row) is symmetric positive definite: its leading minors are positive.
bool positiveDefinite(const std::array<double, 9>& a) {
  const double m1 = a[0], m2 = a[0] * a[4] - a[1] * a[3];
  const double m3 = a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) +
                    a[2] * (a[3] * a[7] - a[4] * a[6]);
  return m1 > 0 && m2 > 0 && m3 > 0;
}

// RestShapeSpringsForceField<Rigid3>::addForce's rotation: dq = q q0^-1 (Quat::inverse divides
// by the norm), normalised, taken the shorter way (dq_w >= 0), and Quat::quatToAxis's axis and
// angle (asin of the imaginary part's norm above cos 0.999, acos below; no axis, no angle, for
// dq_w = 1); the rotation vector axis * angle.
std::array<double, 3> restRotation(const Quaternion& q, const Quaternion& q0) {
  const double norm = std::sqrt(q0[0] * q0[0] + q0[1] * q0[1] + q0[2] * q0[2] + q0[3] * q0[3]);
  const Quaternion inverse = {-q0[0] / norm, -q0[1] / norm, -q0[2] / norm, q0[3] / norm};
  Quaternion dq = quaternionProduct(q, inverse);
  normalize(dq);
  if (dq[3] < 0)
    for (double& e : dq) e = -e;
  if (!(dq[3] < 1.0)) return {0, 0, 0};
  double sinHalf, angle;
  if (dq[3] > 0.999) {
    sinHalf = std::sqrt(dq[0] * dq[0] + dq[1] * dq[1] + dq[2] * dq[2]);
    angle = 2.0 * std::asin(sinHalf);
  } else {
    const double half = std::acos(dq[3]);
    sinHalf = std::sin(half);
    angle = 2 * half;
  }
  if (sinHalf < std::numeric_limits<double>::epsilon()) return {0, angle, 0};
  return {dq[0] / sinHalf * angle, dq[1] / sinHalf * angle, dq[2] / sinHalf * angle};
}

// A vector that rank 0 alone writes (the others hold none of it) changed on every rank: PETSc
// keeps a norm it computed (or that VecSet implies) with the vector while the vector's state
// stands, each rank by its own state, so a rank whose state stood would answer VecNorm from that
// cache and skip the reduction rank 0 enters. Taking and giving back the (empty) array moves
// the state as rank 0's writing does.
void changedOnEveryRank(Vec v) {
  PetscScalar* values;
  EIS_CHECK(VecGetArray(v, &values));
  EIS_CHECK(VecRestoreArray(v, &values));
}

}  // namespace

Quaternion rotateQuaternion(const Quaternion& q, const std::array<double, 3>& rotation) {
  const double omega[3] = {rotation[0] / 2, rotation[1] / 2, rotation[2] / 2};
  const double theta = std::sqrt(omega[0] * omega[0] + omega[1] * omega[1] + omega[2] * omega[2]);
  Quaternion exponential;
  if (theta < std::numeric_limits<double>::epsilon()) {
    exponential = {omega[0], omega[1], omega[2], 1};
    normalize(exponential);
  } else {
    const double sinc = std::sin(theta) / theta;
    exponential = {sinc * omega[0], sinc * omega[1], sinc * omega[2], std::cos(theta)};
  }
  return quaternionProduct(exponential, q);
}

RigidBody::RigidBody(MPI_Comm comm, RigidBodyParameters parameters)
    : comm_(comm), parameters_(std::move(parameters)) {
  const auto& p = parameters_;
  if (p.frames.empty() || p.frames.size() % kRigidCoordSize != 0)
    throw Error("rigid frames: " + std::to_string(p.frames.size()) +
                " numbers, not a positive multiple of 7 (x y z qx qy qz qw per frame)");
  frames_ = int(p.frames.size() / kRigidCoordSize);
  if (!p.velocities.empty() && p.velocities.size() != std::size_t(kRigidDerivSize) * frames_)
    throw Error("rigid velocities: " + std::to_string(p.velocities.size()) + " numbers for " +
                std::to_string(frames_) + " frames, not 6 per frame");
  if (!p.fixed.empty() && p.fixed.size() != std::size_t(frames_))
    throw Error("rigid fixed frames: " + std::to_string(p.fixed.size()) + " entries for " +
                std::to_string(frames_) + " frames");
  // Mass 0: the frames have none of their own (their mapped points' carries them).
  if (!(p.mass.mass >= 0)) throw Error("rigid mass: the mass must be positive or 0");
  for (int i = 0; i < 9; ++i) inertiaMass_[i] = p.mass.inertia[i] * p.mass.mass;
  if (!positiveDefinite(p.mass.inertia) || p.mass.inertia[1] != p.mass.inertia[3] ||
      p.mass.inertia[2] != p.mass.inertia[6] || p.mass.inertia[5] != p.mass.inertia[7])
    throw Error("rigid mass: the inertia matrix must be symmetric positive definite");
  int rank = 0;
  EIS_CHECK_MPI(MPI_Comm_rank(comm_, &rank));
  owner_ = rank == 0;
  fixed_.assign(std::size_t(kRigidDerivSize) * frames_, false);
  for (std::size_t frame = 0; frame < p.fixed.size(); ++frame)
    for (int d = 0; d < kRigidDerivSize; ++d)
      fixed_[frame * kRigidDerivSize + d] = p.fixed[frame][d];
  if (p.mass.mass == 0 && p.mapped.mass == 0 && p.mapped.cells.density == 0 &&
      p.mapped.cells.totalMass == 0)
    throw Error("rigid mass: 0, and no mapped points with a mass: the frames would have none");
  planeStiffness_.assign(std::size_t(frames_), {});
  restStiffness_.assign(std::size_t(frames_), {0.0, 0.0});
  for (const RigidRestSprings& springs : p.restSprings) {
    std::vector<int> frames = springs.frames;
    if (frames.empty())
      for (int frame = 0; frame < frames_; ++frame) frames.push_back(frame);
    for (int frame : frames) {
      if (frame < 0 || frame >= frames_)
        throw Error("rigid.rest-shape: frame " + std::to_string(frame) + " of " +
                    std::to_string(frames_) + " frames");
      restStiffness_[std::size_t(frame)][0] += springs.stiffness;
      restStiffness_[std::size_t(frame)][1] += springs.angularStiffness;
    }
  }
  if (!p.mapped.frameOf.empty()) {
    for (int frame : p.mapped.frameOf)
      if (frame < 0 || frame >= frames_)
        throw Error("rigid mapped points: frame " + std::to_string(frame) + " of " +
                    std::to_string(frames_) + " frames");
    if (p.mapped.forces.size() != p.mapped.frameOf.size())
      throw Error("rigid mapped points: a force for each point expected");
    mapping_.emplace(p.mapped.frameOf, p.mapped.local);
    const std::vector<Vec3d> rest = mapping_->apply(p.frames.data());
    stiffness_.assign(mapping_->size(), {});
    geometric_.assign(std::size_t(frames_), {});
    if (!p.mapped.cells.corners.empty())
      cells_ = std::make_unique<RigidMappedCellsField>(p.mapped.cells, rest);
  }
  for (const BeamParameters& beam : p.beams) beams_.emplace_back(beam, p.frames);
}

RigidBody::~RigidBody() {
  MatDestroy(&matrix_);
}

Vec RigidBody::createPositions() const {
  Vec x;
  const PetscInt local = owner_ ? PetscInt(parameters_.frames.size()) : 0;
  EIS_CHECK(VecCreateMPI(comm_, local, PETSC_DETERMINE, &x));
  PetscScalar* values;
  EIS_CHECK(VecGetArray(x, &values));
  for (PetscInt i = 0; i < local; ++i) values[i] = parameters_.frames[i];
  EIS_CHECK(VecRestoreArray(x, &values));
  return x;
}

Vec RigidBody::createVelocities() {
  Vec v;
  const PetscInt local = owner_ ? PetscInt(kRigidDerivSize) * frames_ : 0;
  EIS_CHECK(VecCreateMPI(comm_, local, PETSC_DETERMINE, &v));
  PetscScalar* values;
  EIS_CHECK(VecGetArray(v, &values));
  for (PetscInt i = 0; i < local; ++i)
    values[i] = parameters_.velocities.empty() ? 0.0 : parameters_.velocities[i];
  EIS_CHECK(VecRestoreArray(v, &values));
  projectResponse(v);
  return v;
}

// UniformMass::addForce: each frame's weight, gravity times the RigidMass (the linear part times
// the mass, the angular part zero).
// The mapped points' weights and forces, J^T f at the frames' positions x, which also set J and
// the mapping's geometric stiffness at those forces.
void RigidBody::computeForce(Vec x, Vec v, Vec f) {
  EIS_CHECK(VecZeroEntries(f));
  if (!owner_) return changedOnEveryRank(f);
  PetscScalar* values;
  EIS_CHECK(VecGetArray(f, &values));
  for (int frame = 0; frame < frames_; ++frame)
    for (int d = 0; d < 3; ++d)
      values[frame * kRigidDerivSize + d] += parameters_.gravity[d] * parameters_.mass.mass;
  for (std::size_t i = 0; i < parameters_.forces.size(); ++i) values[i] += parameters_.forces[i];
  if (!beams_.empty()) {
    const PetscScalar* frames;
    EIS_CHECK(VecGetArrayRead(x, &frames));
    for (BeamForceField& beam : beams_) beam.addForce(frames, values);
    EIS_CHECK(VecRestoreArrayRead(x, &frames));
  }
  if (!parameters_.planes.empty() || !parameters_.restSprings.empty()) {
    const PetscScalar *frames, *velocities;
    EIS_CHECK(VecGetArrayRead(x, &frames));
    EIS_CHECK(VecGetArrayRead(v, &velocities));
    for (int frame = 0; frame < frames_; ++frame) {
      const PetscScalar* c = frames + frame * kRigidCoordSize;
      const double* c0 = parameters_.frames.data() + frame * kRigidCoordSize;
      PetscScalar* f = values + frame * kRigidDerivSize;
      std::array<double, 9>& stiffness = planeStiffness_[std::size_t(frame)];
      stiffness.fill(0);
      for (const Plane& plane : parameters_.planes)
        addPlaneForce(plane, c, velocities + frame * kRigidDerivSize, f, stiffness);
      const auto [k, ka] = restStiffness_[std::size_t(frame)];
      if (k == 0 && ka == 0) continue;
      for (int d = 0; d < 3; ++d) f[d] -= (c[d] - c0[d]) * k;
      const std::array<double, 3> turn =
          restRotation({c[3], c[4], c[5], c[6]}, {c0[3], c0[4], c0[5], c0[6]});
      for (int d = 0; d < 3; ++d) f[3 + d] -= turn[std::size_t(d)] * ka;
    }
    EIS_CHECK(VecRestoreArrayRead(v, &velocities));
    EIS_CHECK(VecRestoreArrayRead(x, &frames));
  }
  if (mapping_) {
    const PetscScalar* frames;
    EIS_CHECK(VecGetArrayRead(x, &frames));
    const std::vector<Vec3d> points = mapping_->apply(frames);
    EIS_CHECK(VecRestoreArrayRead(x, &frames));
    const RigidMappedPoints& mapped = parameters_.mapped;
    const PetscScalar* velocities;
    EIS_CHECK(VecGetArrayRead(v, &velocities));
    // The cells' FEM force and weight at the points.
    std::vector<double> cellForce(cells_ ? 3 * mapping_->size() : 0, 0.0);
    std::vector<Vec3d> total(mapping_->size());
    if (cells_) cells_->addForce(points, parameters_.gravity, cellForce.data());
    for (std::size_t i = 0; i < mapping_->size(); ++i) {
      std::array<double, 3> load = mapped.forces[i];
      for (int d = 0; d < 3 && cells_; ++d) load[d] += cellForce[3 * i + std::size_t(d)];
      for (int d = 0; d < 3; ++d) load[d] += mapped.mass * parameters_.gravity[d];
      stiffness_[i] = loadStiffness_.empty() ? std::array<double, 9>{} : loadStiffness_[i];
      for (int d = 0; d < 3 && !loads_.empty(); ++d) load[d] += loads_[i][std::size_t(d)];
      const Vec3d vc = mapped.planes.empty() ? Vec3d{} : mapping_->applyJ(i, velocities);
      for (const Plane& plane : mapped.planes)
        addPlaneForce(plane, points[i].data(), vc.data(), load.data(), stiffness_[i]);
      mapping_->applyJT(i, load, values);
      total[i] = load;
    }
    geometric_ = mapping_->geometricStiffness(total, std::size_t(frames_), mapped.geometric);
    EIS_CHECK(VecRestoreArrayRead(v, &velocities));
  }
  EIS_CHECK(VecRestoreArray(f, &values));
}

// UniformMass::addMDx: the RigidMass scaled by the factor (mass and inertiaMassMatrix), times dx;
// the planes' and rest-shape springs' kFactor K dx on the frames, and the mapped points'.
void RigidBody::addMBKv(Vec out, double mFactor, double, double kFactor, Vec v) {
  if (mFactor == 0 && (kFactor == 0 || !hasStiffness())) return;
  if (!owner_) return changedOnEveryRank(out);
  const double mass = parameters_.mass.mass * mFactor;
  std::array<double, 9> inertia;
  for (int i = 0; i < 9; ++i) inertia[i] = inertiaMass_[i] * mFactor;
  const PetscScalar* in;
  PetscScalar* result;
  EIS_CHECK(VecGetArrayRead(v, &in));
  EIS_CHECK(VecGetArray(out, &result));
  for (int frame = 0; frame < frames_; ++frame) {
    const PetscScalar* dx = in + frame * kRigidDerivSize;
    PetscScalar* r = result + frame * kRigidDerivSize;
    for (int d = 0; d < 3; ++d) r[d] += dx[d] * mass;
    for (int row = 0; row < 3; ++row)
      r[3 + row] +=
          inertia[3 * row] * dx[3] + inertia[3 * row + 1] * dx[4] + inertia[3 * row + 2] * dx[5];
    const std::array<double, 9>& plane = planeStiffness_[std::size_t(frame)];
    const auto [k, ka] = restStiffness_[std::size_t(frame)];
    for (int row = 0; row < 3 && kFactor != 0; ++row) {
      r[row] +=
          kFactor * (plane[std::size_t(3 * row)] * dx[0] + plane[std::size_t(3 * row + 1)] * dx[1] +
                     plane[std::size_t(3 * row + 2)] * dx[2] - k * dx[row]);
      r[3 + row] -= kFactor * ka * dx[3 + row];
    }
  }
  // The cells' (mFactor M_c + kFactor K_c) J dx, point by point.
  std::vector<double> dxc, outc;
  if (cells_) {
    dxc.resize(3 * mapping_->size());
    outc.assign(dxc.size(), 0.0);
    for (std::size_t i = 0; i < mapping_->size(); ++i) {
      const std::array<double, 3> dx = mapping_->applyJ(i, in);
      for (int d = 0; d < 3; ++d) dxc[3 * i + std::size_t(d)] = dx[d];
    }
    cells_->addMKDx(dxc.data(), outc.data(), mFactor, kFactor);
  }
  for (std::size_t i = 0; mapping_ && i < mapping_->size(); ++i) {
    const std::array<double, 3> dx = mapping_->applyJ(i, in);
    std::array<double, 3> m;
    for (int a = 0; a < 3; ++a) {
      m[a] =
          dx[a] * mFactor * parameters_.mapped.mass + (cells_ ? outc[3 * i + std::size_t(a)] : 0);
      for (int b = 0; b < 3; ++b) m[a] += kFactor * stiffness_[i][std::size_t(3 * a + b)] * dx[b];
    }
    mapping_->applyJT(i, m, result);
  }
  for (const BeamForceField& beam : beams_)
    if (kFactor != 0) beam.addDForce(in, result, kFactor);
  // The geometric stiffness: kFactor G times each frame's turn.
  for (std::size_t frame = 0; mapping_ && kFactor != 0 && frame < geometric_.size(); ++frame) {
    const std::array<double, 9>& g = geometric_[frame];
    const PetscScalar* w = in + frame * kRigidDerivSize + 3;
    PetscScalar* r = result + frame * kRigidDerivSize + 3;
    for (std::size_t row = 0; row < 3; ++row)
      r[row] += kFactor * (g[3 * row] * w[0] + g[3 * row + 1] * w[1] + g[3 * row + 2] * w[2]);
  }
  EIS_CHECK(VecRestoreArray(out, &result));
  EIS_CHECK(VecRestoreArrayRead(v, &in));
}

// mFactor M with each fixed unknown's row and column replaced by its diagonal entry alone
// (P A P + (I - P) D, as the mesh bodies' matrices). Refilled only when the factor changes.
// With mapped points, the frames' 6 x 6 blocks hold their J^T m J too, J as it stands: refilled
// every time; with cells or beams, which couple frames, the whole matrix, dense.
Mat RigidBody::systemMatrix(double mFactor, double, double kFactor) {
  if (matrix_ && mFactor == matrixFactor_ && !hasStiffness()) return matrix_;
  const PetscInt local = owner_ ? PetscInt(kRigidDerivSize) * frames_ : 0;
  const bool dense = cells_ || !beams_.empty();
  if (!matrix_) {
    // Cells and beams couple frames: then every row may hold every frame's unknowns (tens of
    // frames).
    const PetscInt perRow = dense ? PetscInt(kRigidDerivSize) * frames_ : 6;
    EIS_CHECK(MatCreateAIJ(comm_, local, local, PETSC_DETERMINE, PETSC_DETERMINE, perRow, nullptr,
                           0, nullptr, &matrix_));
    // The exact geometric stiffness is not symmetric: the matrix is not declared so, and the
    // solvers' defaults follow (KspSettings::readOptions).
    if (parameters_.mapped.geometric != RigidGeometricStiffness::Exact) {
      EIS_CHECK(MatSetOption(matrix_, MAT_SYMMETRIC, PETSC_TRUE));
      EIS_CHECK(MatSetOption(matrix_, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
    }
  }
  // Each frame's block: its RigidMass, and J^T m J of its mapped points.
  std::vector<std::array<double, 36>> blocks(static_cast<std::size_t>(frames_));
  for (int frame = 0; frame < frames_; ++frame) {
    std::array<double, 36>& b = blocks[std::size_t(frame)];
    b.fill(0);
    for (int d = 0; d < 3; ++d) b[std::size_t(7 * d)] = parameters_.mass.mass;
    for (int row = 0; row < 3; ++row)
      for (int column = 0; column < 3; ++column)
        b[std::size_t(6 * (3 + row) + 3 + column)] = inertiaMass_[std::size_t(3 * row + column)];
  }
  for (std::size_t i = 0; mapping_ && i < mapping_->size(); ++i)
    mapping_->addMass(i, parameters_.mapped.mass, blocks[std::size_t(mapping_->frameOf(i))].data());
  // The planes' stiffness, kFactor J^T K J, and the geometric stiffness, kFactor G on the angular
  // unknowns, are added after the mass factor below.
  std::vector<std::array<double, 36>> stiff(static_cast<std::size_t>(frames_));
  for (auto& b : stiff) b.fill(0);
  for (std::size_t i = 0; mapping_ && i < mapping_->size(); ++i)
    mapping_->addStiffness(i, stiffness_[i], kFactor,
                           stiff[std::size_t(mapping_->frameOf(i))].data());
  // The frames' own planes (-k n n^T on the linear unknowns) and rest-shape springs (-k, -ka).
  for (std::size_t frame = 0; frame < std::size_t(frames_); ++frame)
    for (std::size_t row = 0; row < 3; ++row) {
      for (std::size_t column = 0; column < 3; ++column)
        stiff[frame][6 * row + column] += kFactor * planeStiffness_[frame][3 * row + column];
      stiff[frame][7 * row] -= kFactor * restStiffness_[frame][0];
      stiff[frame][7 * (row + 3)] -= kFactor * restStiffness_[frame][1];
    }
  for (std::size_t frame = 0; frame < geometric_.size(); ++frame)
    for (std::size_t e = 0; e < 9; ++e)
      stiff[frame][6 * (3 + e / 3) + 3 + e % 3] += kFactor * geometric_[frame][e];
  if (dense && owner_) {
    // Dense: the frames' blocks, then J^T (mFactor M_c + kFactor K_c) J of every cell and the
    // beams' kFactor K.
    const std::size_t n = std::size_t(kRigidDerivSize) * std::size_t(frames_);
    std::vector<double> values(n * n, 0.0);
    for (std::size_t frame = 0; frame < std::size_t(frames_); ++frame)
      for (std::size_t e = 0; e < 36; ++e)
        values[(6 * frame + e / 6) * n + 6 * frame + e % 6] =
            blocks[frame][e] * mFactor + stiff[frame][e];
    if (cells_)
      cells_->addToMatrix(*mapping_, mFactor, kFactor, values.data(), std::size_t(frames_));
    for (const BeamForceField& beam : beams_) beam.addToMatrix(kFactor, values.data(), n);
    for (std::size_t r = 0; r < n; ++r)
      for (std::size_t c = 0; c < n; ++c) {
        const bool kept = r == c || (!fixed_[r] && !fixed_[c]);
        EIS_CHECK(MatSetValue(matrix_, PetscInt(r), PetscInt(c), kept ? values[r * n + c] : 0.0,
                              INSERT_VALUES));
      }
  }
  for (int frame = 0; owner_ && !dense && frame < frames_; ++frame) {
    const PetscInt first = PetscInt(frame) * kRigidDerivSize;
    for (PetscInt row = 0; row < kRigidDerivSize; ++row)
      for (PetscInt column = 0; column < kRigidDerivSize; ++column) {
        const PetscInt r = first + row, c = first + column;
        const std::size_t e = std::size_t(6 * row + column);
        const double value = blocks[std::size_t(frame)][e] * mFactor + stiff[std::size_t(frame)][e];
        const bool kept = row == column || (!fixed_[r] && !fixed_[c]);
        // Without mapped points or planes the linear block is diagonal and uncoupled: not
        // stored.
        if (!mapping_ && parameters_.planes.empty() && (row < 3 || column < 3) && row != column)
          continue;
        EIS_CHECK(MatSetValue(matrix_, r, c, kept ? value : 0.0, INSERT_VALUES));
      }
  }
  EIS_CHECK(MatAssemblyBegin(matrix_, MAT_FINAL_ASSEMBLY));
  EIS_CHECK(MatAssemblyEnd(matrix_, MAT_FINAL_ASSEMBLY));
  matrixFactor_ = mFactor;
  return matrix_;
}

void RigidBody::setMappedLoads(std::vector<Vec3d> forces,
                               std::vector<std::array<double, 9>> stiffness) {
  if (forces.size() != mappedPoints() || stiffness.size() != mappedPoints())
    throw Error("rigid mapped points: " + std::to_string(forces.size()) + " loads for " +
                std::to_string(mappedPoints()) + " points");
  loads_ = std::move(forces);
  loadStiffness_ = std::move(stiffness);
}

void RigidBody::projectResponse(Vec v) {
  if (!owner_) return changedOnEveryRank(v);
  PetscScalar* values;
  EIS_CHECK(VecGetArray(v, &values));
  for (std::size_t i = 0; i < fixed_.size(); ++i)
    if (fixed_[i]) values[i] = 0;
  EIS_CHECK(VecRestoreArray(v, &values));
}

// MechanicalObject::vOp on a Rigid3d coordinate: x += v h, the centre moved by h times the
// linear velocity, the orientation turned by h times the angular one.
void RigidBody::addToPosition(Vec x, double h, Vec v) {
  if (!owner_) return changedOnEveryRank(x);
  PetscScalar* coordinates;
  const PetscScalar* velocities;
  EIS_CHECK(VecGetArray(x, &coordinates));
  EIS_CHECK(VecGetArrayRead(v, &velocities));
  for (int frame = 0; frame < frames_; ++frame) {
    PetscScalar* c = coordinates + frame * kRigidCoordSize;
    const PetscScalar* d = velocities + frame * kRigidDerivSize;
    for (int i = 0; i < 3; ++i) c[i] += d[i] * h;
    const Quaternion turned =
        rotateQuaternion({c[3], c[4], c[5], c[6]}, {d[3] * h, d[4] * h, d[5] * h});
    for (int i = 0; i < 4; ++i) c[3 + i] = turned[i];
  }
  EIS_CHECK(VecRestoreArrayRead(v, &velocities));
  EIS_CHECK(VecRestoreArray(x, &coordinates));
}

}  // namespace eis
