#pragma once
// output.vtk and output.every: the ParaView time series (VtkSeriesWriter) as an Output, with
// the deformed positions as points and displacement, velocity and von Mises stress as data
// (elasticity), or the rest positions with u and du (diffusion).
#include "eis/io/output.hpp"

namespace eis {

OutputComponent vtkSeriesOutputComponent();

}  // namespace eis
