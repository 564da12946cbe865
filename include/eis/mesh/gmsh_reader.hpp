#pragma once
// Reader for Gmsh .msh files: format 1.0 ($NOD/$ELM, ASCII), 2.2 and 4.1 (ASCII and binary).
#include <string>

#include "eis/mesh/serial_mesh.hpp"

namespace eis {

// Reads the tetrahedra (element type 4) and triangles (type 2) of a Gmsh mesh, with their
// physical groups, as SOFA's MeshGmshLoader does: node ids are 0-based positions in the file's
// $Nodes (1.0: $NOD) section, whatever the node tags; each tetrahedron and triangle keeps the
// vertex order the file lists, with its physical tag (1.0: reg-phys; 0 when none); nodes no
// element uses are kept. Other element types add their nodes to the groups they belong to;
// those in no group are counted in skippedElements. Throws eis::Error (naming the file, and the
// line or byte offset) for a missing or malformed file, an unsupported version, a node tag that
// names no node, a non-finite coordinate, a degenerate tetrahedron, or a file without
// tetrahedra. Negatively oriented tetrahedra are returned unchanged.
SerialMesh readGmsh(const std::string& path);

}  // namespace eis
