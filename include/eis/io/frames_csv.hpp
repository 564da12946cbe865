#pragma once
// output.frames: the last state of a scene's rigid bodies (model/rigid_body.hpp) as CSV, one row
// per frame: object,frame,x,y,z,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz (the centre, the orientation
// quaternion, the linear and angular velocities in the world frame), 17 significant digits.
#include <mpi.h>

#include <string>
#include <vector>

#include "eis/core/component.hpp"

namespace eis {

// One rigid body's frames, as rank 0 holds them: 7 coordinates and 6 velocities a frame.
struct FramesState {
  std::string path;  // the body's node path ("" for a scene of one body)
  std::vector<double> x, v;
};

// Collective: rank 0 writes the file whole (replaced, never left half-written); the error, if any,
// on every rank.
void writeFramesCsv(const std::string& path, const std::vector<FramesState>& bodies, MPI_Comm comm);

const ComponentDeclaration& framesOutputComponent();

}  // namespace eis
