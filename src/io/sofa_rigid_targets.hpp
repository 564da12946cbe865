#pragma once
// Points a RigidMapping drives from a Rigid3 frame that no ODE solver integrates, as the targets
// of a BilateralLagrangianConstraint (io/sofa_rigid_targets.cpp): their positions and the
// translations a LinearMovementProjectiveConstraint gives the frame. Private to the SOFA
// importer.
#include <array>
#include <set>
#include <string>
#include <vector>

#include "sofa_reader.hpp"

namespace eis::sofa {

// The frame a RigidMapping in the state's node reads, when no ODE solver integrates it (null:
// no such mapping, or an integrated frame).
const SofaObject* unintegratedFrame(const Reader& r, const SofaObject& state);

// The points of `state` that the RigidMapping of its node drives from `frame` (one Rigid3
// frame; RigidMapping::reinit: the child's positions as local coordinates l, or with
// globalToLocalCoords world points turned into the frame; the points c + R(q) l), and in
// `motion` the key frames "T DX DY DZ .." of the frame's LinearMovementProjectiveConstraint
// (LinearMovementProjectiveConstraint.inl, Rigid3: 6 numbers a key, relativeMovements true:
// c = c0 + m; "" when nothing moves the frame). Rejects what it does not read: several frames,
// a turning movement, absolute movements, the mapping's other point sources.
std::vector<std::array<double, 3>> rigidlyMappedPoints(Reader& r, const SofaObject& state,
                                                       const SofaObject& frame,
                                                       std::string& motion);

// The Rigid3 frames, integrated by no ODE solver, that a RigidMapping reads into a
// BilateralLagrangianConstraint's object2 (in `targets`): a projective constraint on such a
// frame moves the constraint's points, and the frame is no body of its own.
std::set<const SofaObject*> targetFrames(const Reader& reader,
                                         const std::set<const SofaObject*>& targets);

}  // namespace eis::sofa
