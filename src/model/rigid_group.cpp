// Rigid bodies solved as one system, with SOFA's SpringForceField<Rigid3> between their frames
// (model/rigid_group.hpp).
#include "eis/model/rigid_group.hpp"

#include <string>

#include "eis/core/error.hpp"

namespace eis {

namespace {

Vec viewOf(MPI_Comm comm, PetscInt size) {
  Vec view;
  EIS_CHECK(VecCreateMPIWithArray(comm, 1, size, PETSC_DECIDE, nullptr, &view));
  return view;
}

}  // namespace

RigidGroup::RigidGroup(std::vector<std::unique_ptr<RigidBody>> members,
                       std::vector<RigidFrameSpring> springs)
    : members_(std::move(members)), springs_(std::move(springs)) {
  if (!members_.empty()) comm_ = members_.front()->comm();
  int rank, same;
  EIS_CHECK_MPI(MPI_Comm_rank(comm_, &rank));
  owner_ = rank == 0;
  for (const auto& member : members_) {
    EIS_CHECK_MPI(MPI_Comm_compare(member->comm(), comm_, &same));
    if (same != MPI_IDENT && same != MPI_CONGRUENT)
      throw Error("rigid bodies solved together on different communicators");
    const PetscInt held = owner_ ? member->frames() : 0;
    first_.push_back(frames_);
    frames_ += member->frames();
    xView_.push_back(viewOf(comm_, PetscInt(kRigidCoordSize) * held));
    vView_.push_back(viewOf(comm_, PetscInt(kRigidDerivSize) * held));
    wView_.push_back(viewOf(comm_, PetscInt(kRigidDerivSize) * held));
  }
  for (const RigidFrameSpring& s : springs_) {
    for (int frame : {s.frame1, s.frame2})
      if (frame < 0 || frame >= frames_)
        throw Error("interaction.springs: frame " + std::to_string(frame) + " of " +
                    std::to_string(frames_) + " frames solved together");
    if (!s.law.polynomial.empty())
      throw Error("interaction.polynomial-springs: not supported on rigid frames yet");
  }
  dfdx_.assign(springs_.size(), {});
  // P 1: zero on each member's fixed unknowns.
  Vec ones = createVelocities();
  EIS_CHECK(VecSet(ones, 1.0));
  projectResponse(ones);
  const PetscScalar* free;
  EIS_CHECK(VecGetArrayRead(ones, &free));
  for (int i = 0; owner_ && i < kRigidDerivSize * frames_; ++i) fixed_.push_back(free[i] == 0.0);
  EIS_CHECK(VecRestoreArrayRead(ones, &free));
  EIS_CHECK(VecDestroy(&ones));
}

RigidGroup::~RigidGroup() {
  MatDestroy(&matrix_);
  for (auto* views : {&xView_, &vView_, &wView_})
    for (Vec& view : *views) VecDestroy(&view);
}

Vec RigidGroup::createPositions() const {
  Vec x;
  EIS_CHECK(
      VecCreateMPI(comm_, owner_ ? PetscInt(kRigidCoordSize) * frames_ : 0, PETSC_DETERMINE, &x));
  PetscScalar* joined;
  EIS_CHECK(VecGetArray(x, &joined));
  for (std::size_t m = 0; m < members_.size(); ++m) {
    Vec part = members_[m]->createPositions();
    const PetscScalar* values;
    EIS_CHECK(VecGetArrayRead(part, &values));
    for (int i = 0; owner_ && i < kRigidCoordSize * members_[m]->frames(); ++i)
      joined[kRigidCoordSize * first_[m] + i] = values[i];
    EIS_CHECK(VecRestoreArrayRead(part, &values));
    EIS_CHECK(VecDestroy(&part));
  }
  EIS_CHECK(VecRestoreArray(x, &joined));
  return x;
}

Vec RigidGroup::createVelocities() {
  Vec v;
  EIS_CHECK(
      VecCreateMPI(comm_, owner_ ? PetscInt(kRigidDerivSize) * frames_ : 0, PETSC_DETERMINE, &v));
  PetscScalar* joined;
  EIS_CHECK(VecGetArray(v, &joined));
  for (std::size_t m = 0; m < members_.size(); ++m) {
    Vec part = members_[m]->createVelocities();
    const PetscScalar* values;
    EIS_CHECK(VecGetArrayRead(part, &values));
    for (int i = 0; owner_ && i < kRigidDerivSize * members_[m]->frames(); ++i)
      joined[kRigidDerivSize * first_[m] + i] = values[i];
    EIS_CHECK(VecRestoreArrayRead(part, &values));
    EIS_CHECK(VecDestroy(&part));
  }
  EIS_CHECK(VecRestoreArray(v, &joined));
  return v;
}

void RigidGroup::place(Vec view, const PetscScalar* joined, std::size_t m, int size) const {
  // The members only read a part they are given to read. A rank that holds no frame has no
  // array (null) and empty views: nothing to offset.
  PetscScalar* part = const_cast<PetscScalar*>(joined);
  if (owner_) part += std::size_t(size) * std::size_t(first_[m]);
  EIS_CHECK(VecPlaceArray(view, part));
}

// Each member's forces, then SpringForceField::addForce on the frames' centres.
void RigidGroup::computeForce(Vec x, Vec v, Vec f) {
  PetscScalar* fa;
  const PetscScalar *xa, *va;
  EIS_CHECK(VecGetArrayRead(x, &xa));
  EIS_CHECK(VecGetArrayRead(v, &va));
  EIS_CHECK(VecGetArray(f, &fa));
  for (std::size_t m = 0; m < members_.size(); ++m) {
    place(xView_[m], xa, m, kRigidCoordSize);
    place(vView_[m], va, m, kRigidDerivSize);
    place(wView_[m], fa, m, kRigidDerivSize);
    members_[m]->computeForce(xView_[m], vView_[m], wView_[m]);
    for (Vec view : {xView_[m], vView_[m], wView_[m]}) EIS_CHECK(VecResetArray(view));
  }
  for (std::size_t s = 0; owner_ && s < springs_.size(); ++s) {
    const int a = springs_[s].frame1, c = springs_[s].frame2;
    SpringState state;
    springForce(springs_[s].law, xa + kRigidCoordSize * a, xa + kRigidCoordSize * c,
                va + kRigidDerivSize * a, va + kRigidDerivSize * c, state);
    dfdx_[s] = state.dfdx;
    for (int j = 0; j < 3; ++j) {
      fa[kRigidDerivSize * a + j] += state.force[std::size_t(j)];
      fa[kRigidDerivSize * c + j] -= state.force[std::size_t(j)];
    }
  }
  EIS_CHECK(VecRestoreArray(f, &fa));
  EIS_CHECK(VecRestoreArrayRead(v, &va));
  EIS_CHECK(VecRestoreArrayRead(x, &xa));
}

// Each member's products, then SpringForceField::addDForce: kFactor D (dx2 - dx1) on the first
// frame, its opposite on the second.
void RigidGroup::addMBKv(Vec out, double mFactor, double bFactor, double kFactor, Vec v) {
  PetscScalar* oa;
  const PetscScalar* va;
  EIS_CHECK(VecGetArrayRead(v, &va));
  EIS_CHECK(VecGetArray(out, &oa));
  for (std::size_t m = 0; m < members_.size(); ++m) {
    place(vView_[m], va, m, kRigidDerivSize);
    place(wView_[m], oa, m, kRigidDerivSize);
    members_[m]->addMBKv(wView_[m], mFactor, bFactor, kFactor, vView_[m]);
    for (Vec view : {vView_[m], wView_[m]}) EIS_CHECK(VecResetArray(view));
  }
  for (std::size_t s = 0; owner_ && s < springs_.size() && kFactor != 0; ++s) {
    const int a = kRigidDerivSize * springs_[s].frame1, c = kRigidDerivSize * springs_[s].frame2;
    for (int j = 0; j < 3; ++j) {
      double df = 0;
      for (int k = 0; k < 3; ++k) df += dfdx_[s][std::size_t(3 * j + k)] * (va[c + k] - va[a + k]);
      oa[a + j] += kFactor * df;
      oa[c + j] -= kFactor * df;
    }
  }
  EIS_CHECK(VecRestoreArray(out, &oa));
  EIS_CHECK(VecRestoreArrayRead(v, &va));
}

// The members' matrices on the diagonal, then kFactor K of each spring (-D on each end's own
// block, +D across); a fixed unknown's row and column keep their diagonal alone, as each
// member's do. One member without springs: its own matrix.
Mat RigidGroup::systemMatrix(double mFactor, double bFactor, double kFactor) {
  if (members_.size() == 1 && springs_.empty())
    return members_.front()->systemMatrix(mFactor, bFactor, kFactor);
  const PetscInt n = PetscInt(kRigidDerivSize) * frames_, local = owner_ ? n : 0;
  std::vector<Mat> blocks;
  for (auto& member : members_) blocks.push_back(member->systemMatrix(mFactor, bFactor, kFactor));
  if (!matrix_) {
    // Each row: its member's row, and 3 columns for each spring end at its frame's far end.
    std::vector<PetscInt> perRow(std::size_t(local), 0);
    for (std::size_t m = 0; owner_ && m < members_.size(); ++m)
      for (PetscInt r = 0; r < PetscInt(kRigidDerivSize) * members_[m]->frames(); ++r) {
        PetscInt count;
        EIS_CHECK(MatGetRow(blocks[m], r, &count, nullptr, nullptr));
        perRow[std::size_t(kRigidDerivSize * first_[m] + r)] += count;
        EIS_CHECK(MatRestoreRow(blocks[m], r, &count, nullptr, nullptr));
      }
    for (const RigidFrameSpring& s : springs_)
      for (int frame : {s.frame1, s.frame2})
        for (int j = 0; owner_ && j < kRigidDerivSize; ++j)
          perRow[std::size_t(kRigidDerivSize * frame + j)] += 6;
    for (PetscInt& count : perRow) count = std::min(count, n);
    EIS_CHECK(MatCreateAIJ(comm_, local, local, n, n, 0, perRow.data(), 0, nullptr, &matrix_));
    // Symmetric where every member's is (a RigidMapping's exact geometric stiffness is not).
    PetscBool symmetric = PETSC_TRUE;
    for (Mat block : blocks) {
      PetscBool known, flag;
      EIS_CHECK(MatIsSymmetricKnown(block, &known, &flag));
      if (!known || !flag) symmetric = PETSC_FALSE;
    }
    if (symmetric) {
      EIS_CHECK(MatSetOption(matrix_, MAT_SYMMETRIC, PETSC_TRUE));
      EIS_CHECK(MatSetOption(matrix_, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
    }
  }
  EIS_CHECK(MatZeroEntries(matrix_));
  for (std::size_t m = 0; owner_ && m < members_.size(); ++m) {
    const PetscInt offset = PetscInt(kRigidDerivSize) * first_[m];
    for (PetscInt r = 0; r < PetscInt(kRigidDerivSize) * members_[m]->frames(); ++r) {
      PetscInt count;
      const PetscInt* columns;
      const PetscScalar* values;
      EIS_CHECK(MatGetRow(blocks[m], r, &count, &columns, &values));
      std::vector<PetscInt> shifted(columns, columns + count);
      for (PetscInt& c : shifted) c += offset;
      const PetscInt row = r + offset;
      EIS_CHECK(MatSetValues(matrix_, 1, &row, count, shifted.data(), values, ADD_VALUES));
      EIS_CHECK(MatRestoreRow(blocks[m], r, &count, &columns, &values));
    }
  }
  for (std::size_t s = 0; owner_ && s < springs_.size(); ++s) {
    const PetscInt ends[2] = {PetscInt(kRigidDerivSize) * springs_[s].frame1,
                              PetscInt(kRigidDerivSize) * springs_[s].frame2};
    for (int p = 0; p < 2; ++p)
      for (int q = 0; q < 2; ++q)
        for (PetscInt j = 0; j < 3; ++j)
          for (PetscInt k = 0; k < 3; ++k) {
            const PetscInt r = ends[p] + j, c = ends[q] + k;
            if (r != c && (fixed_[std::size_t(r)] || fixed_[std::size_t(c)])) continue;
            const double value = (p == q ? -kFactor : kFactor) * dfdx_[s][std::size_t(3 * j + k)];
            EIS_CHECK(MatSetValue(matrix_, r, c, value, ADD_VALUES));
          }
  }
  EIS_CHECK(MatAssemblyBegin(matrix_, MAT_FINAL_ASSEMBLY));
  EIS_CHECK(MatAssemblyEnd(matrix_, MAT_FINAL_ASSEMBLY));
  return matrix_;
}

void RigidGroup::projectResponse(Vec v) {
  PetscScalar* va;
  EIS_CHECK(VecGetArray(v, &va));
  for (std::size_t m = 0; m < members_.size(); ++m) {
    place(vView_[m], va, m, kRigidDerivSize);
    members_[m]->projectResponse(vView_[m]);
    EIS_CHECK(VecResetArray(vView_[m]));
  }
  EIS_CHECK(VecRestoreArray(v, &va));
}

void RigidGroup::addToPosition(Vec x, double h, Vec v) {
  PetscScalar* xa;
  const PetscScalar* va;
  EIS_CHECK(VecGetArray(x, &xa));
  EIS_CHECK(VecGetArrayRead(v, &va));
  for (std::size_t m = 0; m < members_.size(); ++m) {
    place(xView_[m], xa, m, kRigidCoordSize);
    place(vView_[m], va, m, kRigidDerivSize);
    members_[m]->addToPosition(xView_[m], h, vView_[m]);
    for (Vec view : {xView_[m], vView_[m]}) EIS_CHECK(VecResetArray(view));
  }
  EIS_CHECK(VecRestoreArrayRead(v, &va));
  EIS_CHECK(VecRestoreArray(x, &xa));
}

}  // namespace eis
