// The points of the mesh body that a frame carries, in the joined system of frames and mesh
// (model/joint_system.hpp, model/carried_points.hpp): point k at w = c + R u~, u~ = sum_j b_j u_j
// of its slots' nodes, R the frame's rotation (RigidMapping's rotateByQuaternion, SOFA's
// Quat::rotate), J = [I, -[R u~]x | b_j R], and the planes' law at w.
#include <array>

#include "eis/core/error.hpp"
#include "eis/model/joint_system.hpp"
#include "eis/model/mat3.hpp"
#include "eis/model/rigid_mapping.hpp"

namespace eis {

namespace {

using mat3::cross;
using mat3::times;

}  // namespace

PetscInt JointSystem::carriedFrame() const {
  return PetscInt(kRigidDerivSize) *
         PetscInt(frames_.firstFrame(carried_.member) + int(carried_.frame));
}

void JointSystem::addCarriedForces(const double* frames, const double* velocities,
                                   double* frameForce, const std::vector<double>& nodeX,
                                   const std::vector<double>& nodeV,
                                   std::vector<double>& nodeForce) {
  const PetscInt frame = carriedFrame() / kRigidDerivSize;
  const double* pose = frames + kRigidCoordSize * frame;
  const double* twist = velocities + kRigidDerivSize * frame;
  double* wrench = frameForce + kRigidDerivSize * frame;
  carriedOrientation_ = {pose[3], pose[4], pose[5], pose[6]};
  const Vec3 omega{twist[3], twist[4], twist[5]};
  for (std::size_t k = 0; k < carried_.points.size(); ++k) {
    const auto& weights = carried_.points[k].weights;
    Vec3 u{0, 0, 0}, du{0, 0, 0};
    for (std::size_t j = 0; j < weights.size(); ++j) {
      const std::size_t slot = 3 * (carriedSlot_[k] + j);
      for (std::size_t d = 0; d < 3; ++d) {
        u[d] += weights[j].second * nodeX[slot + d];
        du[d] += weights[j].second * nodeV[slot + d];
      }
    }
    const Vec3 arm = rotateByQuaternion(carriedOrientation_, u);
    const Vec3 turned = rotateByQuaternion(carriedOrientation_, du);
    const Vec3 spin = cross(omega, arm);
    Vec3 w, v;
    for (std::size_t d = 0; d < 3; ++d) {
      w[d] = pose[d] + arm[d];
      v[d] = twist[d] + spin[d] + turned[d];
    }
    Vec3 force{0, 0, 0};
    std::array<double, 9> stiffness{};
    for (const Plane& plane : carried_.planes)
      addPlaneForce(plane, w.data(), v.data(), force.data(), stiffness);
    carriedArm_[k] = arm;
    carriedK_[k] = stiffness;
    const Vec3 torque = cross(arm, force);
    const Vec3 local = inverseRotateByQuaternion(carriedOrientation_, force);
    for (std::size_t d = 0; d < 3; ++d) {
      wrench[d] += force[d];
      wrench[3 + d] += torque[d];
    }
    for (std::size_t j = 0; j < weights.size(); ++j)
      for (std::size_t d = 0; d < 3; ++d)
        nodeForce[3 * (carriedSlot_[k] + j) + d] += weights[j].second * local[d];
  }
}

void JointSystem::addCarriedProducts(double kFactor, const double* dv, double* out,
                                     const std::vector<double>& dn,
                                     std::vector<double>& nodeOut) const {
  if (carried_.points.empty()) return;
  const PetscInt first = carriedFrame();
  const Vec3 dc{dv[first], dv[first + 1], dv[first + 2]};
  const Vec3 omega{dv[first + 3], dv[first + 4], dv[first + 5]};
  for (std::size_t k = 0; k < carried_.points.size(); ++k) {
    const auto& weights = carried_.points[k].weights;
    Vec3 du{0, 0, 0};
    for (std::size_t j = 0; j < weights.size(); ++j)
      for (std::size_t d = 0; d < 3; ++d)
        du[d] += weights[j].second * dn[3 * (carriedSlot_[k] + j) + d];
    const Vec3 turned = rotateByQuaternion(carriedOrientation_, du);
    const Vec3 spin = cross(omega, carriedArm_[k]);
    Vec3 dw;
    for (std::size_t d = 0; d < 3; ++d) dw[d] = dc[d] + spin[d] + turned[d];
    Vec3 df = times(carriedK_[k], dw);
    for (double& value : df) value *= kFactor;
    const Vec3 torque = cross(carriedArm_[k], df);
    const Vec3 local = inverseRotateByQuaternion(carriedOrientation_, df);
    for (std::size_t d = 0; d < 3; ++d) {
      out[first + PetscInt(d)] += df[d];
      out[first + 3 + PetscInt(d)] += torque[d];
    }
    for (std::size_t j = 0; j < weights.size(); ++j)
      for (std::size_t d = 0; d < 3; ++d)
        nodeOut[3 * (carriedSlot_[k] + j) + d] += weights[j].second * local[d];
  }
}

// On rank 0, per carried point: J^T (kFactor K) J over its frame's 6 unknowns and its nodes' 3
// each, J's frame columns [I, -[R u~]x] and node j's b_j R; between free unknowns only.
void JointSystem::addCarriedBlocks(double kFactor) {
  if (!root_ || carried_.points.empty()) return;
  const PetscInt frame = carriedFrame();
  std::array<Vec3, 3> rotation;  // R's columns
  for (std::size_t c = 0; c < 3; ++c) {
    Vec3 unit{0, 0, 0};
    unit[c] = 1;
    rotation[c] = rotateByQuaternion(carriedOrientation_, unit);
  }
  for (std::size_t k = 0; k < carried_.points.size(); ++k) {
    const auto& weights = carried_.points[k].weights;
    // J's columns, each a 3-vector, with the global row of its unknown (-1: fixed).
    std::vector<Vec3> columns;
    std::vector<PetscInt> rows;
    const Vec3& arm = carriedArm_[k];
    for (std::size_t b = 0; b < 6; ++b) {
      Vec3 e{0, 0, 0};
      if (b < 3) {
        e[b] = 1;
      } else {
        Vec3 axis{0, 0, 0};
        axis[b - 3] = 1;
        e = cross(axis, arm);
      }
      columns.push_back(e);
      rows.push_back(frameFixed_[std::size_t(frame) + b] ? -1 : frame + PetscInt(b));
    }
    for (std::size_t j = 0; j < weights.size(); ++j) {
      const std::size_t slot = carriedSlot_[k] + j;
      for (std::size_t c = 0; c < 3; ++c) {
        Vec3 e;
        for (std::size_t d = 0; d < 3; ++d) e[d] = weights[j].second * rotation[c][d];
        columns.push_back(e);
        rows.push_back(nodeFixed_[3 * slot + c] ? -1 : nodeRows_[slot] + frameTotal_ + PetscInt(c));
      }
    }
    for (std::size_t b = 0; b < columns.size(); ++b) {
      if (rows[b] < 0) continue;
      const Vec3 kb = times(carriedK_[k], columns[b]);
      for (std::size_t a = 0; a < columns.size(); ++a) {
        if (rows[a] < 0) continue;
        const PetscScalar value = kFactor * mat3::dot(columns[a], kb);
        EIS_CHECK(MatSetValues(matrix_, 1, &rows[a], 1, &rows[b], &value, ADD_VALUES));
      }
    }
  }
}

}  // namespace eis
