#pragma once
// A SOFA grid topology as the body's mesh keys, for io/sofa_import.cpp's mapMesh: a
// RegularGridTopology (io/sofa_grid.hpp) or a SparseGridTopology (io/sofa_sparse_grid.hpp), and
// what the components that read its cells may do with it. Private to the SOFA importer
// (io/sofa_import.cpp; sceneSparseGrid also io/sofa_subset_points.cpp).
#include <array>
#include <string>
#include <vector>

#include "sofa_reader.hpp"
#include "sofa_sparse_grid.hpp"

namespace eis::sofa {

// mesh.nodes, and the grid's hexahedra (under a HexahedronFEMForceField, the body's or, given as
// `childHexahedral`, a mapped child's: io/sofa_mapped_fem) or their tetrahedra, cut as the
// components that read them cut them; what needs another mesh is refused.
void mapGrid(Reader& reader, const SofaObject& grid,
             const std::vector<const SofaObject*>& components,
             const SofaObject* childHexahedral = nullptr);

// The sparse grid SOFA builds for `grid` (io/sofa_sparse_grid.hpp): its surface from the file
// its `filename` (alias fileTopology) names, a SparseGridMultipleTopology's fileTopologies, or
// its position (written, or a SubsetTopology's points it links to), files found by Reader::file;
// `finer` as sparseGrid's.
SparseGrid sceneSparseGrid(Reader& reader, const SofaObject& grid,
                           std::vector<GridLevel>* finer = nullptr);

// mesh.nodes and mesh.hexahedra of the sparse grid (sceneSparseGrid), with its cells' stiffness;
// the components other than HexahedronFEMForceField that read its cells are refused.
void mapSparseGrid(Reader& reader, const SofaObject& grid,
                   const std::vector<const SofaObject*>& components);

}  // namespace eis::sofa
