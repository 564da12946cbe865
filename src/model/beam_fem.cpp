// SOFA's BeamFEMForceField<Rigid3d>, method large (model/beam_fem.hpp).
#include "eis/model/beam_fem.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "eis/core/error.hpp"
#include "eis/model/rigid_body.hpp"
#include "eis/model/rigid_mapping.hpp"

namespace eis {

namespace {

using Quaternion = std::array<double, 4>;  // qx qy qz qw

constexpr double kPi = 3.14159265358979323846;

double squaredNorm(const Quaternion& q) {
  return q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
}

// Quat::normalize: left as it is within 1e-10 of unit length; 0 becomes the identity.
Quaternion normalized(Quaternion q) {
  const double magnitude = squaredNorm(q);
  if (std::abs(magnitude - 1.0) <= 1e-10) return q;
  if (magnitude == 0) return {q[0], q[1], q[2], 1};
  const double scale = 1.0 / std::sqrt(magnitude);
  for (double& e : q) e *= scale;
  return q;
}

// Quat::inverse: the conjugate divided by the norm (not its square).
Quaternion inverse(const Quaternion& q) {
  const double norm = std::sqrt(squaredNorm(q));
  if (norm == 0) return {0, 0, 0, 0};
  return {-q[0] / norm, -q[1] / norm, -q[2] / norm, q[3] / norm};
}

// BeamFEMForceField's qDiff(a, b): b^-1 a, a's sign turned first when a . b < 0.
Quaternion difference(Quaternion a, const Quaternion& b) {
  if (a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] < 0)
    for (double& e : a) e = -e;
  return quaternionProduct(inverse(b), a);
}

// Quat::quatToRotationVector: normalised, taken with w >= 0; the angle from asin of the
// imaginary part's norm above w = 0.999, from acos below; 0 when sin(angle / 2) < epsilon.
std::array<double, 3> rotationVector(Quaternion q) {
  q = normalized(q);
  if (q[3] < 0)
    for (double& e : q) e = -e;
  double sinHalf, angle;
  if (q[3] > 0.999) {
    sinHalf = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
    angle = 2.0 * std::asin(sinHalf);
  } else {
    const double half = std::acos(q[3]);
    sinHalf = std::sin(half);
    angle = 2 * half;
  }
  if (sinHalf < std::numeric_limits<double>::epsilon()) return {0, 0, 0};
  return {q[0] / sinHalf * angle, q[1] / sinHalf * angle, q[2] / sinHalf * angle};
}

Quaternion orientation(const double* frame) {
  return {frame[3], frame[4], frame[5], frame[6]};
}

// BeamFEMForceField::initLarge at rest: frame a's orientation turned halfway towards b's (the
// rotation vector of dQ = qDiff(q_b, q_a), halved; below 1e-7 rad, a's orientation).
Quaternion halfwayOrientation(const double* a, const double* b) {
  const Quaternion qa = normalized(orientation(a));
  const Quaternion dq = normalized(difference(normalized(orientation(b)), qa));
  std::array<double, 3> w = rotationVector(dq);
  const double theta = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  if (!(theta > 1e-7)) return qa;
  const double s = std::sin(theta / 4);
  const Quaternion half = {w[0] / theta * s, w[1] / theta * s, w[2] / theta * s,
                           std::cos(theta / 4)};
  return normalized(quaternionProduct(qa, half));
}

}  // namespace

BeamSection circularSection(double youngModulus, double poissonRatio, double radius,
                            double radiusInner) {
  if (!(radius > 0)) throw Error("beam: radius " + std::to_string(radius) + " is not > 0");
  if (!(radiusInner >= 0 && radiusInner < radius))
    throw Error("beam: radiusInner " + std::to_string(radiusInner) + " is not in [0, radius)");
  if (!(youngModulus >= 0))
    throw Error("beam: youngModulus " + std::to_string(youngModulus) + " is not >= 0");
  if (!(poissonRatio >= 0 && poissonRatio < 0.5))
    throw Error("beam: poissonRatio " + std::to_string(poissonRatio) + " is not in [0, 0.5)");
  BeamSection s;
  s.youngModulus = youngModulus;
  s.shearModulus = youngModulus / (2.0 * (1.0 + poissonRatio));
  const double r2 = radius * radius, ri2 = radiusInner * radiusInner;
  s.iz = kPi * (r2 * r2 - ri2 * ri2) / 4.0;
  s.iy = s.iz;
  s.polar = s.iy + s.iz;
  s.area = kPi * (r2 - ri2);
  return s;
}

