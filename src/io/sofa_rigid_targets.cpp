// SOFA's RigidMapping children of a Rigid3 frame that nothing integrates, as the points a
// BilateralLagrangianConstraint holds others to (RigidMapping.inl, LinearMovementProjective-
// Constraint.inl, FreeMotionAnimationLoop.cpp; model/bilateral_lagrangian_constraint.hpp).
#include "sofa_rigid_targets.hpp"

#include <algorithm>
#include <cmath>

#include "eis/core/error.hpp"
#include "sofa_selections.hpp"
#include "sofa_walk.hpp"

namespace eis::sofa {

const SofaObject* unintegratedFrame(const Reader& r, const SofaObject& state) {
  for (const SofaObject& o : state.node->objects)
    if (o.type == "RigidMapping") {
      const SofaObject* input =
          o.field("input") ? linkedState(r, o, "input") : contextState(state.node->parent);
      return input && !integratingSolver(input->node) ? input : nullptr;
    }
  return nullptr;
}

std::vector<std::array<double, 3>> rigidlyMappedPoints(Reader& r, const SofaObject& state,
                                                       const SofaObject& frame,
                                                       std::string& motion) {
  const SofaObject* mapping = nullptr;
  for (const SofaObject& o : state.node->objects)
    if (o.type == "RigidMapping") mapping = &o;
  for (const char* field : {"initialPoints", "rigidIndexPerPoint", "index", "indexFromEnd",
                            "fileRigidMapping", "useX0"})
    r.refuseIfGiven(*mapping, field,
                    "not supported on points a constraint holds others to (the child's "
                    "positions, from one frame, are)");
  const std::string tmpl = r.text(frame, "template").value_or("Vec3d");
  if (tmpl != "Rigid3d" && tmpl != "Rigid3" && tmpl != "Rigid")
    r.reject(frame, "template", "a RigidMapping's frames are Rigid3d here");
  const std::vector<double> c = r.reals(frame, "position");
  if (c.size() != 7)
    r.reject(frame, "position",
             "expected one frame X Y Z QX QY QZ QW (several frames of points a constraint holds "
             "others to are not supported)");
  for (const char* field : {"translation", "rotation", "scale3d", "dx", "dy", "dz", "rx", "ry",
                            "rz", "rest_position", "velocity"})
    r.refuseIfGiven(frame, field, "not supported on a frame that moves a constraint's points");
  for (const char* field : {"translation", "rotation", "scale3d", "scale", "dx", "dy", "dz", "rx",
                            "ry", "rz", "sx", "sy", "sz", "rest_position"})
    r.refuseIfGiven(state, field, "a rigidly mapped child's points are read as written");
  const double n = std::sqrt(c[3] * c[3] + c[4] * c[4] + c[5] * c[5] + c[6] * c[6]);
  if (!(n > 0)) r.reject(frame, "position", "the frame's quaternion is zero");
  const std::array<double, 3> u{c[3] / n, c[4] / n, c[5] / n};
  const double w = c[6] / n;
  // v + 2 w (u x v) + 2 u x (u x v), and its inverse with -u.
  const auto turn = [&](std::array<double, 3> v, double s) {
    const std::array<double, 3> a{s * u[0], s * u[1], s * u[2]};
    const std::array<double, 3> t{2 * (a[1] * v[2] - a[2] * v[1]), 2 * (a[2] * v[0] - a[0] * v[2]),
                                  2 * (a[0] * v[1] - a[1] * v[0])};
    return std::array<double, 3>{v[0] + w * t[0] + a[1] * t[2] - a[2] * t[1],
                                 v[1] + w * t[1] + a[2] * t[0] - a[0] * t[2],
                                 v[2] + w * t[2] + a[0] * t[1] - a[1] * t[0]};
  };
  const std::vector<double> xyz = r.reals(state, "position");
  if (xyz.empty() || xyz.size() % 3 != 0)
    r.reject(state, "position", "expected X Y Z for each rigidly mapped point");
  const bool global = r.boolean(*mapping, "globalToLocalCoords", false);
  std::vector<std::array<double, 3>> points;
  for (std::size_t i = 0; i < xyz.size(); i += 3) {
    std::array<double, 3> l{xyz[i], xyz[i + 1], xyz[i + 2]};
    if (global) l = turn({l[0] - c[0], l[1] - c[1], l[2] - c[2]}, -1);
    const std::array<double, 3> p = turn(l, 1);
    points.push_back({c[0] + p[0], c[1] + p[1], c[2] + p[2]});
  }
  motion.clear();
  for (const SofaObject& o : frame.node->objects) {
    if (o.type != "LinearMovementProjectiveConstraint") continue;
    if (!motion.empty())
      throw Error(o.where + ": " + o.label() +
                  ": a second LinearMovementProjectiveConstraint on a frame that moves a "
                  "constraint's points is not supported");
    if (!r.boolean(o, "relativeMovements", true))
      r.reject(o, "relativeMovements", "absolute movements are not supported yet");
    const std::vector<long long> indices =
        r.given(o, "indices") ? r.integers(o, "indices") : std::vector<long long>{0};
    if (std::find(indices.begin(), indices.end(), 0) == indices.end()) continue;
    const std::vector<double> times = r.reals(o, "keyTimes");
    const std::vector<double> moves = r.reals(o, "movements");
    if (times.empty() || moves.size() != 6 * times.size())
      r.reject(o, "movements", "expected one movement (6 numbers) per key time");
    for (std::size_t k = 0; k < times.size(); ++k) {
      if (moves[6 * k + 3] != 0 || moves[6 * k + 4] != 0 || moves[6 * k + 5] != 0)
        r.reject(o, "movements",
                 "a frame turned by its movements is not supported on points a constraint "
                 "holds others to (translations are)");
      motion += (motion.empty() ? "" : " ") + parse::text(times[k]) + " " + joined(moves, 6 * k, 3);
    }
  }
  return points;
}

std::set<const SofaObject*> targetFrames(const Reader& reader,
                                         const std::set<const SofaObject*>& targets) {
  std::set<const SofaObject*> frames;
  for (const SofaObject* target : targets)
    if (const SofaObject* frame = unintegratedFrame(reader, *target)) frames.insert(frame);
  return frames;
}

}  // namespace eis::sofa
