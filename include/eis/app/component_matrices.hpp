#pragma once
// The matrices a Python controller reads of a body (SofaPython3's ForceField.assembleKMatrix,
// Mass.assembleMMatrix and a MatrixLinearSystem's A, b and x, io/python_controllers):
// debugging and learning reads, not a solver's.
#include <vector>

#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/mechanical_system.hpp"
#include "eis/ode/euler_implicit_solver.hpp"
#include "eis/ode/free_motion_step.hpp"

namespace eis {

// Collective. The body's stiffness df/dx (kFactor 1), or its mass matrix (`mass`), with no
// projective constraint applied, rows and columns in node order, dofsPerNode per node: one
// matrix-free product (MechanicalSystem::addMBKv) per column on a unit vector, each rank keeping
// the nonzeros of its owned rows, and one gather of them to rank 0. On rank 0: the matrix's
// size, then (row, column, value) of each nonzero in row-major order; empty elsewhere. K is
// taken at the state of the last force evaluation, as the step's solve took it.
std::vector<double> componentMatrix(const DistributedMesh& mesh, MechanicalSystem& system,
                                    bool mass);

// Collective. The matrix of the body's last linear solve (`solver`'s), as SOFA's
// MatrixLinearSystem holds it: a fixed unknown's row and column cleared and 1 on its diagonal
// (our operator keeps the diagonal's value there). Returned as componentMatrix's, probed with
// MatMult. Throws eis::Error (every rank alike) before the first step, or for a projection
// other than fixed unknowns (planes, lines), which SOFA's matrix would hold otherwise.
std::vector<double> systemMatrix(const DistributedMesh& mesh, MechanicalSystem& system,
                                 const EulerImplicitSolver& solver);

// Collective. The body's constraint matrix as SOFA's MechanicalObject holds it after
// applyProjectiveConstraintOnConstraintMatrix and SofaPython3 converts it (CompressedRowSparse-
// MatrixConstraint to an Eigen row-major matrix): row r is constraint r, and each node a row
// touches is one block of dofsPerNode columns (node id * dofsPerNode + d), its zeros stored as
// SOFA's Vec blocks store them; a node the row does not touch (a projected one, whose block SOFA
// clears) has none. `entries` is the rank's part of the step's P J^T (x's layout). On rank 0:
// the rows and columns (SOFA's AutoSize: the last stored row + 1, and (the largest stored node
// + 1) * dofsPerNode; 0 x 0 when empty), then (row, column, value) of each stored entry in
// row-major order; empty elsewhere.
std::vector<double> constraintMatrix(const DistributedMesh& mesh,
                                     const std::vector<FreeMotionStep::JacobianEntry>& entries);

// Collective. `vector` (the layout of the body's x) in node order, dofsPerNode per node, on
// rank 0 (empty elsewhere); zero for the nodes no cell uses.
std::vector<double> nodalVector(const DistributedMesh& mesh, Vec vector);

}  // namespace eis