std::array<double, 144> beamLocalStiffness(const BeamSection& s, double length) {
  std::array<double, 144> k{};
  const auto at = [&k](int row, int column) -> double& {
    return k[std::size_t(12 * row + column)];
  };
  const double L = length, L2 = L * L, L3 = L2 * L;
  const double eiy = s.youngModulus * s.iy, eiz = s.youngModulus * s.iz;
  // The lower triangle, then mirrored: axial, bending about z (v, theta_z), bending about y
  // (w, theta_y) and torsion.
  at(0, 0) = at(6, 6) = s.youngModulus * s.area / L;
  at(1, 1) = at(7, 7) = 12.0 * eiz / L3;
  at(2, 2) = at(8, 8) = 12.0 * eiy / L3;
  at(3, 3) = at(9, 9) = s.shearModulus * s.polar / L;
  at(4, 4) = at(10, 10) = 4.0 * eiy / L;
  at(5, 5) = at(11, 11) = 4.0 * eiz / L;
  at(4, 2) = -6.0 * eiy / L2;
  at(5, 1) = 6.0 * eiz / L2;
  at(6, 0) = -at(0, 0);
  at(7, 1) = -at(1, 1);
  at(7, 5) = -at(5, 1);
  at(8, 2) = -at(2, 2);
  at(8, 4) = -at(4, 2);
  at(9, 3) = -at(3, 3);
  at(10, 2) = at(4, 2);
  at(10, 4) = 2.0 * eiy / L;
  at(10, 8) = -at(4, 2);
  at(11, 1) = at(5, 1);
  at(11, 5) = 2.0 * eiz / L;
  at(11, 7) = -at(5, 1);
  for (int row = 0; row < 12; ++row)
    for (int column = row + 1; column < 12; ++column) at(row, column) = at(column, row);
  return k;
}

BeamForceField::BeamForceField(const BeamParameters& p, const std::vector<double>& rest)
    : lines_(p.lines), rest_(rest) {
  const BeamSection section =
      circularSection(p.youngModulus, p.poissonRatio, p.radius, p.radiusInner);
  const int frames = int(rest.size() / kRigidCoordSize);
  for (const auto& [a, b] : lines_) {
    const std::string name = "beam line " + std::to_string(a) + " " + std::to_string(b);
    if (a < 0 || b < 0 || a >= frames || b >= frames)
      throw Error(name + ": a frame past the last of " + std::to_string(frames));
    if (a == b) throw Error(name + ": joins a frame to itself");
    const double* ca = rest.data() + kRigidCoordSize * a;
    const double* cb = rest.data() + kRigidCoordSize * b;
    const double length =
        std::sqrt((cb[0] - ca[0]) * (cb[0] - ca[0]) + (cb[1] - ca[1]) * (cb[1] - ca[1]) +
                  (cb[2] - ca[2]) * (cb[2] - ca[2]));
    if (!(length > 0)) throw Error(name + ": its frames' centres coincide at rest");
    local_.push_back(beamLocalStiffness(section, length));
    rotation_.push_back(halfwayOrientation(ca, cb));
  }
}

