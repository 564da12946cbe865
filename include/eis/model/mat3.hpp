#pragma once
// 3x3 matrices for the hyperelastic laws, row-major: m[3 * i + j].
#include <array>

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

}  // namespace eis::mat3
