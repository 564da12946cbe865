#pragma once
// The names in a converted mesh file (eis/mesh/hdf5_mesh.hpp describes the layout), shared by
// its writer and its reader, and the packing of group names, which the Gmsh path broadcasts in
// the same form (defined in distributed_mesh.cpp). Private to src/mesh.
#include <cstddef>
#include <map>
#include <string>

namespace eis::hdf5_mesh {

constexpr const char* kTopology = "eis_mesh";
constexpr const char* kIds = "eis_ids";
constexpr const char* kUnused = "eis_unused";
constexpr const char* kUnattached = "eis_unattached";
constexpr const char* kFormat = "eis_mesh_format";
constexpr const char* kCellCorners = "eis_cell_corners";
// core/cells.hpp's CellType as a number; absent from files of tetrahedra or hexahedra written
// before triangles, quadrangles and edges, which eis_cell_corners tells apart.
constexpr const char* kCellType = "eis_cell_type";
constexpr const char* kCells = "eis_cells";
constexpr const char* kNodes = "eis_nodes";
constexpr const char* kTriangles = "eis_triangles";
constexpr const char* kUnusedNodes = "eis_unused_nodes";
constexpr const char* kUnattachedCount = "eis_unattached";
constexpr const char* kGroupTags = "eis_group_tags";
constexpr const char* kGroupNames = "eis_group_names";
// Values per entry of eis_unused (id x y z) and eis_unattached (id tag tetrahedra, 9 coordinates);
// values before a cell's node ids in eis_ids (id, tag), and per triangle after them.
constexpr std::size_t kUnusedFields = 4, kUnattachedFields = 12, kCellHeadFields = 2,
                      kTriangleFields = 5;

// "tag length name" per group: a name may hold any byte (a tab, a newline), so it goes with its
// length rather than between separators.
std::string packGroupNames(const std::map<std::string, int>& groupNames);
std::map<std::string, int> parseGroupNames(const std::string& names);

}  // namespace eis::hdf5_mesh
