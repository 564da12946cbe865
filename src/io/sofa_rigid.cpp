// SOFA master: MechanicalObject.inl (the sizes of position and velocity), UniformMass.inl and
// RigidMass.h (vertexMass is "mass volume inertiaMatrix", totalMass shared), and the projective
// constraints on a Rigid3d state (FixedProjectiveConstraint.inl: indices {0}; PartialFixed: its
// fixedDirections one flag per velocity unknown, 6, all 1 by default), the springs between
// frames and the planes under them (SpringForceField<Rigid3>, PlaneForceField<Rigid3>, read as
// on points), the rest-shape springs (RestShapeSpringsForceField<Rigid3>) and the constant
// forces and torques (ConstantForceField<Rigid3>), and the beams between frames
// (BeamFEMForceField<Rigid3>).
#include "sofa_rigid.hpp"

#include "eis/mesh/mesh_transform.hpp"
#include "eis/model/rigid_body.hpp"
#include "sofa_grid.hpp"
#include "sofa_selections.hpp"

namespace eis::sofa {

bool isRigidTemplate(const std::string& name) {
  return name == "Rigid3d" || name == "Rigid3" || name == "Rigid3f" || name == "Rigid";
}

namespace {

// MechanicalObject::init: with at most one frame and one velocity given, the frames are the
// points of the node's topology (the first container, getMeshTopology(Local)), unturned, when it
// has any (hasPos). A container's written `position` is read; points it takes from a loader
// (`src`, a link) or a generated grid are refused by name.
std::vector<double> topologyPoints(Reader& r, const SofaObject& state) {
  if (!r.boolean(state, "useTopology", true)) return {};
  for (const SofaObject& o : state.node->objects) {
    if (o.type != "MeshTopology" && !endsWith(o.type, "TopologyContainer")) continue;
    if (o.field("src") || (o.field("position") && isSofaLink(*o.field("position"))))
      r.reject(state, "position",
               "frames at the points of " + o.label() +
                   " taken from a loader are not supported; write the points in its position");
    std::vector<double> points = r.reals(o, "position");
    if (points.size() % 3 != 0) r.reject(o, "position", "expected 3 numbers per point");
    return points;
  }
  if (!r.given(state, "position"))
    for (const SofaObject& o : state.node->objects)
      if (o.type.find("Topology") != std::string::npos ||
          o.type.find("Loader") != std::string::npos)
        r.reject(state, "position", "frames from " + o.label() + " are not supported; write them");
  return {};
}

std::vector<double> framesAtPoints(const std::vector<double>& points) {
  std::vector<double> frames;
  for (std::size_t p = 0; p < points.size(); p += 3)
    frames.insert(frames.end(), {points[p], points[p + 1], points[p + 2], 0, 0, 0, 1});
  return frames;
}

// A `position` linked to a regular grid's points (which GridTopology computes): a frame at each
// point, unturned. The types differ, so BaseData::genericCopyValueFrom copies the 3 numbers of
// each point into the first 3 of a frame's 7 (its centre), the orientation that of a new frame
// (RigidCoord's constructor: the identity). A link to the frames written in another Rigid3d
// state takes them (Reader::text follows the link). Nothing when `position` is no link.
std::optional<std::vector<double>> linkedFrames(Reader& r, const SofaObject& state) {
  if (!state.field("position") || !isSofaLink(*state.field("position"))) return std::nullopt;
  if (const std::optional<std::vector<double>> points = linkedGridPoints(r, state, "position"))
    return framesAtPoints(*points);
  const SofaObject* target = r.linked(state, "position");
  if (target && target->type == "MechanicalObject" && r.given(state, "position") &&
      isRigidTemplate(r.text(*target, "template").value_or("")))
    return r.reals(state, "position");
  r.reject(state, "position",
           "a Rigid3d state's position links a regular grid's points (a frame at each) or "
           "frames written in another Rigid3d state, not this; write the values");
}

}  // namespace

void mapRigidState(Reader& r, const SofaObject& state) {
  for (const char* field : {"velocity", "rest_position"})
    if (state.field(field) && isSofaLink(*state.field(field)))
      r.reject(state, field, "a link is not supported on a Rigid3d state; write the values");
  // MechanicalObject::reinit scales, rotates, then translates the frames: a rotation by Euler
  // angles in degrees turns each centre and orientation (applyRotation: q c, q o), a translation
  // moves the centres (DataTypes::add). The legacy rx ry rz and dx dy dz (MechanicalObject::parse,
  // read in single precision) replace `rotation` and `translation`, the unnamed ones 0. Scales
  // of frames are refused.
  for (const char* field : {"translation2", "rotation2", "scale3d", "scale", "sx", "sy", "sz"}) {
    const double neutral = field[0] == 's' ? 1 : 0;
    for (double x : r.reals(state, field))
      if (x != neutral) r.reject(state, field, "a scale of a Rigid3d state is not supported yet");
  }
  const auto vector3 = [&](const char* field, const char* legacy[3]) {
    std::vector<double> v = r.reals(state, field);
    if (v.empty()) v.assign(3, 0);
    if (v.size() != 3) r.reject(state, field, "expected 3 numbers");
    if (r.given(state, legacy[0]) || r.given(state, legacy[1]) || r.given(state, legacy[2]))
      for (int i = 0; i < 3; ++i) v[i] = r.single(state, legacy[i], 0);
    return std::array<double, 3>{v[0], v[1], v[2]};
  };
  const char* legacyRotation[3] = {"rx", "ry", "rz"};
  const char* legacyTranslation[3] = {"dx", "dy", "dz"};
  const std::array<double, 3> rotation = vector3("rotation", legacyRotation);
  const std::array<double, 3> translation = vector3("translation", legacyTranslation);
  r.refuseIfGiven(state, "rest_position", "a rest position of rigid frames is not supported");
  // MechanicalObject::init stores the rest position as restScale times the position.
  if (r.real(state, "restScale", 1) != 1)
    r.reject(state, "restScale", "a scaled rest position of rigid frames is not supported");
  const std::optional<std::vector<double>> linked = linkedFrames(r, state);
  std::vector<double> frames = linked ? *linked : r.reals(state, "position");
  // MechanicalObject's constructor makes one frame, at the origin, unturned.
  if (!linked && !r.given(state, "position")) frames = {0, 0, 0, 0, 0, 0, 1};
  if (frames.empty() || frames.size() % 7 != 0)
    r.reject(state, "position", "expected 7 numbers per frame (x y z qx qy qz qw)");
  // A linked grid of one point: the frame at it, which its topology would give too.
  if (!linked && frames.size() <= 7 && r.reals(state, "velocity").size() <= 6) {
    const std::vector<double> points = topologyPoints(r, state);
    if (!points.empty()) frames = framesAtPoints(points);
  }
  const bool turned = rotation != std::array<double, 3>{0, 0, 0};
  const std::array<double, 4> turn = eulerDegreesQuaternion(rotation);
  for (std::size_t f = 0; f < frames.size(); f += 7) {
    if (turned) {
      const auto centre = rotateEulerDegrees(rotation, {frames[f], frames[f + 1], frames[f + 2]});
      const auto orientation =
          quaternionProduct(turn, {frames[f + 3], frames[f + 4], frames[f + 5], frames[f + 6]});
      for (int i = 0; i < 3; ++i) frames[f + i] = centre[i];
      for (int i = 0; i < 4; ++i) frames[f + 3 + i] = orientation[i];
    }
    for (int i = 0; i < 3; ++i) frames[f + i] += translation[i];
  }
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
  // A mass file: read where the body's files are found (io/sofa_import.cpp), its vertexMass
  // unsetting totalMass; with vertexMass too, the file's mass and the scene's inertia would mix.
  if (r.text(o, "filename").value_or("unused") != "unused") {
    for (const char* field : {"vertexMass", "totalMass"})
      r.refuseIfGiven(o, field, "beside a mass file it is not supported");
    return;
  }
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

// RestShapeSpringsForceField<Rigid3> (RestShapeSpringsForceField.inl): stiffness 100 when
// empty, angularStiffness padded with 100 to the stiffness list's length or cut to it (bwdInit),
// the frames of `points` (all when empty), the rest shape the state's rest position: its starting
// frames. Several stiffnesses are refused: SOFA's force takes the i-th for the i-th listed frame,
// its assembled matrix the one at the frame's index.
void mapRigidRestShape(Reader& r, const SofaObject& o) {
  for (const char* field : {"external_rest_shape", "external_points"})
    r.refuseIfGiven(o, field, "springs to another object's rest shape are not supported");
  r.refuseIfGiven(o, "pivot_points", "springs at pivot points are not supported");
  for (double d : r.reals(o, "activeDirections"))
    if (d == 0) r.reject(o, "activeDirections", "springs in some directions only");
  std::vector<double> k = r.reals(o, "stiffness");
  if (k.empty()) k = {100.0};
  if (k.size() > 1)
    r.reject(o, "stiffness", "one stiffness for every frame is supported on rigid frames");
  std::vector<double> ka = r.reals(o, "angularStiffness");
  if (ka.empty()) ka = {100.0};
  if (o.field("points") && isSofaLink(*o.field("points")))
    r.reject(o, "points", "a link is not supported on rigid frames; write the indices");
  const std::vector<long long> points = r.integers(o, "points");
  std::string frames = points.empty() ? "all" : indexList(points);
  if (frames.compare(0, 8, "indices ") == 0) frames = frames.substr(8);
  r.key("rigid.rest-shape", parse::text(k[0]) + " " + parse::text(ka[0]) + " " + frames);
}

// ConstantForceField<Rigid3> (ConstantForceField.inl, the points' law with a force and a torque
// a frame): indices absent or empty = every frame; one Deriv in forces is the same on every
// index, else one per index; without forces, totalForce shared equally among the indices; the
// force and torque added to the frames' as given (world frame).
void mapRigidConstantForce(Reader& r, const SofaObject& o) {
  if (r.boolean(o, "indexFromEnd", false))
    r.reject(o, "indexFromEnd", "indices counted from the end are not supported");
  if (o.field("indices") && isSofaLink(*o.field("indices")))
    r.reject(o, "indices", "a link is not supported on rigid frames; write the indices");
  const std::size_t count = parse::reals("rigid.frames", r.gaveValue("rigid.frames"), 0).size() / 7;
  std::vector<long long> indices = r.integers(o, "indices");
  if (indices.empty())
    for (std::size_t i = 0; i < count; ++i) indices.push_back((long long)i);
  for (long long i : indices)
    if (i < 0 || std::size_t(i) >= count)
      r.reject(o, "indices", "frame " + std::to_string(i) + " of " + std::to_string(count));
  std::vector<double> forces = r.reals(o, "forces");
  if (!r.given(o, "forces")) {
    if (!r.given(o, "totalForce")) return;  // SOFA: an invalid component, no force
    forces = r.reals(o, "totalForce");
    if (forces.size() != 6) r.reject(o, "totalForce", "expected 6 numbers (force, torque)");
    for (double& x : forces) x /= double(indices.size());
  }
  if (forces.size() == 6)
    while (forces.size() < 6 * indices.size())
      forces.insert(forces.end(), forces.begin(), forces.begin() + 6);
  if (forces.size() != 6 * indices.size())
    r.reject(o, "forces", "expected 6 numbers (force, torque) for every index or one for all");
  std::string text;
  for (std::size_t i = 0; i < indices.size(); ++i)
    text += (i ? " " : "") + std::to_string(indices[i]) + " " + joined(forces, 6 * i, 6);
  r.key("rigid.forces", text);
}

// BeamFEMForceField<Rigid3> (BeamFEMForceField.inl, BaseLinearElasticityFEMForceField.inl): the
// edges of its topology (`topology`, else the node's), radius 0.1 and radiusInner 0 by default,
// youngModulus and poissonRatio lists whose i-th value is the i-th edge's (the first for the
// edges past the list's end; empty: 5000 and 0.45), a negative modulus and a ratio outside
// [0, 0.5) set to those defaults with a warning, as SOFA's checks do.
void mapRigidBeam(Reader& r, const SofaObject& o) {
  if (!r.integers(o, "listSegment").empty())
    r.reject(o, "listSegment", "beams on some of the topology's edges only are not supported");
  if (r.real(o, "rayleighStiffness", 0) != 0)
    r.reject(o, "rayleighStiffness", "a force field's own Rayleigh damping is not supported");
  const SofaObject* topology = o.field("topology") ? r.linked(o, "topology") : topologyOf(o.node);
  if (!topology) r.reject(o, "topology", "no topology: SOFA finds no edge for the beams");
  const bool mesh = topology->type == "MeshTopology";
  if (!mesh && topology->type != "EdgeSetTopologyContainer")
    r.reject(o, "topology",
             "the edges of a MeshTopology or an EdgeSetTopologyContainer only, not of " +
                 topology->label());
  const char* field = mesh && r.given(*topology, "lines") ? "lines" : "edges";
  const std::vector<long long> edges = r.integers(*topology, field);
  if (edges.empty() || edges.size() % 2 != 0)
    r.reject(*topology, field,
             "the beams need edges written as pairs of frames (edges SOFA computes from other "
             "cells are not supported)");
  const std::size_t count = edges.size() / 2;
  const auto perEdge = [&](const char* name, double fallback, bool (*valid)(double)) {
    std::vector<double> values = r.reals(o, name);
    if (values.empty()) values = {fallback};
    for (double& v : values)
      if (!valid(v)) {
        r.warn(r.where(o, name) + ": " + o.label() + ": " + name + " " + parse::text(v) +
               " is out of range; SOFA sets it to " + parse::text(fallback));
        v = fallback;
      }
    for (std::size_t i = 1; i < values.size() && i < count; ++i)
      if (values[i] != values[0])
        r.reject(o, name, "a value per beam is not supported; one for all");
    return values[0];
  };
  const double young = perEdge("youngModulus", 5000, [](double v) { return v >= 0; });
  const double poisson = perEdge("poissonRatio", 0.45, [](double v) { return v >= 0 && v < 0.5; });
  const double radius = r.real(o, "radius", 0.1), inner = r.real(o, "radiusInner", 0);
  if (!(radius > 0)) r.reject(o, "radius", "expected a number > 0");
  if (!(inner >= 0 && inner < radius))
    r.reject(o, "radiusInner", "expected a number in [0, radius)");
  const std::size_t frames =
      parse::reals("rigid.frames", r.gaveValue("rigid.frames"), 0).size() / 7;
  std::string text = parse::text(young) + " " + parse::text(poisson) + " " + parse::text(radius) +
                     " " + parse::text(inner);
  for (std::size_t i = 0; i < edges.size(); i += 2) {
    if (edges[i] < 0 || edges[i + 1] < 0 || std::size_t(edges[i]) >= frames ||
        std::size_t(edges[i + 1]) >= frames || edges[i] == edges[i + 1])
      r.reject(*topology, field,
               "edge " + std::to_string(edges[i]) + " " + std::to_string(edges[i + 1]) +
                   ": a beam joins two different frames of " + std::to_string(frames));
    text += " " + std::to_string(edges[i]) + " " + std::to_string(edges[i + 1]);
  }
  r.key("rigid.beam", text);
}

}  // namespace

std::string refusalOnFrames(const std::string& type) {
  const auto has = [&](const char* part) { return type.find(part) != std::string::npos; };
  if (has("ConstraintCorrection") || has("LagrangianConstraint"))
    return "Lagrangian constraints on rigid frames are not supported yet: the frames are stepped "
           "apart from the constraint solver, which holds only bodies of points (SOFA's Rigid3 "
           "rows are 6 a frame, its UncoupledConstraintCorrection compliance 1/m on the centre "
           "and (m I)^-1 on the rotation, times h^2 without useOdeSolverIntegrationFactors)";
  return "not supported on rigid frames yet";
}

bool mapRigidComponent(Reader& r, const SofaObject& o) {
  if (o.type == "UniformMass") {
    mapRigidMass(r, o);
  } else if (o.type == "FixedProjectiveConstraint" || o.type == "FixedConstraint") {
    mapRigidFixed(r, o, false);
  } else if (o.type == "PartialFixedProjectiveConstraint" || o.type == "PartialFixedConstraint") {
    mapRigidFixed(r, o, true);
  } else if (o.type == "SpringForceField" || o.type == "StiffSpringForceField" ||
             o.type == "PlaneForceField") {
    // SpringForceField<Rigid3> and PlaneForceField<Rigid3>: the points' laws on the frames'
    // centres (model/rigid_group.hpp, model/rigid_body.hpp); a spring's indices are frames.
    sofaMapping(o.type)(r, o);
  } else if (o.type == "RestShapeSpringsForceField") {
    mapRigidRestShape(r, o);
  } else if (o.type == "ConstantForceField") {
    mapRigidConstantForce(r, o);
  } else if (o.type == "BeamFEMForceField") {
    mapRigidBeam(r, o);
  } else {
    return false;
  }
  return true;
}

}  // namespace eis::sofa
