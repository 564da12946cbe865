#pragma once
// Reads a mesh file of any format the project knows, by its extension or, for another
// extension, by its first bytes.
#include <string>

#include "eis/mesh/serial_mesh.hpp"

namespace eis {

// .msh: Gmsh 1.0, 2.2 or 4.1 (readGmsh); .vtk: legacy VTK (readVtkLegacy); .vtu: XML VTK
// (readVtu). A file with another extension is read by what it starts with ($MeshFormat or $NOD,
// "# vtk DataFile", <?xml or <VTKFile); eis::Error naming the file when it is none of these.
SerialMesh readMeshFile(const std::string& path);

}  // namespace eis
