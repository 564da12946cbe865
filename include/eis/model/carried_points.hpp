#pragma once
// Points of a mesh body that a frame of a body of frames carries (carried.*): SOFA's
// DeformableOnRigidFrameMapping puts the body's nodes u, given in the frame's coordinates, at
// c + R(q) u, and a BarycentricMapping child takes points between them, on which PlaneForceFields
// act. Point k sits at w_k = c + R u~_k with u~_k = sum_j b_kj u_j and moves at
// v_c + omega x (R u~_k) + R sum_j b_kj du_j / dt; a force f there reaches the frame as f and the
// torque (R u~_k) x f, and node j as b_kj R^T f (the mapping's applyJ and applyJT; its applyDJT
// does nothing, so there is no geometric stiffness). The frames and the body are then one system
// (model/joint_system.hpp).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "eis/core/component.hpp"
#include "eis/core/parameters.hpp"
#include "eis/model/plane_force_field.hpp"

namespace eis {

struct CarriedPoint {
  std::vector<std::pair<std::int64_t, double>> weights;  // node id, barycentric weight
};

struct CarriedPoints {
  std::string frames;     // the node path of the body of frames
  std::size_t frame = 0;  // its frame that carries the body (SOFA's index)
  std::vector<CarriedPoint> points;
  std::vector<Plane> planes;
};

const ComponentDeclaration& carriedPointsComponent();

// The carried.* keys of a scene, or nothing when it has none.
std::optional<CarriedPoints> carriedPointsOf(const Parameters& scene);

}  // namespace eis
