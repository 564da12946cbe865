// The matrix of rigid frames and a mesh body in one system (model/joint_system.hpp): the
// frames' matrix on the first rows (rank 0), the mesh's after them, each with its columns moved
// to the joined numbering, and the springs' blocks between them.
#include <algorithm>

#include "eis/core/error.hpp"
#include "eis/model/joint_system.hpp"

namespace eis {

namespace {

bool symmetricKnown(Mat A) {
  PetscBool known, symmetric;
  EIS_CHECK(MatIsSymmetricKnown(A, &known, &symmetric));
  return known && symmetric;
}

}  // namespace

// Each local row's entries in this rank's columns and in others', from the parts' rows, and the
// springs': 3 a spring on each frame row (rank 0), the frames' columns on a spring's node rows;
// the carried points' likewise.
void JointSystem::createMatrix(Mat frames, Mat mesh) {
  PetscInt meshLocal, meshFirst;
  EIS_CHECK(VecGetLocalSize(mv_, &meshLocal));
  EIS_CHECK(VecGetOwnershipRange(mv_, &meshFirst, nullptr));
  const PetscInt rows = frameUnknowns_ + meshLocal;
  const PetscInt first = root_ ? 0 : meshStart_, end = meshStart_ + meshLocal;
  const PetscInt total = frameTotal_ + [&] {
    PetscInt n;
    EIS_CHECK(VecGetSize(mv_, &n));
    return n;
  }();
  std::vector<PetscInt> inside(std::size_t(rows), 0), outside(std::size_t(rows), 0);
  const auto count = [&](Mat part, PetscInt partFirst, PetscInt partRows, PetscInt rowOffset,
                         PetscInt shift) {
    for (PetscInt r = 0; r < partRows; ++r) {
      PetscInt n;
      const PetscInt* columns;
      EIS_CHECK(MatGetRow(part, partFirst + r, &n, &columns, nullptr));
      for (PetscInt k = 0; k < n; ++k) {
        const PetscInt c = columns[k] + shift;
        ++(c >= first && c < end ? inside : outside)[std::size_t(rowOffset + r)];
      }
      EIS_CHECK(MatRestoreRow(part, partFirst + r, &n, &columns, nullptr));
    }
  };
  count(frames, 0, frameUnknowns_, 0, 0);
  count(mesh, meshFirst, meshLocal, frameUnknowns_, frameTotal_);
  for (PetscInt r = 0; r < frameUnknowns_; ++r)
    for (std::size_t s = 0; s < springs_.size(); ++s)
      (nodeRows_[s] + frameTotal_ < end ? inside : outside)[std::size_t(r)] += 3;
  for (std::size_t s = 0; s < springs_.size(); ++s) {
    const PetscInt row = nodeRows_[s] - meshFirst;
    if (row < 0 || row >= meshLocal) continue;
    for (PetscInt d = 0; d < 3; ++d)
      (root_ ? inside : outside)[std::size_t(frameUnknowns_ + row + d)] += frameTotal_;
  }
  // A mesh spring's end rows get the other end's 3 columns.
  for (std::size_t t = 0; t < meshSprings_.size(); ++t)
    for (std::size_t e = 0; e < 2; ++e) {
      const PetscInt row = nodeRows_[slotOf(t) + e] - meshFirst;
      const PetscInt other = nodeRows_[slotOf(t) + 1 - e] + frameTotal_;
      if (row < 0 || row >= meshLocal) continue;
      for (PetscInt d = 0; d < 3; ++d)
        (other >= first && other < end ? inside : outside)[std::size_t(frameUnknowns_ + row + d)] +=
            3;
    }
  // A carried point's frame rows get its nodes' columns, its node rows the frame's 6 columns
  // and the point's other nodes' 3 each.
  for (std::size_t k = 0; k < carried_.points.size(); ++k) {
    const std::size_t slots = carried_.points[k].weights.size();
    for (std::size_t j = 0; j < slots; ++j) {
      const std::size_t slot = carriedSlot_[k] + j;
      const PetscInt node = nodeRows_[slot] + frameTotal_;
      for (PetscInt b = 0; root_ && b < kRigidDerivSize; ++b)
        (node >= first && node < end ? inside : outside)[std::size_t(carriedFrame() + b)] += 3;
      const PetscInt row = nodeRows_[slot] - meshFirst;
      if (row < 0 || row >= meshLocal) continue;
      for (PetscInt d = 0; d < 3; ++d) {
        (root_ ? inside : outside)[std::size_t(frameUnknowns_ + row + d)] += kRigidDerivSize;
        (root_ ? inside : outside)[std::size_t(frameUnknowns_ + row + d)] += PetscInt(3 * slots);
      }
    }
  }
  for (PetscInt r = 0; r < rows; ++r) {
    inside[std::size_t(r)] = std::min(inside[std::size_t(r)], end - first);
    outside[std::size_t(r)] = std::min(outside[std::size_t(r)], total - (end - first));
  }
  EIS_CHECK(MatCreate(comm_, &matrix_));
  EIS_CHECK(MatSetSizes(matrix_, rows, rows, PETSC_DETERMINE, PETSC_DETERMINE));
  EIS_CHECK(MatSetType(matrix_, MATAIJ));
  EIS_CHECK(MatSeqAIJSetPreallocation(matrix_, 0, inside.data()));
  EIS_CHECK(MatMPIAIJSetPreallocation(matrix_, 0, inside.data(), 0, outside.data()));
  EIS_CHECK(MatSetOption(matrix_, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  const bool symmetric = symmetricKnown(frames) && symmetricKnown(mesh);
  EIS_CHECK(MatSetOption(matrix_, MAT_SYMMETRIC, symmetric ? PETSC_TRUE : PETSC_FALSE));
  EIS_CHECK(MatSetOption(matrix_, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
}

void JointSystem::copyRows(Mat part, PetscInt rowShift, PetscInt shift) {
  PetscInt partFirst, partEnd;
  EIS_CHECK(MatGetOwnershipRange(part, &partFirst, &partEnd));
  std::vector<PetscInt> moved;
  for (PetscInt r = partFirst; r < partEnd; ++r) {
    PetscInt n;
    const PetscInt* columns;
    const PetscScalar* values;
    EIS_CHECK(MatGetRow(part, r, &n, &columns, &values));
    moved.assign(columns, columns + n);
    for (PetscInt& c : moved) c += shift;
    const PetscInt row = r + rowShift;
    EIS_CHECK(MatSetValues(matrix_, 1, &row, n, moved.data(), values, INSERT_VALUES));
    EIS_CHECK(MatRestoreRow(part, r, &n, &columns, &values));
  }
}

// On rank 0, spring s of point p in frame F and node n: kFactor J^T D on F's rows and n's
// columns, kFactor D J on n's rows and F's columns, -kFactor D on n's block; J's columns are
// the mapped velocities of unit frame velocities.
void JointSystem::addSpringBlocks(double kFactor) {
  if (!root_) return;
  std::vector<double> unit(std::size_t(frameUnknowns_), 0.0);
  for (std::size_t s = 0; s < springs_.size(); ++s) {
    const std::size_t p = springs_[s].point, first = unknownsOf(springs_[s]);
    const RigidBody& member = frames_.member(springs_[s].member);
    const PetscInt frame = PetscInt(first) + PetscInt(member.mappedFrame(p)) * kRigidDerivSize;
    const std::array<double, 9>& D = dfdx_[s];
    std::array<Vec3d, kRigidDerivSize> J;  // J's columns
    for (PetscInt b = 0; b < kRigidDerivSize; ++b) {
      unit[std::size_t(frame + b)] = 1;
      J[std::size_t(b)] = member.mappedVelocity(p, unit.data() + first);
      unit[std::size_t(frame + b)] = 0;
    }
    const PetscInt node = nodeRows_[s] + frameTotal_;
    for (std::size_t j = 0; j < 3; ++j) {
      if (nodeFixed_[3 * s + j]) continue;
      const PetscInt nodeRow = node + PetscInt(j);
      for (std::size_t b = 0; b < std::size_t(kRigidDerivSize); ++b) {
        if (frameFixed_[std::size_t(frame) + b]) continue;
        double dj = 0;
        for (std::size_t k = 0; k < 3; ++k) dj += D[3 * j + k] * J[b][k];
        // (J^T D)[b][j] = (D J)[j][b], D being symmetric.
        const PetscInt frameRow = frame + PetscInt(b);
        const PetscScalar value = kFactor * dj;
        EIS_CHECK(MatSetValues(matrix_, 1, &nodeRow, 1, &frameRow, &value, ADD_VALUES));
        EIS_CHECK(MatSetValues(matrix_, 1, &frameRow, 1, &nodeRow, &value, ADD_VALUES));
      }
      for (std::size_t k = 0; k < 3; ++k) {
        if (nodeFixed_[3 * s + k]) continue;
        const PetscInt column = node + PetscInt(k);
        const PetscScalar value = -kFactor * D[3 * j + k];
        EIS_CHECK(MatSetValues(matrix_, 1, &nodeRow, 1, &column, &value, ADD_VALUES));
      }
    }
  }
}

// On rank 0, mesh spring t between nodes a and b: -kFactor D on the (a, a) and (b, b) blocks,
// kFactor D on (a, b) and (b, a).
void JointSystem::addMeshSpringBlocks(double kFactor) {
  if (!root_) return;
  for (std::size_t t = 0; t < meshSprings_.size(); ++t) {
    const std::size_t slot[2] = {slotOf(t), slotOf(t) + 1};
    for (std::size_t r = 0; r < 2; ++r)
      for (std::size_t c = 0; c < 2; ++c)
        for (std::size_t j = 0; j < 3; ++j) {
          if (nodeFixed_[3 * slot[r] + j]) continue;
          const PetscInt row = nodeRows_[slot[r]] + frameTotal_ + PetscInt(j);
          for (std::size_t k = 0; k < 3; ++k) {
            if (nodeFixed_[3 * slot[c] + k]) continue;
            const PetscInt column = nodeRows_[slot[c]] + frameTotal_ + PetscInt(k);
            const PetscScalar value = (r == c ? -kFactor : kFactor) * meshDfdx_[t][3 * j + k];
            EIS_CHECK(MatSetValues(matrix_, 1, &row, 1, &column, &value, ADD_VALUES));
          }
        }
  }
}

Mat JointSystem::systemMatrix(double mFactor, double bFactor, double kFactor) {
  const Mat frames = frames_.systemMatrix(mFactor, bFactor, kFactor);
  const Mat mesh = mesh_.systemMatrix(mFactor, bFactor, kFactor);
  PetscBool shell;
  EIS_CHECK(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(mesh), MATSHELL, &shell));
  if (shell)
    throw Error(
        "solver.operator = matrix-free: not for a mesh body that springs join to rigidly mapped "
        "points yet (the joined system's matrix is assembled from its parts')");
  if (!matrix_) createMatrix(frames, mesh);
  EIS_CHECK(MatZeroEntries(matrix_));
  copyRows(frames, 0, 0);
  copyRows(mesh, frameTotal_, frameTotal_);
  EIS_CHECK(MatAssemblyBegin(matrix_, MAT_FLUSH_ASSEMBLY));
  EIS_CHECK(MatAssemblyEnd(matrix_, MAT_FLUSH_ASSEMBLY));
  addSpringBlocks(kFactor);
  addMeshSpringBlocks(kFactor);
  addCarriedBlocks(kFactor);
  EIS_CHECK(MatAssemblyBegin(matrix_, MAT_FINAL_ASSEMBLY));
  EIS_CHECK(MatAssemblyEnd(matrix_, MAT_FINAL_ASSEMBLY));
  return matrix_;
}

}  // namespace eis
