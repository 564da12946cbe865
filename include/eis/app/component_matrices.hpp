#pragma once
// The matrices a Python controller reads of a body (SofaPython3's ForceField.assembleKMatrix and
// Mass.assembleMMatrix, io/python_controllers): debugging and learning reads, not a solver's.
#include <vector>

#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/mechanical_system.hpp"

namespace eis {

// Collective. The body's stiffness df/dx (kFactor 1), or its mass matrix (`mass`), with no
// projective constraint applied, rows and columns in node order, dofsPerNode per node: one
// matrix-free product (MechanicalSystem::addMBKv) per column on a unit vector, each rank keeping
// the nonzeros of its owned rows, and one gather of them to rank 0. On rank 0: the matrix's
// size, then (row, column, value) of each nonzero in row-major order; empty elsewhere. K is
// taken at the state of the last force evaluation, as the step's solve took it.
std::vector<double> componentMatrix(const DistributedMesh& mesh, MechanicalSystem& system,
                                    bool mass);

}  // namespace eis
