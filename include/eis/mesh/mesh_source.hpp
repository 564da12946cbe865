#pragma once
// Where the mesh comes from: a Gmsh file (mesh.file) or the built-in box (mesh.box-size,
// mesh.box-cells), refined mesh.refine times after distribution.
#include <mpi.h>

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "eis/core/component.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/mesh/mesh_transform.hpp"
#include "eis/mesh/serial_mesh.hpp"

namespace eis {

const ComponentDeclaration& meshSourceComponent();

// The mesh source's parameters, read once from a scene by readMeshSourceParameters (the only
// reader of its keys, beside its declaration). A key without a default that was not given is
// absent.
struct MeshSourceParameters {
  std::optional<std::string> file;        // mesh.file
  std::optional<std::string> convert;     // mesh.convert
  std::optional<std::string> nodes;       // mesh.nodes, as given (an inline mesh)
  std::optional<std::string> tetrahedra;  // mesh.tetrahedra, as given
  std::optional<std::string> hexahedra;   // mesh.hexahedra, as given
  // mesh.triangles, mesh.quadrangles or mesh.edges, as given, with its cell type: a body of
  // surface or line cells.
  std::optional<std::pair<CellType, std::string>> lowerCells;
  std::array<double, 3> boxSize;          // mesh.box-size
  std::array<int, 3> boxCells;            // mesh.box-cells
  std::string boxCellsText;               // mesh.box-cells as given (messages quote it)
  CellType cellType;                      // mesh.cell-type
  std::vector<MeshTransform> transforms;  // mesh.transform, in order
  std::optional<CellType> fileCells;      // mesh.file-cells
  int refine;                             // mesh.refine
  // Whether the mesh is written in the keys (mesh.nodes and its cells).
  bool isInline() const { return nodes || tetrahedra || hexahedra || lowerCells; }
};
MeshSourceParameters readMeshSourceParameters(const Parameters& scene);

// Collective. Rank 0 builds or reads the whole mesh (other ranks get an empty one); a failure
// there is an error on every rank, and so is a mesh that, with mesh.refine and `dofsPerNode`
// unknowns per node, would not fit METIS's or PETSc's indices or the machines' memory
// (a box is refused before it is built). Set-up warnings (skipped elements, inverted
// tetrahedra) are added to `warnings` on rank 0.
// The check loadSerialMesh makes: why a mesh of `nodes` and `tets` (the input's, before
// mesh.refine) cannot be run with `dofsPerNode` unknowns per node on `ranks` ranks of
// `memoryPerRank` bytes each, or "" when it can. Refused: more tetrahedra than METIS's idx_t
// arrays hold (4 slots a cell), more unknowns after refinement than this build's PetscInt
// indexes (PETSC_MAX_INT: 32 or 64 bits, cmake -DEIS_PETSC64), or less than 2 KiB a unknown.
std::string meshSizeFailure(const MeshSourceParameters& source, double nodes, double tets,
                            int dofsPerNode, double memoryPerRank, int ranks);

SerialMesh loadSerialMesh(const MeshSourceParameters& source, int dofsPerNode, MPI_Comm comm,
                          std::vector<std::string>& warnings);

// Collective. Whether `file` is a converted mesh: its extension is .h5 or .hdf5, or its first
// bytes are HDF5's signature. The second form asks it of mesh.file (false when none is given).
bool isHdf5MeshFile(const std::string& file, MPI_Comm comm);
bool meshFileIsHdf5(const MeshSourceParameters& source, MPI_Comm comm);

// Collective. mesh.file (a converted mesh) and mesh.transform, once the file's attributes say it
// is a converted mesh that fits (meshSizeFailure); an eis::Error on every rank otherwise.
Hdf5MeshInput hdf5MeshInput(const MeshSourceParameters& source, int dofsPerNode, MPI_Comm comm);

// Collective. mesh.convert: the mesh loadSerialMesh gives (on rank 0) written to mesh.convert's
// path (eis/mesh/hdf5_mesh.hpp); returns the line that says so. Refuses a converted mesh.file.
std::string convertMesh(const MeshSourceParameters& source, MPI_Comm comm,
                        std::vector<std::string>& warnings);

}  // namespace eis
