#pragma once
// mesh.transform: scale, rotate, translate or transform by a matrix the rest positions before the
// mesh is partitioned,
// each occurrence of the key one operation, applied in the order given (SOFA's loader and
// MechanicalObject transforms, as the scene importer writes them out).
#include <array>
#include <string>
#include <vector>

#include "eis/core/parameters.hpp"

namespace eis {

struct MeshTransform {
  enum class Kind { kScale, kRotate, kTranslate, kMatrix };
  Kind kind;
  std::array<double, 3> values;   // factors, angles in degrees, or a displacement
  std::array<double, 12> matrix;  // kMatrix: the top three rows of a 4x4 affine matrix
};

// "scale SX SY SZ" (a factor of 0 flattens a mesh: loadSerialMesh refuses it on volume cells,
// and on surface or line cells when it flattens one), "rotate RX RY RZ" (degrees), "translate TX TY
// TZ" or "matrix M00 M01 M02 M03 M10 .. M23 [0 0 0 1]" (SOFA MeshLoader `transformation`, row by
// row; x' = M00 x + M01 y + M02 z + M03, ...; a fourth row, when given, must be 0 0 0 1);
// eis::Error naming `key` otherwise.
MeshTransform parseMeshTransform(const std::string& key, const std::string& text);
Check meshTransformCheck();

// SOFA's rotation by Euler angles in degrees (Quat::createQuaterFromEuler, its default ZYX order,
// then Quat::rotate): R = Rz(rz) Ry(ry) Rx(rx), a turn about the fixed x axis first, then about
// y, then about z, each counter-clockwise seen from the axis' positive end.
std::array<double, 3> rotateEulerDegrees(const std::array<double, 3>& angles,
                                         const std::array<double, 3>& point);
// That rotation's unit quaternion (qx qy qz qw).
std::array<double, 4> eulerDegreesQuaternion(const std::array<double, 3>& angles);

// Applies one operation to every point.
void applyMeshTransform(const MeshTransform& transform, std::vector<std::array<double, 3>>& points);

}  // namespace eis