void BeamForceField::addForce(const double* x, double* f) {
  for (std::size_t line = 0; line < lines_.size(); ++line) {
    const auto [a, b] = lines_[line];
    const double* xa = x + kRigidCoordSize * a;
    const double* xb = x + kRigidCoordSize * b;
    const double* ra = rest_.data() + kRigidCoordSize * a;
    const double* rb = rest_.data() + kRigidCoordSize * b;
    const Quaternion qa = orientation(xa);
    rotation_[line] = normalized(qa);
    std::array<double, 12> d{};
    const Vec3d now = inverseRotateByQuaternion(qa, {xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]});
    const Vec3d then =
        inverseRotateByQuaternion(orientation(ra), {rb[0] - ra[0], rb[1] - ra[1], rb[2] - ra[2]});
    const Quaternion dq0 = normalized(difference(orientation(rb), orientation(ra)));
    const Quaternion dq = normalized(difference(orientation(xb), qa));
    const std::array<double, 3> turn = rotationVector(normalized(difference(dq, dq0)));
    for (std::size_t i = 0; i < 3; ++i) {
      d[6 + i] = now[i] - then[i];
      d[9 + i] = turn[i];
    }
    const std::array<double, 144>& k = local_[line];
    std::array<double, 12> local{};
    for (std::size_t row = 0; row < 12; ++row)
      for (std::size_t column = 6; column < 12; ++column)
        local[row] += k[12 * row + column] * d[column];
    for (std::size_t part = 0; part < 4; ++part) {
      const Vec3d world =
          rotateByQuaternion(qa, {local[3 * part], local[3 * part + 1], local[3 * part + 2]});
      double* target = f + kRigidDerivSize * (part < 2 ? a : b) + 3 * (part % 2);
      for (std::size_t i = 0; i < 3; ++i) target[i] -= world[i];
    }
  }
}

std::array<double, 144> BeamForceField::worldStiffness(std::size_t line) const {
  const Quaternion& q = rotation_[line];
  // R's columns: the turned axes.
  std::array<Vec3d, 3> column;
  for (std::size_t axis = 0; axis < 3; ++axis) {
    Vec3d e{0, 0, 0};
    e[axis] = 1;
    column[axis] = rotateByQuaternion(q, e);
  }
  const auto R = [&column](std::size_t i, std::size_t j) { return column[j][i]; };
  const std::array<double, 144>& k = local_[line];
  std::array<double, 144> out{};
  for (std::size_t br = 0; br < 12; br += 3)
    for (std::size_t bc = 0; bc < 12; bc += 3)
      for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t j = 0; j < 3; ++j) {
          double sum = 0;
          for (std::size_t m = 0; m < 3; ++m)
            for (std::size_t n = 0; n < 3; ++n)
              sum += R(i, m) * k[12 * (br + m) + bc + n] * R(j, n);
          out[12 * (br + i) + bc + j] = -sum;
        }
  return out;
}

void BeamForceField::addDForce(const double* dx, double* df, double kFactor) const {
  for (std::size_t line = 0; line < lines_.size(); ++line) {
    const auto [a, b] = lines_[line];
    const std::array<double, 144> K = worldStiffness(line);
    for (std::size_t row = 0; row < 12; ++row) {
      double sum = 0;
      for (std::size_t column = 0; column < 12; ++column) {
        const int frame = column < 6 ? a : b;
        sum += K[12 * row + column] * dx[kRigidDerivSize * frame + int(column % 6)];
      }
      df[kRigidDerivSize * (row < 6 ? a : b) + int(row % 6)] += kFactor * sum;
    }
  }
}

void BeamForceField::addToMatrix(double kFactor, double* dense, std::size_t n) const {
  for (std::size_t line = 0; line < lines_.size(); ++line) {
    const int a = lines_[line][0], b = lines_[line][1];
    const std::array<double, 144> K = worldStiffness(line);
    const auto unknown = [&](std::size_t i) {
      return std::size_t(kRigidDerivSize) * std::size_t(i < 6 ? a : b) + i % 6;
    };
    for (std::size_t row = 0; row < 12; ++row)
      for (std::size_t column = 0; column < 12; ++column)
        dense[unknown(row) * n + unknown(column)] += kFactor * K[12 * row + column];
  }
}

}  // namespace eis
