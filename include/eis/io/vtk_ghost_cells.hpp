#pragma once
// One layer of ghost cells for the ParaView pieces: every cell of another rank that shares a face
// with one of this rank's cells, copied into this rank's piece. ParaView's surface (Extract
// Surface, and what it draws) takes a face as outer when one cell of its piece uses it; without
// the neighbour across a partition seam, the seam faces would show as surface. With the ghost
// cell present and flagged DUPLICATECELL, the seam face is inner and the ghost itself is not
// drawn, so a run on N ranks shows the surface of a run on one.
//
// The ranks that hold both sides of a face find each other without any rank seeing the whole
// mesh: each face used by a single cell of a piece goes to a rank chosen by a hash of its three
// node ids, and that rank pairs up the two pieces that sent the same face.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "eis/io/vtk_output.hpp"

namespace eis {

// Collective. Appends to `piece` the ghost cells of this rank, and to each field their values:
// cell fields the ghost cell's, point fields those of the ghost cell's vertices this piece lacked
// (appended as points that are not owned, beside their node id and coordinates). Returns the rank
// that holds each cell of the piece as its own: this rank for the cells given, the sender for the
// ghost cells after them. `piece` and the fields must already be checked for sizes.
std::vector<std::int32_t> appendGhostCells(MPI_Comm comm, VtkPiece& piece,
                                           std::vector<VtkField>& pointData,
                                           std::vector<VtkField>& cellData);

}  // namespace eis
