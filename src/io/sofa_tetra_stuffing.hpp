#pragma once
// SOFA's MeshTetraStuffing engine (Component/Engine/Generate, after Labelle and Shewchuk's
// isosurface stuffing): a closed triangle surface filled with the tetrahedra of a body-centred
// cubic lattice, numbered as SOFA numbers them. Private to the SOFA importer.
#include <array>
#include <string>
#include <vector>

#include "sofa_reader.hpp"

namespace eis::sofa {

struct StuffingSettings {
  double size = -8;  // cell width; negative: -size cells along the box's longest side
  double alphaLong = 0.24999, alphaShort = 0.42978;
  bool snapPoints = false, splitTetrahedra = false;
  // vbbox: used when min[0] < max[0], else the surface's box widened by 1% on each side.
  std::array<double, 3> boxMin{0, 0, 0}, boxMax{0, 0, 0};
};

struct StuffedMesh {
  std::vector<std::array<double, 3>> points;
  std::vector<std::array<long long, 4>> tetrahedra;
  std::vector<std::string> warnings;  // what SOFA reports as an error and carries on past
};

// MeshTetraStuffing::doUpdate. The lattice: points of the cubic grid g (width `size`, centred on
// the box's centre, 2 cells beyond it on each side), then those of the grid h offset by half a
// cell, x fastest, then y, then z. A point is inside by a vote along the 7 lattice lines through
// it (3 axes, 4 diagonals to the other grid): per line the surface's crossings, oriented by the
// triangles' normals, found as sofa::geometry::Triangle::rayIntersection finds them from the
// line's last point. snapPoints moves points near the surface onto it (outside ones first),
// splitTetrahedra cuts the tetrahedra the surface crosses; without it every tetrahedron with an
// inside point is kept whole. Unused points are dropped. Throws an Error on an empty surface or
// a triangle naming a missing point.
StuffedMesh stuffTetrahedra(const std::vector<std::array<double, 3>>& surfacePoints,
                            const std::vector<std::array<long long, 3>>& triangles,
                            const StuffingSettings& settings);

// The keys mesh.nodes and mesh.tetrahedra of the mesh `engine` stuffs, where `topology` links its
// points (position or points) to the engine's outputPoints and its tetrahedra (tetrahedra or
// tetras) to outputTetrahedra (or outputTetras); `movedField`, when a transform engine moves the
// points, the engine's field it reads. The surface: the points and triangles of a MeshTopology
// or MeshOBJLoader reading an OBJ file, untransformed. Refuses inputQuads and other sources.
void mapTetraStuffing(Reader& reader, const SofaObject& engine, const SofaObject& topology,
                      const std::string* movedField);

}  // namespace eis::sofa
