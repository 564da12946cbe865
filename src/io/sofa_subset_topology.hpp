#pragma once
// SOFA's SubsetTopology engine (Component/Engine/Select, SubsetTopology.inl) read as a body's
// mesh: the points and cells of a loader's mesh inside (or outside) its boxes or spheres,
// renumbered as SOFA renumbers them. Private to the SOFA importer.
#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "eis/mesh/serial_mesh.hpp"
#include "sofa_reader.hpp"

namespace eis::sofa {

// What SubsetTopology reads: the points, its regions and its cells by kind ("edges",
// "triangles", "quads", "tetrahedra", "hexahedra"; each flat, nodes per cell by kind).
struct SubsetInput {
  std::vector<std::array<double, 3>> points;
  std::map<std::string, std::vector<long long>> cells;
  std::vector<std::array<double, 6>> boxes;  // xmin ymin zmin xmax ymax zmax
  std::vector<std::array<double, 3>> centers;
  std::vector<double> radii;  // spheres, when `centers` is not empty
  bool localIndices = false;
};

// What it gives: `indices` and the points in and out of the regions, the cells by kind in and
// out (renumbered with localIndices) and the ids of those in, and `nbrborder`.
struct SubsetOutput {
  std::vector<long long> indices;
  std::vector<std::array<double, 3>> pointsIn, pointsOut;
  std::map<std::string, std::vector<long long>> cellsIn, cellsOut, cellIndices;
  long long border = 0;
};

// SubsetTopology::doUpdate: a point is in when it lies in one of the boxes (each corner pair put
// in order; faces included) or the spheres (distance <= radius); a cell when all its points lie in
// one same region. With localIndices, the points of the first region that share a tetrahedron
// (or, without tetrahedra, a triangle) with a point out of it come first in both point lists,
// by id ("on the border", nbrborder of them); the other points in follow in pointsInROI, those
// out in pointsOutROI, each cell's points renumbered by their place in those lists.
SubsetOutput computeSubset(const SubsetInput& input);

// Whether a body's points linked to this object's `field` come from a SubsetTopology.
bool isSubsetPoints(const SofaObject& o, const std::string& field);

// The loader whose file the subset reads: its rest_position and cells linked to one
// MeshGmshLoader, MeshVTKLoader or MeshOBJLoader (directly, or through a topology's or
// MechanicalObject's src); other sources, a loader's own transform, an OBJ loader's handleSeams
// or triangulate and a tetrahedraInput are refused.
const SofaObject& subsetLoader(Reader& reader, const SofaObject& subset);

// The mesh subsetLoader's `loader` gives from its file `path`: a MeshGmshLoader's or
// MeshVTKLoader's as read; a MeshOBJLoader's vertices and its faces' triangles (its edges and
// quads, which the subset's cells in and out do not need here, are left out).
SerialMesh subsetSourceMesh(const SofaObject& loader, const std::string& path);

// The keys mesh.nodes and mesh.<cells> of a body whose points are the subset's `pointsField`
// (pointsInROI or pointsOutROI) and whose topology links its cells to the subset's
// <cells>InROI or <cells>OutROI; `mesh` is subsetLoader's file, read.
void mapSubsetMesh(Reader& reader, const SofaObject& subset, const std::string& pointsField,
                   const SofaObject* topology, const SerialMesh& mesh);

// The subset's `pointsField` (pointsInROI or pointsOutROI) alone, as SOFA computes them from
// `mesh`, subsetLoader's file, read.
std::vector<std::array<double, 3>> subsetPoints(Reader& reader, const SofaObject& subset,
                                                const std::string& pointsField,
                                                const SerialMesh& mesh);

// The points `field` of `o` links to when a SubsetTopology computes them (its pointsInROI or
// pointsOutROI, from its loader's file, found by Reader::file); nothing when it links to none.
std::optional<std::vector<std::array<double, 3>>> linkedSubsetPoints(Reader& reader,
                                                                     const SofaObject& o,
                                                                     const std::string& field);

}  // namespace eis::sofa
