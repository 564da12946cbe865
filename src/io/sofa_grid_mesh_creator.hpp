#pragma once
// SOFA's GridMeshCreator (Component/IO/Mesh, GridMeshCreator.cpp) read as a body's mesh. Private
// to the SOFA importer.
#include <array>
#include <vector>

#include "sofa_reader.hpp"

namespace eis::sofa {

// The keys mesh.nodes and mesh.triangles (mesh.quadrangles for trianglePattern 0) of the grid
// the creator makes: resolution (default 2 2) points, point x + y nx at (x / (nx - 1),
// y / (ny - 1), 0), each cell cut as trianglePattern (default 2) says. Rejects a resolution
// under 2 (SOFA divides by nx - 1) and a pattern outside 0 .. 3 (SOFA makes no cell).
void mapGridMeshCreator(Reader& reader, const SofaObject& creator);

// The creator's points, cells (3 or 4 ids each) and its `edges` output, in SOFA's order.
struct GridMeshCreatorMesh {
  std::vector<std::array<double, 3>> points;
  std::vector<long long> cells;
  bool quads = false;
  std::vector<std::array<long long, 2>> edges;
};
GridMeshCreatorMesh gridMeshCreatorMesh(Reader& reader, const SofaObject& creator);

}  // namespace eis::sofa
