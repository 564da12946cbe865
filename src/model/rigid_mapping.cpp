#include "eis/model/rigid_mapping.hpp"

#include <algorithm>

#include "eis/core/error.hpp"
#include "eis/model/mat3.hpp"

namespace eis {

namespace {

Vec3d cross(const Vec3d& a, const Vec3d& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

// type/Quat.h rotate: t = 2 (q_xyz x v), v + q_w t + q_xyz x t (inverseRotate: q_xyz negated).
Vec3d rotate(const Vec3d& axis, double w, const Vec3d& v) {
  Vec3d t = cross(axis, v);
  for (double& e : t) e *= 2;
  const Vec3d u = cross(axis, t);
  return {v[0] + w * t[0] + u[0], v[1] + w * t[1] + u[1], v[2] + w * t[2] + u[2]};
}

}  // namespace

Vec3d rotateByQuaternion(const std::array<double, 4>& q, const Vec3d& v) {
  return rotate({q[0], q[1], q[2]}, q[3], v);
}

Vec3d inverseRotateByQuaternion(const std::array<double, 4>& q, const Vec3d& v) {
  return rotate({-q[0], -q[1], -q[2]}, q[3], v);
}

RigidMapping::RigidMapping(std::vector<int> frameOf, std::vector<Vec3d> local)
    : frameOf_(std::move(frameOf)), local_(std::move(local)), rotated_(local_.size()) {
  if (frameOf_.size() != local_.size())
    throw Error("rigid mapping: " + std::to_string(frameOf_.size()) + " frame indices for " +
                std::to_string(local_.size()) + " points");
}

std::vector<Vec3d> RigidMapping::localCoordinates(const std::vector<double>& frames,
                                                  const std::vector<int>& frameOf,
                                                  const std::vector<Vec3d>& world) {
  std::vector<Vec3d> local(world.size());
  for (std::size_t i = 0; i < world.size(); ++i) {
    const double* c = &frames[std::size_t(frameOf[i]) * 7];
    local[i] = inverseRotateByQuaternion(
        {c[3], c[4], c[5], c[6]}, {world[i][0] - c[0], world[i][1] - c[1], world[i][2] - c[2]});
  }
  return local;
}

std::vector<Vec3d> RigidMapping::apply(const double* frames) {
  std::vector<Vec3d> out(size());
  for (std::size_t i = 0; i < size(); ++i) {
    const double* c = frames + std::size_t(frameOf_[i]) * 7;
    rotated_[i] = rotateByQuaternion({c[3], c[4], c[5], c[6]}, local_[i]);
    for (int d = 0; d < 3; ++d) out[i][d] = c[d] + rotated_[i][d];
  }
  return out;
}

Vec3d RigidMapping::applyJ(std::size_t i, const double* velocities) const {
  const double* v = velocities + std::size_t(frameOf_[i]) * 6;
  const Vec3d& r = rotated_[i];
  return {v[0] + v[4] * r[2] - v[5] * r[1], v[1] + v[5] * r[0] - v[3] * r[2],
          v[2] + v[3] * r[1] - v[4] * r[0]};
}

void RigidMapping::applyJT(std::size_t i, const Vec3d& f, double* out) const {
  double* o = out + std::size_t(frameOf_[i]) * 6;
  const Vec3d& r = rotated_[i];
  for (int d = 0; d < 3; ++d) o[d] += f[d];
  o[3] += r[1] * f[2] - r[2] * f[1];
  o[4] += r[2] * f[0] - r[0] * f[2];
  o[5] += r[0] * f[1] - r[1] * f[0];
}

// J = [I, -[r]x]: J^T m J = m [[I, -[r]x], [[r]x, -[r]x [r]x]], -[r]x [r]x = |r|^2 I - r r^T.
void RigidMapping::addMass(std::size_t i, double m, double* block) const {
  const Vec3d& r = rotated_[i];
  const double cross[9] = {0, -r[2], r[1], r[2], 0, -r[0], -r[1], r[0], 0};  // [r]x
  const double r2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  for (int a = 0; a < 3; ++a) {
    block[6 * a + a] += m;
    for (int b = 0; b < 3; ++b) {
      block[6 * a + 3 + b] -= m * cross[3 * a + b];
      block[6 * (3 + a) + b] += m * cross[3 * a + b];
      block[6 * (3 + a) + 3 + b] += m * ((a == b ? r2 : 0.0) - r[a] * r[b]);
    }
  }
}

std::array<double, 18> RigidMapping::jacobian(std::size_t i) const {
  const Vec3d& r = rotated_[i];
  return {1, 0, 0, 0, r[2], -r[1], 0, 1, 0, -r[2], 0, r[0], 0, 0, 1, r[1], -r[0], 0};
}

void RigidMapping::addStiffness(std::size_t i, const std::array<double, 9>& k, double factor,
                                double* block) const {
  const std::array<double, 18> j = jacobian(i);
  for (int a = 0; a < 6; ++a)
    for (int b = 0; b < 6; ++b) {
      double sum = 0;
      for (int p = 0; p < 3; ++p)
        for (int q = 0; q < 3; ++q)
          sum += j[std::size_t(6 * p + a)] * k[std::size_t(3 * p + q)] * j[std::size_t(6 * q + b)];
      block[6 * a + b] += factor * sum;
    }
}

// [f]x [r]x = r f^T - (f . r) I.
std::vector<std::array<double, 9>> RigidMapping::geometricStiffness(
    const std::vector<Vec3d>& forces, std::size_t frames, RigidGeometricStiffness mode) const {
  if (forces.size() != size())
    throw Error("rigid mapping: " + std::to_string(forces.size()) + " forces for " +
                std::to_string(size()) + " points");
  std::vector<std::array<double, 9>> blocks(frames, std::array<double, 9>{});
  if (mode == RigidGeometricStiffness::None) return blocks;
  for (std::size_t i = 0; i < size(); ++i) {
    const Vec3d& r = rotated_[i];
    const Vec3d& f = forces[i];
    const double fr = f[0] * r[0] + f[1] * r[1] + f[2] * r[2];
    std::array<double, 9>& b = blocks[std::size_t(frameOf_[i])];
    for (int a = 0; a < 3; ++a)
      for (int c = 0; c < 3; ++c) b[std::size_t(3 * a + c)] += r[a] * f[c] - (a == c ? fr : 0.0);
  }
  if (mode == RigidGeometricStiffness::Exact) return blocks;
  for (std::array<double, 9>& b : blocks) {
    for (int a = 0; a < 3; ++a)
      for (int c = a + 1; c < 3; ++c)
        b[std::size_t(3 * a + c)] = b[std::size_t(3 * c + a)] =
            0.5 * (b[std::size_t(3 * a + c)] + b[std::size_t(3 * c + a)]);
    std::array<double, 3> w;
    mat3::Mat3 v;
    mat3::symmetricEigen(b, w, v);
    if (w[0] <= 0 && w[1] <= 0 && w[2] <= 0) continue;
    for (double& e : w) e = std::min(e, 0.0);
    for (int a = 0; a < 3; ++a)
      for (int c = 0; c < 3; ++c) {
        double sum = 0;
        for (int k = 0; k < 3; ++k)
          sum += v[std::size_t(3 * a + k)] * w[std::size_t(k)] * v[std::size_t(3 * c + k)];
        b[std::size_t(3 * a + c)] = sum;
      }
  }
  return blocks;
}

}  // namespace eis
