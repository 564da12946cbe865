#pragma once
// A SOFA grid topology as the body's mesh keys, for io/sofa_import.cpp's mapMesh: a
// RegularGridTopology (io/sofa_grid.hpp) or a SparseGridTopology (io/sofa_sparse_grid.hpp), and
// what the components that read its cells may do with it. Private to io/sofa_import.cpp.
#include <array>
#include <string>
#include <vector>

#include "sofa_reader.hpp"

namespace eis::sofa {

// mesh.nodes, and the grid's hexahedra (under a HexahedronFEMForceField, the body's or, given as
// `childHexahedral`, a mapped child's: io/sofa_mapped_fem) or their tetrahedra, cut as the
// components that read them cut them; what needs another mesh is refused.
void mapGrid(Reader& reader, const SofaObject& grid,
             const std::vector<const SofaObject*>& components,
             const SofaObject* childHexahedral = nullptr);

// mesh.nodes and mesh.hexahedra of the sparse grid whose surface is read from `surfacePath`
// (empty: written in the scene; `surfaces`: a SparseGridMultipleTopology's fileTopologies), with
// its cells' stiffness; the components other than
// HexahedronFEMForceField that read its cells are refused.
void mapSparseGrid(Reader& reader, const SofaObject& grid, const std::string& surfacePath,
                   const std::vector<std::string>& surfaces,
                   const std::vector<const SofaObject*>& components,
                   const std::vector<std::array<double, 3>>* linkedPoints = nullptr);

}  // namespace eis::sofa
