#pragma once
// Where the mesh comes from: a Gmsh file (mesh.file) or the built-in box (mesh.box-size,
// mesh.box-cells), refined mesh.refine times after distribution.
#include <mpi.h>

#include <string>
#include <vector>

#include "eis/core/component.hpp"
#include "eis/mesh/serial_mesh.hpp"

namespace eis {

const ComponentDeclaration& meshSourceComponent();

// Collective. Rank 0 builds or reads the whole mesh (other ranks get an empty one); a failure
// there is an error on every rank, and so is a mesh that, with mesh.refine and `dofsPerNode`
// unknowns per node, would not fit METIS's or PETSc's 32-bit indices or the machines' memory
// (a box is refused before it is built). Set-up warnings (skipped elements, inverted
// tetrahedra) are added to `warnings` on rank 0.
SerialMesh loadSerialMesh(const Parameters& scene, int dofsPerNode, MPI_Comm comm,
                          std::vector<std::string>& warnings);

}  // namespace eis
