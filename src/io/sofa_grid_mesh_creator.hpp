#pragma once
// SOFA's GridMeshCreator (Component/IO/Mesh, GridMeshCreator.cpp) read as a body's mesh. Private
// to the SOFA importer.
#include "sofa_reader.hpp"

namespace eis::sofa {

// The keys mesh.nodes and mesh.triangles (mesh.quadrangles for trianglePattern 0) of the grid
// the creator makes: resolution (default 2 2) points, point x + y nx at (x / (nx - 1),
// y / (ny - 1), 0), each cell cut as trianglePattern (default 2) says. Rejects a resolution
// under 2 (SOFA divides by nx - 1) and a pattern outside 0 .. 3 (SOFA makes no cell).
void mapGridMeshCreator(Reader& reader, const SofaObject& creator);

}  // namespace eis::sofa
