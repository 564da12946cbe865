#pragma once
#include <array>

#include "eis/mesh/serial_mesh.hpp"

namespace eis {

// The built-in box [0,Lx]x[0,Ly]x[0,Lz] with nx*ny*nz hexahedra (node i + (nx+1)(j + (ny+1)k),
// cells x fastest, as SOFA's RegularGridTopology numbers both), kept as hexahedra or each split
// into six tetrahedra around its v0-v6 diagonal, numbered exactly as docs/architecture.md
// specifies (the same mesh, node for node, as a Gmsh file with these nodes and elements).
SerialMesh makeBoxMesh(const std::array<double, 3>& size, const std::array<int, 3>& cells,
                       CellType type = CellType::Tetrahedron);

}  // namespace eis
