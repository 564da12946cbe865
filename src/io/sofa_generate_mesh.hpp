#pragma once
// SOFA's mesh generating engines (Component/Engine/Generate: GenerateGrid, GenerateCylinder;
// Component/IO/Mesh: StringMeshCreator, a string of edges) read
// as a body's mesh, where its topology container links their outputs. Private to the SOFA
// importer.
#include <string>
#include <vector>

#include "sofa_reader.hpp"

namespace eis::sofa {

// Whether `type` is one of the generators read here.
bool isMeshGenerator(const std::string& type);

// A generated mesh: points (x y z each) and cells of one kind, in SOFA's order.
struct GeneratedMesh {
  std::vector<double> points;
  std::vector<long long> cells;  // nodes per cell given by the kind
};

// GenerateGrid.inl (doUpdate): (rx + 1)(ry + 1)(rz + 1) points, x fastest, then y, then z, at
// min + (i dx, j dy, k dz); cells with x slowest, then y, then z: hexahedra (0 1 2 3 at the
// bottom, counterclockwise from the corner, 4 .. 7 above them) each cut into 6 tetrahedra; with
// rz = 0 a flat grid of quads (y fastest) each cut into 2 triangles. `kind` is one of
// "tetrahedra", "hexahedra", "triangles", "quads".
GeneratedMesh generateGrid(const double min[3], const double max[3], long long rx, long long ry,
                           long long rz, const std::string& kind);

// GenerateCylinder.inl (doUpdate): per level z = i h / (rz - 1) (i = 0 .. rz - 1), the axis
// point, then rings j = 1 .. rr of rt points at radius j r / rr, angle 2 pi k / rt; per level
// above the first, rt prisms about the axis (3 tetrahedra each), then rt hexahedra per ring
// outside the first (6 tetrahedra each). Points shifted by `origin`.
GeneratedMesh generateCylinderTetrahedra(double radius, double height, const double origin[3],
                                         long long rt, long long rr, long long rz);

// The keys mesh.nodes and mesh.<cells> of the mesh `engine` generates, where `topology` links its
// position (output_position or an alias) and its cells (tetrahedra, hexahedra, triangles or
// quads) to the engine's. Refuses outputs not generated here (GenerateCylinder's triangle mesh,
// its Bezier points) and links to other objects. `movedField`, when the topology's position is a
// transform engine's output: the field of `engine` that the transform's input links to.
void mapGeneratedMesh(Reader& reader, const SofaObject& engine, const SofaObject& topology,
                      const std::string* movedField = nullptr);

}  // namespace eis::sofa
