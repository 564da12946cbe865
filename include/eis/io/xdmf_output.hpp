#pragma once
// output.xdmf: the ParaView time series as one HDF5 file with an XDMF 3 index, written
// by every rank together (io/hdf5_writer.hpp; no file per rank), every
// output.every steps as the PVTU series is.
//
// Layout for the prefix "out/beam":
//   out/beam.h5     the data (below)
//   out/beam.xdmf   the index: a temporal collection, one Uniform grid per written step with its
//                   Time, each naming the mesh and that step's datasets as "beam.h5:/path"
//
// Every dataset is in an order no rank count changes. Nodal rows are node ids (the input's
// node order, nodes no tetrahedron uses included, at their positions from initial.state or at
// rest); cell rows are input tetrahedra in the file's order, the 8^r cells mesh.refine = r makes
// of one following each other.
//   /mesh/geometry            N x 3 Float64: rest coordinates
//   /mesh/topology            C x 4 Int: each tetrahedron's vertices as rows of the geometry
//   /mesh/node_id             N Int: the node id of each row (point data "node_id")
//   /mesh/region              C Int: the physical tag of each cell (cell data "region")
//   /steps/<step, 6 digits>/  displacement, velocity (N x 3) and von_mises (C) for elasticity;
//                             u and du (N) for diffusion
// The HDF5 file is closed after each written step, then the index is replaced (a temporary and
// a rename), so it names only steps whose data is complete on disk. A restart continues the
// series: the steps at or after the checkpoint's leave the index and are written again.
#include "eis/io/output.hpp"

namespace eis {

OutputComponent xdmfOutputComponent();

}  // namespace eis
