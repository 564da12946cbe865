// SOFA master: MechanicalObject.inl (the sizes of position and velocity), UniformMass.inl and
// RigidMass.h (vertexMass is "mass volume inertiaMatrix", totalMass shared), and the projective
// constraints on a Rigid3d state (FixedProjectiveConstraint.inl: indices {0}; PartialFixed: its
// fixedDirections one flag per velocity unknown, 6, all 1 by default).
#include "sofa_rigid.hpp"

#include "sofa_selections.hpp"

namespace eis::sofa {

bool isRigidTemplate(const std::string& name) {
  return name == "Rigid3d" || name == "Rigid3" || name == "Rigid3f" || name == "Rigid";
}

void mapRigidState(Reader& r, const SofaObject& state) {
  for (const char* field : {"position", "velocity", "rest_position"})
    if (state.field(field) && isSofaLink(*state.field(field)))
      r.reject(state, field, "a link is not supported on a Rigid3d state; write the values");
  // MechanicalObject::reinit scales, rotates, then translates the frames; a translation alone
  // moves their centres (DataTypes::add). The legacy dx dy dz (MechanicalObject::parse, read in
  // single precision) replace `translation`, the unnamed ones 0. Rotations and scales of frames
  // are refused.
  for (const char* field : {"rotation", "translation2", "rotation2", "rx", "ry", "rz", "scale3d",
                            "scale", "sx", "sy", "sz"}) {
    const double neutral = field[0] == 's' ? 1 : 0;
    for (double x : r.reals(state, field))
      if (x != neutral)
        r.reject(state, field, "a rotation or scale of a Rigid3d state is not supported yet");
  }
  std::vector<double> translation = r.reals(state, "translation");
  if (translation.empty()) translation.assign(3, 0);
  if (translation.size() != 3) r.reject(state, "translation", "expected 3 numbers");
  const char* legacy[3] = {"dx", "dy", "dz"};
  if (r.given(state, "dx") || r.given(state, "dy") || r.given(state, "dz"))
    for (int i = 0; i < 3; ++i) translation[i] = r.single(state, legacy[i], 0);
  r.refuseIfGiven(state, "rest_position", "a rest position of rigid frames is not supported");
  std::vector<double> frames = r.reals(state, "position");
  if (!r.given(state, "position")) {
    // MechanicalObject's constructor makes one frame, at the origin, unturned.
    for (const SofaObject& o : state.node->objects)
      if (o.type.find("Topology") != std::string::npos ||
          o.type.find("Loader") != std::string::npos)
        r.reject(state, "position", "frames from " + o.label() + " are not supported; write them");
    frames = {0, 0, 0, 0, 0, 0, 1};
  }
  if (frames.empty() || frames.size() % 7 != 0)
    r.reject(state, "position", "expected 7 numbers per frame (x y z qx qy qz qw)");
  for (std::size_t f = 0; f < frames.size(); f += 7)
    for (int i = 0; i < 3; ++i) frames[f + i] += translation[i];
  r.key("rigid.frames", joined(frames, 0, frames.size()));
  std::vector<double> velocities = r.reals(state, "velocity");
  if (velocities.size() % 6 != 0)
    r.reject(state, "velocity", "expected 6 numbers per frame (vx vy vz wx wy wz)");
  const std::size_t count = frames.size() / 7;
  if (velocities.size() > 6 * count) r.reject(state, "velocity", "more velocities than frames");
  if (!velocities.empty()) {
    // MechanicalObject::init copies the last velocity given to the frames after it.
    while (velocities.size() < 6 * count)
      velocities.insert(velocities.end(), velocities.end() - 6, velocities.end());
    r.key("rigid.velocities", joined(velocities, 0, velocities.size()));
  }
}

namespace {

void mapRigidMass(Reader& r, const SofaObject& o) {
  r.refuseIfGiven(o, "indices", "a uniform mass on some frames only is not supported");
  r.refuseIfGiven(o, "filename", "a mass file is not supported");
  if (!r.given(o, "totalMass") && !r.given(o, "vertexMass"))
    r.reject(o, "totalMass", "give totalMass or vertexMass (SOFA master requires one)");
  if (r.given(o, "vertexMass")) {
    const std::vector<double> mass = r.reals(o, "vertexMass");
    if (mass.size() != 1 && mass.size() != 2 && mass.size() != 11)
      r.reject(o, "vertexMass",
               "expected a Rigid3d mass: M, or M VOLUME and the 9 inertia entries");
    r.key("rigid.mass", joined(mass, 0, mass.size()));
  }
  if (r.given(o, "totalMass")) {
    if (r.given(o, "vertexMass"))
      r.warn(o.label() +
             ": totalMass overrides the mass of vertexMass (its inertia stays), as in "
             "SOFA");
    r.key("rigid.total-mass", parse::text(r.real(o, "totalMass", 1.0)));
  }
}

void mapRigidFixed(Reader& r, const SofaObject& o, bool partial) {
  std::string frames = "all";
  if (!r.boolean(o, "fixAll", false)) {
    if (o.field("indices") && isSofaLink(*o.field("indices")))
      r.reject(o, "indices", "a link is not supported on rigid frames; write the indices");
    std::vector<long long> indices = r.integers(o, "indices");
    if (!r.given(o, "indices")) indices = {0};
    if (indices.empty()) return;  // SOFA fixes nothing
    frames = indexList(indices);
    if (frames.compare(0, 8, "indices ") == 0) frames = frames.substr(8);
  }
  if (!partial) {
    r.key("rigid.fixed", frames);
    return;
  }
  std::vector<double> directions = r.reals(o, "fixedDirections");
  if (!r.given(o, "fixedDirections")) directions.assign(6, 1);
  if (directions.size() != 6)
    r.reject(o, "fixedDirections", "expected 6 flags on a Rigid3d state (vx vy vz wx wy wz)");
  std::string flags;
  for (double d : directions) flags += d != 0 ? "1 " : "0 ";
  r.key("rigid.partial-fixed", flags + frames);
}

}  // namespace

bool mapRigidComponent(Reader& r, const SofaObject& o) {
  if (o.type == "UniformMass") {
    mapRigidMass(r, o);
  } else if (o.type == "FixedProjectiveConstraint" || o.type == "FixedConstraint") {
    mapRigidFixed(r, o, false);
  } else if (o.type == "PartialFixedProjectiveConstraint" || o.type == "PartialFixedConstraint") {
    mapRigidFixed(r, o, true);
  } else {
    return false;
  }
  return true;
}

}  // namespace eis::sofa
