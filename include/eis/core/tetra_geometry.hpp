#pragma once
// Geometry of one linear tetrahedron: its volume and the (constant) gradients of its four
// barycentric shape functions, from which every element matrix of the project is built. It sits
// in core because the mesh layer uses it too (the built-in box orients its tetrahedra with it).
#include <array>

namespace eis {

using Vec3 = std::array<double, 3>;

struct TetraShape {
  TetraShape(const Vec3& p0, const Vec3& p1, const Vec3& p2, const Vec3& p3);
  double signedVolume;  // ((p1-p0) x (p2-p0)) . (p3-p0) / 6
  double volume;        // |signedVolume|: SOFA uses the absolute volume, keeping vertex order
  std::array<Vec3, 4> gradients;  // grad N_a; undefined when the volume is zero
};

// SOFA's geometry::Hexahedron::volume: the absolute volumes of six tetrahedra around the diagonal
// 0-6, summed in its order; the volume DiagonalMass and MeshMatrixMass give a hexahedron (exact
// for a parallelepiped, an approximation for a warped one).
double hexahedronVolume(const std::array<Vec3, 8>& p);

// The measures SOFA's geometry algorithms give the cells of a surface or a line in 3D: a
// triangle's area |(p1-p0) x (p2-p0)| / 2 (TriangleSetGeometryAlgorithms), a quadrangle's as two
// triangles, (|(p1-p0) x (p2-p0)| + |(p3-p2) x (p0-p2)|) / 2 (QuadSetGeometryAlgorithms'
// computeRestQuadArea), an edge's length.
double triangleArea(const Vec3& p0, const Vec3& p1, const Vec3& p2);
double quadrangleArea(const Vec3& p0, const Vec3& p1, const Vec3& p2, const Vec3& p3);
double edgeLength(const Vec3& p0, const Vec3& p1);

}  // namespace eis
