#pragma once
// A SOFA MechanicalObject<Rigid3d> (or Rigid3, Rigid3f) and what acts on it, as the keys of a body
// of rigid frames (model/rigid_body.hpp, rigid.*).
#include <string>

#include "sofa_reader.hpp"

namespace eis::sofa {

bool isRigidTemplate(const std::string& name);
// The frames and their velocities: `position` 7 numbers a frame (linked to a regular grid's
// points, an unturned frame at each; SOFA's one frame at the origin when absent; with at most one
// frame and one velocity given, unturned frames at the points written in the node's topology
// container), `velocity` 6 a frame, the last given repeated for the frames after it.
void mapRigidState(Reader& reader, const SofaObject& state);
// Why the component `type` is refused on rigid frames, one sentence.
std::string refusalOnFrames(const std::string& type);
// UniformMass, FixedProjectiveConstraint, PartialFixedProjectiveConstraint, ConstantForceField,
// the springs, planes, rest-shape springs (and their old
// names) and BeamFEMForceField on the rigid frames; false for another class, which the caller refuses.
bool mapRigidComponent(Reader& reader, const SofaObject& o);
// The mass a UniformMass<Rigid3>'s `filename` gives (io/sofa_rigid_mass_file.cpp), as
// rigid.mass's text "M VOLUME I00 .. I22"; an unknown keyword or a missing number is an error
// at `where`.
std::string rigidMassFromText(const std::string& text, const std::string& where);
std::string rigidMassFromFile(const std::string& path, const std::string& where);

}  // namespace eis::sofa
