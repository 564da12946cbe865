#pragma once
// A mesh in PETSc's DMPlex HDF5 format (PETSC_VIEWER_HDF5_PETSC), written once by mesh.convert
// and read by all ranks together, each a slice (DistributedMesh's second constructor), so that no
// rank ever holds the whole mesh. The file holds, besides PETSc's topology and coordinates of the
// cells, tetrahedra or hexahedra (DMPlexTopologyView, DMPlexCoordinatesView; topology "eis_mesh";
// a hexahedron in DMPlex's vertex order, core/cells.hpp's with vertices 1 and 3 swapped), one
// section and vector "eis_ids" over the same points (DMPlexSectionView, DMPlexLocalVectorView):
//   a vertex: its input node id, then the tags of the physical groups it belongs to;
//   a cell: its input cell id, its tag, the input node ids of its 4 or 8 vertices in the file's
//     order, then per triangle of the file that is a face of it alone: id, tag, three node ids;
// the root attributes eis_mesh_format (1), eis_cell_corners (4 or 8; a file without it holds
// tetrahedra), eis_cells, eis_nodes (used by a cell),
// eis_triangles, eis_unused_nodes, eis_unattached, eis_group_tags ("T T .."), eis_group_names
// ("tag length name" per name); and, when there are any, the vectors eis_unused (id x y z per
// node no cell uses) and eis_unattached (id tag tetrahedra x0 y0 z0 .. z2 per triangle that is
// not the face of exactly one tetrahedron: every triangle of a mesh of hexahedra).
#include <mpi.h>

#include <cstdint>
#include <string>

#include "eis/mesh/serial_mesh.hpp"

namespace eis {

constexpr int kHdf5MeshFormat = 1;

// Collective. Writes `serial` (rank 0's; the other ranks pass an empty one) to `path`, through
// PATH.partial (created where nothing is: core/new_file) and a rename, so `path` is a whole mesh
// or what it was before; a link at `path` is replaced, not written through.
void writeHdf5Mesh(MPI_Comm comm, const SerialMesh& serial, const std::string& path);

// What the file says of its size, read from its attributes.
struct Hdf5MeshSize {
  std::int64_t cells = 0, nodes = 0;
};

// Collective. Checks that `path` is a mesh written by writeHdf5Mesh (a regular file, HDF5, the
// format attribute) and returns its size; throws eis::Error on every rank naming the cause.
Hdf5MeshSize checkHdf5Mesh(MPI_Comm comm, const std::string& path);

}  // namespace eis
