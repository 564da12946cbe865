#pragma once
// SOFA's GIDMeshLoader (Component/IO/Mesh, GIDMeshLoader.cpp): a mesh file written by GiD read as
// a body's mesh. Private to the SOFA importer.
#include <string>

#include "eis/mesh/serial_mesh.hpp"
#include "sofa_reader.hpp"

namespace eis::sofa {

// GIDMeshLoader::readGID: a header line "MESH ... dimension D ElemType T Nnode N" (T Linear,
// Triangle, Quadrilateral, Tetrahedra or Hexahedra, N one of the counts SOFA allows for it), then
// after a line "Coordinates" one point a line (an id, ignored, then D coordinates; those not given
// 0) up to "End Coordinates", and after "Elements" one cell a line (an id, then the first corners()
// 1-based point numbers; higher-order nodes left out, as SOFA does) up to "End Elements"; the
// keyword lines compared case-insensitively, whole. eis::Error naming the file and line
// otherwise (where SOFA fails to load, or reads on forever).
SerialMesh readGidMesh(const std::string& path);

// The keys mesh.nodes and mesh.<cells> of the file a GIDMeshLoader names (found at `path`).
void mapGidMesh(Reader& reader, const std::string& path);

}  // namespace eis::sofa
