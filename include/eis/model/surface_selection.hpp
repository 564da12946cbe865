#pragma once
// How surface loads select triangles of the mesh file. A surface is one of
//   all                                every triangle of the file
//   group NAME|TAG                     the triangles of a Gmsh physical (surface) group
//   triangles I J ..                   0-based positions in the file's triangle list (SOFA's
//                                      triangleIndices, triangleList)
//   box XMIN YMIN ZMIN XMAX YMAX ZMAX  the triangles whose three vertices lie in the box,
//                                      boundary included, min and max as given (SOFA's
//                                      SurfacePressureForceField min, max: a min above its max
//                                      selects nothing)
//   boundary-triangles I J ..          0-based positions in the boundary triangles of a body of
//                                      tetrahedra, in the order of SOFA's
//                                      Tetra2TriangleTopologicalMapping (mesh/boundary_faces)
//   boundary-triangles-in SELECTION    those whose three vertices a node selection
//                                      (model/selection) picks at rest: the triangleIndices of a
//                                      SOFA BoxROI, SphereROI or PlaneROI (strict) given them
// A value packs leading numbers and then a surface ("-2.5 group outer"). A selected triangle must
// be a face of exactly one tetrahedron: one that is a face of none, or an interior face, is an
// error naming it (for a box, if its rest vertices lie in the box).
#include <cstdint>
#include <string>
#include <vector>

#include "eis/core/box.hpp"
#include "eis/core/parameters.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/selection.hpp"

namespace eis {

struct SurfaceSelection {
  enum class Kind { All, Group, Triangles, Box, Boundary, BoundaryIn };
  Kind kind = Kind::All;
  std::string group;
  std::vector<std::int64_t> ids;
  Box box;          // min and max as given, not swapped
  Selection nodes;  // BoundaryIn's
};

struct SurfaceValue {
  std::vector<double> numbers;
  SurfaceSelection surface;
};

// Throws eis::Error naming the key and the text when the value does not follow the grammar.
SurfaceValue parseSurfaceValue(const std::string& key, const std::string& text,
                               std::size_t numbers);
Check surfaceValueCheck(std::size_t numbers);

struct SelectedTriangles {
  std::vector<SurfaceTriangle> local;  // this rank's selected triangles
  std::int64_t count = 0;              // over all ranks
};

// Collective. The triangles a surface selects on this rank; `atRest`: a box tests the rest
// positions (else every triangle is a candidate, the load tests its box as it moves). Errors (an
// unknown group, an index past the file's triangles, a triangle that is no face of exactly one
// tetrahedron) are the same on every rank and name the key.
SelectedTriangles selectTriangles(const DistributedMesh& mesh, const SurfaceSelection& surface,
                                  const std::string& key, bool atRest);

}  // namespace eis
