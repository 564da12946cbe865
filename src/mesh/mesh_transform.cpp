#include "eis/mesh/mesh_transform.hpp"

#include <algorithm>
#include <cmath>

namespace eis {
namespace {

constexpr const char* kGrammar =
    "expected 'scale SX SY SZ', 'rotate RX RY RZ' (degrees), 'translate TX TY TZ' or 'matrix' "
    "and the 12 (or 16) numbers of a 4x4 affine matrix, row by row";

std::array<double, 3> cross(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

}  // namespace

MeshTransform parseMeshTransform(const std::string& key, const std::string& text) {
  const Texts tokens = parse::tokens(text);
  MeshTransform transform{};
  if (!tokens.empty() && tokens[0] == "matrix") {
    if (tokens.size() != 13 && tokens.size() != 17) parse::reject(key, text, kGrammar);
    std::array<double, 16> m{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    for (std::size_t i = 1; i < tokens.size(); ++i)
      if (!parse::number(tokens[i], m[i - 1]))
        parse::reject(key, text, "'" + tokens[i] + "' is not a finite number; " + kGrammar);
    if (m[12] != 0 || m[13] != 0 || m[14] != 0 || m[15] != 1)
      parse::reject(key, text, "the fourth row of an affine matrix is 0 0 0 1");
    // A singular linear part flattens every cell (or overflows): the first solve would fail with
    // PETSc's words for it instead of these.
    const double det = m[0] * (m[5] * m[10] - m[6] * m[9]) - m[1] * (m[4] * m[10] - m[6] * m[8]) +
                       m[2] * (m[4] * m[9] - m[5] * m[8]);
    if (det == 0 || !std::isfinite(det))
      parse::reject(key, text,
                    "the matrix's 3 x 3 part is singular (determinant " + parse::text(det) +
                        "): it flattens the mesh");
    transform.kind = MeshTransform::Kind::kMatrix;
    std::copy(m.begin(), m.begin() + 12, transform.matrix.begin());
    return transform;
  }
  if (tokens.size() != 4) parse::reject(key, text, kGrammar);
  if (tokens[0] == "scale")
    transform.kind = MeshTransform::Kind::kScale;
  else if (tokens[0] == "rotate")
    transform.kind = MeshTransform::Kind::kRotate;
  else if (tokens[0] == "translate")
    transform.kind = MeshTransform::Kind::kTranslate;
  else
    parse::reject(key, text, kGrammar);
  for (int i = 0; i < 3; ++i)
    if (!parse::number(tokens[i + 1], transform.values[i]))
      parse::reject(key, text, "'" + tokens[i + 1] + "' is not a finite number; " + kGrammar);
  return transform;
}

Check meshTransformCheck() {
  return [](const std::string& key, const std::string& text) { parseMeshTransform(key, text); };
}

std::array<double, 4> eulerDegreesQuaternion(const std::array<double, 3>& angles) {
  // Quat::createQuaterFromEuler(angles * M_PI / 180.0), order ZYX.
  const double h0 = angles[0] * M_PI / 180.0 / 2, h1 = angles[1] * M_PI / 180.0 / 2,
               h2 = angles[2] * M_PI / 180.0 / 2;
  const double c1 = std::cos(h0), c2 = std::cos(h1), c3 = std::cos(h2);
  const double s1 = std::sin(h0), s2 = std::sin(h1), s3 = std::sin(h2);
  return {s1 * c2 * c3 - c1 * s2 * s3, c1 * s2 * c3 + s1 * c2 * s3, c1 * c2 * s3 - s1 * s2 * c3,
          c1 * c2 * c3 + s1 * s2 * s3};
}

std::array<double, 3> rotateEulerDegrees(const std::array<double, 3>& angles,
                                         const std::array<double, 3>& point) {
  const std::array<double, 4> quaternion = eulerDegreesQuaternion(angles);
  const std::array<double, 3> q = {quaternion[0], quaternion[1], quaternion[2]};
  const double w = quaternion[3];
  // Quat::rotate: t = 2 (q x v), v' = v + w t + q x t.
  std::array<double, 3> t = cross(q, point);
  for (double& x : t) x *= 2;
  const std::array<double, 3> qt = cross(q, t);
  return {point[0] + w * t[0] + qt[0], point[1] + w * t[1] + qt[1], point[2] + w * t[2] + qt[2]};
}

void applyMeshTransform(const MeshTransform& transform,
                        std::vector<std::array<double, 3>>& points) {
  for (auto& point : points) {
    switch (transform.kind) {
      case MeshTransform::Kind::kScale:
        for (int c = 0; c < 3; ++c) point[c] *= transform.values[c];
        break;
      case MeshTransform::Kind::kRotate: point = rotateEulerDegrees(transform.values, point); break;
      case MeshTransform::Kind::kTranslate:
        for (int c = 0; c < 3; ++c) point[c] += transform.values[c];
        break;
      case MeshTransform::Kind::kMatrix: {
        // Mat<4,4>::transform: each row's products summed left to right, then its translation.
        const auto& m = transform.matrix;
        const std::array<double, 3> p = point;
        for (int r = 0; r < 3; ++r)
          point[r] = m[4 * r] * p[0] + m[4 * r + 1] * p[1] + m[4 * r + 2] * p[2] + m[4 * r + 3];
        break;
      }
    }
  }
}

}  // namespace eis
