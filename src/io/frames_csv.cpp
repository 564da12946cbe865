#include "eis/io/frames_csv.hpp"

#include <cstdio>

#include "eis/core/component_registry.hpp"
#include "eis/core/error.hpp"
#include "eis/io/output_file.hpp"

namespace eis {

void writeFramesCsv(const std::string& path, const std::vector<FramesState>& bodies,
                    MPI_Comm comm) {
  std::string failure;
  if (commRank(comm) == 0)
    failure = replaceFile("output.frames", path, [&](std::FILE* file) {
      std::fprintf(file, "object,frame,x,y,z,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz\n");
      for (const FramesState& body : bodies) {
        const std::size_t frames = body.x.size() / 7;
        for (std::size_t f = 0; f < frames; ++f) {
          std::fprintf(file, "%s,%zu", body.path.empty() ? "/" : body.path.c_str(), f);
          for (int c = 0; c < 7; ++c) std::fprintf(file, ",%.17g", body.x[7 * f + c]);
          for (int c = 0; c < 6; ++c) std::fprintf(file, ",%.17g", body.v[6 * f + c]);
          std::fprintf(file, "\n");
        }
      }
    });
  throwIfAnyRankFailed(failure, comm);
}

const ComponentDeclaration& framesOutputComponent() {
  static const ComponentDeclaration component{
      "rigid-frames", "output", "the last state of the rigid bodies' frames as CSV",
      ParameterSpec().add(
          {"output.frames", "PATH",
           "CSV of the rigid bodies' last state (rigid.frames), one row per frame:\n"
           "object,frame,x,y,z,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz (the body's node path, the frame's\n"
           "index, centre, orientation quaternion, linear and angular velocity in the world\n"
           "frame); 17 significant digits. A scene with rigid bodies writes them here only:\n"
           "the mesh outputs (output.final-state, output.vtk, ...) do not hold frames yet.",
           std::nullopt, "", false, check::anyText()}),
      nullptr};
  return component;
}

const RegisterComponent registered(955, framesOutputComponent);

}  // namespace eis
