#pragma once
// 3x3 matrices for the element laws, row-major: m[3 * i + j], and the vectors they act on.
#include <array>
#include <cmath>

#include "eis/core/tetra_geometry.hpp"

namespace eis::mat3 {

using Mat3 = std::array<double, 9>;

inline constexpr Mat3 kIdentity{1, 0, 0, 0, 1, 0, 0, 0, 1};

inline Mat3 plusIdentity(Mat3 m) {
  m[0] += 1;
  m[4] += 1;
  m[8] += 1;
  return m;
}

inline Mat3 scaled(double s, Mat3 m) {
  for (double& v : m) v *= s;
  return m;
}

// a + s b
inline Mat3 addScaled(const Mat3& a, double s, const Mat3& b) {
  Mat3 c;
  for (int i = 0; i < 9; ++i) c[i] = a[i] + s * b[i];
  return c;
}

inline Mat3 multiply(const Mat3& a, const Mat3& b) {
  Mat3 c{};
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k)
      for (int j = 0; j < 3; ++j) c[3 * i + j] += a[3 * i + k] * b[3 * k + j];
  return c;
}

// a^T b
inline Mat3 transposeMultiply(const Mat3& a, const Mat3& b) {
  Mat3 c{};
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) c[3 * i + j] += a[3 * k + i] * b[3 * k + j];
  return c;
}

// a + a^T (with a = F^T dF: dC, the increment of C = F^T F)
inline Mat3 plusTranspose(const Mat3& a) {
  Mat3 c;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) c[3 * i + j] = a[3 * i + j] + a[3 * j + i];
  return c;
}

// a b^T
inline Mat3 multiplyTranspose(const Mat3& a, const Mat3& b) {
  Mat3 c{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) c[3 * i + j] += a[3 * i + k] * b[3 * j + k];
  return c;
}

inline double trace(const Mat3& m) {
  return m[0] + m[4] + m[8];
}

// sum_ij a_ij b_ij
inline double contract(const Mat3& a, const Mat3& b) {
  double s = 0;
  for (int i = 0; i < 9; ++i) s += a[i] * b[i];
  return s;
}

inline double determinant(const Mat3& m) {
  return m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
         m[2] * (m[3] * m[7] - m[4] * m[6]);
}

// F^-T = cof(F) / det F.
inline Mat3 inverseTranspose(const Mat3& m, double det) {
  Mat3 c;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      c[3 * i + j] = (m[3 * i1 + j1] * m[3 * i2 + j2] - m[3 * i1 + j2] * m[3 * i2 + j1]) / det;
    }
  return c;
}

inline double dot(const Vec3& a, const Vec3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
inline Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
inline Vec3 minus(const Vec3& a, const Vec3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
inline Vec3 plus(const Vec3& a, const Vec3& b) {
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}
inline Vec3 scaled(const Vec3& a, double s) {
  return {a[0] * s, a[1] * s, a[2] * s};
}
inline double norm(const Vec3& a) {
  return std::sqrt(dot(a, a));
}
inline Vec3 normalized(const Vec3& a) {
  const double n = std::sqrt(dot(a, a));
  return {a[0] / n, a[1] / n, a[2] / n};
}
// m v, and m^T v.
inline Vec3 times(const Mat3& m, const Vec3& v) {
  return {m[0] * v[0] + m[1] * v[1] + m[2] * v[2], m[3] * v[0] + m[4] * v[1] + m[5] * v[2],
          m[6] * v[0] + m[7] * v[1] + m[8] * v[2]};
}
inline Vec3 transposeTimes(const Mat3& m, const Vec3& v) {
  return {m[0] * v[0] + m[3] * v[1] + m[6] * v[2], m[1] * v[0] + m[4] * v[1] + m[7] * v[2],
          m[2] * v[0] + m[5] * v[1] + m[8] * v[2]};
}
// The matrix whose rows are a, b, c.
inline Mat3 rowsOf(const Vec3& a, const Vec3& b, const Vec3& c) {
  return {a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2]};
}

// Cyclic Jacobi rotations: A = V diag(w) V^T, V's columns the eigenvectors.
inline void symmetricEigen(Mat3 A, std::array<double, 3>& w, Mat3& V) {
  V = kIdentity;
  constexpr int kPairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
  for (int sweep = 0; sweep < 50; ++sweep) {
    const double off = A[1] * A[1] + A[2] * A[2] + A[5] * A[5];
    const double diagonal = A[0] * A[0] + A[4] * A[4] + A[8] * A[8];
    if (!(off > 1e-36 * diagonal)) break;
    for (const auto& pair : kPairs) {
      const int p = pair[0], q = pair[1];
      const double apq = A[3 * p + q];
      if (apq == 0) continue;
      const double theta = (A[3 * q + q] - A[3 * p + p]) / (2 * apq);
      const double t =
          std::fabs(theta) > 1e150
              ? 0.5 / theta
              : std::copysign(1.0, theta) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
      const double c = 1 / std::sqrt(t * t + 1), s = t * c;
      for (int k = 0; k < 3; ++k) {  // A P
        const double akp = A[3 * k + p], akq = A[3 * k + q];
        A[3 * k + p] = c * akp - s * akq;
        A[3 * k + q] = s * akp + c * akq;
      }
      for (int k = 0; k < 3; ++k) {  // P^T (A P)
        const double apk = A[3 * p + k], aqk = A[3 * q + k];
        A[3 * p + k] = c * apk - s * aqk;
        A[3 * q + k] = s * apk + c * aqk;
      }
      for (int k = 0; k < 3; ++k) {
        const double vkp = V[3 * k + p], vkq = V[3 * k + q];
        V[3 * k + p] = c * vkp - s * vkq;
        V[3 * k + q] = s * vkp + c * vkq;
      }
    }
  }
  w = {A[0], A[4], A[8]};
}

}  // namespace eis::mat3
