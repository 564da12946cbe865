#pragma once
// A SOFA MechanicalObject<Rigid3d> (or Rigid3, Rigid3f) and what acts on it, as the keys of a body
// of rigid frames (model/rigid_body.hpp, rigid.*).
#include <string>

#include "sofa_reader.hpp"

namespace eis::sofa {

bool isRigidTemplate(const std::string& name);
// The frames and their velocities: `position` 7 numbers a frame (SOFA's one frame at the origin
// when absent), `velocity` 6 a frame, the last given repeated for the frames after it.
void mapRigidState(Reader& reader, const SofaObject& state);
// UniformMass, FixedProjectiveConstraint and PartialFixedProjectiveConstraint (and their old
// names) on the rigid frames; false for another class, which the caller refuses.
bool mapRigidComponent(Reader& reader, const SofaObject& o);

}  // namespace eis::sofa
